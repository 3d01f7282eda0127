package markdown

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/htmltok"
)

// TestParse pins what Parse finds in a small document: each kind of link,
// its destination's bytes and the href a renderer writes.
func TestParse(t *testing.T) {
	src := []byte("# Title *x*\n\n[a](a.md) ![i](<b c.png>) [r][ref] [ref] <https://auto.example/> www.example.com/w.\n\n" +
		"`[no](code.md)`\n\n<a href=\"h.html\">h</a>\n\n[ref]: <ref d.md> \"t\"\n")
	doc := Parse(src, GitHub)
	var got []string
	for _, l := range doc.Links {
		got = append(got, fmt.Sprintf("%v %s %q angle=%v uses=%d ext=%v", l.Kind, l.Dest, src[l.Span.Start:l.Span.End], l.Angle, l.Uses, l.Extended))
	}
	want := []string{
		`link a.md "a.md" angle=false uses=0 ext=false`,
		`image b%20c.png "b c.png" angle=true uses=0 ext=false`,
		`autolink https://auto.example/ "https://auto.example/" angle=false uses=0 ext=false`,
		`autolink http://www.example.com/w "www.example.com/w" angle=false uses=0 ext=true`,
		`definition ref%20d.md "ref d.md" angle=true uses=2 ext=false`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("links:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(doc.Headings) != 1 || doc.Headings[0].Text != "Title x" {
		t.Errorf("headings %+v", doc.Headings)
	}
	if shadow := doc.Shadow(); len(shadow) != len(src) || !bytes.Contains(shadow, []byte(`<a href="h.html">`)) || bytes.Contains(shadow, []byte("a.md")) {
		t.Errorf("shadow %q", shadow)
	}
}

// TestSlugs pins each dialect's rule on a few headings, and mdBook's on
// the cases its own tests hold.
func TestSlugs(t *testing.T) {
	for _, tt := range []struct {
		d     Dialect
		texts []string
		want  []string
	}{
		{GitHub, []string{"Getting Started", "Getting Started", "getting-started-1", "Café & Crème: 10%!", " lead", "x² ½", "a—b"}, []string{"getting-started", "getting-started-1", "getting-started-1-1", "café--crème-10", "-lead", "x-", "ab"}},
		{MkDocs, []string{"Getting Started", "Getting Started", "Café & Crème", "", "x_1", "x_1"}, []string{"getting-started", "getting-started_1", "cafe-creme", "_1", "x_1", "x_2"}},
		{MdBook, []string{"`--passes`: add more rustdoc passes", "Method-call 🐙 expressions \U0001f47c", "_-_12345", "中文", "", "Über", "Über"},
			[]string{"--passes-add-more-rustdoc-passes", "method-call--expressions-", "_-_12345", "中文", "", "über", "über-1"}},
	} {
		s := NewSlugger(tt.d)
		var got []string
		for _, text := range tt.texts {
			got = append(got, s.Slug(text))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: %q, want %q", tt.d, got, tt.want)
		}
	}
	// mdBook's smart punctuation makes "--" and "---" dashes, which its
	// anchors drop, but not in code; an empty heading's anchor is "", as
	// mdBook 0.5.4 renders it (href="#"), and a heading of punctuation
	// alone repeats it.
	doc := Parse([]byte("# a -- b --- c `x--y`\n\n#\n\n## !!!\n\n## ----\n"), MdBook)
	if got, want := doc.Headings[0].Text, "a \u2013 b \u2014 c x--y"; got != want {
		t.Errorf("mdBook's text %q, want %q", got, want)
	}
	if got, want := doc.Anchors(MdBook), []string{"a--b--c-x--y", "", "-1", "-2"}; !slices.Equal(got, want) {
		t.Errorf("mdBook's anchors %q, want %q", got, want)
	}
}

// TestTextLinks: the URLs of plain text end where GitHub ends an extended
// autolink.
func TestTextLinks(t *testing.T) {
	src := []byte("see https://a.example/x). and (www.b.example/y) or http://c.example/z?x=1&amp;\n" +
		"ftp://d.example/f, <https://e.example/> foo@bar.example and https://f.example/a_(b). http://127.0.0.1:8080/x;\n")
	var got []string
	found, _ := TextLinks(src)
	for _, l := range found {
		got = append(got, l.Dest+" "+string(src[l.Span.Start:l.Span.End]))
	}
	want := []string{"https://a.example/x https://a.example/x", "http://www.b.example/y www.b.example/y",
		"http://c.example/z?x=1 http://c.example/z?x=1", "ftp://d.example/f ftp://d.example/f",
		"https://e.example/ https://e.example/", "https://f.example/a_(b) https://f.example/a_(b)",
		"http://127.0.0.1:8080/x http://127.0.0.1:8080/x"}
	if !slices.Equal(got, want) {
		t.Errorf("text links:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// rendered is what oracle.py says of a Markdown file: the links cmark-gfm
// writes, its headings' text, and the ids Python-Markdown gives them.
type rendered struct {
	File     string
	Links    []string
	Headings []string
	MkDocs   []string
}

// oracle runs oracle.py on files: GitHub's renderer (cmark-gfm) and
// MkDocs's (Python-Markdown), from PyPI, pinned in
// testdata/requirements.txt; .ci/run installs them and names the Python
// in RELURL_MARKDOWN_PYTHON.
func oracle(t *testing.T, files []string) []rendered {
	t.Helper()
	python := os.Getenv("RELURL_MARKDOWN_PYTHON")
	if python == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs the Markdown oracles: .ci/run installs them and sets RELURL_MARKDOWN_PYTHON")
		}
		python = "python3"
		if exec.Command(python, "-c", "import cmarkgfm, markdown").Run() != nil {
			t.Skip("cmarkgfm and Markdown are not installed (pip install -r markdown/testdata/requirements.txt)")
		}
	}
	out, err := exec.Command(python, append([]string{"testdata/oracle.py"}, files...)...).Output()
	if err != nil {
		t.Fatalf("oracle.py: %v", err)
	}
	var all []rendered
	for line := range bytes.Lines(out) {
		var r rendered
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	return all
}

// githubSlugs runs npm's github-slugger (testdata/slugger.mjs, installed
// by npm ci in testdata) on the headings of each document.
func githubSlugs(t *testing.T, docs []rendered) [][]string {
	t.Helper()
	if _, err := os.Stat("testdata/node_modules/github-slugger"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs github-slugger: .ci/run runs npm ci in markdown/testdata")
		}
		t.Skip("github-slugger is not installed (npm ci in markdown/testdata)")
	}
	var in bytes.Buffer
	for _, d := range docs {
		b, _ := json.Marshal(map[string][]string{"headings": d.Headings})
		in.Write(append(b, '\n'))
	}
	cmd := exec.Command("node", "testdata/slugger.mjs")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("slugger.mjs: %v", err)
	}
	var all [][]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var slugs []string
		json.Unmarshal(sc.Bytes(), &slugs)
		all = append(all, slugs)
	}
	return all
}

