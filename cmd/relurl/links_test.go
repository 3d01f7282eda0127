package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const documents = "../../testdata/documents/"

func TestLinksFiles(t *testing.T) {
	tests := []cliTest{
		{"the RFC's appendix", "", []string{"links", documents + "rfc1808-appendix.html"},
			"http://www.ics.uci.edu/Test/a/x\n", "", 0},
		{"retrieval URL", "", []string{"links", "-url", "http://r.example/d/doc.html", documents + "no-base.html"},
			"http://r.example/d/page2.html\nhttps://example.org/\nhttp://r.example/d/doc.html#top\n", "", 0},
		{"no base", "", []string{"links", "-file-urls=false", documents + "no-base.html"},
			"https://example.org/\n", "relurl links: 2 relative links left unresolved: the document has no base URL (give -url)\n", 0},
		{"relative base", "", []string{"links", "-spec", "1808", "-url", "http://r.example/a/b/doc", documents + "base-relative.html"},
			"http://r.example/a/docs/intro.html\nhttp://r.example/logo.png\n",
			"relurl links: warning: relative html-base \"../docs/\" resolved against the retrieval base http://r.example/a/b/doc\n", 0},
		{"standard input, sniffed as HTML", `<base href="http://b.example/x/"><a href="y">`, []string{"links", "-"},
			"http://b.example/x/y\n", "", 0},
		{"standard input, sniffed as a message", "Content-Type: text/html\r\nContent-Base: http://cb.example/\r\n\r\n<a href=z>", []string{"links", "-"},
			"http://cb.example/z\n", "", 0},
		{"-type html on a message", "Content-Type: text/html\r\n\r\n<a href=z>", []string{"links", "-type", "html", "-url", "http://u/", "-"},
			"http://u/z\n", "", 0},
		{"-elements", "", []string{"links", "-elements", "img,video", documents + "elements.html"},
			"http://base.example/dir/sub/img/a.png\nhttp://base.example/dir/sub/img/a-2x.png\nhttp://base.example/dir/sub/img/a,3x.png\n" +
				"http://base.example/dir/sub/img/b.png\nhttp://base.example/dir/sub/media/v.webm\nhttp://base.example/dir/sub/img/poster.jpg\n", "", 0},
		{"message with a Base header", "", []string{"links", documents + "base-header.eml"},
			"http://mail.example/news/2026/story.html\nhttp://mail.example/news/img/long-name-for-soft-break.png\n", "", 0},
		{"broken boundary", "", []string{"links", documents + "broken-boundary.eml"},
			"http://cut.example/a/one.html\nhttp://cut.example/b/two.html\nhttp://cut.example/b/three.html\n",
			"relurl links: warning: part 2: the input ends inside this part: the multipart has no closing boundary\n", 0},
		{"-max-size", "", []string{"links", "-max-size", "60", "-url", "http://u/", documents + "no-base.html"},
			"", "relurl links: " + documents + "no-base.html is larger than the size limit of 60 bytes: links from its first 60 bytes only\n", 1},
		{"-max-depth", "", []string{"links", "-max-depth", "1", documents + "precedence.eml"},
			"*", "*part 5: MIME parts nested deeper than 1\n", 1},
		{"base of HTML", "", []string{"base", documents + "rfc1808-appendix.html"},
			"http://www.ics.uci.edu/Test/a/b/c\thtml-base\n", "", 0},
		{"base of nothing", "", []string{"base", "-file-urls=false", documents + "no-base.html"}, "(none)\tnone\n", "", 0},
		{"base of a message", "", []string{"base", "-url", "http://r/", documents + "no-header-base.eml"},
			"2\thttp://r/\tencapsulating\n", "", 0},

		{"missing file", "", []string{"links", "nonexistent.html"}, "", "relurl links: open nonexistent.html: no such file or directory\n", 1},
		{"no document", "", []string{"links"}, "", "relurl links: want a DOCUMENT (a file, a directory, - or a URL), or -files…", 2},
		{"unknown element", "", []string{"links", "-elements", "blink", "x"}, "", "relurl links: -elements: \"blink\" is not one of…", 2},
		{"bad -type", "", []string{"links", "-type", "pdf", documents + "no-base.html"}, "", "relurl links: -type \"pdf\": want html, message, markdown, text, xml or auto\nusage: relurl links…", 2},
		// A redirect is a format of links.Doc, an HTTP response's, and no
		// type of document.
		{"-type redirect", "", []string{"links", "-type", "redirect", documents + "no-base.html"}, "", "relurl links: -type \"redirect\": want html, message, markdown, text, xml or auto\nusage: relurl links…", 2},
		{"-h", "", []string{"links", "-h"}, "usage: relurl links…", "", 0},

		// Link records: -fields, -unique, -no-fragment, -scope.
		{"-fields with escapes", "<a href='x\ty' rel=Next>a\tb</a><a href=z>", []string{"links", "-url", "http://h/", "-fields", "ref,url,rel,text,host", "-"},
			"x%09y\thttp://h/xy\tnext\ta b\th\nz\thttp://h/z\t\t\th\n", "", 0},
		{"-unique counts a URL once a document", "<a href=a#1></a><a href=a#2></a><a href=a#1></a>", []string{"links", "-url", "http://h/", "-unique", "-"},
			"http://h/a#1\nhttp://h/a#2\n", "", 0},
		{"-unique after -no-fragment", "<a href=a#1></a><a href=a#2></a>", []string{"links", "-url", "http://h/", "-unique", "-no-fragment", "-"},
			"http://h/a\n", "", 0},
		{"-scope external", "<a href=/in></a><a href=http://www.h.co.uk/in></a><a href=http://x.co.uk/out></a><a href=mailto:m@h.co.uk></a>", []string{"links", "-url", "http://h.co.uk/", "-scope", "external", "-"},
			"http://x.co.uk/out\nmailto:m@h.co.uk\n", "", 0},
		{"-scope and unresolved links", "<a href=rel></a><a href=http://a/></a>", []string{"links", "-scope", "internal", "-"},
			"", "relurl links: 1 relative link left unresolved: the document has no base URL (give -url)\n", 0},
		{"bad -fields", "", []string{"links", "-fields", "url,bogus", "x"}, "", "relurl links: -fields: \"bogus\" is not one of source,url,…", 2},
		{"bad -scope", "", []string{"links", "-scope", "site", "x"}, "", "relurl links: -scope \"site\": want internal or external…", 2},
		{"-json and -fields", "", []string{"links", "-json", "-fields", "url", "x"}, "", "relurl links: -format, -json, -tsv and -fields exclude each other…", 2},
	}
	runCLITests(t, tests)
}

