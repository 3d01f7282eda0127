package linkcheck_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/links"
)

// Crawl reads a site from its start, page by page within its scope, and
// checks every link it finds, those leading out of the site included.
func ExampleChecker_Crawl() {
	pages := map[string]string{
		"/docs/":      `<a href="guide.html">guide</a> <a href="gone.html">gone</a>`,
		"/docs/guide": ``,
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, ok := pages[strings.TrimSuffix(r.URL.Path, ".html")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page+`<a href="#top" id="top">top</a>`)
	}))
	defer s.Close()
	cr := linkcheck.CrawlOptions{Links: linkcheck.PageLinks(links.Options{})}
	res := (&linkcheck.Checker{Options: linkcheck.Options{}}).Crawl(context.Background(), []string{s.URL + "/docs/"}, cr)
	defer res.Close()
	for r := range res.Reports() {
		fmt.Println(strings.TrimPrefix(r.URL, s.URL), r.State)
	}
	fmt.Println(res.Pages, "pages read")
	// Output:
	// /docs/guide.html ok
	// /docs/gone.html broken
	// /docs/#top ok
	// /docs/guide.html#top ok
	// 2 pages read
}

// A LinkSet keeps the links of documents as they are found, in a few bytes
// each, and CheckSet checks their distinct targets once; the reports come
// back document by document, each by line and column.
func ExampleLinkSet() {
	var set linkcheck.LinkSet
	defer set.Close()
	doc := set.Document()
	doc.Add(linkcheck.Link{Source: "page.html", Line: 2, Column: 1, URL: "https://example.org/b", Ref: "b"})
	doc.Add(linkcheck.Link{Source: "page.html", Line: 1, Column: 5, URL: "mailto:x@example.org", Ref: "mailto:x@example.org"})
	doc.Close()
	(&linkcheck.Checker{Options: linkcheck.Options{Offline: true}}).CheckSet(context.Background(), &set)
	for r := range set.Reports() {
		fmt.Println(r.Line, r.Ref, r.State)
	}
	// Output:
	// 1 mailto:x@example.org skipped
	// 2 b excluded
}
