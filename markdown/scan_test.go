package markdown

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/docpages"
)

// specExamples returns the Markdown of CommonMark's spec examples
// (testdata/commonmark/spec.txt), tabs written as tabs.
func specExamples(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/commonmark/spec.txt")
	if err != nil {
		t.Fatal(err)
	}
	fence := strings.Repeat("`", 32)
	var out []string
	for _, part := range strings.Split(string(data), fence+" example\n")[1:] {
		md, _, ok := strings.Cut(part, "\n.\n")
		if !ok {
			md, _, _ = strings.Cut(part, ".\n") // an example of no Markdown
		}
		out = append(out, strings.ReplaceAll(md+"\n", "→", "\t")[:len(strings.ReplaceAll(md, "→", "\t"))+1])
	}
	if len(out) < 600 {
		t.Fatalf("%d examples read from spec.txt; it has 652", len(out))
	}
	return out
}

// differ returns how the scanner's reading of src differs from
// goldmark's, "" for not at all, and why the scanner left it to goldmark,
// or, where it differs, read it as CommonMark and cmark-gfm do where
// goldmark departs from them (TestAgainstRenderers holds it to cmark-gfm
// there); "" if it read it as goldmark does. Scan and Parse must agree
// always.
func differ(src []byte, d Dialect) (diff, why string) {
	s, why := scan(src, d)
	if why != "" {
		return "", why
	}
	fast := Parse(src, d)
	scanned, links := Scan(src, d)
	var streamed []Link
	for l := range links {
		streamed = append(streamed, l)
	}
	scanned.Links = fast.Links
	switch {
	case !reflect.DeepEqual(scanned, fast):
		return "the document of Scan is not Parse's", ""
	case !reflect.DeepEqual(streamed, fast.Links):
		return fmt.Sprintf("links handed out by Scan:\n %+v\n kept by Parse %+v", streamed, fast.Links), ""
	}
	diff = againstGoldmark(fast, src, d)
	if diff != "" && s.departs != "" {
		return "", "read as cmark-gfm does, not goldmark: " + s.departs
	}
	return diff, ""
}

// againstGoldmark returns how the scanner's document of src differs from
// goldmark's, "" for not at all.
func againstGoldmark(fast *Document, src []byte, d Dialect) string {
	slow := parse(src, d, parsers[d]())
	switch {
	case slow.Read < len(src) || len(slow.Unread) > 0:
		return "" // past goldmark's bounds: the scanner reads more
	case !reflect.DeepEqual(fast.Links, slow.Links):
		return fmt.Sprintf("links:\n scanner %+v\n goldmark %+v", fast.Links, slow.Links)
	case !reflect.DeepEqual(fast.Headings, slow.Headings):
		return fmt.Sprintf("headings:\n scanner %+v\n goldmark %+v", fast.Headings, slow.Headings)
	case !reflect.DeepEqual(fast.HTML, slow.HTML) || !bytes.Equal(fast.Shadow(), slow.Shadow()):
		return fmt.Sprintf("HTML:\n scanner %v %q\n goldmark %v %q", fast.HTML, fast.Shadow(), slow.HTML, slow.Shadow())
	case !reflect.DeepEqual(fast.Anchors(d), slow.Anchors(d)):
		return fmt.Sprintf("anchors:\n scanner %q\n goldmark %q", fast.Anchors(d), slow.Anchors(d))
	}
	return ""
}

// TestScanner holds the scanner to goldmark, field by field (links,
// headings, HTML, anchors), on CommonMark's spec examples, the Markdown
// of testdata and the Rust book, in each dialect, and says how often it
// handed a document to goldmark.
func TestScanner(t *testing.T) {
	type input struct{ name, src string }
	var inputs []input
	for i, ex := range specExamples(t) {
		inputs = append(inputs, input{fmt.Sprintf("spec example %d", i+1), ex})
	}
	files, _ := filepath.Glob("testdata/hard/*.md")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{f, string(data)})
	}
	book, bookFrom := 0, len(inputs)
	err := docpages.Tarball("../../shared/data/markdown/rust-book-src.tar.gz", "src/", ".md", func(name string, body []byte) error {
		inputs = append(inputs, input{name, string(body)})
		book++
		return nil
	})
	if err != nil {
		t.Logf("the Rust book not read (%v): the spec's examples and testdata only", err)
	}
	// A tree of Markdown nobody here wrote, for bench/markdown.sh
	// (kubernetes/community's 965 files): MARKDOWN_TREE names it.
	if tree := os.Getenv("MARKDOWN_TREE"); tree != "" {
		err := filepath.WalkDir(tree, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || filepath.Ext(path) != ".md" {
				return err
			}
			data, err := os.ReadFile(path)
			inputs = append(inputs, input{path, string(data)})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Each document both ways: its links kept by the second pass, and
	// read again by the third (as a document of many links is).
	defer func(n int) { maxRecorded = n }(maxRecorded)
	for _, d := range []Dialect{GitHub, MkDocs, MdBook, -1} {
		if d == -1 {
			d, maxRecorded = GitHub, 0
		}
		scanned, bookScanned, departed := 0, 0, 0
		whys := map[string]int{}
		for i, in := range inputs {
			diff, why := differ([]byte(in.src), d)
			if diff != "" {
				t.Errorf("%s, %s: %q\n%s", in.name, d, in.src[:min(len(in.src), 300)], diff)
			}
			if strings.HasPrefix(why, "read as cmark-gfm") {
				departed++
			} else if why != "" {
				whys[why]++
				continue
			}
			scanned++
			if i >= bookFrom && i < bookFrom+book {
				bookScanned++
			}
		}
		t.Logf("%s: the scanner read %d of %d documents (%d of the book's %d), %d of them as cmark-gfm does where goldmark departs; goldmark read the others, for %v", d, scanned, len(inputs), bookScanned, book, departed, whys)
	}
}

// FuzzScanner: on any input, the scanner reads what goldmark reads, or
// hands the document to it.
func FuzzScanner(f *testing.F) {
	for _, ex := range specExamples(f) {
		f.Add(ex)
	}
	// The hard cases, and the book's chapters when ../shared has them.
	files, _ := filepath.Glob("testdata/hard/*.md")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
	docpages.Tarball("../../shared/data/markdown/rust-book-src.tar.gz", "src/", ".md", func(_ string, body []byte) error {
		f.Add(string(body))
		return nil
	})
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range []Dialect{GitHub, MkDocs, MdBook} {
			if diff, _ := differ([]byte(src), d); diff != "" {
				t.Fatalf("%s: %q\n%s", d, src, diff)
			}
		}
		// The links read again by the third pass, as a document of many
		// links has them.
		defer func(n int) { maxRecorded = n }(maxRecorded)
		maxRecorded = 0
		if diff, _ := differ([]byte(src), GitHub); diff != "" {
			t.Fatalf("read again: %q\n%s", src, diff)
		}
	})
}

