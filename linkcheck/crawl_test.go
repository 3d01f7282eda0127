package linkcheck

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
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
var pageLinks = PageLinks(links.Options{Resolver: &relurl.Resolver{Spec: relurl.WHATWG}, Positions: true})

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
	res := (&Checker{}).Crawl(context.Background(), []string{site.URL + "/docs/"}, CrawlOptions{Links: pageLinks})
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
	if res.Pages != 5 { // docs/, a, b, new (through old), deep/c; not logo.png
		t.Errorf("%d pages read, want 5", res.Pages)
	}
	broken := map[string]string{}
	states := map[string]State{}
	for _, r := range collect(res) {
		u := strings.TrimPrefix(strings.TrimPrefix(r.URL, site.URL), outside.URL)
		states[u] = r.State
		if r.State == Broken {
			broken[u] = errText(r.Err)
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
	if !slices.IsSortedFunc(collect(res), func(a, b Report) int { return strings.Compare(a.Source, b.Source) }) {
		t.Error("reports not in Check's order")
	}

	// Bounds: MaxDepth 1 reads the start and its pages, and counts what it
	// did not follow; IgnoreRobots reads /secret/.
	res = (&Checker{Options: Options{}}).Crawl(context.Background(), []string{site.URL + "/docs/"}, CrawlOptions{Links: pageLinks, MaxDepth: 1, Scope: []string{site.URL + "/"}, IgnoreRobots: true})
	if res.Pages != 5 || res.NotFollowed != 3 { // docs/, a, b, new, elsewhere; not deep/c, secret/s, never-read
		t.Errorf("MaxDepth 1: %d pages read, %d not followed; want 5 and 3", res.Pages, res.NotFollowed)
	}
	res = (&Checker{Options: Options{}}).Crawl(context.Background(), []string{site.URL + "/docs/"}, CrawlOptions{Links: pageLinks, MaxPages: 2})
	if res.Pages != 2 {
		t.Errorf("MaxPages 2: %d pages read", res.Pages)
	}
}

// A start that fails, or that robots.txt keeps out, is an error: no link
// leads to it to report it.
func TestCrawlStartFails(t *testing.T) {
	site := newCrawlSite(t, map[string]string{"/robots.txt": "User-agent: relurl-check\nDisallow: /private/\n"})
	res := (&Checker{Options: Options{}}).Crawl(context.Background(), []string{site.URL + "/none.html", site.URL + "/private/"}, CrawlOptions{Links: pageLinks})
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
	res := (&Checker{Options: Options{}}).Crawl(context.Background(), []string{site.URL + "/"}, CrawlOptions{Links: pageLinks, Sitemap: true})
	// The orphan, a link of the sitemap, and its broken link.
	if reports := collect(res); res.Pages != 2 || len(reports) != 2 || reports[0].State != Broken || reports[1].Element != "sitemap" || reports[1].State != OK {
		t.Errorf("%d pages, reports %+v, errors %v; want 2 pages and gone.html broken", res.Pages, collect(res), res.Errors)
	}
	bare := newCrawlSite(t, map[string]string{"/": `<p>no links`})
	res = (&Checker{Options: Options{}}).Crawl(context.Background(), []string{bare.URL + "/"}, CrawlOptions{Links: pageLinks, Sitemap: true})
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
	res := (&Checker{Options: Options{}}).Crawl(context.Background(), []string{start}, CrawlOptions{Links: pageLinks})
	if res.Pages != 1 || len(res.Errors) > 0 {
		t.Errorf("%d pages read, errors %v; want the start alone", res.Pages, res.Errors)
	}
	for _, r := range collect(res) {
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
	res := (&Checker{Options: Options{}}).Crawl(context.Background(), []string{site.URL + "/docs/"}, CrawlOptions{Links: pageLinks})
	if res.Pages != 2 || len(res.Errors) > 0 || len(collect(res)) != 2 || collect(res)[1].State != Broken {
		t.Errorf("%d pages, errors %v, reports %+v; want /en/ and its guide read, gone.html broken", res.Pages, res.Errors, collect(res))
	}
}

// collect returns the reports of a crawl.
// Without CrawlOptions.Links, a Crawl reads pages as relurl check does.
func TestCrawlDefaultLinks(t *testing.T) {
	site := newCrawlSite(t, map[string]string{
		"/":       `<a href=a.html>a</a> <a href=gone.html>gone</a> <img src=i.png>`,
		"/a.html": `<p id=x>a</p> <a href="./#top">back</a>`,
		"/i.png":  "png",
	})
	res := (&Checker{}).Crawl(context.Background(), []string{site.URL + "/"}, CrawlOptions{Links: pageLinks})
	defer res.Close()
	// Without Links, the Crawl reads pages as pageLinks does.
	byDefault := (&Checker{}).Crawl(context.Background(), []string{site.URL + "/"}, CrawlOptions{})
	outline := func(rs []Report) (s []string) {
		for _, r := range rs {
			s = append(s, fmt.Sprintf("%s:%d:%d %s %v %d", r.Source, r.Line, r.Column, r.URL, r.State, r.Status))
		}
		return s
	}
	if a, b := strings.Join(outline(collect(res)), "\n"), strings.Join(outline(collect(byDefault)), "\n"); a != b {
		t.Errorf("nil Links reads otherwise:\n%s\nwant\n%s", b, a)
	}
	byDefault.Close()
	if res.Pages != 2 {
		t.Errorf("%d pages read, want 2", res.Pages)
	}
}

func collect(r *CrawlResult) []Report { return slices.Collect(r.Reports()) }

// PerHost counts a request until its answer's body is read: a server that
// sends its headers at once and its body slowly has at most PerHost
// bodies under way (it had 8 at once with PerHost 2, the slot given back
// at the headers).
func TestPerHostCountsBodies(t *testing.T) {
	var now, most atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for range 5 {
			time.Sleep(10 * time.Millisecond)
			fmt.Fprint(w, "<p>more</p>")
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, `<p id="end">`)
	}))
	defer s.Close()
	var ls []Link
	for i := range 8 {
		ls = append(ls, Link{URL: fmt.Sprintf("%s/%d#end", s.URL, i)})
	}
	for _, r := range (&Checker{Options: Options{PerHost: 2, Concurrency: 8}}).Check(context.Background(), ls) {
		if r.State != OK {
			t.Errorf("%s: %v %s", r.URL, r.State, r.Err)
		}
	}
	if got := most.Load(); got > 2 {
		t.Errorf("%d answers at once to one host, want at most 2", got)
	}
}