func TestLinksJSON(t *testing.T) {
	r := relurlRun(t, nil, "links", "-json", "-url", "http://r.example/", documents+"precedence.eml")
	check(t, r, "*", "*", 1) // part 6 is lost: an encoding nobody decodes
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, m)
	}
	want := []map[string]any{
		{"url": "http://html.example/p1/a.html", "ref": "a.html", "base": "http://html.example/p1/", "base_from": "html-base", "element": "a", "attribute": "href", "part": "1"},
		{"url": "http://cb.example/p2/b.html", "base_from": "content-base", "part": "2"},
		{"url": "http://top.example/archive/pages/c.html", "base_from": "content-location", "part": "3"},
		{"url": "http://top.example/archive/d.html", "base_from": "encapsulating", "part": "4"},
		{"url": "http://fwd.example/x/inner.html", "base": "http://fwd.example/x/y", "base_from": "encapsulating", "part": "5.1"},
		{"url": "http://top.example/archive/f.html", "base_from": "encapsulating", "part": "7"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d links, want %d:\n%s", len(got), len(want), r.stdout)
	}
	for i := range want {
		for k, v := range want[i] {
			if got[i][k] != v {
				t.Errorf("link %d: %s = %#v, want %#v", i+1, k, got[i][k], v)
			}
		}
	}

	r = relurlRun(t, nil, "links", "-json", "-file-urls=false", documents+"no-base.html")
	var first map[string]any
	json.Unmarshal([]byte(strings.SplitN(r.stdout, "\n", 2)[0]), &first)
	if first["url"] != nil || first["base"] != nil || first["base_from"] != "none" || first["part"] != nil || first["ref"] != "page2.html" {
		t.Errorf("unresolved link: %v", first)
	}
}

