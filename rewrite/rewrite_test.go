package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/links"
)

const page = "https://old.example/docs/guide/x.html"

// TestDocument: each rule of rewriting, a document of its own; only the
// bytes of the values that change are written.
func TestDocument(t *testing.T) {
	rel := Rewriter{Relative: []string{"https://old.example/docs/"}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	abs := Rewriter{Absolute: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	move := Rewriter{Moves: []Move{{"https://old.example/docs/", "https://new.example/manual/"}}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	drop := rel
	drop.DropBase = true
	tests := []struct {
		name string
		o    Rewriter
		in   string
		want string
	}{
		{"absolute links in scope become relative", rel,
			`<a href="https://old.example/docs/guide/y.html">y</a> <A HREF='https://old.example/docs/index.html#top'>i</A>`,
			`<a href="y.html">y</a> <A HREF='../index.html#top'>i</A>`},
		{"absolute links outside the scope are left as they are", rel,
			`<a href="https://elsewhere.example/a">a</a><a href="//elsewhere.example/b">b</a>`,
			`<a href="https://elsewhere.example/a">a</a><a href="//elsewhere.example/b">b</a>`},
		{"relative links out of the scope become absolute, or they would move with the tree", rel,
			`<a href="../../other/b.html">b</a><a href="/c">c</a><a href="y.html">y</a>`,
			`<a href="https://old.example/other/b.html">b</a><a href="https://old.example/c">c</a><a href="y.html">y</a>`},
		{"a relative link already shortest stays, bytes and all", rel,
			`<a href = 'y.html' >y</a>`,
			`<a href = 'y.html' >y</a>`},
		{"a <base> in scope becomes relative, and the links against it", rel,
			`<base href="https://old.example/docs/"><a href="https://old.example/docs/api/z.html">z</a><a href="api/w.html">w</a>`,
			`<base href="../"><a href="api/z.html">z</a><a href="api/w.html">w</a>`},
		{"a base after the links still counts", rel,
			`<a href="https://old.example/docs/api/z.html">z</a><base href="https://old.example/docs/">`,
			`<a href="api/z.html">z</a><base href="../">`},
		{"-drop-base: the base goes, links are written against the document's URL", drop,
			`<head><base href="https://old.example/docs/"></head><a href="api/w.html">w</a><a href="https://x.example/">x</a>`,
			`<head></head><a href="../api/w.html">w</a><a href="https://x.example/">x</a>`},
		{"-drop-base: every <base> goes, or the next would set the base", drop,
			`<table><tr><td><base href="https://old.example/docs/a/"></td></tr><base href="https://old.example/docs/b/"></table><a href="x.html">x</a>`,
			`<table><tr><td></td></tr></table><a href="../b/x.html">x</a>`},
		{"the first <base> in tree order: foster parenting moves the second before the table", rel,
			`<table><tr><td><base href="https://old.example/docs/a/"></td></tr><base href="https://old.example/docs/b/"></table><a href="https://old.example/docs/b/x.html">x</a>`,
			`<table><tr><td><base href="../a/"></td></tr><base href="../b/"></table><a href="x.html">x</a>`},
		{"a <base> in an HTML integration point counts; one in SVG does not", rel,
			`<svg><foreignObject><base href="https://cdn.example/x/"></foreignObject><desc><p>d</p></desc><base href="https://old.example/docs/"></svg><a href="https://old.example/docs/t.html">t</a>`,
			`<svg><foreignObject><base href="https://cdn.example/x/"></foreignObject><desc><p>d</p></desc><base href="https://old.example/docs/"></svg><a href="https://old.example/docs/t.html">t</a>`},
		{"links from the root or with the host become relative paths, which move with the tree", rel,
			`<img src="/docs/guide/i.png"><a href="//old.example/docs/index.html">i</a><a href="/other.html">o</a>`,
			`<img src="i.png"><a href="../index.html">i</a><a href="https://old.example/other.html">o</a>`},
		{"script and textarea after an unclosed <svg> are left alone", abs,
			`<div><svg></div><script>var s = '<a href="js.html">';</script><textarea><a href="t.html"></textarea><a href="r.html">r</a>`,
			`<div><svg></div><script>var s = '<a href="js.html">';</script><textarea><a href="t.html"></textarea><a href="https://old.example/docs/guide/r.html">r</a>`},
		{"srcset, candidate by candidate, descriptors kept", rel,
			`<img srcset="https://old.example/docs/a.png 1x, https://old.example/docs/b,c.png 2x,  https://cdn.example/d.png 3x">`,
			`<img srcset="../a.png 1x, ../b,c.png 2x,  https://cdn.example/d.png 3x">`},
		{"entities decoded, & written as &amp;", rel,
			`<a href="https://old.example/docs/q?a=1&amp;b=2">q</a><a href=https://old.example/docs/r?a&b>r</a>`,
			`<a href="../q?a=1&amp;b=2">q</a><a href=../r?a&amp;b>r</a>`},
		{"an unquoted value that needs quotes gains them", abs,
			`<a href=x.html>x</a>`,
			`<a href=https://old.example/docs/guide/x.html>x</a>`},
		{"single quotes are kept, a quote in the value escaped", abs,
			`<a href='it&#39;s.html'>x</a>`,
			`<a href='https://old.example/docs/guide/it&#39;s.html'>x</a>`},
		{"CSS in a style attribute and a <style>, only their tokens", rel,
			`<p style="background: url(https://old.example/docs/bg.png) no-repeat">` +
				"<style>\r\n@import 'https://old.example/docs/s.css';\r\nb { x: URL( \"https://old.example/docs/i\\).png\" ) }</style>",
			`<p style="background: url(../bg.png) no-repeat">` +
				"<style>\r\n@import '../s.css';\r\nb { x: URL( \"../i).png\" ) }</style>"},
		{"an input's kept link is rewritten at its own value, not at the one dropped before it", abs,
			`<input type=submit src=img/not-image.png formaction="?go">`,
			`<input type=submit src=img/not-image.png formaction="https://old.example/docs/guide/x.html?go">`},
		{"CSS escapes in url() are decoded, the URL written plain", abs,
			`<p style="background: url(a\28 b\29.png)">`,
			`<p style="background: url(&quot;https://old.example/docs/guide/a(b).png&quot;)">`},
		{"meta refresh: the URL part alone", rel,
			`<meta http-equiv="refresh" content="5; url='https://old.example/docs/next.html'">`,
			`<meta http-equiv="refresh" content="5; url='../next.html'">`},
		{"form action, formaction, ping, cite", rel,
			`<form action="https://old.example/docs/s"><button formaction="https://old.example/docs/t">b</button></form><a href=x.html ping="https://old.example/docs/p https://t.example/">a</a>`,
			`<form action="../s"><button formaction="../t">b</button></form><a href=x.html ping="../p https://t.example/">a</a>`},
		{"links in comments and scripts are text", rel,
			`<!-- <a href="https://old.example/docs/c"> --><script>var a = '<a href="https://old.example/docs/s">'</script>`,
			`<!-- <a href="https://old.example/docs/c"> --><script>var a = '<a href="https://old.example/docs/s">'</script>`},
		{"a <template>'s links are rewritten, as they will be live", rel,
			`<template><a href="https://old.example/docs/t.html">t</a></template>`,
			`<template><a href="../t.html">t</a></template>`},
		{"-move: a target in the moved tree is relative, one that leaves it absolute", move,
			`<a href="https://old.example/docs/api/z.html">z</a><a href="../../blog/">blog</a><a href="y.html">y</a>`,
			`<a href="../api/z.html">z</a><a href="https://old.example/blog/">blog</a><a href="y.html">y</a>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := tt.o.Document([]byte(tt.in), links.Retrieved(page))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			// Idempotent: the output rewritten again is the output.
			again, _, err := tt.o.Document(got, links.Retrieved(page))
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("rewritten again: %s (%v)", again, err)
			}
		})
	}
}

// The links of a document rewritten -absolute are those of the document:
// the same targets, in the same order.
func sameTargets(t *testing.T, in, out []byte, url string) {
	t.Helper()
	targets := func(doc []byte) []string {
		var got []string
		x := &links.Extractor{Options: links.Options{Template: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}}
		x.Extract(bytes.NewReader(doc), links.Doc{Format: links.FormatHTML, Base: links.Retrieved(url)}, &links.Handler{Link: func(l *links.Link) error {
			got = append(got, string(l.URL))
			return nil
		}})
		return got
	}
	a, b := targets(in), targets(out)
	same := len(a) == len(b)
	for i := 0; same && i < len(a); i++ {
		// A link the URL parser refused against its base has no target
		// to keep: once -drop-base removes a base such as "a:", it may
		// come to resolve against the document's URL.
		same = a[i] == b[i] || a[i] == ""
	}
	if !same {
		t.Errorf("targets of\n%q\n%q\nrewritten\n%q\n%q", in, a, out, b)
	}
}

// FuzzDocument: for any document, rewriting with -absolute and with
// -relative keeps every link's target, and rewriting the output again
// changes nothing.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{
		`<a href="https://old.example/docs/a">a</a><base href="../"><img srcset="b 1x, c 2x">`,
		`<p style="x:url(a) url('b')"><style>@import "c";</style><meta http-equiv=refresh content="0;url=d">`,
		`<a href=x&amp;y ping="p q">`, `<base href="https://old.example/docs/"><a href=#f>`,
		`<base href="https://old.example/docs/sub/"><iframe srcdoc="<a href=x>x</a><base href='d/'><iframe srcdoc='<a href=&quot;y&quot;>'></iframe>"></iframe>`,
	} {
		f.Add(s)
	}
	opts := []Rewriter{
		{Absolute: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}},
		{Relative: []string{"https://old.example/"}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}},
		{Relative: []string{"https://old.example/"}, DropBase: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}},
	}
	f.Fuzz(func(t *testing.T, doc string) {
		for _, o := range opts {
			out, _, err := o.Document([]byte(doc), links.Retrieved(page))
			if err != nil {
				return // an encoding that does not round-trip
			}
			sameTargets(t, []byte(doc), out, page)
			again, _, err := o.Document(out, links.Retrieved(page))
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("%q\nrewritten %q\nagain     %q (%v)", doc, out, again, err)
			}
		}
	})
}

