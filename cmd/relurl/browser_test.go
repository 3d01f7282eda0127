package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// browserPage is served on loopback to headless Chromium and to relurl. Its
// script writes, for each link element, the URL the browser resolved, in
// document order, into <pre id=out>. The links avoid what browsers
// normalise beyond RFC 3986 (host case, escaping, an empty path after a
// host), so that the two must agree exactly; the <base> comes after some
// links, which it governs all the same.
const browserPage = `<!doctype html>
<html><head><title>links</title>
<link rel=stylesheet href="../css/site.css">
</head><body>
<a href="g">1</a> <a href="./g">2</a> <a href="g/">3</a> <a href="/g">4</a>
<a href="?y">5</a> <a href="g?y">6</a> <a href="#s">7</a> <a href="g#s">8</a>
<a href="g?y#s">9</a> <a href=";x">10</a> <a href="g;x">11</a> <a href="g;x?y#s">12</a>
<a href=".">13</a> <a href="./">14</a> <a href="..">15</a> <a href="../">16</a>
<a href="../g">17</a> <a href="../..">18</a> <a href="../../">19</a> <a href="../../g">20</a>
<a href="">21</a> <a href="../../../g">22</a> <a href="/./g">23</a> <a href="/../g">24</a>
<a href="g.">25</a> <a href=".g">26</a> <a href="g..">27</a> <a href="..g">28</a>
<a href="./../g">29</a> <a href="./g/.">30</a> <a href="g/./h">31</a> <a href="g/../h">32</a>
<a href="g;x=1/./y">33</a> <a href="g;x=1/../y">34</a> <a href="g?y/./x">35</a> <a href="g#s/../x">36</a>
<base href="http://a.example/b/c/d;p?q">
<base href="http://ignored.example/">
<img src="img/x.png"> <script src="../js/app.js"></script>
<form action="?search"></form> <blockquote cite="/quotes/1">q</blockquote>
<iframe src="frame.html"></iframe> <object data="obj.svg"></object>
<pre id=out></pre>
<script>
const urls = [];
for (const el of document.querySelectorAll("a[href], link[href], img[src], script[src], form[action], blockquote[cite], iframe[src], object[data]")) {
  urls.push(el.href || el.src || el.action || el.cite || el.data);
}
document.getElementById("out").textContent = urls.join("\n");
</script>
</body></html>`

// TestAgainstChromium checks that relurl links -rfc 3986 resolves every
// link of a page exactly as Chromium does (browsers follow RFC 3986's
// algorithm, as the WHATWG URL standard restates it), and shows where
// RFC 1808 parts from them. It needs Debian's chromium package and skips
// without it.
func TestAgainstChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("headless Chromium is not installed (apt-get install chromium)")
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, browserPage)
	}))
	defer s.Close()
	page := s.URL + "/docs/guide/page.html"

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profile := t.TempDir()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--dump-dom", page)
	cmd.Stderr = io.Discard
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	start := strings.Index(string(dom), `<pre id="out">`)
	end := strings.Index(string(dom), "</pre>")
	if start < 0 || end < start {
		t.Fatalf("no output in the page Chromium rendered:\n%s", dom)
	}
	browser := strings.Split(strings.ReplaceAll(string(dom[start+len(`<pre id="out">`):end]), "&amp;", "&"), "\n")

	r := relurlRun(t, in(browserPage), "links", "-rfc", "3986", "-url", page, "-")
	check(t, r, "*", "", 0)
	ours := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(ours) != len(browser) {
		t.Fatalf("relurl found %d links, Chromium %d:\nrelurl:\n%s\nChromium:\n%s", len(ours), len(browser), r.stdout, strings.Join(browser, "\n"))
	}
	for i := range ours {
		if ours[i] != browser[i] {
			t.Errorf("link %d: relurl -rfc 3986 %q, Chromium %q", i+1, ours[i], browser[i])
		}
	}

	// RFC 1808 gives the browser's answer except where RFC 3986 changed the
	// rules: ";x" (no params any more), the ".." above the root and the dot
	// segments of absolute paths (Section 5.2 of RFC 1808), and "." and ".." after
	// params, which RFC 1808 leaves inside them: ";x", "../../../g", "/./g",
	// "/../g", "g;x=1/./y" and "g;x=1/../y".
	r = relurlRun(t, in(browserPage), "links", "-url", page, "-")
	var differ []string
	for i, u := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if i < len(browser) && u != browser[i] {
			differ = append(differ, strconv.Itoa(i+1))
		}
	}
	// Link 1 is the stylesheet; the anchors are numbered from 2.
	if got, want := strings.Join(differ, " "), "11 23 24 25 34 35"; got != want {
		t.Errorf("RFC 1808 differs from Chromium on links %s, want %s", got, want)
	}
}