// robots.txt as RFC 9309 has a crawler read it: 4xx allows every page;
// 5xx, a stall past the timeout, or no server at all disallows every
// page, and says so; redirects are followed, five at most.
func TestCrawlRobots(t *testing.T) {
	page := `<a href=a.html>a</a> <a href=private/b.html>b</a>`
	site := func(robots func(w http.ResponseWriter, r *http.Request)) *crawlSite {
		s := newCrawlSite(t, map[string]string{"/": page, "/a.html": "<p>a", "/private/b.html": "<p>b", "/real.txt": "User-agent: *\nDisallow: /private/\n"})
		inner := s.Config.Handler
		s.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				s.mu.Lock()
				s.hits[r.Method+" "+r.URL.Path]++
				s.mu.Unlock()
				robots(w, r)
				return
			}
			inner.ServeHTTP(w, r)
		})
		return s
	}
	hop := func(n int) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			k, _ := strconv.Atoi(r.URL.Query().Get("k"))
			if k < n {
				http.Redirect(w, r, fmt.Sprintf("/robots.txt?k=%d", k+1), http.StatusFound)
				return
			}
			http.Redirect(w, r, "/real.txt", http.StatusFound)
		}
	}
	for _, tt := range []struct {
		name   string
		robots func(w http.ResponseWriter, r *http.Request)
		pages  int    // read
		err    string // in the errors, if any
	}{
		{"404: no rules", http.NotFound, 3, ""},
		{"403: no rules", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) }, 3, ""},
		{"500: every page disallowed", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) }, 0,
			"robots.txt 500 Internal Server Error: the site's pages are not read"},
		{"501: every page disallowed", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotImplemented) }, 0,
			"robots.txt 501 Not Implemented: the site's pages are not read"},
		{"a stall: every page disallowed", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			for range 40 {
				fmt.Fprint(w, "#")
				w.(http.Flusher).Flush()
				select {
				case <-time.After(50 * time.Millisecond):
				case <-r.Context().Done():
					return
				}
			}
		}, 0, "no whole answer within 500ms: the site's pages are not read"},
		{"redirected 4 times: followed", hop(3), 2, ""},
		{"redirected 6 times: unavailable, no rules", hop(5), 3, ""},
		// Over 500 KiB, a line the bound cuts is no rule: cut, the one
		// below was "Disallow: /****", every page.
		{"a line cut at 500 KiB: not a rule", func(w http.ResponseWriter, r *http.Request) {
			body := "User-agent: *\nDisallow: /private/\n"
			body += strings.Repeat("# padding\n", (robotsMaxSize-len(body)-20)/10)
			body += "Disallow: /" + strings.Repeat("*", 100) + "matches-nothing\n"
			io.WriteString(w, body)
		}, 2, "robots.txt is longer than the 500 KiB that RFC 9309 has a crawler read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := site(tt.robots)
			start := time.Now()
			res := (&Checker{Options: Options{HTTP: source.HTTP{Timeout: 500 * time.Millisecond, Retry: source.Retry{Attempts: 1, Base: time.Millisecond}}}}).Crawl(context.Background(), []string{s.URL + "/"}, CrawlOptions{Links: pageLinks})
			defer res.Close()
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
			if res.Pages != tt.pages {
				t.Errorf("%d pages read, want %d", res.Pages, tt.pages)
			}
			said := fmt.Sprint(res.Errors)
			if tt.err == "" && len(res.Errors) > 0 || tt.err != "" && (!strings.Contains(said, tt.err) || len(res.Errors) != 1) {
				t.Errorf("errors %v, want one saying %q", res.Errors, tt.err)
			}
		})
	}
	// No server at all: its robots.txt cannot be reached, and the start is
	// said to fail for it.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	res := (&Checker{Options: Options{HTTP: source.HTTP{Timeout: time.Second}}}).Crawl(context.Background(), []string{gone.URL + "/"}, CrawlOptions{Links: pageLinks})
	defer res.Close()
	if res.Pages != 0 || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error(), "connection refused: the site's pages are not read") {
		t.Errorf("no server: %d pages, errors %v", res.Pages, res.Errors)
	}
}