// hostile are documents on which goldmark takes time that grows with the
// square of a line's length or of the nesting, or which it reads in part
// only: the scanner reads each whole, in time linear in its size, and
// finds its links.
var hostile = []struct {
	name  string
	src   string
	links int
}{
	{"lists 5,000 deep on each line", strings.Repeat(strings.Repeat("- ", 5000)+"[x](a.md)\n", 400), 400},
	{"quotes 5,000 deep on each line", strings.Repeat(strings.Repeat(">", 5000)+" [x](a.md)\n", 400), 400},
	{"a line of a megabyte", strings.Repeat("word ", 200000) + "[x](a.md)\n", 1},
	{"8 MB", strings.Repeat("[x](a.md) and text to fill the line\n", 230000), 230000},
	{"destinations left open", strings.Repeat("[x](<", 50000) + "\n\n" + strings.Repeat("[x](b", 50000) + "\n\n[x](a.md)\n", 1},
	{"titles left open", strings.Repeat("[x](a \"", 50000) + "\n\n[x](a.md)\n", 1},
	{"comments left open", strings.Repeat("a <!-- ", 50000) + "\n\n[x](a.md)\n", 1},
	{"a hundred thousand definitions", strings.Repeat("[r]: /r\n", 100000) + "\n[r]\n", 100000},
	{"e-mail address parts", strings.Repeat("_a", 200000) + " [x](a.md)\n", 1},
	{"code spans left open", strings.Repeat("`a ``b ", 50000) + "[x](a.md)\n", 1},
}

// TestScannerWhole: the hostile documents are read whole by the scanner,
// and every link found.
func TestScannerWhole(t *testing.T) {
	for _, tt := range hostile {
		if _, why := scan([]byte(tt.src), GitHub); why != "" {
			t.Errorf("%s: left to goldmark, for %s", tt.name, why)
			continue
		}
		doc := Parse([]byte(tt.src), GitHub)
		if len(doc.Links) != tt.links || doc.Read != len(tt.src) || doc.Unread != nil {
			t.Errorf("%s: %d links, read %d of %d bytes, unread %v; want %d links, all read", tt.name, len(doc.Links), doc.Read, len(tt.src), doc.Unread, tt.links)
		}
	}
}

// BenchmarkParseHostile: the scanner's time on the hostile documents,
// each a few megabytes at most (compare the MB/s with BenchmarkParse's).
func BenchmarkParseHostile(b *testing.B) {
	for _, tt := range hostile {
		b.Run(strings.ReplaceAll(tt.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(tt.src)))
			for b.Loop() {
				Parse([]byte(tt.src), GitHub)
			}
		})
	}
}

// TestDepartures: where goldmark's lists, its tabs and its task boxes depart from
// CommonMark's and cmark-gfm's (testdata/hard/lists.md), the scanner reads
// as cmark-gfm does (TestAgainstRenderers holds it to cmark-gfm there):
// every link of the page, of which goldmark misses some.
func TestDepartures(t *testing.T) {
	src, err := os.ReadFile("testdata/hard/lists.md")
	if err != nil {
		t.Fatal(err)
	}
	s, why := scan(src, GitHub)
	if why != "" || s.departs == "" {
		t.Fatalf("left to goldmark for %q, or read as goldmark does (departs %q)", why, s.departs)
	}
	var got []string
	for _, l := range Parse(src, GitHub).Links {
		got = append(got, l.Dest)
	}
	want := []string{"two-blank-lines.md", "four-columns.md", "empty-item.md", "blank-start.md", "quote-tab.md", "marker-tab.md", "partial-tab.md", "task-box-link.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
	if n := len(parse(src, GitHub, parsers[GitHub]()).Links); n >= len(want) {
		t.Errorf("goldmark finds %d links: it no longer departs, and the scanner may read these lists as it does", n)
	}
}

// TestScanStops: a range over Scan's links that stops early hands out no
// more, and the scanner it returns to the pool reads the next document
// whole.
func TestScanStops(t *testing.T) {
	src := []byte("[a](a.md) [b](b.md)\n\n[c](c.md)\n")
	_, links := Scan(src, GitHub)
	var got []string
	for l := range links {
		got = append(got, l.Dest)
		break
	}
	if len(got) != 1 || got[0] != "a.md" {
		t.Fatalf("stopped after %q, want a.md", got)
	}
	if doc := Parse(src, GitHub); len(doc.Links) != 3 {
		t.Errorf("the next document: %d links, want 3", len(doc.Links))
	}
}