// markdownFiles returns the Markdown files the renderers are compared on:
// the hard cases, and the 113 of the Rust book (../shared/data) unpacked.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("testdata/hard/*.md")
	book := filepath.Join("..", "..", "shared", "data", "markdown", "rust-book-src.tar.gz")
	if _, err := os.Stat(book); err != nil {
		t.Logf("no shared data: the hard cases alone (%v)", err)
		return files
	}
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", book, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "src", "*.md"))
	return append(files, more...)
}

// TestAgainstRenderers holds Parse to the renderers themselves, on the
// hard cases and the Rust book: every link cmark-gfm (GitHub's renderer)
// writes is one Parse finds (a definition once for each of its uses, and
// the href and src of raw HTML's a and img), with the same href; each
// heading's text is the text content cmark-gfm gives it; GitHub's anchors
// are github-slugger's of those texts; MkDocs's are those Python-Markdown's
// toc extension makes of them (its slug rule: Python-Markdown parses
// Markdown its own way, not as CommonMark, which MkDocs also parses here).
func TestAgainstRenderers(t *testing.T) {
	files := markdownFiles(t)
	docs := oracle(t, files)
	slugs := githubSlugs(t, docs)
	var links, headings, mkdocs int
	for i, r := range docs {
		src, err := os.ReadFile(r.File)
		if err != nil {
			t.Fatal(err)
		}
		doc := Parse(src, GitHub)
		var got []string
		for _, l := range doc.Links {
			n := 1
			if l.Kind == Definition {
				n = l.Uses
			}
			for range n {
				got = append(got, l.Dest)
			}
		}
		got = append(got, htmlLinks(doc)...)
		want := slices.Clone(r.Links)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: links\n%q\ncmark-gfm:\n%q", r.File, got, want)
		}
		links += len(want)

		var texts []string
		for _, h := range doc.Headings {
			texts = append(texts, h.Text)
		}
		if !slices.Equal(texts, r.Headings) {
			t.Errorf("%s: headings\n%q\ncmark-gfm:\n%q", r.File, texts, r.Headings)
		}
		headings += len(texts)
		var anchors []string
		s := NewSlugger(GitHub)
		for _, text := range r.Headings {
			anchors = append(anchors, s.Slug(text))
		}
		if !slices.Equal(anchors, slugs[i]) {
			t.Errorf("%s: GitHub's anchors\n%q\ngithub-slugger:\n%q", r.File, anchors, slugs[i])
		}

		mk := NewSlugger(MkDocs)
		var mkAnchors []string
		for _, text := range r.Headings {
			mkAnchors = append(mkAnchors, mk.Slug(text))
		}
		if !slices.Equal(mkAnchors, r.MkDocs) {
			t.Errorf("%s: MkDocs's anchors\n%q\nPython-Markdown:\n%q", r.File, mkAnchors, r.MkDocs)
		}
		mkdocs += len(mkAnchors)
	}
	t.Logf("%d files: %d links, %d headings as cmark-gfm renders them, their anchors as github-slugger makes them; %d as Python-Markdown does", len(docs), links, headings, mkdocs)
}