// MaxPages is exact: a site where each page leads to ten new ones is read
// MaxPages pages, not more (it read 250 for 200: the bound was checked
// against the pages read so far, not those asked for).
func TestCrawlMaxPagesExact(t *testing.T) {
	var gets atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p/"))
		for i := range 10 {
			fmt.Fprintf(w, "<a href=/p/%d>x</a>\n", n*10+i+1)
		}
	}))
	defer s.Close()
	for _, max := range []int{1, 7, 200, 300} {
		gets.Store(0)
		res := (&Checker{Options: Options{}}).Crawl(context.Background(), []string{s.URL + "/p/0"}, CrawlOptions{Links: pageLinks, MaxPages: max})
		reports := collect(res)
		res.Close()
		if res.Pages != max || int(gets.Load()) != max {
			t.Errorf("MaxPages %d: %d pages read, %d GETs", max, res.Pages, gets.Load())
		}
		if res.NotFollowed == 0 || len(reports) != 10*max {
			t.Errorf("MaxPages %d: %d not followed, %d reports", max, res.NotFollowed, len(reports))
		}
	}
}

// MaxSize bounds the pages a crawl reads: a page past it gives the links
// of its first MaxSize bytes, and an error says so.
func TestCrawlMaxSize(t *testing.T) {
	s := newCrawlSite(t, map[string]string{"/": `<a href=a.html>a</a>` + strings.Repeat("<p>filler</p>", 1000) + `<a href=b.html>b</a>`, "/a.html": "<p>a", "/b.html": "<p>b"})
	res := (&Checker{Options: Options{MaxSize: 1000}}).Crawl(context.Background(), []string{s.URL + "/"}, CrawlOptions{Links: pageLinks})
	defer res.Close()
	if res.Pages != 2 || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error(), "longer than 1000 bytes") {
		t.Errorf("%d pages, errors %v; want 2 pages and the cut said", res.Pages, res.Errors)
	}
}

