package htmltok

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/internal/docpages"
)

// BenchmarkTokenize reads the 1,699 pages of ../shared/data, in memory,
// with the same loop over each tokenizer: every token, and of each start
// tag its name and every attribute's name and value. The yardstick is
// golang.org/x/net/html's tokenizer; memchr is bytes.IndexByte finding
// every "<", the floor of any tokenizer.
func BenchmarkTokenize(b *testing.B) {
	pages, size := loadPages(b)
	var sink int
	b.Run("htmltok", func(b *testing.B) {
		b.SetBytes(size)
		var attrs []Attr
		for b.Loop() {
			for _, p := range pages {
				z := NewBytes(p)
				for {
					k := z.Next()
					if k == ErrorToken {
						break
					}
					if k == StartTagToken {
						sink += len(z.Name())
						attrs = z.Attrs(attrs[:0])
						for _, a := range attrs {
							sink += len(a.Name) + len(a.Value)
						}
					}
				}
			}
		}
	})
	b.Run("x-net-html", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			for _, p := range pages {
				z := html.NewTokenizer(bytes.NewReader(p))
				for {
					k := z.Next()
					if k == html.ErrorToken {
						break
					}
					if k == html.StartTagToken || k == html.SelfClosingTagToken {
						name, more := z.TagName()
						sink += len(name)
						for more {
							var key, val []byte
							key, val, more = z.TagAttr()
							sink += len(key) + len(val)
						}
					}
				}
			}
		}
	})
	b.Run("memchr", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			for _, p := range pages {
				for i := 0; ; {
					j := bytes.IndexByte(p[i:], '<')
					if j < 0 {
						break
					}
					sink++
					i += j + 1
				}
			}
		}
	})
	_ = sink
}

// BenchmarkSkipText reads the pages as links' fast path reads a page's
// body: its text passed over (SkipDataText), no state set by a tag's name,
// each tag's name and number of attributes.
func BenchmarkSkipText(b *testing.B) {
	pages, size := loadPages(b)
	var sink int
	b.SetBytes(size)
	for b.Loop() {
		for _, p := range pages {
			z := NewBytes(p)
			z.SetStateByName(false)
			z.SkipDataText(true)
			for {
				k := z.Next()
				if k == ErrorToken {
					break
				}
				if k == StartTagToken || k == EndTagToken {
					sink += len(z.Name()) + z.AttrCount()
				}
			}
		}
	}
	_ = sink
}

// loadPages returns the 1,699 pages of ../shared/data and their size.
func loadPages(b *testing.B) (pages [][]byte, size int64) {
	if err := docpages.Each("../../shared/data", func(_, _ string, body []byte) error {
		pages = append(pages, body)
		size += int64(len(body))
		return nil
	}); err != nil {
		b.Skipf("no shared data: %v", err)
	}
	return pages, size
}
