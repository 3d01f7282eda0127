package check

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl"
	"github.com/temoto/robotstxt"
)

// CrawlOptions say how Crawl follows the pages of a site.
type CrawlOptions struct {
	// Scope lists URL prefixes: a page whose URL starts with one is read
	// for its links. Nil means each start's origin and directory:
	// "http://h/docs/" for "http://h/docs/index.html".
	Scope []string
	// MaxDepth bounds the links followed from a start to reach a page
	// (the start is at 0); 0 means no bound.
	MaxDepth int
	// MaxPages bounds the pages read; 0 means DefaultMaxPages. Pages in
	// scope past a bound are still checked, as any link is, not read.
	MaxPages int
	// IgnoreRobots reads pages that the site's robots.txt disallows to
	// relurl; by default they are excluded, neither read nor checked.
	IgnoreRobots bool
	// Sitemap starts from the pages of each start's sitemaps too: those
	// robots.txt names (Sitemap:), else /sitemap.xml.
	Sitemap bool
	// Links finds the links of a page: resp as fetched, with
	// resp.Request.URL where it was found after redirects and resp.Body
	// its first Options.MaxSize bytes. Package check does not find links
	// itself; links.Extractor.Response (with Positions) does, and FromLink
	// makes the Links.
	Links func(resp *http.Response) ([]Link, error)
	// Progress, if not nil, is called as pages are read, with the count
	// read and the count known.
	Progress func(read, known int)
}

// DefaultMaxPages is Crawl's bound on the pages read when MaxPages is 0.
const DefaultMaxPages = 100_000

// A CrawlResult is what Crawl found.
type CrawlResult struct {
	Reports     []Report // every link of every page read, checked, in the order of SortLinks
	Pages       int      // pages read for their links
	NotFollowed int      // pages in scope not read, for MaxDepth or MaxPages
	// Errors are the pages whose links could not be read: a start that
	// failed, a page cut at MaxSize, what Links returned.
	Errors []error
}

// follows reports whether a link leads to a page a reader goes on to: an
// <a> or <area> href, a frame's or an iframe's src. A stylesheet or an
// image in scope is checked, not read for links.
func follows(l Link) bool {
	switch l.Element {
	case "a", "area", "frame", "iframe":
		return true
	}
	return false
}

// Crawl checks a site: it reads the pages at starts, follows their links
// to the pages within the scope, breadth first, reads each of those once,
// and then checks every link found, as Run does, the pages it read
// counting as checked (and their ids known for fragments). A redirect's
// target counts as read too. The starts are read wherever they lead,
// and a start that redirects takes the default scope along; other links
// out of the scope, and pages that redirect out of it, are checked, not
// read. Starts are taken as the URL
// Standard writes them, as links are. Requests keep Options' politeness,
// robots.txt's included.
func Crawl(ctx context.Context, starts []string, o Options, cr CrawlOptions) CrawlResult {
	starts = slices.Clone(starts)
	for i, s := range starts {
		if web, err := relurl.ParseWeb(s); err == nil {
			starts[i] = web.String() // as links are resolved: "HTTP://H" is "http://h/"
		}
	}
	c := newChecker(o)
	w := &crawler{c: c, opt: cr, maxPages: cr.MaxPages, scope: cr.Scope, seen: map[string]bool{}, known: map[string]targetResult{},
		robots: &robotsCache{c: c, ignore: cr.IgnoreRobots, hosts: map[string]*robotsEntry{}}}
	if w.maxPages <= 0 {
		w.maxPages = DefaultMaxPages
	}
	if w.scope == nil {
		for _, s := range starts {
			w.scope = append(w.scope, defaultScope(s))
		}
	}
	var level []string
	add := func(u string) {
		if t, _ := splitFragment(u); !w.seen[t] {
			w.seen[t] = true
			level = append(level, t)
		}
	}
	for _, s := range starts {
		add(s)
	}
	if cr.Sitemap {
		for _, s := range starts {
			pages, errs := w.robots.sitemapPages(ctx, s)
			w.res.Errors = append(w.res.Errors, errs...)
			for _, u := range pages {
				if w.inScope(u) && len(level) < w.maxPages {
					add(u)
				}
			}
		}
	}
	for depth := 0; len(level) > 0 && ctx.Err() == nil; depth++ {
		level = w.round(ctx, level, depth)
		if cr.Progress != nil {
			cr.Progress(w.res.Pages, w.res.Pages+len(level))
		}
	}
	SortLinks(w.links)
	w.res.Reports = c.run(ctx, w.links, w.known, nil)
	return w.res
}