// Sitemaps are streamed, gzip or not, read up to the protocol's bounds,
// and what a bound leaves out is counted: URLs past 50,000 in a sitemap,
// and the sitemaps not read once MaxPages is reached. A page a sitemap
// lists is a link of the sitemap's, at its line: one that is broken is
// reported so.
func TestCrawlSitemapBounds(t *testing.T) {
	s := newCrawlSite(t, map[string]string{
		"/robots.txt":     "Sitemap: SITE/index.xml\n",
		"/index.xml":      `<sitemapindex><sitemap><loc>SITE/small.xml.gz</loc></sitemap><sitemap><loc>SITE/big.xml</loc></sitemap><sitemap><loc>SITE/never.xml</loc></sitemap></sitemapindex>`,
		"/":               "<p>home",
		"/from-gzip.html": "<p>from the gzip sitemap",
	})
	inner := s.Config.Handler
	first := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		site := "http://" + r.Host
		switch {
		case r.URL.Path == "/big.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
			for i := range sitemapMaxURLs + 7 {
				fmt.Fprintf(w, "<url><loc>%s/p/%d</loc></url>\n", site, i)
			}
			fmt.Fprint(w, "<url><loc>"+site+"/gone.html</loc></url></urlset>")
		case r.URL.Path == "/small.xml.gz":
			z := gzip.NewWriter(w)
			fmt.Fprint(z, `<urlset><url><loc>`+site+`/from-gzip.html</loc></url></urlset>`)
			z.Close()
		case strings.HasPrefix(r.URL.Path, "/p/"):
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>a page")
		default:
			inner.ServeHTTP(w, r)
		}
	})
	s.Config.Handler = first
	res := (&Checker{Options: Options{}}).Crawl(context.Background(), []string{s.URL + "/"}, CrawlOptions{Links: pageLinks, Sitemap: true, MaxPages: 60_000})
	n := res.Sitemaps
	if n.Read != 3 || n.PastLimit != 8 || n.URLs != sitemapMaxURLs+1 || n.Failed != 1 || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error(), "never.xml: 404") {
		t.Errorf("sitemaps %+v, errors %v; want 3 read (the index, the gzip one, the big one), 8 URLs past the bound, never.xml failed", n, res.Errors)
	}
	if s.hits["GET /from-gzip.html"] != 1 || res.Pages != sitemapMaxURLs+2 {
		t.Errorf("%d pages read, the gzip sitemap's page %d times; want %d, once", res.Pages, s.hits["GET /from-gzip.html"], sitemapMaxURLs+2)
	}
	res.Close()

	// MaxPages reached in the big sitemap: the rest of it, and never.xml,
	// are not read; a broken page listed is reported at its line.
	s.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big.xml" {
			fmt.Fprint(w, "<urlset>\n<url><loc>http://"+r.Host+"/gone.html</loc></url>\n")
			for i := range 100 {
				fmt.Fprintf(w, "<url><loc>http://%s/p/%d</loc></url>\n", r.Host, i)
			}
			fmt.Fprint(w, "</urlset>")
			return
		}
		first.ServeHTTP(w, r)
	})
	res = (&Checker{Options: Options{}}).Crawl(context.Background(), []string{s.URL + "/"}, CrawlOptions{Links: pageLinks, Sitemap: true, MaxPages: 10})
	defer res.Close()
	if n := res.Sitemaps; n.Partly != 1 || n.NotRead != 1 || len(res.Errors) != 0 {
		t.Errorf("MaxPages 10: sitemaps %+v, errors %v", n, res.Errors)
	}
	var broken []Report
	for r := range res.Reports() {
		if r.State == Broken {
			broken = append(broken, r)
		}
	}
	if len(broken) != 1 || broken[0].Source != s.URL+"/big.xml" || broken[0].Line != 2 || broken[0].Element != "sitemap" || !strings.HasSuffix(broken[0].URL, "/gone.html") {
		t.Errorf("broken: %+v, want gone.html, listed on line 2 of big.xml", broken)
	}
}

// A server whose Location grows 10 KB a hop, followed up to 1,000
// redirects, is given up once the chain's URLs pass 1 MiB: the chain is
// kept for the report, and it took gigabytes.
func TestRedirectChainBounded(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+strings.Repeat("a", 10_000), http.StatusFound)
	}))
	defer s.Close()
	reports := (&Checker{Options: Options{HTTP: source.HTTP{MaxRedirects: 1000, Timeout: 5 * time.Second}}}).Check(context.Background(), []Link{{Source: "x", URL: s.URL + "/"}})
	r := reports[0]
	if r.State != Broken || !strings.Contains(fmt.Sprint(r.Err), "its redirects' URLs add up to more than 1048576 bytes") || len(r.Redirects) > 110 {
		t.Errorf("state %v, error %v, %d redirects", r.State, r.Err, len(r.Redirects))
	}
}