// TestSrcdoc: the document of an <iframe srcdoc> is rewritten as one whose
// base is its container's, nested ones too, and written back into the
// attribute escaped as its quotes need; with -drop-base, against the
// container's own URL.
func TestSrcdoc(t *testing.T) {
	doc := `<base href="https://old.example/docs/sub/"><iframe srcdoc="<a href=&quot;x.html&quot;>x</a><base href='d/'>` +
		`<iframe srcdoc='<a href=&amp;quot;../../y.html&amp;quot;>'></iframe>"></iframe>`
	for _, tt := range []struct {
		o    Rewriter
		want string
	}{
		// The srcdoc's links still reach from the base the <base> keeps.
		{Rewriter{Relative: []string{"https://old.example/"}},
			`<base href="../sub/">` + doc[len(`<base href="https://old.example/docs/sub/">`):]},
		// Without the <base>, the first srcdoc falls back on the page's
		// URL, and the one inside it on that too once its own <base> is
		// gone; the inner value, in single quotes, is written with double
		// quotes, which the outer value escapes.
		{Rewriter{Relative: []string{"https://old.example/"}, DropBase: true},
			`<iframe srcdoc="<a href=&quot;../sub/d/x.html&quot;>x</a>` +
				`<iframe srcdoc='<a href=&quot;../y.html&quot;>'></iframe>"></iframe>`},
		{Rewriter{Moves: []Move{{"https://old.example/docs/", "https://new.example/"}}},
			`<base href="../sub/">` + doc[len(`<base href="https://old.example/docs/sub/">`):]},
	} {
		tt.o.Resolver = &relurl.Resolver{Spec: relurl.WHATWG}
		got, res, err := tt.o.Document([]byte(doc), links.Retrieved(page))
		if err != nil || string(got) != tt.want {
			t.Errorf("%+v:\ngot  %s (%v)\nwant %s", tt.o, got, err, tt.want)
		}
		if res.Links != 4 {
			t.Errorf("%+v: %d links, want 4 (the <base> elements, x and y)", tt.o, res.Links)
		}
		sameTargets(t, []byte(doc), got, page)
	}
}

