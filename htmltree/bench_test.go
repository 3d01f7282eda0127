package htmltree

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/internal/docpages"
)

// The benchmarks read the 1,699 documentation pages of ../shared/data and
// compare the tree builder (with a Sink that does nothing) with htmltok
// alone and with x/net/html's tokenizer and parser on the same bytes:
//
//	go test ./htmltree -run '^$' -bench . -count 10

func loadPages(b *testing.B) [][]byte {
	var pages [][]byte
	err := docpages.Each("../../shared/data", func(_, _ string, body []byte) error {
		pages = append(pages, body)
		return nil
	})
	if err != nil {
		b.Skipf("no benchmark data (%v); it comes with the checkout's ../shared", err)
	}
	return pages
}

func bench(b *testing.B, parse func(page []byte)) {
	pages := loadPages(b)
	var n int64
	for _, p := range pages {
		n += int64(len(p))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			parse(p)
		}
	}
}

func BenchmarkBuilder(b *testing.B) {
	z := htmltok.New(nil)
	var tree Builder // reused, as links.Extractor reuses its own
	bench(b, func(p []byte) {
		z.Reset(bytes.NewReader(p))
		tree.Reset(z, NopSink{})
		tree.Run()
	})
}

func BenchmarkTokenizer(b *testing.B) {
	z := htmltok.New(nil)
	bench(b, func(p []byte) {
		z.Reset(bytes.NewReader(p))
		for z.Next() != htmltok.ErrorToken {
		}
	})
}

func BenchmarkXNetTokenizer(b *testing.B) {
	bench(b, func(p []byte) {
		z := html.NewTokenizer(bytes.NewReader(p))
		for z.Next() != html.ErrorToken {
		}
	})
}

func BenchmarkXNetParse(b *testing.B) {
	bench(b, func(p []byte) { html.Parse(bytes.NewReader(p)) })
}

// BenchmarkStackFloor is less than any tree builder does: the tokenizer,
// and for each tag a lookup of its name and a push, or a pop to the
// element of that name. It is the floor under BenchmarkBuilder, measured
// so that docs/performance.md can say what a tree builder costs at least.
func BenchmarkStackFloor(b *testing.B) {
	z := htmltok.New(nil)
	var stack []int
	bench(b, func(p []byte) {
		z.Reset(bytes.NewReader(p))
		stack = stack[:0]
		for {
			switch z.Next() {
			case htmltok.ErrorToken:
				return
			case htmltok.StartTagToken:
				_, s := atom(z.Name())
				stack = append(stack, s)
			case htmltok.EndTagToken:
				_, s := atom(z.Name())
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] == s {
						stack = stack[:i]
						break
					}
				}
			}
		}
	})
}
