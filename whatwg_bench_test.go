package relurl

import (
	"testing"

	nlnwa "github.com/nlnwa/whatwg-url/url"
	"github.com/relurl/relurl/whatwg"
)

// BenchmarkBaseURLAppendResolve resolves each href of the documentation
// pages against its page by each standard, the base prepared once per page
// (consecutive pairs share their page), into a reused buffer: what a link
// extractor does. Under the WHATWG URL Standard this is the browser's
// new URL(href, page).href.
func BenchmarkBaseURLAppendResolve(b *testing.B) {
	for _, spec := range []Spec{RFC1808, RFC3986, WHATWG} {
		name, _ := spec.MarshalText()
		b.Run("spec="+string(name), func(b *testing.B) {
			pairs := loadPairs(b)
			b.ReportAllocs()
			r := Resolver{Spec: spec}
			buf := make([]byte, 0, 1024)
			var base Base
			page := ""
			for i := 0; b.Loop(); i++ {
				p := pairs[i%len(pairs)]
				if p.base != page {
					page = p.base
					base, _ = r.Base(page)
				}
				buf, _ = base.AppendResolve(buf[:0], p.ref)
			}
			sink = len(buf)
		})
	}
}

// BenchmarkResolveNlnwa is the yardstick of the WHATWG case of
// BenchmarkBaseURLAppendResolve: github.com/nlnwa/whatwg-url, Go's other
// implementation of the URL Standard, the base parsed once per page.
func BenchmarkResolveNlnwa(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	var base *nlnwa.Url
	page := ""
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		if p.base != page {
			page = p.base
			base, _ = nlnwa.Parse(page)
		}
		if u, err := base.Parse(p.ref); err == nil {
			sinkString = u.Href(false)
		}
	}
}

// BenchmarkWebAppendResolve parses the base of each pair again, as
// Resolver.AppendResolve does: new URL(href, page) with page a string.
func BenchmarkWebAppendResolve(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	r := Resolver{Spec: WHATWG}
	buf := make([]byte, 0, 1024)
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		buf, _ = r.AppendResolve(buf[:0], p.base, p.ref)
	}
	sink = len(buf)
}

// BenchmarkParseWeb parses each of the 48,010 web URLs by the URL Standard;
// BenchmarkSplitNetURL is net/url.Parse on the same.
func BenchmarkParseWeb(b *testing.B) {
	urls := loadURLs(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u, _ := whatwg.Parse(urls[i%len(urls)])
		sink = len(u.Href())
	}
}

// BenchmarkParseNlnwa is BenchmarkParseWeb's yardstick.
func BenchmarkParseNlnwa(b *testing.B) {
	urls := loadURLs(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if u, err := nlnwa.Parse(urls[i%len(urls)]); err == nil {
			sinkString = u.Href(false)
		}
	}
}
