package check

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/links"
)

// crawlSite serves a small site with planted breakage, and counts the
// requests for each path.
type crawlSite struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newCrawlSite(t *testing.T, pages map[string]string) *crawlSite {
	s := &crawlSite{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		body, ok := pages[r.URL.Path]
		switch {
		case !ok:
			http.NotFound(w, r)
		case strings.HasPrefix(body, "redirect:"):
			http.Redirect(w, r, strings.TrimPrefix(body, "redirect:"), http.StatusMovedPermanently)
		case strings.HasSuffix(r.URL.Path, ".txt"):
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.ReplaceAll(body, "SITE", "http://"+r.Host))
		case strings.HasSuffix(r.URL.Path, ".xml"):
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, strings.ReplaceAll(body, "SITE", "http://"+r.Host))
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, body)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// pageLinks is CrawlOptions.Links as relurl check has it.
var pageLinks = PageLinks(func() *links.Extractor {
	return &links.Extractor{Resolver: relurl.Resolver{Spec: relurl.WHATWG}, Positions: true}
})

// Crawl finds breakage reachable only through other pages, reads each page
// once (a redirect's target included), checks but does not follow what is
// out of scope or not a page, and keeps out of what robots.txt disallows.
func TestCrawl(t *testing.T) {
	outside := newCrawlSite(t, map[string]string{"/ok.html": "outside"})
	site := newCrawlSite(t, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /docs/secret/\n",
		"/docs/": `<a href=a.html>a</a> <a href=b.html#intro>b</a> <a href=missing.html>m</a>
			<a href=old.html>old</a> <img src=logo.png> <a href=/elsewhere.html>out of scope</a>
			<a href="` + outside.URL + `/ok.html">external</a> <a href="` + outside.URL + `/gone.html">external, gone</a>`,
		"/docs/a.html":        `<a href=deep/c.html>c</a> <a href=secret/s.html>s</a> <a href=new.html>new, again</a> <a href=b.html#nope>frag</a>`,
		"/docs/b.html":        `<h2 id=intro>Intro</h2> <a href=./>home</a>`,
		"/docs/old.html":      "redirect:/docs/new.html",
		"/docs/new.html":      `<p>moved here`,
		"/docs/logo.png":      `png`,
		"/docs/deep/c.html":   `<a href=broken.html>only found by crawling</a>`,
		"/elsewhere.html":     `<a href=/never-read.html>x</a>`,
		"/docs/secret/s.html": `<a href=/never-read.html>x</a>`,
		"/docs/sitemap.html":  ``,
	})
	res := Crawl(context.Background(), []string{site.URL + "/docs/"}, Options{}, CrawlOptions{Links: pageLinks})
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
	if res.Pages != 5 { // docs/, a, b, new (through old), deep/c; not logo.png
		t.Errorf("%d pages read, want 5", res.Pages)
	}
	broken := map[string]string{}
	states := map[string]State{}
	for _, r := range res.Reports {
		u := strings.TrimPrefix(strings.TrimPrefix(r.URL, site.URL), outside.URL)
		states[u] = r.State
		if r.State == Broken {
			broken[u] = r.Err
		}
	}
	wantBroken := []string{"/docs/missing.html", "/docs/deep/broken.html", "/docs/b.html#nope", "/gone.html"}
	for _, u := range wantBroken {
		if _, ok := broken[u]; !ok {
			t.Errorf("%s not reported broken (states %v)", u, states)
		}
	}
	if len(broken) != len(wantBroken) {
		t.Errorf("broken: %v, want just %v", broken, wantBroken)
	}
	if states["/docs/secret/s.html"] != Excluded {
		t.Errorf("/docs/secret/s.html: %v, want excluded by robots.txt", states["/docs/secret/s.html"])
	}
	for path, want := range map[string]int{
		"GET /docs/": 1, "GET /docs/a.html": 1, "GET /docs/b.html": 1, "GET /docs/old.html": 1, "GET /docs/new.html": 1,
		"GET /docs/deep/c.html": 1, "GET /robots.txt": 1, "GET /docs/secret/s.html": 0, "HEAD /docs/secret/s.html": 0, "GET /never-read.html": 0,
		"HEAD /elsewhere.html": 1, "GET /elsewhere.html": 0, "HEAD /docs/logo.png": 1, "GET /docs/logo.png": 0,
	} {
		if got := site.hits[path]; got != want {
			t.Errorf("%s: %d requests, want %d", path, got, want)
		}
	}
	if got := outside.hits["GET /robots.txt"]; got != 0 {
		t.Errorf("an external host's robots.txt was asked for: links out of scope are checked, not crawled")
	}
	if !slices.IsSortedFunc(res.Reports, func(a, b Report) int { return strings.Compare(a.Source, b.Source) }) {
		t.Error("reports not in SortLinks' order")
	}

	// Bounds: MaxDepth 1 reads the start and its pages, and counts what it
	// did not follow; IgnoreRobots reads /secret/.
	res = Crawl(context.Background(), []string{site.URL + "/docs/"}, Options{}, CrawlOptions{Links: pageLinks, MaxDepth: 1, Scope: []string{site.URL + "/"}, IgnoreRobots: true})
	if res.Pages != 5 || res.NotFollowed != 3 { // docs/, a, b, new, elsewhere; not deep/c, secret/s, never-read
		t.Errorf("MaxDepth 1: %d pages read, %d not followed; want 5 and 3", res.Pages, res.NotFollowed)
	}
	res = Crawl(context.Background(), []string{site.URL + "/docs/"}, Options{}, CrawlOptions{Links: pageLinks, MaxPages: 2})
	if res.Pages != 2 {
		t.Errorf("MaxPages 2: %d pages read", res.Pages)
	}
}

