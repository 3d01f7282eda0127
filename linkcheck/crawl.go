package linkcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/whatwg"
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
	// MaxPages bounds the pages asked for to be read, the starts and the
	// pages of sitemaps included; 0 means DefaultMaxPages. Pages in scope
	// past a bound are still checked, as any link is, not read.
	MaxPages int
	// IgnoreRobots reads pages that the site's robots.txt disallows to
	// relurl; by default they are excluded, neither read nor checked.
	IgnoreRobots bool
	// Sitemap starts from the pages of each start's sitemaps too: those
	// robots.txt names (Sitemap:), else /sitemap.xml.
	Sitemap bool
	// Links finds the links of a page: resp as fetched, with
	// resp.Request.URL where it was found after redirects and resp.Body
	// its first Options.MaxSize bytes. Nil means PageLinks with the URL
	// Standard, as browsers read pages, and Positions for the report's
	// lines.
	Links func(resp *http.Response) ([]Link, error)
	// Progress, if not nil, is called as pages are read, with the count
	// read and the count known, and then as the targets of the links are
	// checked, with the count checked and the count in all.
	Progress func(stage CrawlStage, done, total int)
}

// A CrawlStage is what Crawl is doing when it calls Progress.
type CrawlStage int

const (
	Reading  CrawlStage = iota // reading pages for their links
	Checking                   // checking the targets of the links found
)

// DefaultMaxPages is Crawl's bound on the pages read when MaxPages is 0.
const DefaultMaxPages = 100_000

// A CrawlResult is what Crawl found. Its reports are kept compactly,
// in a temporary file when they are many: Close gives it back.
type CrawlResult struct {
	Pages       int // pages read for their links
	NotFollowed int // pages in scope not read, for MaxDepth or MaxPages
	Sitemaps    SitemapCounts
	// Errors are the pages whose links could not be read: a start that
	// failed, a page cut at MaxSize, what Links returned, a robots.txt
	// that could not be read (its site's pages are not read), a sitemap.
	Errors []error

	set *linkSet
	c   *checker
}

// Reports returns the reports of every link of every page read, in the
// order of Checker.Check. It may be iterated more than once. An error reading
// them back stops the iteration, and Err says it.
func (r *CrawlResult) Reports() iter.Seq[Report] {
	if r.set == nil {
		return func(func(Report) bool) {}
	}
	return r.set.reports(r.c)
}

// Err is the error that stopped Reports, if any.
func (r *CrawlResult) Err() error {
	if r.set == nil {
		return nil
	}
	return r.set.err
}

