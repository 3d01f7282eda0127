package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/relurl/relurl"
	linkcheck "github.com/relurl/relurl/check"
	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
)

const checkHelp = `
Check checks the links of documents: it finds them as links does (the same
DOCUMENTs, -files, -map, WARC archives; -elements), resolves them by
-spec (whatwg by default, as a browser fetches them) against each
document's base, <base href> included wherever it is, and checks each
distinct target once:

A local document's base is its own file: URL, as a browser opening the
file has it, so a tree of files is checked with no flags; -map DIR=URL
gives the files below DIR that URL instead, and -root DIR makes DIR the
site's root: its files get the URLs a server rooted there would give
(file:///docs/x.html), a link to /docs/ is DIR/docs/, and no file: link is
looked up outside DIR.

  file: URLs, and URLs under a -map URL (checked as the files of its DIR):
      the file exists (a directory stands for -index, index.html); a
      file: link is checked only in a local document (in a fetched page
      or a WARC record it is skipped: a web page never reaches local
      files), and a path that climbs out of its -map DIR is broken;
  http and https URLs: HEAD, then GET where HEAD is refused or fails;
      redirects followed, -max-redirects at most, to http and https only
      (-fail-permanent-redirects: a 301 or 308 is a broken link, which
      should say where the target is now);
  a fragment ("#intro"): an element with that id, or an <a> with that
      name, in the target, when it is HTML (read with GET);
  mailto:, tel:, javascript:, data: and other schemes: skipped, counted.

Requests are polite: at most -c at once, -per-host to one host, -rate a
second to one host; 429 and 503 with Retry-After, and transient failures,
are tried again (-retries, and -retry-max-wait of waiting in all) with
growing waits; -timeout
bounds each request and -max-time the whole run (links not checked by
then are counted, and the exit status is 1 unless some are broken). The
User-Agent names relurl. -H adds a header, -auth HOST=USER:PASSWORD
basic authentication for a host. -offline checks only files. -include
and -exclude are regular expressions on the resolved URL; a file
.relurlignore in the current directory (or -ignore-file) holds more
-exclude patterns, one a line, "#" for comments. -cache FILE keeps the
results of http(s) targets between runs, for -max-cache-age (1d by
default): a CI job run again asks again only for what aged; runs sharing
the file merge their results under a lock (FILE.lock).

-recursive checks a site from its URLs: it reads each page once (a
redirect's target too), breadth first, and goes on to the pages its <a>,
<area>, <frame> and <iframe> links lead to within the scope: each URL's
directory ("https://h/docs/" for "https://h/docs/index.html"), or the
-scope URLs. Other links, and pages out of the scope, are checked, not
read. -crawl-depth bounds the links followed from a start, -max-pages the
pages read (pages in scope past a bound are checked, and counted). Pages
robots.txt disallows to relurl-check are excluded, unless -ignore-robots;
-sitemap starts from the sitemaps robots.txt names (else /sitemap.xml) as
well. (-max-depth stays the nesting of MIME parts, as for links.)

Broken links are reported on standard output grouped by the page that holds
them, each with its line and column there, the reference as written and
what it resolved to, and the status or the error; -explain adds why it
resolved there: the base and the layer that set it (a <base href>, the
retrieval URL), and each step of the standard. A summary ends the report
on standard error. -json prints one object per link instead (source,
line, column, url, ref, base, base_from, element, attribute, state: ok,
broken, skipped, excluded or unchecked, status, error, redirects, elapsed_ms,
cached); -format markdown a table for a CI job's summary; -format github
GitHub Actions' workflow commands, an ::error at each broken link's file,
line and column; -format junit JUnit XML (a test suite for each document,
a test case for each link), as GitLab, Jenkins and test reporters read it.

Exit status: 0 when no link is broken, 2 when some are, 1 for a usage
error or a document that could not be read.

Examples:

  $ relurl check -map site=https://example.org/ site
  $ relurl check -offline -file-urls -explain docs/index.html
  $ relurl check -json -c 8 -per-host 2 https://www.example.org/
  $ relurl check -recursive -format github https://www.example.org/docs/
  $ relurl check -format markdown -cache .cache site >> "$GITHUB_STEP_SUMMARY"
`

// exitBroken is check's exit status when links are broken; its usage
// errors are exitInvalid, not exitUsage, which is the same number.
const exitBroken = 2