// htmlLinks returns the href of each <a> and the src of each <img> of a
// document's raw HTML, as a browser reads them.
func htmlLinks(doc *Document) []string {
	var out []string
	z := htmltok.NewBytes(doc.Shadow())
	for {
		switch z.Next() {
		case htmltok.ErrorToken:
			if z.Err() == io.EOF {
				return out
			}
			return out
		case htmltok.StartTagToken:
			attr := map[string]string{"a": "href", "img": "src"}[string(z.Name())]
			if a, ok := z.Attr(attr); ok && attr != "" {
				out = append(out, html.UnescapeString(string(a.Value)))
			}
		}
	}
}

// FuzzParse: any input parses, in each dialect, into links whose spans are
// in the source (and written in angle brackets when they say so), and a
// shadow as long as the source with its HTML where it is.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/hard/*.md")
	for _, name := range files {
		data, _ := os.ReadFile(name)
		f.Add(data)
	}
	f.Add([]byte("[a](<b c> \"t\")\n\n[r]: <x>\n[r]\n<https://a.example/> www.b.example;"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, d := range []Dialect{GitHub, MkDocs, MdBook} {
			doc := Parse(src, d)
			for _, l := range doc.Links {
				if l.Span.Start < 0 || l.Span.Start > l.Span.End || l.Span.End > len(src) {
					t.Fatalf("%v: span %v of %d bytes", d, l.Span, len(src))
				}
				if l.Angle && (l.Span.Start == 0 || src[l.Span.Start-1] != '<' || l.Span.End >= len(src) || src[l.Span.End] != '>') {
					t.Fatalf("%v: angle brackets that are not there: %v", d, l.Span)
				}
			}
			shadow := doc.Shadow()
			if len(shadow) != len(src) {
				t.Fatalf("shadow of %d bytes for %d", len(shadow), len(src))
			}
			for _, h := range doc.HTML {
				if !bytes.Equal(shadow[h.Start:h.End], src[h.Start:h.End]) {
					t.Fatalf("the shadow lost HTML at %v", h)
				}
			}
			doc.Anchors(d)
		}
		TextLinks(src)
	})
}