// TestDropBaseEdges: what removing a <base> must not do. A link the base
// could not resolve (an opaque "a:") is written as the link it becomes
// against the page's URL, so that a second -drop-base changes nothing; a
// "<" of the text before the <base> stays text, instead of opening a tag
// with what follows. Both found by FuzzDocument.
func TestDropBaseEdges(t *testing.T) {
	o := Rewriter{Relative: []string{"https://old.example/"}, DropBase: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	for in, want := range map[string]string{
		`<BAse href=A:><A href=/>`:     `<A href=../../>`,
		`<<BAse href >img srC >`:       `&lt;img srC >`,
		`<p>1 <<base href=x>2 < 3</p>`: `<p>1 &lt;2 < 3</p>`,
	} {
		got, _, err := o.Document([]byte(in), links.Retrieved(page))
		if err != nil || string(got) != want {
			t.Errorf("%q: got %q (%v), want %q", in, got, err, want)
		}
		if again, _, err := o.Document(got, links.Retrieved(page)); err != nil || !bytes.Equal(again, got) {
			t.Errorf("%q: rewritten again %q (%v)", in, again, err)
		}
	}
}

// TestEncoding: a windows-1252 page stays windows-1252, every byte outside
// the rewritten value as it was; a page whose encoding does not give its
// bytes back is refused, not damaged.
func TestEncoding(t *testing.T) {
	o := Rewriter{Relative: []string{"https://old.example/docs/"}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	in := "<meta charset=windows-1252><p>caf\xe9 \x80</p><a href=\"https://old.example/docs/x.html?q=\xe9\">caf\xe9</a>"
	got, _, err := o.Document([]byte(in), links.Retrieved(page))
	want := "<meta charset=windows-1252><p>caf\xe9 \x80</p><a href=\"../x.html?q=%E9\">caf\xe9</a>"
	if err != nil || string(got) != want {
		t.Errorf("got %q (%v)\nwant %q", got, err, want)
	}
	bad := "<meta charset=shift_jis><a href=\"https://old.example/docs/x.html\">\x81\x20</a>"
	if _, _, err := o.Document([]byte(bad), links.Retrieved(page)); err == nil || !strings.Contains(err.Error(), "shift_jis") {
		t.Errorf("a Shift_JIS page that does not round-trip: %v", err)
	}
}

// TestFilesJobs: however many documents are rewritten at once, Files hands
// each the same files, rewritten the same, in the order of the walk; and
// calls urlOf on one goroutine, in that order.
func TestFilesJobs(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", i%3))
		os.MkdirAll(sub, 0o755)
		os.WriteFile(filepath.Join(sub, fmt.Sprintf("p%02d.html", i)), fmt.Appendf(nil, `<a href="https://old.example/docs/d%d/x%d.html">x</a>`, i%3, i), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "logo.png"), []byte("png"), 0o644)
	run := func(jobs int) (files, urls []string) {
		o := Rewriter{Relative: []string{"https://old.example/docs/"}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}, Jobs: jobs}
		urlOf := func(path string) string {
			urls = append(urls, path) // not safe for concurrent use, on purpose
			rel, _ := filepath.Rel(dir, path)
			return "https://old.example/docs/" + filepath.ToSlash(rel)
		}
		for f := range o.Files([]string{dir}, urlOf) {
			files = append(files, fmt.Sprintf("%s %v %q %v", f.Rel, f.Document, f.New, f.Err))
		}
		return files, urls
	}
	// Breaking out of the loop stops the walk.
	seen := 0
	for range (&Rewriter{Jobs: 2}).Files([]string{dir}, func(string) string { return "" }) {
		if seen++; seen == 3 {
			break
		}
	}
	if seen != 3 {
		t.Errorf("the walk went on after break: %d files", seen)
	}
	files1, urls1 := run(1)
	files4, urls4 := run(4)
	if len(files1) != 31 || !slices.Equal(files1, files4) || !slices.Equal(urls1, urls4) {
		t.Errorf("-j 1:\n%q\n-j 4:\n%q", files1, files4)
	}
	if want := `d0/p00.html true "<a href=\"x0.html\">x</a>" <nil>`; files1[0] != want {
		t.Errorf("first file %s, want %s", files1[0], want)
	}
}