// crawler is one Crawl's state.
type crawler struct {
	c        *checker
	opt      CrawlOptions
	maxPages int
	scope    []string
	robots   *robotsCache
	seen     map[string]bool         // pages read, being read or not to be read
	known    map[string]targetResult // the results of the pages read, by URL
	links    []Link                  // of every page read
	res      CrawlResult
}

func (w *crawler) inScope(u string) bool {
	for _, p := range w.scope {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// round reads the pages of level, at depth links from a start, at once,
// and returns those of the next round.
func (w *crawler) round(ctx context.Context, level []string, depth int) []string {
	pages := make([]crawledPage, len(level))
	var wg sync.WaitGroup
	sem := make(chan struct{}, w.c.o.Concurrency)
	for i, u := range level {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			pages[i] = w.page(ctx, u, depth == 0)
		}()
	}
	wg.Wait()
	// First what this round read, so that a page one of them was
	// redirected to is not read again for a link to it.
	for i, u := range level {
		w.known[u] = pages[i].result
		for _, hop := range pages[i].result.Redirects {
			w.known[hop] = pages[i].result
			w.seen[hop] = true
		}
	}
	var next []string
	for i, u := range level {
		p := &pages[i]
		if p.read {
			w.res.Pages++
		}
		if p.err != nil {
			w.res.Errors = append(w.res.Errors, p.err)
		}
		if depth == 0 && p.result.State != OK {
			// No link leads to a start: its failure is said here.
			w.res.Errors = append(w.res.Errors, fmt.Errorf("%s: %s", u, p.result.Err))
		}
		if n := len(p.result.Redirects); depth == 0 && n > 0 && w.opt.Scope == nil {
			// A start that redirects (http: to https:, / to /en/) brings
			// the default scope along.
			w.scope = append(w.scope, defaultScope(p.result.Redirects[n-1]))
		}
		for _, l := range p.links {
			w.links = append(w.links, l)
			t, _ := splitFragment(l.URL)
			if t == "" || w.seen[t] || !follows(l) || !w.inScope(t) {
				continue
			}
			w.seen[t] = true
			if w.opt.MaxDepth > 0 && depth+1 > w.opt.MaxDepth || w.res.Pages+len(next) >= w.maxPages {
				w.res.NotFollowed++
				continue
			}
			next = append(next, t)
		}
	}
	return next
}

// defaultScope is the origin and directory of start: what a site's
// documentation under it is.
func defaultScope(start string) string {
	u, err := url.Parse(start)
	if err != nil {
		return start
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	u.Path = u.Path[:strings.LastIndexByte(u.Path, '/')+1]
	u.RawPath = ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// crawledPage is one page of a crawl: its check, and its links when it
// was read.
type crawledPage struct {
	result targetResult
	read   bool
	links  []Link
	err    error
}

// page reads the page at u for its links: robots.txt asked first, then
// GET, its redirects followed, and the body, when HTML and where it ended
// up is within the scope (or u is a start, which is read wherever it
// leads), handed to Links. It only reads w.known and w.scope, which the
// rounds write between them.
func (w *crawler) page(ctx context.Context, u string, start bool) crawledPage {
	if !w.robots.allowed(ctx, u) {
		return crawledPage{result: targetResult{Result: Result{State: Excluded, Err: "robots.txt disallows it"}}}
	}
	page := fetchedPage{known: w.known}
	r := w.c.follow(ctx, http.MethodGet, u, &page)
	p := crawledPage{result: r}
	final := u
	if n := len(r.Redirects); n > 0 {
		final = r.Redirects[n-1]
	}
	switch {
	case r.State != OK, page.body == nil, page.reached, !start && !w.inScope(final):
		// Broken (its links report it), not HTML, read already, or
		// redirected out of the site: checked, not read.
		return p
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, final, nil)
	resp := &http.Response{StatusCode: r.Status, Header: page.header, Body: io.NopCloser(bytes.NewReader(page.body)), Request: req}
	p.read = true
	p.links, p.err = w.opt.Links(resp)
	if p.err == nil && r.cut {
		p.err = fmt.Errorf("%s: longer than %d bytes: links from its first %d bytes only", final, w.c.o.MaxSize, w.c.o.MaxSize)
	}
	return p
}

// robotsCache asks each origin's robots.txt once, for the pages a crawl
// reads.
type robotsCache struct {
	c      *checker
	ignore bool
	mu     sync.Mutex
	hosts  map[string]*robotsEntry
}

type robotsEntry struct {
	once  sync.Once
	group *robotstxt.Group // nil: everything is allowed
	data  *robotstxt.RobotsData
}

// robotsAgent is the token relurl's User-Agent is matched by in
// robots.txt.
const robotsAgent = "relurl-check"

func (rc *robotsCache) entry(ctx context.Context, u *url.URL) *robotsEntry {
	origin := u.Scheme + "://" + u.Host
	rc.mu.Lock()
	e := rc.hosts[origin]
	if e == nil {
		e = &robotsEntry{}
		rc.hosts[origin] = e
	}
	rc.mu.Unlock()
	e.once.Do(func() {
		resp, err := rc.c.do(ctx, http.MethodGet, origin+"/robots.txt")
		if err != nil {
			return // no answer: no rules, as a browser has none
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512<<10)) // Google reads 500 KiB
		data, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
		if err != nil {
			return
		}
		e.data, e.group = data, data.FindGroup(robotsAgent)
	})
	return e
}

// allowed reports whether robots.txt lets relurl read u.
func (rc *robotsCache) allowed(ctx context.Context, u string) bool {
	p, err := url.Parse(u)
	if rc.ignore || err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return true
	}
	e := rc.entry(ctx, p)
	return e.group == nil || e.group.Test(p.RequestURI())
}

// maxSitemaps bounds the sitemaps read for a start, an index's included.
const maxSitemaps = 100

// sitemapPages returns the pages of start's sitemaps: those its
// robots.txt names, else /sitemap.xml; a sitemap index is followed one
// level down. A sitemap that cannot be read is an error; no sitemap at
// all is none.
func (rc *robotsCache) sitemapPages(ctx context.Context, start string) ([]string, []error) {
	p, err := url.Parse(start)
	if err != nil {
		return nil, nil
	}
	type sitemap struct {
		loc   string
		index bool // named by an index: not an index itself
	}
	var maps []sitemap
	if e := rc.entry(ctx, p); e.data != nil {
		for _, m := range e.data.Sitemaps {
			maps = append(maps, sitemap{loc: m})
		}
	}
	fallback := len(maps) == 0
	if fallback {
		maps = []sitemap{{loc: p.Scheme + "://" + p.Host + "/sitemap.xml"}}
	}
	var pages []string
	var errs []error
	for i := 0; i < len(maps) && i < maxSitemaps; i++ {
		var sm struct {
			URLs     []string `xml:"url>loc"`
			Sitemaps []string `xml:"sitemap>loc"`
		}
		resp, err := rc.c.do(ctx, http.MethodGet, maps[i].loc)
		if err == nil && resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			if fallback && i == 0 && resp.StatusCode == http.StatusNotFound {
				return nil, []error{fmt.Errorf("%s: 404 Not Found: the site has no sitemap there, and robots.txt names none", maps[i].loc)}
			}
			err = fmt.Errorf("%s", resp.Status)
		} else if err == nil {
			err = xml.NewDecoder(io.LimitReader(resp.Body, rc.c.o.MaxSize)).Decode(&sm)
			resp.Body.Close()
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("sitemap %s: %w", maps[i].loc, err))
			continue
		}
		for _, u := range sm.URLs {
			pages = append(pages, strings.TrimSpace(u))
		}
		if !maps[i].index {
			for _, m := range sm.Sitemaps {
				maps = append(maps, sitemap{loc: strings.TrimSpace(m), index: true})
			}
		}
	}
	return pages, errs
}