// checkUsage turns a usage error's status into check's.
func checkUsage(code int) int {
	if code == exitUsage {
		return exitInvalid
	}
	return code
}

// checkFlags are check's own flags, beside the documents' (docFlags).
type checkFlags struct {
	root, elements, ignoreFile, cacheFile, maxAge, format string
	spec                                                  relurl.Spec
	maxTime                                               time.Duration
	headers, auths, includes, excludes, scopes            listFlag
	asJSON, explain, recursive                            bool
	crawl                                                 linkcheck.CrawlOptions
}

func runCheck(e *env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	// A link target is not worth an archive's wait (8 tries, 2 min): 3 more
	// tries, 30 s at most, unless -retries and -retry-max-wait say.
	d.retries, d.retryWait = linkcheck.DefaultRetry.Attempts, linkcheck.DefaultRetry.MaxWait
	fs.Lookup("retries").DefValue, fs.Lookup("retry-max-wait").DefValue = "3", "30s"
	// A local file's base is its file: URL, as a browser opening it has
	// it: a tree of files is checked with no flags.
	d.fileURLs = true
	fs.Lookup("file-urls").DefValue = "true"
	var f checkFlags
	var o linkcheck.Options
	fs.StringVar(&f.root, "root", "", "the site's root `DIR`: a link to /x is DIR/x, no file link outside it")
	fs.TextVar(&f.spec, "spec", relurl.WHATWG, "resolve links by RFC `1808`, RFC 3986 or the URL Standard")
	fs.StringVar(&f.elements, "elements", "", "check only these `elements` or ELEMENT@ATTRIBUTEs (default all)")
	fs.IntVar(&o.Concurrency, "c", 16, "check this many targets at once")
	fs.IntVar(&o.PerHost, "per-host", 2, "send at most this many requests at once to one host")
	fs.Float64Var(&o.Rate, "rate", 0, "send at most this many requests a `second` to one host (0: no limit)")
	fs.DurationVar(&f.maxTime, "max-time", 0, "stop checking after this long in all (0: no limit)")
	fs.Var(&f.headers, "H", "send this `header` (\"Name: value\") with every request (repeatable)")
	fs.Var(&f.auths, "auth", "basic authentication for a host: `HOST=USER:PASSWORD` (repeatable)")
	fs.Var(&f.includes, "include", "check only the URLs this `regexp` matches (repeatable)")
	fs.Var(&f.excludes, "exclude", "skip the URLs this `regexp` matches (repeatable)")
	fs.StringVar(&f.ignoreFile, "ignore-file", ".relurlignore", "-exclude patterns from this `file`, if any")
	fs.BoolVar(&o.Offline, "offline", false, "check only files (file: URLs and those under -map)")
	fs.StringVar(&o.Index, "index", "index.html", "the `file` a directory stands for")
	fs.BoolVar(&o.FailPermanentRedirects, "fail-permanent-redirects", false, "count a 301 or 308 as a broken link")
	fs.StringVar(&f.cacheFile, "cache", "", "keep the results of http(s) targets in this `file` between runs")
	fs.StringVar(&f.maxAge, "max-cache-age", "1d", "check again a cached result older than this (1d, 12h, 30m)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object per link")
	fs.StringVar(&f.format, "format", "text", "the report's `format`: text, markdown, github or junit")
	fs.BoolVar(&f.explain, "explain", false, "show why each broken link resolved where it did")
	fs.BoolVar(&f.recursive, "recursive", false, "crawl: read the pages the URLs link to within -scope, and theirs")
	fs.Var(&f.scopes, "scope", "with -recursive, read only the pages below this `URL` (repeatable)")
	fs.IntVar(&f.crawl.MaxDepth, "crawl-depth", 0, "with -recursive, follow at most this many links from a URL (0: no limit)")
	fs.IntVar(&f.crawl.MaxPages, "max-pages", linkcheck.DefaultMaxPages, "with -recursive, read at most this many pages")
	fs.BoolVar(&f.crawl.IgnoreRobots, "ignore-robots", false, "with -recursive, read pages robots.txt disallows to relurl")
	fs.BoolVar(&f.crawl.Sitemap, "sitemap", false, "with -recursive, start from the site's sitemaps too")
	if code, ok := d.parse(e, fs, args, checkHelp); !ok {
		return checkUsage(code)
	}
	only, code, ok := f.options(e, &d, &o)
	if !ok {
		return code
	}

	if f.recursive {
		return f.crawlSite(e, &d, only, o, fs.Args())
	}
	var crawlOnly []string
	fs.Visit(func(fl *flag.Flag) {
		if slices.Contains([]string{"scope", "crawl-depth", "max-pages", "ignore-robots", "sitemap"}, fl.Name) {
			crawlOnly = append(crawlOnly, "-"+fl.Name)
		}
	})
	if len(crawlOnly) > 0 {
		return checkUsage(e.usageError("check", "%s: only with -recursive", strings.Join(crawlOnly, ", ")))
	}
	// Find the links, as links does, with where each is.
	var (
		mu    sync.Mutex
		found []linkcheck.Link
	)
	newExtractor := func() *links.Extractor {
		return &links.Extractor{MaxDepth: d.maxDepth, Resolver: relurl.Resolver{Spec: f.spec}, Only: only, Positions: true}
	}
	docLinks := func(doc *corpus.Doc) func(*links.Link, *corpus.Output) {
		return func(l *links.Link, _ *corpus.Output) {
			c := linkcheck.FromLink(doc, l)
			mu.Lock()
			found = append(found, c)
			mu.Unlock()
		}
	}
	status, stats := d.run(e, "check", fs.Args(), newExtractor, docLinks, nil)
	linkcheck.SortLinks(found)

	ctx, cancel := f.context()
	defer cancel()
	p := e.newProgress()
	reports := linkcheck.Run(ctx, found, o, func(done, total int) {
		p.update(func(float64) string { return fmt.Sprintf("%d of %d targets checked", done, total) })
	})
	p.clear()
	if o.Cache != nil {
		if err := o.Cache.Save(); err != nil {
			fmt.Fprintf(e.stderr, "relurl check: -cache: %v\n", err)
			status = max(status, exitInvalid)
		}
	}
	return f.report(e, reports, stats, status)
}

