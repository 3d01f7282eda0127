package browsertest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"

	"github.com/relurl/relurl/internal/clitest"
	"github.com/relurl/relurl/webencoding"
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

// chromiumLinks serves html (its bytes, in the encoding its <meta charset>
// declares) on loopback at the path /docs/guide/page.html, loads it in
// headless Chromium, and returns the page's URL and the URLs its script
// wrote into <pre id=out>, one a line. It skips the test when Debian's
// chromium package is not installed.
func chromiumLinks(t *testing.T, html string) (page string, links []string) {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("headless Chromium is not installed (apt-get install chromium)")
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, html)
	}))
	t.Cleanup(s.Close)
	page = s.URL + "/docs/guide/page.html"

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profile := t.TempDir()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--dump-dom", page)
	cmd.Stderr = io.Discard
	clitest.StopWithTest(cmd)
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	start := strings.Index(string(dom), `<pre id="out">`)
	end := strings.Index(string(dom), "</pre>")
	if start < 0 || end < start {
		t.Fatalf("no output in the page Chromium rendered:\n%s", dom)
	}
	out := strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(string(dom[start+len(`<pre id="out">`) : end]))
	return page, strings.Split(out, "\n")
}

// compareWithChromium runs relurl links with args on html as served at
// page and fails the test for each link where it differs from Chromium.
func compareWithChromium(t *testing.T, html, page string, browser []string, args ...string) {
	t.Helper()
	compareWithChromiumWarning(t, html, page, browser, "", args...)
}

// compareWithChromiumWarning is compareWithChromium where relurl warns,
// with what it must say on standard error.
func compareWithChromiumWarning(t *testing.T, html, page string, browser []string, warning string, args ...string) {
	t.Helper()
	r := relurlRun(t, in(html), append(append([]string{"links"}, args...), "-url", page, "-")...)
	check(t, r, "*", warning, 0)
	ours := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(ours) != len(browser) {
		t.Fatalf("relurl found %d links, Chromium %d:\nrelurl:\n%s\nChromium:\n%s", len(ours), len(browser), r.Stdout, strings.Join(browser, "\n"))
	}
	for i := range ours {
		if ours[i] != browser[i] {
			t.Errorf("link %d: relurl %v %q, Chromium %q", i+1, args, ours[i], browser[i])
		}
	}
}

// TestAgainstChromium checks that relurl links -spec 3986 resolves every
// link of a page exactly as Chromium does (where the page avoids what the
// URL Standard normalises beyond RFC 3986), and shows where RFC 1808 parts
// from them. It needs Debian's chromium package and skips without it.
func TestAgainstChromium(t *testing.T) {
	page, browser := chromiumLinks(t, browserPage)
	compareWithChromium(t, browserPage, page, browser, "-spec", "3986")
	compareWithChromium(t, browserPage, page, browser, "-spec", "whatwg")

	// RFC 1808 gives the browser's answer except where RFC 3986 changed the
	// rules: ";x" (no params any more), the ".." above the root and the dot
	// segments of absolute paths (Section 5.2 of RFC 1808), and "." and ".." after
	// params, which RFC 1808 leaves inside them: ";x", "../../../g", "/./g",
	// "/../g", "g;x=1/./y" and "g;x=1/../y".
	r := relurlRun(t, in(browserPage), "links", "-spec", "1808", "-url", page, "-")
	var differ []string
	for i, u := range strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n") {
		if i < len(browser) && u != browser[i] {
			differ = append(differ, strconv.Itoa(i+1))
		}
	}
	// Link 1 is the stylesheet; the anchors are numbered from 2.
	if got, want := strings.Join(differ, " "), "11 23 24 25 34 35"; got != want {
		t.Errorf("RFC 1808 differs from Chromium on links %s, want %s", got, want)
	}
}