// Close removes what keeps the reports.
func (r *CrawlResult) Close() {
	if r.set != nil {
		r.set.close()
	}
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
// and then checks every link found, as Check does, the pages it read
// counting as checked (and their ids known for fragments). A redirect's
// target counts as read too. The starts are read wherever they lead,
// and a start that redirects takes the default scope along; other links
// out of the scope, and pages that redirect out of it, are checked, not
// read. Starts are taken as the URL Standard writes them, as links are.
// Requests keep Options' politeness, robots.txt's included (RFC 9309).
//
// Memory does not grow with the links found: they are kept compactly,
// and in a temporary file past a few tens of megabytes, until the
// reports need them. Close the result when done with its reports.
func (ch *Checker) Crawl(ctx context.Context, starts []string, cr CrawlOptions) *CrawlResult {
	o := ch.Options
	starts = slices.Clone(starts)
	for i, s := range starts {
		if web, err := whatwg.Parse(s); err == nil {
			starts[i] = web.String() // as links are resolved: "HTTP://H" is "http://h/"
		}
	}
	c := newChecker(o)
	if cr.Links == nil {
		cr.Links = defaultPageLinks
	}
	w := &crawler{c: c, opt: cr, maxPages: cr.MaxPages, scope: cr.Scope, seen: map[string]bool{}, starts: map[string]bool{},
		robots: &robotsCache{c: c, ignore: cr.IgnoreRobots, hosts: map[string]*robotsEntry{}},
		res:    &CrawlResult{set: newLinkSet(), c: c}}
	if w.maxPages <= 0 {
		w.maxPages = DefaultMaxPages
	}
	if w.scope == nil {
		for _, s := range starts {
			w.scope = append(w.scope, defaultScope(s))
		}
	}
	var level []string
	for _, s := range starts {
		if t, _ := splitFragment(s); !w.seen[t] {
			w.seen[t] = true
			w.starts[t] = true
			level = append(level, t)
			w.asked++ // a start is read whatever the bound
		}
	}
	if cr.Sitemap {
		for _, s := range starts {
			w.res.Sitemaps.add(w.robots.sitemapPages(ctx, s, func(sitemap, loc string, line, col int) bool {
				return w.listed(sitemap, loc, line, col, &level)
			}, func() bool { return w.asked >= w.maxPages }, &w.res.Errors))
		}
		w.res.set.add(w.listedLinks)
		w.listedLinks = nil
	}
	for depth := 0; len(level) > 0 && ctx.Err() == nil; depth++ {
		level = w.round(ctx, level, depth)
		if cr.Progress != nil {
			cr.Progress(Reading, w.res.Pages, w.res.Pages+len(level))
		}
	}
	w.res.Errors = append(w.res.Errors, w.robots.denied()...)
	var progress func(done, total int)
	if cr.Progress != nil {
		progress = func(done, total int) { cr.Progress(Checking, done, total) }
	}
	w.res.set.check(ctx, c, progress)
	if err := w.res.set.err; err != nil {
		w.res.Errors = append(w.res.Errors, err)
	}
	return w.res
}

// defaultPageLinks is CrawlOptions.Links when it is nil.
var defaultPageLinks = PageLinks(links.Options{Positions: true})

// crawler is one Crawl's state.
type crawler struct {
	c        *checker
	opt      CrawlOptions
	maxPages int
	asked    int // pages asked for to be read: never more than maxPages, but the starts
	scope    []string
	robots   *robotsCache
	seen     map[string]bool // pages read, being read or not to be read
	starts   map[string]bool // the starts, which are read wherever they lead
	res      *CrawlResult
	// listedLinks are the links of the sitemap being read: a page it
	// lists is a link of it, at the <loc>'s line, and reported so.
	listedLinks []Link
}

// listed takes a page URL that sitemap lists at line and col: if it is in
// scope, a link of the sitemap's, and a page to read, in level, as the
// bound allows. It reports whether it is in scope.
func (w *crawler) listed(sitemap, loc string, line, col int, level *[]string) bool {
	l := Link{Source: sitemap, Line: line, Column: col, Ref: loc, Base: sitemap, BaseFrom: links.FromRetrieval, Element: "sitemap", Attribute: "loc"}
	if web, err := whatwg.Parse(loc); err == nil {
		l.URL = web.String()
	}
	t, _ := splitFragment(l.URL)
	if t == "" || !w.inScope(t) {
		return false // another site's: the protocol has none, and it is not the crawl's
	}
	if n := len(w.listedLinks); n > 0 && w.listedLinks[n-1].Source != sitemap {
		w.res.set.add(w.listedLinks) // the previous sitemap's
		w.listedLinks = nil
	}
	w.listedLinks = append(w.listedLinks, l)
	switch {
	case w.seen[t]:
	case w.asked >= w.maxPages:
		w.seen[t] = true
		w.res.NotFollowed++
	default:
		w.seen[t] = true
		w.asked++
		*level = append(*level, t)
	}
	return true
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
			pages[i] = w.page(ctx, u, w.starts[u])
		}()
	}
	wg.Wait()
	// First what this round read, so that a page one of them was
	// redirected to is not read again for a link to it.
	set := w.res.set
	for i, u := range level {
		set.know(u, pages[i].result)
		for _, hop := range pages[i].result.Redirects {
			set.know(hop, pages[i].result)
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
		if w.starts[u] && p.result.State != OK && !p.robotsDenied {
			// No link leads to a start: its failure is said here (a
			// robots.txt that could not be read is said once, at the end).
			w.res.Errors = append(w.res.Errors, fmt.Errorf("%s: %s", u, p.result.Err))
		}
		if n := len(p.result.Redirects); w.starts[u] && n > 0 && w.opt.Scope == nil {
			// A start that redirects (http: to https:, / to /en/) brings
			// the default scope along.
			w.scope = append(w.scope, defaultScope(p.result.Redirects[n-1]))
		}
		for _, l := range p.links {
			t, _ := splitFragment(l.URL)
			if t == "" || w.seen[t] || !follows(l) || !w.inScope(t) {
				continue
			}
			w.seen[t] = true
			if w.opt.MaxDepth > 0 && depth+1 > w.opt.MaxDepth || w.asked >= w.maxPages {
				w.res.NotFollowed++
				continue
			}
			w.asked++
			next = append(next, t)
		}
		set.add(p.links)
		p.links = nil
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
	result       targetResult
	read         bool
	links        []Link
	err          error
	robotsDenied bool // excluded: its site's robots.txt could not be read
}

// page reads the page at u for its links: robots.txt asked first, then
// GET, its redirects followed, and the body, when HTML and where it ended
// up is within the scope (or u is a start, which is read wherever it
// leads), handed to Links. It only reads the link set's results and
// w.scope, which the rounds write between them.
func (w *crawler) page(ctx context.Context, u string, start bool) crawledPage {
	if ok, why, unreachable := w.robots.allowed(ctx, u); !ok {
		return crawledPage{result: targetResult{Result: Result{State: Excluded, Err: errors.New(why)}}, robotsDenied: unreachable}
	}
	page := fetchedPage{known: w.res.set.targets}
	r := w.c.follow(ctx, http.MethodGet, u, &page)
	if ctx.Err() != nil && r.State == Broken {
		// In flight when the run's time ran out: not known broken, only
		// not checked, as Checker.Check says of a target.
		r = targetResult{Result: Result{State: Unchecked, Err: fmt.Errorf("not checked: %w", context.Cause(ctx))}}
	}
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