// A start that fails, or that robots.txt keeps out, is an error: no link
// leads to it to report it.
func TestCrawlStartFails(t *testing.T) {
	site := newCrawlSite(t, map[string]string{"/robots.txt": "User-agent: relurl-check\nDisallow: /private/\n"})
	res := Crawl(context.Background(), []string{site.URL + "/none.html", site.URL + "/private/"}, Options{}, CrawlOptions{Links: pageLinks})
	if len(res.Errors) != 2 || !strings.Contains(res.Errors[0].Error(), "404") || !strings.Contains(res.Errors[1].Error(), "robots.txt") {
		t.Errorf("errors: %v, want a 404 and robots.txt's", res.Errors)
	}
}

// Sitemap starts from the pages robots.txt's sitemap lists, through an
// index, within the scope; a site without a sitemap says so.
func TestCrawlSitemap(t *testing.T) {
	site := newCrawlSite(t, map[string]string{
		"/robots.txt":  "Sitemap: SITE/index.xml\n",
		"/index.xml":   `<sitemapindex><sitemap><loc>SITE/pages.xml</loc></sitemap></sitemapindex>`,
		"/pages.xml":   `<urlset><url><loc>SITE/orphan.html</loc></url><url><loc>http://elsewhere.invalid/x</loc></url></urlset>`,
		"/":            `<p>no links`,
		"/orphan.html": `<a href=gone.html>x</a>`,
	})
	res := Crawl(context.Background(), []string{site.URL + "/"}, Options{}, CrawlOptions{Links: pageLinks, Sitemap: true})
	if res.Pages != 2 || len(res.Reports) != 1 || res.Reports[0].State != Broken {
		t.Errorf("%d pages, reports %+v, errors %v; want 2 pages and gone.html broken", res.Pages, res.Reports, res.Errors)
	}
	bare := newCrawlSite(t, map[string]string{"/": `<p>no links`})
	res = Crawl(context.Background(), []string{bare.URL + "/"}, Options{}, CrawlOptions{Links: pageLinks, Sitemap: true})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error(), "no sitemap") {
		t.Errorf("errors %v, want one saying there is no sitemap", res.Errors)
	}
}

// A page in scope that redirects out of the site is checked, not read:
// the other site's links are not this one's. A start written in upper
// case is the site its links resolve to.
func TestCrawlRedirectOut(t *testing.T) {
	other := newCrawlSite(t, map[string]string{"/page.html": `<a href=gone.html>not ours</a>`})
	site := newCrawlSite(t, map[string]string{
		"/":         `<a href=out.html>out</a> <a href=/>again</a>`,
		"/out.html": "redirect:" + other.URL + "/page.html",
	})
	start := strings.Replace(site.URL, "http://", "HTTP://", 1) + "/"
	res := Crawl(context.Background(), []string{start}, Options{}, CrawlOptions{Links: pageLinks})
	if res.Pages != 1 || len(res.Errors) > 0 {
		t.Errorf("%d pages read, errors %v; want the start alone", res.Pages, res.Errors)
	}
	for _, r := range res.Reports {
		if r.State == Broken {
			t.Errorf("%s broken: %s", r.URL, r.Err)
		}
	}
	if other.hits["GET /gone.html"]+other.hits["HEAD /gone.html"] != 0 || site.hits["GET /"] != 1 {
		t.Errorf("hits: here %v, there %v", site.hits, other.hits)
	}
}

// A start that redirects takes the default scope along: a site whose /
// leads to /en/ is crawled under /en/.
func TestCrawlStartRedirects(t *testing.T) {
	site := newCrawlSite(t, map[string]string{
		"/docs/":         "redirect:/en/",
		"/en/":           `<a href=guide.html>guide</a>`,
		"/en/guide.html": `<a href=gone.html>gone</a>`,
	})
	res := Crawl(context.Background(), []string{site.URL + "/docs/"}, Options{}, CrawlOptions{Links: pageLinks})
	if res.Pages != 2 || len(res.Errors) > 0 || len(res.Reports) != 2 || res.Reports[1].State != Broken {
		t.Errorf("%d pages, errors %v, reports %+v; want /en/ and its guide read, gone.html broken", res.Pages, res.Errors, res.Reports)
	}
}