// options sets o from the flags and returns the elements to read; on a
// bad value it reports it and returns the exit status, false.
func (f *checkFlags) options(e *env, d *docFlags, o *linkcheck.Options) (map[string]bool, int, bool) {
	fail := func(format string, args ...any) (map[string]bool, int, bool) {
		return nil, checkUsage(e.usageError("check", format, args...)), false
	}
	if !slices.Contains([]string{"text", "markdown", "github", "junit"}, f.format) {
		return fail("-format %q: want text, markdown, github or junit", f.format)
	}
	only, err := parseElements(f.elements)
	if err != nil {
		return fail("-elements: %v", err)
	}
	for _, h := range f.headers {
		if err := o.AddHeader(h); err != nil {
			return fail("-H %q: %v", h, err)
		}
	}
	for _, a := range f.auths {
		if err := o.AddAuth(a); err != nil {
			return fail("-auth %q: %v", a, err)
		}
	}
	if o.Include, err = linkcheck.CompilePatterns(f.includes); err != nil {
		return fail("-include: %v", err)
	}
	if o.Exclude, err = linkcheck.CompilePatterns(f.excludes); err != nil {
		return fail("-exclude: %v", err)
	}
	ignored, err := linkcheck.ReadIgnoreFile(f.ignoreFile)
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl check: %v\n", err)
		return nil, exitInvalid, false
	}
	o.Exclude = append(o.Exclude, ignored...)
	age, err := linkcheck.ParseAge(f.maxAge)
	if err != nil {
		return fail("-max-cache-age %q: %v", f.maxAge, err)
	}
	if f.cacheFile != "" {
		if o.Cache, err = linkcheck.OpenCache(f.cacheFile, age); err != nil {
			fmt.Fprintf(e.stderr, "relurl check: -cache: %v\n", err)
			return nil, exitInvalid, false
		}
	}
	if f.root != "" {
		// The files below DIR get the URLs a server rooted there gives
		// (file:///docs/x.html), and file: URLs are its files.
		dir, err := filepath.Abs(f.root)
		if err != nil {
			return fail("-root %q: %v", f.root, err)
		}
		d.maps = append(d.maps, source.Map{Dir: dir, URL: "file:///"})
	}
	o.Maps = d.maps
	o.Timeout = d.timeout
	o.Retry = source.Retry{Attempts: d.retries, MaxWait: d.retryWait, Base: linkcheck.DefaultRetry.Base}
	if o.MaxRedirects = d.maxRedirects; o.MaxRedirects == 0 {
		o.MaxRedirects = -1 // check.Options' "none"
	}
	return only, exitOK, true
}