// hardPage holds what the URL Standard does and the RFCs do not: host and
// scheme case, default ports, spaces and non-ASCII in paths, queries and
// fragments, IDN hosts, IPv4 in hex and short forms, IPv6, backslashes,
// "%2e" segments, "http:g", tabs and newlines inside values, opaque paths,
// non-special URLs, and a <base href> with spaces, against which all of
// them resolve. It has no file URLs: there Chromium, on Linux, departs from
// the Standard ("file:///C|/x" stays so, "file://localhost/x" keeps its
// host), and relurl follows the Standard, as the URL tests require.
const hardPage = "<!doctype html>\n<meta charset=utf-8>\n<title>hard cases</title>\n" +
	`<base href="/dir with space/Sub/">
<a href="g h">1</a> <a href="ü/é?ä=ö#ß">2</a> <a href="?q=a b'c&quot;d<e>">3</a> <a href="#f g&#96;h">4</a>
<a href="HTTP://EXAMPLE.COM:80/A">5</a> <a href="https://Example.com:443/">6</a> <a href="http://example.com:0080/x">7</a>
<a href="http://Bücher.example/">8</a> <a href="http://faß.de/">9</a> <a href="http://xn--bcher-kva.example/">10</a>
<a href="http://0x7f.1/">11</a> <a href="http://192.168.257/">12</a> <a href="http://[::FFFF:7F00:1]:8080/">13</a> <a href="http://[1:0:0:0:0:0:0:1]/">14</a>
<a href="..\g\h">15</a> <a href="\\Host\x">16</a> <a href="%2e%2E/x">17</a> <a href="a/.%2e/b">18</a> <a href="a/%2e/b">19</a>
<a href="http:g">20</a> <a href="HTTP:g">21</a> <a href="https:g">22</a> <a href="http:/g">23</a> <a href="http:\\x">24</a>
<a href="  g	i
j  ">25</a> <a href="h&#9;t&#10;tp://exa&#13;mple.com/">26</a> <a href="//user:p@ss@host/">27</a> <a href="//@host/">28</a>
<a href="mailto:Foo@Bar.COM">29</a> <a href="data:text/plain,a b">30</a> <a href="javascript:void(0)">31</a>
<a href="sc://Host/a b?c d#e f">32</a> <a href="sc:/x/../y">33</a> <a href="web+x://h/%2e/y">34</a>
<a href="ws://h:80/x'y">37</a> <a href="ftp://h:21/">38</a>
<a href="">39</a> <a href="?">40</a> <a href="#">41</a> <a href="/">42</a> <a href="//h">43</a> <a href="///g">44</a>
<a href="g?é#é">45</a> <a href="%zz">46</a> <a href="a%">47</a> <a href="&#127;">48</a> <a href="ｇ">49</a> <a href="http://ＥＸＡＭＰＬＥ.com/">50</a>
<img src="img/x y.png"> <img srcset="s%20a.png 1x, t.png 2x">
<pre id=out></pre>
<script>
const urls = [];
for (const el of document.querySelectorAll("a[href], img[src]")) {
  urls.push(el.href || el.src);
}
for (const el of document.querySelectorAll("img[srcset]")) {
  for (const c of el.getAttribute("srcset").split(",")) {
    urls.push(new URL(c.trim().split(/\s+/)[0], document.baseURI).href);
  }
}
document.getElementById("out").textContent = urls.join("\n");
</script>`

// TestAgainstChromiumWHATWG checks that relurl links -spec whatwg gives
// every link of a page of hard cases exactly as Chromium does.
func TestAgainstChromiumWHATWG(t *testing.T) {
	page, browser := chromiumLinks(t, hardPage)
	compareWithChromium(t, hardPage, page, browser, "-spec", "whatwg")
}

// legacyPage is a page in a legacy encoding, as its <meta> says: the
// queries of its links are encoded in it, a code point it lacks (U+1F600,
// and U+2212 in windows-1252; Shift_JIS takes U+2212 for U+FF0D) is sent
// as "&#N;", and paths and fragments stay UTF-8. It has no ws: or
// non-special URLs: their queries are UTF-8 by the Standard, and relurl
// follows it, where Chromium encodes them in the page's encoding too.
const legacyPage = `<!doctype html>
<meta charset=%s>
<title>legacy</title>
<a href="?q=%[2]s">1</a> <a href="%[2]s?q=%[2]s#%[2]s">2</a> <a href="?q=&#128512;">3</a>
<a href="?q=&#8722;">4</a> <a href="HTTP://h/p?%[2]s&amp;a b">5</a>
<pre id=out></pre>
<script>
document.getElementById("out").textContent = Array.from(document.querySelectorAll("a[href]"), a => a.href).join("\n");
</script>`

