package links

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/internal/docpages"
)

// The benchmarks read the real documentation pages of ../shared/data (530
// Python pages, 1,169 PostgreSQL pages; see its README), each with its real
// URL, and compare extraction with the x/net/html tokenizer alone on the
// same bytes:
//
//	go test ./links -run '^$' -bench . -count 10

type page struct {
	url  string
	body []byte
}

var (
	pagesOnce sync.Once
	pages     []page
	pagesErr  error
)

func loadPages(b *testing.B) []page {
	pagesOnce.Do(func() {
		prefix := map[string]string{"python": "https://docs.python.org/3.11/", "postgresql": "https://www.postgresql.org/docs/15/"}
		pagesErr = docpages.Each("../../shared/data", func(set, path string, body []byte) error {
			if set == "postgresql" {
				path = path[strings.LastIndexByte(path, '/')+1:]
			}
			pages = append(pages, page{prefix[set] + path, body})
			return nil
		})
	})
	if pagesErr != nil {
		b.Skipf("no benchmark data (%v); it comes with the checkout's ../shared", pagesErr)
	}
	return pages
}

func totalBytes(pages []page) int64 {
	var n int64
	for _, p := range pages {
		n += int64(len(p.body))
	}
	return n
}

// BenchmarkTokenizer is the yardstick: the x/net/html tokenizer alone,
// reading every token of every page and the names of start tags.
func BenchmarkTokenizer(b *testing.B) { benchmarkTokenizer(b, false) }

// BenchmarkTokenizerLinkAttrs is the tokenizer reading, in addition, the
// attributes of the elements that hold links, as any extractor built on it
// must: TagAttr copies each attribute, which is most of what extraction
// costs beyond tokenizing.
func BenchmarkTokenizerLinkAttrs(b *testing.B) { benchmarkTokenizer(b, true) }

func benchmarkTokenizer(b *testing.B, linkAttrs bool) {
	pages := loadPages(b)
	b.SetBytes(totalBytes(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			z := html.NewTokenizer(bytes.NewReader(p.body))
			for {
				tt := z.Next()
				if tt == html.ErrorToken {
					break
				}
				if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
					continue
				}
				name, hasAttr := z.TagName()
				if !linkAttrs || !hasAttr {
					continue
				}
				if _, ok := linkElementOf(string(name)); ok {
					for more := true; more; {
						_, _, more = z.TagAttr()
					}
				}
			}
		}
	}
}

// BenchmarkLinks extracts and resolves every link of every page, by the
// fast path (which hands none of them over), each page in memory as
// package corpus gives a file (a *bytes.Buffer, tokenized where it is).
func BenchmarkLinks(b *testing.B) { benchmarkLinks(b, false) }

// BenchmarkLinksTree is BenchmarkLinks by the tree builder alone: the
// fast path's yardstick.
func BenchmarkLinksTree(b *testing.B) { benchmarkLinks(b, true) }

func benchmarkLinks(b *testing.B, noFast bool) {
	pages := loadPages(b)
	b.SetBytes(totalBytes(pages))
	b.ReportAllocs()
	x := Extractor{noFast: noFast}
	n := 0
	h := &Handler{Link: func(l *Link) error { n += len(l.URL); return nil }}
	for b.Loop() {
		for _, p := range pages {
			if err := x.Extract(bytes.NewBuffer(p.body), Doc{Format: FormatHTML, Base: Retrieved(p.url)}, h); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// Keeping the links of a document until its base is known, then resolving
// and handing them out, allocates nothing for the links once the buffers
// have grown: one allocation a document, the base URL the URL Standard's
// parser builds (the default resolver's), and none under RFC 1808.
func TestEmitAllocs(t *testing.T) {
	doc, err := os.ReadFile(documents + "elements.html")
	if err != nil {
		t.Fatal(err)
	}
	doc = bytes.ReplaceAll(doc, []byte("<base"), []byte("<nobase")) // every link waits
	var x Extractor
	links := 0
	h := &Handler{Link: func(*Link) error { links++; return nil }}
	d := x.begin(Base{}, "", h)
	if err := d.build(htmltok.New(bytes.NewReader(doc))); err != nil {
		t.Fatal(err)
	}
	pending, extras := bytes.Clone(x.pending), x.extras
	extras.buf, extras.texts = bytes.Clone(extras.buf), bytes.Clone(extras.texts)
	establish := func() {
		x.pending = append(x.pending[:0], pending...)
		x.extras.buf, x.extras.texts = append(x.extras.buf[:0], extras.buf...), append(x.extras.texts[:0], extras.texts...)
		x.extras.n, x.extras.line = extras.n, extras.line
		if err := d.establish(Retrieved("http://a/b/c")); err != nil {
			t.Fatal(err)
		}
	}
	establish()
	if links < 20 {
		t.Fatalf("only %d links kept", links)
	}
	if n := testing.AllocsPerRun(100, establish); n > 1 {
		t.Errorf("handing out %d links allocates %v times, more than the base URL's once", links, n)
	}
	x.Resolver = &relurl.Resolver{Spec: relurl.RFC1808}
	if n := testing.AllocsPerRun(100, establish); n != 0 {
		t.Errorf("by RFC 1808, handing out %d links allocates %v times", links, n)
	}
}

// BenchmarkManyAttributes: one formatting element (<a>, which the tree
// builder hashes for Noah's Ark) with 10,000, 100,000 and 1,000,000
// attributes, read and rewritten-ready (Sites); the time per attribute
// stays flat (a tag of 200,000 took 57 s when duplicates were found
// pairwise).
func BenchmarkManyAttributes(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		var doc bytes.Buffer
		doc.WriteString("<a href=x")
		for i := range n {
			fmt.Fprintf(&doc, " a%d=x", i)
		}
		doc.WriteString(">y</a><a href=z>")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x := Extractor{Options: Options{Sites: true}}
			h := &Handler{Link: func(*Link) error { return nil }}
			b.SetBytes(int64(doc.Len()))
			for b.Loop() {
				if err := x.Extract(bytes.NewReader(doc.Bytes()), Doc{Format: FormatHTML, Base: Retrieved("http://e/")}, h); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/attr")
		})
	}
}

// BenchmarkSmallDocument is the cost of a document apart from its bytes:
// a page's head and a paragraph, its encoding declared, against a real
// URL. A directory of small pages pays it for each.
func BenchmarkSmallDocument(b *testing.B) {
	body := []byte(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" /><title>x</title></head><body><p>x</p></body></html>`)
	var x Extractor
	h := &Handler{Link: func(*Link) error { return nil }}
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Extract(bytes.NewBuffer(body), Doc{Format: FormatHTML, Base: Retrieved("https://docs.python.org/3.11/library/os.html")}, h); err != nil {
			b.Fatal(err)
		}
	}
}