// TestFilesWrite: Write is called for each file, on the workers, before
// Files yields it, but for a symbolic link and a file that failed; what it
// returns is the file's WriteErr, and the walk goes on past it.
func TestFilesWrite(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%02d.html", i)), []byte(`<a href="https://old.example/x.html">x</a>`), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "logo.png"), []byte("png"), 0o644)
	os.WriteFile(filepath.Join(dir, "nourl.html"), nil, 0o644) // urlOf has none: ErrNoURL
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link.html")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	var mu sync.Mutex
	written := map[string]bool{}
	refused := errors.New("refused")
	o := Rewriter{Relative: []string{"https://old.example/"}, Jobs: 4, Write: func(f *File) error {
		mu.Lock()
		defer mu.Unlock()
		written[f.Rel] = true
		if f.Rel == "p07.html" {
			return refused
		}
		return nil
	}}
	var order []string
	urlOf := func(path string) string {
		if filepath.Base(path) == "nourl.html" {
			return ""
		}
		return "https://old.example/"
	}
	for f := range o.Files([]string{dir}, urlOf) {
		order = append(order, f.Rel)
		mu.Lock()
		was := written[f.Rel]
		mu.Unlock()
		switch {
		case f.Link != "" || f.Err != nil:
			if was || f.Err != nil && !errors.Is(f.Err, ErrNoURL) {
				t.Errorf("%s (link %q, err %v) was written", f.Rel, f.Link, f.Err)
			}
		case !was:
			t.Errorf("%s yielded before it was written", f.Rel)
		case (f.WriteErr == refused) != (f.Rel == "p07.html"):
			t.Errorf("%s: WriteErr %v", f.Rel, f.WriteErr)
		case f.Document && string(f.New) != `<a href="x.html">x</a>`:
			t.Errorf("%s: rewritten %q", f.Rel, f.New)
		}
	}
	if !slices.IsSorted(order) || len(order) != 23 {
		t.Errorf("files in the order %q, want the walk's 23", order)
	}
	if len(written) != 21 {
		t.Errorf("%d files written, want the 20 pages and the image: %v", len(written), written)
	}
}

// TestSrcsetTrailingComma: a srcset candidate whose URL ends with a comma
// (written with a control character after it, which the URL parser drops)
// cannot be written in a srcset, whose parser drops a URL's trailing
// commas: the document is not rewritten, and the error says why, rather
// than pointing the candidate elsewhere.
func TestSrcsetTrailingComma(t *testing.T) {
	doc := "<img srcset=\"0 ,\xff\xff,\x10\">"
	out, _, err := (&Rewriter{Absolute: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}).Document([]byte(doc), links.Retrieved(page))
	if err == nil || !strings.Contains(err.Error(), "ends with a comma") {
		t.Errorf("rewritten as %q, %v; want an error saying the URL ends with a comma", out, err)
	}
}
