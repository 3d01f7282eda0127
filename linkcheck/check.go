// Package linkcheck checks links: that what each resolves to exists, and that
// its fragment names an element there. The links come resolved, by package
// links and its layers of bases (a <base href> included, wherever it is);
// linkcheck never resolves a reference itself.
//
// Each distinct target is checked once, however many links lead to it:
//
//   - a file: URL, or an http(s) URL under a Map, is a file: it must exist
//     (a directory stands for its Index file). A file: link is checked
//     only in a document that is a local file itself (Link.Local), as a
//     browser lets only such a page reach local files; and a URL under a
//     Map is never looked up outside the Map's directory, whatever its
//     dot segments or percent-encoded slashes;
//   - an http(s) URL is asked for with HEAD, and with GET where HEAD gets
//     an error status (405, 501, or any other: some servers answer HEAD
//     wrongly), but not where the host does not answer at all; redirects
//     are followed and kept; a 429 or 503 with Retry-After, and transient
//     failures, are tried again with growing waits, within Retry, the
//     same policy as package source's; a redirect to a scheme other than
//     http and https is refused;
//   - a fragment ("#intro") is looked for among the ids and <a name>s of
//     the target, read with GET up to MaxSize when the target is HTML (in
//     a longer page, one not found is not reported broken);
//   - mailto:, tel:, javascript: and data: links are skipped and counted,
//     and so are http(s) links in Offline mode and those Include and
//     Exclude leave out.
//
// Requests are polite: at most Concurrency at once, PerHost to one host,
// Rate a second to one host, with a User-Agent that names relurl. A Cache
// keeps the results of http(s) targets between runs, up to an age.
//
// The step from found links to reports is the package's too: FromLink
// makes a Link of what package links found in a Document, Summarize sums
// the reports up,
// ReadIgnoreFile reads a .relurlignore, and WriteReport writes the reports
// for people (Text), programs (JSON) and CI systems (Markdown, GitHub,
// JUnit). Finding the links and reading the documents are packages links
// and corpus's work; a Crawl reads pages with package links by itself,
// unless CrawlOptions.Links says otherwise.
package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/markdown"
	"github.com/relurl/relurl/source"
)

// A Link is a link to check, as package links found and resolved it. One
// whose URL is "" (relative in a document without a base URL, or refused
// by the URL parser) is reported broken.
type Link struct {
	Source    string         `json:"source"` // the document's retrieval URL, else its file name
	Line      int            `json:"line"`   // where its element starts, 1-based
	Column    int            `json:"column"`
	URL       string         `json:"url"` // resolved, fragment and all
	Ref       string         `json:"ref"` // as written
	Base      string         `json:"base"`
	BaseFrom  links.BaseFrom `json:"base_from"`
	Element   string         `json:"element"`
	Attribute string         `json:"attribute"`
	// Local says that the document is a local file (with a -map URL or
	// not), not a page fetched by URL, a WARC record or standard input.
	// Only a local document's file: links are checked: a browser never
	// lets a web page reach file: URLs, and neither does check, or a
	// page's author would learn from the report which local paths exist
	// and which ids their files hold.
	Local bool `json:"-"`
	// File is the local file the link is in, as it was named; "" for a
	// page fetched by URL, a WARC record or standard input. A report for
	// a CI system points at it.
	File string `json:"-"`
	// Markdown is the kind of a link written in Markdown (link, image,
	// definition, autolink), "" for HTML's; Uses counts the links that
	// use a Markdown reference definition.
	Markdown string `json:"markdown,omitempty"`
	Uses     int    `json:"uses,omitempty"`
}

// State is what checking a link found.
type State int

const (
	OK        State = iota
	Broken          // the target does not exist, or its fragment is not there
	Skipped         // a scheme that is not checked (mailto:, tel:, javascript:, data:, ...)
	Excluded        // left out by Include, Exclude or Offline
	Unchecked       // not checked: the context ended first (a time limit for the run)
)

func (s State) String() string {
	return [...]string{"ok", "broken", "skipped", "excluded", "unchecked"}[s]
}

// A Result is what checking one link found.
type Result struct {
	State  State
	Status int // the HTTP status, 0 for a file or a failure
	// Err is why the link is broken, or why it was skipped: for an HTTP
	// error status a *source.StatusError, for a failed request the
	// error that failed it (context.DeadlineExceeded, a *net.OpError...),
	// wrapped. A result from the Cache has its text only.
	Err       error
	Redirects []string      // the URLs redirected through, the last the one that answered
	Elapsed   time.Duration // the time its target's check took
	Cached    bool          // the target's result came from the Cache
}

// Options say how to check. The zero Options check with the defaults.
type Options struct {
	// HTTP says how requests are made, as in packages source and corpus:
	// its Timeout bounds each request (0 means DefaultTimeout), its Retry
	// the tries after a transient failure (the zero value means
	// DefaultRetry), its UserAgent names relurl check ("" means
	// DefaultUserAgent).
	source.HTTP
	Concurrency int                  // targets checked at once; 0 means 16
	PerHost     int                  // requests to one host at once; 0 means 2
	Rate        float64              // requests a second to one host; 0 means no limit
	MaxSize     int64                // bytes of a page read for its fragments; 0 means 8 MiB
	Header      http.Header          // sent with every request
	Auth        map[string][2]string // host → user and password, for basic authentication
	Offline     bool                 // check only files
	Include     []*regexp.Regexp     // if any, check only the URLs one matches
	Exclude     []*regexp.Regexp     // skip the URLs one matches
	Index       string               // the file a directory stands for; "" means index.html
	// Dialect is the renderer of Markdown targets, whose headings'
	// anchors it names (and, for MdBook, whose X.html is X.md).
	Dialect markdown.Dialect
	Maps    source.Maps // URL prefixes checked as the files of a directory
	// IDs holds the ids of Markdown documents already read, by their
	// absolute path (links.Handler.IDs, by this Dialect): a fragment into
	// one is checked against them, and the file is not read again, nor
	// looked up.
	IDs map[string][]string
	// FailPermanentRedirects makes a 301 or 308 on the way a broken link:
	// the link should say where the target is now.
	FailPermanentRedirects bool
	Cache                  *Cache
}