// report prints the reports in the format asked for, then the summary on
// standard error, and returns the exit status: status (the documents'),
// else exitBroken when a link is broken.
func (f *checkFlags) report(e *env, reports []linkcheck.Report, stats corpus.Stats, status int) int {
	var out []byte
	switch {
	case f.asJSON:
		out = linkcheck.JSON(reports)
	case f.format == "markdown":
		out = linkcheck.Markdown(reports)
	case f.format == "github":
		out = linkcheck.GitHub(reports)
	case f.format == "junit":
		out = linkcheck.JUnit(reports)
	default:
		out = linkcheck.Text(reports, f.spec, f.explain)
	}
	if code := e.write(out); code != exitOK {
		return code
	}
	c := linkcheck.Count(reports)
	fmt.Fprintf(e.stderr, "relurl check: %s, %s, %s: %d broken, %d skipped, %d excluded\n",
		corpus.Count(stats.Documents, "document"), corpus.Count(len(reports), "link"), corpus.Count(c.Targets, "target"),
		c.ByState[linkcheck.Broken], c.ByState[linkcheck.Skipped], c.ByState[linkcheck.Excluded])
	if c.Unresolved > 0 {
		fmt.Fprintf(e.stderr, "relurl check: hint: %s could not be resolved, for want of a base URL: give the documents one with -map DIR=URL, -url URL or -root DIR\n", corpus.Count(c.Unresolved, "link"))
	}
	if n := c.ByState[linkcheck.Unchecked]; n > 0 {
		fmt.Fprintf(e.stderr, "relurl check: %s not checked: -max-time ran out\n", corpus.Count(n, "link"))
		status = max(status, exitInvalid)
	}
	if c.ByState[linkcheck.Broken] > 0 && status == exitOK {
		return exitBroken
	}
	if status != exitOK {
		return exitInvalid
	}
	return exitOK
}

// context is the run's, ended by -max-time.
func (f *checkFlags) context() (context.Context, context.CancelFunc) {
	if f.maxTime > 0 {
		return context.WithTimeout(context.Background(), f.maxTime)
	}
	return context.WithCancel(context.Background())
}

// crawlSite is check -recursive: the URLs are a site's starts, and
// package check reads its pages, package links finding their links.
func (f *checkFlags) crawlSite(e *env, d *docFlags, only map[string]bool, o linkcheck.Options, starts []string) int {
	for _, s := range starts {
		if !source.IsURL(s) || strings.HasPrefix(s, "s3:") {
			return checkUsage(e.usageError("check", "-recursive crawls a site from its http or https URLs; %q is none (a tree of files is checked whole without it)", s))
		}
	}
	if d.files != "" {
		return checkUsage(e.usageError("check", "-recursive starts from URL arguments, not -files"))
	}
	f.crawl.Scope = f.scopes
	f.crawl.Links = linkcheck.PageLinks(func() *links.Extractor {
		return &links.Extractor{MaxDepth: d.maxDepth, Resolver: relurl.Resolver{Spec: f.spec}, Only: only, Positions: true,
			ContentLocation: d.contentLocation}
	})
	p := e.newProgress()
	f.crawl.Progress = func(read, known int) {
		p.update(func(float64) string { return fmt.Sprintf("%d of %d pages read", read, known) })
	}
	ctx, cancel := f.context()
	defer cancel()
	res := linkcheck.Crawl(ctx, starts, o, f.crawl)
	p.clear()
	status := exitOK
	for _, err := range res.Errors {
		fmt.Fprintf(e.stderr, "relurl check: %s\n", printable(err.Error()))
		status = exitInvalid
	}
	if res.NotFollowed > 0 {
		fmt.Fprintf(e.stderr, "relurl check: %s in scope checked but not read: -crawl-depth or -max-pages\n", corpus.Count(res.NotFollowed, "page"))
	}
	return f.report(e, res.Reports, corpus.Stats{Documents: res.Pages}, status)
}
