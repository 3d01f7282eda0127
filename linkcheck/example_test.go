package linkcheck_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/relurl/relurl"
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
	cr := linkcheck.CrawlOptions{Links: linkcheck.PageLinks(links.Options{Resolver: relurl.Resolver{Spec: relurl.WHATWG}})}
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