// TestAgainstChromiumLegacyEncodings checks that relurl links -spec whatwg
// encodes queries as Chromium does in windows-1252 and Shift_JIS pages.
func TestAgainstChromiumLegacyEncodings(t *testing.T) {
	windows1252, _, err := webencoding.Get("windows-1252")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		charset, text string
		enc           encoding.Encoding
	}{
		// U+0081 is the byte 0x81, which x/text's table lacks and the
		// Encoding Standard's index maps: %81 in a query, %C2%81 elsewhere.
		{"windows-1252", "café€\u0081\u009d", windows1252},
		{"shift_jis", "日本", japanese.ShiftJIS},
	} {
		t.Run(tt.charset, func(t *testing.T) {
			page, err := tt.enc.NewEncoder().String(fmt.Sprintf(legacyPage, tt.charset, tt.text))
			if err != nil {
				t.Fatal(err)
			}
			url, browser := chromiumLinks(t, page)
			compareWithChromium(t, page, url, browser, "-spec", "whatwg")
		})
	}
}

// collectJS defines collect(d), which returns every URL of the HTML
// elements of the document d as Chromium resolves it, element by element in
// document order and attribute by attribute in source order, as relurl
// links gives them: href, src, action, formaction, an object's data, a
// video's poster and the cite of a quote or an edit by the elements' own
// properties; the lists of ping, srcset and imagesrcset, and CSS's url()
// and @import (kept relative by CSSOM's serialization), by new URL against
// d.baseURI; an SVG <a> or <image>, its href or else its xlink:href (SVG
// 2's rule), and the background of a body or a table's parts (the image
// Chromium fetches), by new URL too. A MathML <a> is not an HTML element, and a
// <frame> outside <frameset> is not in the document at all.
const collectJS = `function collect(d) {
  const urls = [], abs = u => new URL(u, d.baseURI).href;
  const cssURLs = text => Array.from(text.matchAll(/url\("((?:[^"\\]|\\.)*)"\)/g), m => abs(m[1].replace(/\\(.)/g, "$1")));
  for (const el of d.querySelectorAll("*")) {
    if (el.namespaceURI === "http://www.w3.org/2000/svg" && ["a", "image"].includes(el.localName)) {
      const v = el.getAttribute("href") ?? el.getAttributeNS("http://www.w3.org/1999/xlink", "href");
      if (v !== null) urls.push(abs(v));
      continue;
    }
    if (el.namespaceURI !== "http://www.w3.org/1999/xhtml" || el.id === "out") continue;
    if (el.localName === "iframe" && el.hasAttribute("srcdoc") && el.contentDocument) urls.push(...collect(el.contentDocument));
    if (el.localName === "style") {
      if (el.sheet) for (const r of el.sheet.cssRules) urls.push(...cssURLs(r.cssText));
      continue;
    }
    for (const a of el.attributes) {
      switch (a.name) {
      case "href": if (["a", "area", "link"].includes(el.localName)) urls.push(el.href); break;
      case "src": if (el.localName !== "input" || el.type === "image") urls.push(el.src); break;
      case "action": urls.push(el.action); break;
      case "formaction": if (el.type === "submit" || el.type === "image") urls.push(el.formAction); break; // what a submit uses
      case "ping": for (const t of a.value.split(/[ \t\n\f\r]+/).filter(Boolean)) urls.push(abs(t)); break;
      case "srcset": case "imagesrcset": for (const c of a.value.split(",")) urls.push(abs(c.trim().split(/\s+/)[0])); break;
      case "style": urls.push(...cssURLs(el.style.cssText)); break;
      case "data": if (el.localName === "object") urls.push(el.data); break;
      case "poster": if (el.localName === "video") urls.push(el.poster); break;
      case "cite": if (["blockquote", "q", "del", "ins"].includes(el.localName)) urls.push(el.cite); break;
      case "background": if (["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"].includes(el.localName)) urls.push(abs(a.value)); break;
      }
    }
  }
  return urls;
}`

