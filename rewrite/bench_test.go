package rewrite

import (
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/docpages"
	"github.com/relurl/relurl/links"
)

// BenchmarkDocument rewrites the 1,699 documentation pages of ../shared/data
// (see its README) with -relative their own trees, in memory, one core:
//
//	go test ./rewrite -run '^$' -bench . -count 10

type docPage struct {
	url  string
	body []byte
}

var (
	pagesOnce sync.Once
	pages     []docPage
	pagesErr  error
)

const python, postgresql = "https://docs.python.org/3.11/", "https://www.postgresql.org/docs/15/"

func loadPages(b *testing.B) []docPage {
	pagesOnce.Do(func() {
		pagesErr = docpages.Each("../../shared/data", func(set, path string, body []byte) error {
			prefix := python
			if set == "postgresql" {
				prefix, path = postgresql, path[strings.LastIndexByte(path, '/')+1:]
			}
			pages = append(pages, docPage{prefix + path, body})
			return nil
		})
	})
	if pagesErr != nil {
		b.Skipf("no benchmark data (%v); it comes with the checkout's ../shared", pagesErr)
	}
	return pages
}

func BenchmarkDocument(b *testing.B) {
	pages := loadPages(b)
	var size int64
	for _, p := range pages {
		size += int64(len(p.body))
	}
	o := Rewriter{Relative: []string{python, postgresql}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			if _, _, err := o.Document(p.body, links.Retrieved(p.url)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
