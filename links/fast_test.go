package links

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/htmltree"
	"github.com/relurl/relurl/internal/docpages"
)

// fastOptions are the Options the fast path is held to the tree builder
// with: none, every field a link can carry, some links, anchors' text.
var fastOptions = []Options{
	{},
	{Sites: true, Positions: true, Template: true},
	{Only: Only{"a@href": true, CSSElement: true, "base": true}},
	{Text: true, Positions: true},
}

// bothWays extracts the links of doc by the fast path and by the tree
// builder alone, with o, and returns each as text (every field of every
// link, the bases told, the warnings and the error), and whether the fast
// path handed the document over. The Extractors are kept for the next
// document, as a worker keeps its own: what one document leaves in them
// must not change the next's links. Each way reads the document from a
// reader, and read in memory (a *bytes.Buffer, tokenized where it is)
// must give the same, or the difference is added to what it gives.
func bothWays(doc []byte, o Options) (fast, tree string, handedOver bool) {
	run := func(noFast, inMemory bool) (string, int) {
		x := extractorFor(o, noFast)
		before := x.handovers
		defer func() { x.handovers = before }()
		var b strings.Builder
		h := &Handler{
			Link: func(l *Link) error {
				s := l.Site
				fmt.Fprintf(&b, "%s %s %q url=%q err=%v base=%+v part=%s rel=%q at=%d:%d text=%q site=%v,%v,%q,%v,%q,%v,%v\n",
					l.Element, l.Attribute, l.Ref, l.URL, l.Err, *l.Base, l.Part, l.Rel, l.Line, l.Column, l.Text,
					s.Value, s.Tag, s.Quote, s.Style, s.Decoded, s.Ref, s.CSS)
				return nil
			},
			Base: func(part string, bs Base) { fmt.Fprintf(&b, "base %s %+v\n", part, bs) },
			Warn: func(err error) { fmt.Fprintf(&b, "warning: %v\n", err) },
		}
		var r io.Reader = bytes.NewReader(doc)
		if inMemory {
			r = bytes.NewBuffer(bytes.Clone(doc))
		}
		err := x.Extract(r, Doc{Format: FormatHTML, Base: Retrieved("http://h/dir/page.html")}, h)
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String(), x.handovers - before
	}
	fast, n := run(false, false)
	if mem, _ := run(false, true); mem != fast {
		fast += "\nin memory, the fast path gives\n" + mem
	}
	tree, _ = run(true, false)
	if mem, _ := run(true, true); mem != tree {
		tree += "\nin memory, the tree builder gives\n" + mem
	}
	return fast, tree, n > 0
}

// extractors are bothWays's, by options and path.
var extractors = map[string]*Extractor{}

func extractorFor(o Options, noFast bool) *Extractor {
	key := fmt.Sprintf("%+v %v", o, noFast)
	if x, ok := extractors[key]; ok {
		return x
	}
	x := &Extractor{Options: o, noFast: noFast}
	extractors[key] = x
	return x
}

// sameBothWays fails t unless the fast path gives doc's links as the tree
// builder does, with each of fastOptions; it reports whether the fast path
// handed doc over.
func sameBothWays(t testing.TB, name string, doc []byte) bool {
	over := false
	for _, o := range fastOptions {
		fast, tree, h := bothWays(doc, o)
		over = over || h
		if fast != tree {
			t.Errorf("%s, %+v: the fast path gives\n%s\nthe tree builder\n%s", name, o, fast, tree)
			return over
		}
	}
	return over
}

// html5libDocuments returns the documents of html5lib's tree-construction
// tests (their #data).
func html5libDocuments(t testing.TB) [][]byte {
	files, err := filepath.Glob("../testdata/html5lib-tests/tree-construction/*.dat")
	if err != nil || len(files) == 0 {
		t.Fatalf("no html5lib tree-construction tests in testdata (%v)", err)
	}
	var docs [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, test := range strings.Split("\n"+string(data), "\n#data\n")[1:] {
			doc, _, _ := strings.Cut(test, "\n#errors")
			docs = append(docs, []byte(doc))
		}
	}
	return docs
}