// collectScript writes into <pre id=out> what collect gives for the page.
const collectScript = `<pre id=out></pre>
<script>
` + collectJS + `
document.getElementById("out").textContent = collect(document).join("\n");
</script>`

// kindsPage holds the link kinds beyond href and src, and the HTML rules
// that decide which links a page has: an empty form action and formaction
// (the document's URL, not the base), submit buttons' formaction, an image
// input's src, ping, imagesrcset, CSS in <style> and style attributes, an
// <a> inside <math>, <frame> outside <frameset>, and SVG's links.
const kindsPage = "<!doctype html>\n<meta charset=utf-8>\n<title>kinds</title>\n" +
	`<base href="/base/dir/">
<style>@import "i.css"; @import url(j.css) screen; .a { background: url( "k\"l.png" ) } .b { background: URL(m\28 1\29.png) } .c { background-image: image-set("n.png" 1x, url(o.png) 2x) }</style>
<link rel=preload as=image imagesrcset="a.png 1x, b%20c.png 2x" href=pre.png>
<form action=""><button formaction>1</button><button type=button formaction=no>2</button><input type=submit formaction=" sub "><input type=image src="img/go.png" formaction="?img"></form>
<form action="?x"></form>
<a href=p1 ping="/track?p=1 ../t2">x</a> <area href=ar ping=t3>
<div style="background:url('p q.png')">d</div> <p style="color: red">p</p>
<math><a href=math-a>m</a><mi>x</mi></math> <a href=after-math>a</a>
<frame src=stray-frame.html>
<svg><a href="svg-a">s</a><a xlink:href="svg-xlink">x</a><image xlink:href="../svg-image.png"/><image href="svg-href.png" xlink:href="not-this.png"/><script href="svg-script.js"></script></svg>
<input type=submit src=not-image.png formaction="?submit">
` + collectScript

// TestAgainstChromiumKinds checks every kind of link and the rules above
// against Chromium, with -spec whatwg.
func TestAgainstChromiumKinds(t *testing.T) {
	page, browser := chromiumLinks(t, kindsPage)
	compareWithChromium(t, kindsPage, page, browser, "-spec", "whatwg")
}

// TestAgainstChromiumBase checks the document's frozen base URL: a first
// <base href> of data: or javascript: leaves the document its own URL, and
// so does one that fails to parse, whatever comes after it. There Chromium
// 156 parts from the HTML standard, which relurl follows: it makes the
// base about:blank, so its relative links do not resolve and a.href is the
// value as written.
func TestAgainstChromiumBase(t *testing.T) {
	const ignored = "; ignored, as HTML says: the document's URL is its base\n"
	for _, tt := range []struct {
		name, base, warning string
		chromium            func(page string) []string // Chromium's known difference, if any
	}{
		{"data", `<base href="data:text/html,hello">`, "relurl links: warning: <base href> of a data: URL ignored, as HTML says: the document's URL is its base\n", nil},
		{"javascript", `<base href="javascript:alert(1)">`, "relurl links: warning: <base href> of a javascript: URL ignored, as HTML says: the document's URL is its base\n", nil},
		{"unparsable", `<base href="http://[bad/"><base href="http://other.example/">`,
			`relurl links: warning: html-base "http://[bad/": parse "http://[bad/": offset 7: IPv6-unclosed (an IPv6 address has no closing bracket)` + ignored,
			func(string) []string { return []string{"g", "../h?q"} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := "<!doctype html>\n" + tt.base + "\n<a href=g>1</a> <a href='../h?q'>2</a>\n" + collectScript
			page, browser := chromiumLinks(t, doc)
			if tt.chromium != nil {
				if want := tt.chromium(page); strings.Join(browser, " ") != strings.Join(want, " ") {
					t.Errorf("Chromium's known difference changed: it gives %q, no longer %q", browser, want)
				}
				dir := page[:strings.LastIndex(page, "/")+1]
				browser = []string{dir + "g", dir[:strings.LastIndex(dir[:len(dir)-1], "/")+1] + "h?q"}
			}
			compareWithChromiumWarning(t, doc, page, browser, tt.warning, "-spec", "whatwg")
		})
	}
}