// TestLinksHTTP fetches over real HTTP on loopback: redirects, a loop, a
// slow server, errors, and the HTTP rules for Content-Location.
func TestLinksHTTP(t *testing.T) {
	released := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/old", http.RedirectHandler("/moved/", http.StatusMovedPermanently))
	mux.Handle("/moved/", http.RedirectHandler("/new/dir/page.html", http.StatusFound))
	mux.HandleFunc("/new/dir/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Location", "/elsewhere/page.html")
		io.WriteString(w, `<a href="../up.html">up</a> <img src="pic.png">`)
	})
	mux.HandleFunc("/based.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Base", "<URL:http://header.example/base/>")
		io.WriteString(w, `<a href="x">`)
	})
	mux.HandleFunc("/archive.mht", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", `multipart/related; boundary="b"`)
		io.WriteString(w, "--b\r\nContent-Type: text/html\r\nContent-Location: part/one.html\r\n\r\n<a href=\"two.html\">2</a>\r\n--b--\r\n")
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	})
	mux.Handle("/loop", http.RedirectHandler("/loop", http.StatusFound))
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-released:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	s := httptest.NewServer(mux)
	defer s.Close()
	defer close(released)

	tests := []cliTest{
		{"redirects: the last URL is the base", "", []string{"links", s.URL + "/old"},
			s.URL + "/new/up.html\n" + s.URL + "/new/dir/pic.png\n", "", 0},
		{"-v shows the redirects", "", []string{"links", "-v", s.URL + "/old"}, "*",
			"relurl: redirected: " + s.URL + "/old -> " + s.URL + "/moved/ -> " + s.URL + "/new/dir/page.html\n", 0},
		{"-content-location", "", []string{"links", "-content-location", s.URL + "/new/dir/page.html"},
			s.URL + "/up.html\n" + s.URL + "/elsewhere/pic.png\n",
			"relurl links: warning: relative content-location \"/elsewhere/page.html\" resolved against the retrieval base " + s.URL + "/new/dir/page.html\n", 0},
		{"a Base header over HTTP", "", []string{"links", s.URL + "/based.html"}, "http://header.example/base/x\n", "", 0},
		{"multipart over HTTP", "", []string{"links", s.URL + "/archive.mht"}, s.URL + "/part/two.html\n",
			"relurl links: warning: part 1: relative content-location \"part/one.html\" resolved against the encapsulating base " + s.URL + "/archive.mht\n", 0},
		{"not HTML", "", []string{"links", s.URL + "/data.json"}, "", "relurl links: warning: " + s.URL + "/data.json is application/json, not HTML: no links\n" +
			"relurl links: 0 documents, 0 links, 0.0 MB; skipped, giving no links: payload 1\nrelurl links: no document read\n", exitFailed},
		{"404", "", []string{"links", s.URL + "/nothing"}, "", "relurl links: GET " + s.URL + "/nothing: 404 Not Found\n", 1},
		{"redirect loop", "", []string{"links", s.URL + "/loop"}, "", "relurl links: GET " + s.URL + "/loop: stopped after 10 redirects, at " + s.URL + "/loop, which redirects to " + s.URL + "/loop: a loop, or a longer chain\n", 1},
		{"-max-redirects", "", []string{"links", "-max-redirects", "1", s.URL + "/old"}, "", "relurl links: GET " + s.URL + "/old: stopped after 1 redirects, at " + s.URL + "/moved/, which redirects to " + s.URL + "/new/dir/page.html: a loop, or a longer chain\n", 1},
		{"slow server", "", []string{"links", "-timeout", "300ms", s.URL + "/slow"}, "", "relurl links: GET " + s.URL + "/slow: no complete answer within 300ms…", 1},
		{"-url with a fetched URL", "", []string{"links", "-url", "http://x/", s.URL + "/old"}, "", "relurl links: -url is for a single file or standard input…", 2},
		{"base over HTTP", "", []string{"base", s.URL + "/old"}, s.URL + "/new/dir/page.html\tretrieval\n", "*", 0},
	}
	runCLITests(t, tests)
}

// TestLocalTreeAlike: links and check resolve a local tree's relative
// links alike, with no flag: each file's base is its file: URL, as a
// browser opening it has ("793 relative links left unresolved", exit 0,
// was links' answer where check's was every link resolved).
func TestLocalTreeAlike(t *testing.T) {
	dir := tree(t, map[string]string{
		"index.html":    `<a href="guide/a.html">a</a> <a href="gone.html">gone</a>`,
		"guide/a.html":  `<a href="../index.html#top">up</a>`,
		"guide/b.md":    "[a](a.html)\n",
		"notes/x.txt":   "see https://example.org/\n",
		"assets/s.css":  "",
		"assets/s.keep": "",
	})
	r := relurlRun(t, nil, "links", "-tsv", dir)
	if r.code != 0 || strings.Contains(r.stderr, "unresolved") {
		t.Fatalf("links: exit %d, %s", r.code, r.stderr)
	}
	fromLinks := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		_, u, _ := strings.Cut(line, "\t")
		fromLinks[u] = true
	}
	r = relurlRun(t, nil, "check", "-offline", "-json", dir)
	fromCheck := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var l struct{ URL string }
		json.Unmarshal([]byte(line), &l)
		fromCheck[l.URL] = true
	}
	base := "file://" + filepath.ToSlash(dir) + "/"
	for _, u := range []string{base + "guide/a.html", base + "gone.html", base + "index.html#top", base + "guide/a.html"} {
		if !fromLinks[u] || !fromCheck[u] {
			t.Errorf("%s: from links %v, from check %v", u, fromLinks[u], fromCheck[u])
		}
	}
	if len(fromLinks) != len(fromCheck) {
		t.Errorf("links resolved %d URLs, check %d:\n%v\n%v", len(fromLinks), len(fromCheck), fromLinks, fromCheck)
	}
}
