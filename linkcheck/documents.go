package linkcheck

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/links"
)

// A Document is where links were found, for FromLink.
type Document struct {
	// Source names the document in reports: its file, its URL, or its
	// archive and record.
	Source string
	// File is the local file the document was read from, whose links to
	// other files are checked as files; "" for a page fetched by URL, a
	// WARC record or standard input.
	File string
}

// FromLink is the Link to check for link l of the document in, as package
// links finds links (with links.Extractor.Positions set, for the line and
// column).
func FromLink(l *links.Link, in Document) Link {
	c := Link{Source: in.Source, Line: l.Line, Column: l.Column, URL: string(l.URL), Ref: string(l.Ref),
		BaseFrom: l.Base.From, Element: l.Element, Attribute: l.Attribute, Local: in.File != "", File: in.File, Uses: l.Uses}
	if l.Markdown != 0 {
		c.Markdown = l.Markdown.String()
	}
	if l.Base.From != links.FromNone {
		c.Base = l.Base.URL
	}
	if l.URL == nil {
		c.URL = "" // unresolved, or refused by the URL parser
	}
	return c
}

// sortReports puts reports in the order of a report: by document, then
// line and column. Documents read at once hand their links out in any
// order.
func sortReports(rs []Report) {
	slices.SortStableFunc(rs, func(a, b Report) int { return compareLinks(&a.Link, &b.Link) })
}

// compareLinks orders links by document, then line and column.
func compareLinks(a, b *Link) int {
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Column - b.Column
}

// PageLinks returns the CrawlOptions.Links by which relurl check finds a
// page's links: corpus.Response reads the response, its layers of bases and
// all, with an Extractor by o for each page being read (set Positions, for
// the report's lines), and FromLink makes the Links. A page read only in part (a links.Loss)
// gives its links and the Loss.
func PageLinks(o links.Options) func(*http.Response) ([]Link, error) {
	extractors := sync.Pool{New: func() any { return &links.Extractor{Options: o} }}
	return func(resp *http.Response) ([]Link, error) {
		x := extractors.Get().(*links.Extractor)
		defer extractors.Put(x)
		doc := Document{Source: resp.Request.URL.String()}
		var found []Link
		var loss error
		err := corpus.Response(x, resp, &links.Handler{
			Link: func(l *links.Link) error { found = append(found, FromLink(l, doc)); return nil },
			Warn: func(err error) {
				if _, ok := err.(*links.Loss); ok && loss == nil {
					loss = err
				}
			},
		})
		return found, cmp.Or(err, loss)
	}
}