// TestFastPath holds the fast path to the tree builder, link by link and
// field by field, on html5lib's tree-construction documents, the hard
// pages of testdata and, with ../shared, the 1,699 pages; and counts how
// often it hands a document over.
func TestFastPath(t *testing.T) {
	count := func(set string, docs [][]byte, names []string) {
		over := 0
		for i, doc := range docs {
			if sameBothWays(t, names[i], doc) {
				over++
			}
		}
		t.Logf("%s: %d documents, %d handed over to the tree builder (%.1f%%)", set, len(docs), over, 100*float64(over)/float64(max(len(docs), 1)))
	}
	docs := html5libDocuments(t)
	names := make([]string, len(docs))
	for i := range docs {
		names[i] = fmt.Sprintf("html5lib document %d (%.60q)", i, docs[i])
	}
	count("html5lib tree-construction", docs, names)

	files, _ := filepath.Glob("../testdata/hard/docs/*.html")
	docs, names = docs[:0], names[:0]
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, names = append(docs, b), append(names, f)
	}
	count("testdata/hard", docs, names)

	docs, names = docs[:0], names[:0]
	err := docpages.Each("../../shared/data", func(set, path string, body []byte) error {
		docs, names = append(docs, body), append(names, set+"/"+path)
		return nil
	})
	if err != nil {
		t.Logf("the 1,699 pages not compared: %v", err)
		return
	}
	count("the 1,699 pages", docs, names)

	docs, names = docs[:0], names[:0]
	recs, err := docpages.Records("../../shared/data")
	if err != nil {
		t.Logf("the crawl's records not compared: %v", err)
		return
	}
	for _, rec := range recs {
		if rec.Type() != "response" {
			continue
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
		if err != nil {
			t.Fatal(err)
		}
		body := io.Reader(resp.Body)
		if resp.Header.Get("Content-Encoding") == "gzip" {
			if body, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		docs, names = append(docs, b), append(names, fmt.Sprintf("the record at %d", rec.Offset))
	}
	count("the crawl's response records", docs, names)
}

// TestFastPathLongDocument: a document longer than the fast path records
// is handed over where the record ends, and read by the tree builder as it
// streams, with the same links; one that ends within it is not.
func TestFastPathLongDocument(t *testing.T) {
	long := bytes.Repeat([]byte(`<p><a href="x.html">x</a> `), recordMax/20)
	for _, doc := range [][]byte{
		long,
		append(bytes.Clone(long), `<template><a href="t.html"></template><base href="/b/"><a href="y.html">`...),
		[]byte(`<table><td>` + strings.Repeat(`<img src=i.png>`, 1000) + `<base href=/in-table/><a href=z>`),
	} {
		fast, tree, over := bothWays(doc, Options{Sites: true, Positions: true})
		if fast != tree {
			t.Errorf("a document of %d bytes: the fast path gives %d bytes of links, the tree builder %d", len(doc), len(fast), len(tree))
		}
		if !over {
			t.Errorf("a document of %d bytes is not handed over", len(doc))
		}
	}
}

// FuzzFastPath: on any input, the fast path gives the links the tree
// builder gives, or hands the document over.
func FuzzFastPath(f *testing.F) {
	for _, doc := range html5libDocuments(f) {
		f.Add(doc)
	}
	for _, s := range []string{
		`<base href="/b/"><a href="x">`,
		`<table><tr><td><base href="/t/"></td></tr></table><a href=y>`,
		`<svg><style>a{background:url(s.png)}</style><a href="svg.html"/><p><a href="html.html">`,
		`<svg><title><a href=x>`,
		`x<body background="bg.png"><body style="background:url(b2.png)">`,
		`<form action=f1><form action=f2></form><frame src=fr><tr background=tr.png>`,
		`<table><td><table><td background=in.png></table><caption background=c.png>`,
		`<image src=i.png><textarea><a href=no></textarea><noscript><a href=no></noscript>`,
		`<a href=a.html><img srcset="b 1x, c 2x"><template><a href=t></template><base href=/b/><a href=after>`,
		`<p><a href=x>one <code>two</code> <b>three</b></a> four<a href=y>five<p>six</a> <a href=z><svg><title>t</title><a href=s>svg</a></svg></a>`,
		`<i><p>x</p><a href=r>reopened <script>no</script><iframe>yes</iframe></a></i><a href=e>eof`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameBothWays(t, "the input", doc)
	})
}