// DefaultRetry is how a target is tried again by default: 3 more times,
// waiting 30 s at most in all. A link is not worth an archive's patience
// (source.DefaultRetry).
var DefaultRetry = source.Retry{Attempts: 3, MaxWait: 30 * time.Second, Base: 250 * time.Millisecond}

// DefaultTimeout bounds a request by default: a link checker waits less
// for one answer than a reader of archives (source.DefaultTimeout).
const DefaultTimeout = 20 * time.Second

// DefaultUserAgent names relurl, as polite crawlers do.
const DefaultUserAgent = "relurl-check/0.1 (+https://github.com/relurl/relurl)"

// A Report is a link and its result.
type Report struct {
	Link
	Result
}

// A Checker checks links, by its Options, one by one or by crawling a
// site. The zero Checker checks with the defaults each Options field
// documents.
type Checker struct {
	Options
	// Progress, if not nil, is called as Check's targets are done, with
	// the count done and the count in all. (A crawl tells its progress
	// through CrawlOptions.Progress, by stage.)
	Progress func(done, total int)
}

// Check checks links and returns their reports in a report's order: by
// document (Link.Source), then line and column; links in the same place
// keep the order they were given in. Documents read at once may hand their
// links to the caller in any order, and the report is the same.
func (c *Checker) Check(ctx context.Context, links []Link) []Report {
	return run(ctx, links, c.Options, c.Progress)
}

// CheckSet checks the links of set, as Check does, and keeps their
// results for set.Reports.
func (c *Checker) CheckSet(ctx context.Context, set *LinkSet) {
	set.c = newChecker(c.Options)
	set.s().check(ctx, set.c, c.Progress)
}

// run is Check.
func run(ctx context.Context, links []Link, o Options, progress func(done, total int)) []Report {
	c := newChecker(o)
	s := newLinkSet()
	s.addTargets(links)
	s.check(ctx, c, progress)
	reports := make([]Report, len(links))
	for i, l := range links {
		reports[i] = c.report(l, s.targets)
	}
	sortReports(reports)
	return reports
}

// remoteFile reports whether l is a file: link of a document that may not
// reach local files (see Link.Local).
func remoteFile(l Link) bool {
	return !l.Local && len(l.URL) >= 5 && strings.EqualFold(l.URL[:5], "file:")
}

// splitFragment returns u without its fragment, and the fragment.
func splitFragment(u string) (string, string) {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i], u[i+1:]
	}
	return u, ""
}

// fragmentID is the id a fragment names: percent-decoded, as the HTML
// standard's "find a potential indicated element" tries it.
func fragmentID(frag string) string {
	if s, err := url.PathUnescape(frag); err == nil {
		return s
	}
	return frag
}

// targetResult is the result of a target, and the ids of its elements
// when it was read for them (nil if not).
type targetResult struct {
	Result
	ids      idSet
	cut      bool  // the page was read in part: to MaxSize, or for Markdown to read
	read     int64 // the bytes of a Markdown document read
	markdown bool  // ids are a Markdown document's anchors
}

// target checks one target; fromMarkdown says that a Markdown link leads
// to it, for which a directory is a page (GitHub lists it).
func (c *checker) target(ctx context.Context, u string, fragments, fromMarkdown bool) targetResult {
	start := time.Now()
	if ctx.Err() != nil {
		return targetResult{Result: Result{State: Unchecked, Err: fmt.Errorf("not checked: %w", context.Cause(ctx))}}
	}
	p, err := url.Parse(u)
	scheme := ""
	if err == nil {
		scheme = strings.ToLower(p.Scheme)
	}
	for _, re := range c.o.Exclude {
		if re.MatchString(u) {
			return targetResult{Result: Result{State: Excluded, Err: fmt.Errorf("excluded by %s", re)}}
		}
	}
	if len(c.o.Include) > 0 && !matchAny(c.o.Include, u) {
		return targetResult{Result: Result{State: Excluded, Err: errors.New("not included")}}
	}
	var r targetResult
	file, mapped := c.mapped(u)
	switch {
	case err != nil:
		r = targetResult{Result: Result{State: Broken, Err: fmt.Errorf("not a URL: %w", err)}}
	case mapped && file == "":
		r = targetResult{Result: Result{State: Broken, Err: errors.New("its path leaves the mapped directory (a .. or . segment, or a percent-encoded slash): not looked up")}}
	case mapped:
		// Under a Map, an http(s) URL or a file: URL (a site's root,
		// file:///) is a file of its directory, and never one outside it.
		r = c.file(file, fragments, fromMarkdown)
	case scheme == "file":
		r = c.file(filePath(p), fragments, fromMarkdown)
	case scheme == "http" || scheme == "https":
		if c.o.Offline {
			return targetResult{Result: Result{State: Excluded, Err: errors.New("offline")}}
		}
		r = c.http(ctx, u, fragments)
		if ctx.Err() != nil && r.State == Broken {
			r = targetResult{Result: Result{State: Unchecked, Err: fmt.Errorf("not checked: %w", context.Cause(ctx))}}
		}
	default:
		return targetResult{Result: Result{State: Skipped, Err: fmt.Errorf("%s: links are not checked", scheme)}}
	}
	r.Elapsed = time.Since(start)
	return r
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