// A document in memory that is not in UTF-8 is decoded as a streamed one
// is (bothWays compares the two): declared by <meta>, by x-user-defined
// (windows-1252 to the parser), by a UTF-16 byte order mark.
func TestInMemoryEncodings(t *testing.T) {
	for name, doc := range map[string]string{
		"windows-1252":   "<meta charset=windows-1252><a href=caf\xe9.html?q=\xe9>x</a>",
		"x-user-defined": "<meta charset=x-user-defined><a href=caf\xe9.html>x</a>",
		"shift_jis":      "<meta http-equiv=content-type content='text/html; charset=shift_jis'><a href=\x82\xa0.html>x</a>",
		"utf-16le":       "\xff\xfe<\x00a\x00 \x00h\x00r\x00e\x00f\x00=\x00x\x00>\x00",
	} {
		sameBothWays(t, name, []byte(doc))
	}
}

// TestTagFlags holds tagFlagsOf to what its flags stand for: the void and
// the formatting elements of the tree builder (13.1.2, 13.2.4.3) and the
// names of Elements, on every element name of HTML's index and a few
// others; and, through plainTag, the fast path to the tree builder on
// documents that put each name where the rules matter: with every link
// attribute, around a <base>, across a block's end, and nested to
// htmltree.MaxDepth.
func TestTagFlags(t *testing.T) {
	voids := strings.Fields("area base basefont bgsound br col embed hr img input keygen link meta param source track wbr")
	formattings := strings.Fields("a b big code em font i nobr s small strike strong tt u")
	names := strings.Fields(`abbr address applet article aside audio b base basefont bdi bdo bgsound big blockquote
		body br button canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir
		div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head
		header hgroup hr html i iframe image img input ins kbd keygen label legend li link listing main map mark
		marquee math menu meta meter nav nobr noembed noframes noscript object ol optgroup option output p param
		picture plaintext pre progress q rb rp rt rtc ruby s samp script search section select slot small source
		span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title
		tr track tt u ul var video wbr xmp my-element spa spans`)
	for name := range elements {
		names = append(names, name)
	}
	for _, name := range names {
		f := tagFlagsOf(name)
		_, link := elements[name]
		if got, want := f&voidTag != 0, slices.Contains(voids, name); got != want {
			t.Errorf("tagFlagsOf(%q) void = %v, want %v", name, got, want)
		}
		if got, want := f&formattingTag != 0, slices.Contains(formattings, name); got != want {
			t.Errorf("tagFlagsOf(%q) formatting = %v, want %v", name, got, want)
		}
		if got := f&linkTag != 0; got != link {
			t.Errorf("tagFlagsOf(%q) link = %v, want %v", name, got, link)
		}
		attrs := `href=h src=s srcset="s2 2x" background=b cite=c data=d action=a poster=p formaction=f ` +
			`content="0; url=m" ping=pg imagesrcset=is rel=stylesheet type=image style="background:url(u)"`
		for _, doc := range []string{
			`<body><p><` + name + ` ` + attrs + `>t</` + name + `><img src=after>`,
			`<body><` + name + `><base href=/b/><a href=x>t</a></` + name + `><a href=y>u</a>`,
			`<body><div><` + name + `><i><a href=x>t</div><a href=y>u</a></` + name + `><img src=z>`,
			`<p><` + name + ` style="x:url(s)"></p></` + name + `></` + name + `><table><tr><td><` + name + `><img src=t>`,
			`<body><` + name + `><tr><td><base href=/1/></td></tr><base href=/2/></` + name + `><a href=x>t</a>`,
			`<body><` + name + `><p><a href=x>t</a><frame src=f><textarea><a href=r></textarea><svg><a href=s /></svg><form action=f1><form action=f2>`,
			`<body><` + name + `><xmp><a href=x>t</a></xmp><noembed><a href=n></noembed><iframe><a href=i></iframe><a href=y>u</a>`,
		} {
			sameBothWays(t, doc, []byte(doc))
		}
		deep := "<body>" + strings.Repeat("<"+name+">", htmltree.MaxDepth) + "<img src=deep>"
		if fast, tree, _ := bothWays([]byte(deep), Options{}); fast != tree {
			t.Errorf("%d nested <%s>: the fast path gives\n%s\nthe tree builder\n%s", htmltree.MaxDepth, name, fast, tree)
		}
	}
}
