package main

import (
	"context"
	"flag"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/gitignored"
	"github.com/relurl/relurl/linkcheck"
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
      name, in the target, when it is HTML (read with GET); in a
      Markdown file, a heading's anchor as its renderer makes it
      (-markdown: github, in any case as GitHub's page finds it; mkdocs;
      mdbook, under which X.html is the X.md beside it), or an id of its
      HTML; a link from Markdown to a directory reaches its README.md;
  mailto:, tel:, javascript:, data: and other schemes: skipped, counted.

In a git repository, "relurl check ." reads its Markdown, HTML, text,
sitemaps and feeds, and not .git, node_modules or what git ignores; and
unless -root or -map says otherwise, a root-relative link (/docs/x.md)
is the repository's file, as GitHub renders it, and check says so.

Requests are polite: at most -c at once, -per-host to one host (a
request counts until its answer's body is read), -rate a second to one
host; 429 and 503 with Retry-After, and transient failures, are tried
again (-retries, and -retry-max-wait of waiting in all) with growing
waits; a connection refused fails at once, as with wget and curl
(-retry-refused tries it again too); -timeout bounds each request and
-max-time the whole run (links not checked by then are counted, and the
exit status is 5). The User-Agent names relurl. -H adds a header, -auth
HOST=USER:PASSWORD basic authentication for a host. -offline checks only
files. -include and -exclude are regular expressions on the resolved URL;
a file .relurlignore in the current directory (or -ignore-file) holds
more -exclude patterns, one a line, "#" for comments. -max-size bounds
the documents read and, when given, the pages check fetches (8 MiB
otherwise; a fragment not found past it is not reported broken). -cache
FILE keeps the results of http(s) targets between runs, for
-max-cache-age (1d by default): a CI job run again asks again only for
what aged; runs sharing the file merge their results under a lock
(FILE.lock); an entry that is not one check writes is not used, and a
file that cannot be read is named and rebuilt.

-recursive checks a site from its URLs: it reads each page once (a
redirect's target too), breadth first, and goes on to the pages its <a>,
<area>, <frame> and <iframe> links lead to within the scope: each URL's
directory ("https://h/docs/" for "https://h/docs/index.html"), or the
-scope URLs. Other links, and pages out of the scope, are checked, not
read. -crawl-depth bounds the links followed from a start, -max-pages the
pages asked for (the starts and the sitemaps' pages included; pages in
scope past a bound are checked, and counted). robots.txt is read as RFC
9309 says: pages it disallows to relurl-check are excluded, unless
-ignore-robots; one that answers 4xx allows every page; one that cannot
be reached (5xx, 429, a network error, no whole answer within -timeout)
disallows every page of its site, which is said; its redirects are
followed, five at most. -sitemap starts from the sitemaps robots.txt
names (else /sitemap.xml) as well: streamed, gzip or not, a sitemap index
followed one level, each read up to the protocol's 50 MB and 50,000
URLs, until -max-pages; the summary counts what was read and left out.
The links of the pages read are kept compactly, in a temporary file when
they are many, so that memory does not grow with the site.
(-max-depth stays the nesting of MIME parts, as for links.)

The report, on standard output, lists each broken target once, the
targets with the most broken links first: what it resolved to and why it
is broken (the status or the error), then the first five links to it,
each with its document (a local file's path, else its URL), line and
column, its element and the reference as written, and how many more
there are; -explain adds, under each link, why it resolved there: the
base and the layer that set it (a <base href>, the retrieval URL), and
each step of the standard. A summary ends the report on standard error,
each number with its unit. -json prints one object per link instead,
every link (source, line, column, url, ref, base, base_from, element,
attribute, state: ok, broken, skipped, excluded or unchecked, status,
error, redirects, elapsed_ms, cached); -format markdown a table of the
broken targets for a CI job's summary; -format github GitHub Actions'
workflow commands, an ::error at each broken link's file, line and
column; -format junit JUnit XML (a test suite for each document, a test
case for each link), as GitLab, Jenkins and test reporters read it.
Progress is shown on standard error when it is a terminal, through the
reading of pages and the checking of targets; in a log (a CI job), a
line "relurl check: progress: ..." every 10 seconds.

A run that reads no document (a tree of Markdown, a list of URLs) checks
nothing, and says what it skipped. Exit status: 0 when every link was
checked and none is broken; 4 when some are broken; 5 when -max-time ran
out first; 1 when a document or page could not be read, or none was; 2
for a usage error ("relurl help" has the table).

Examples:

  $ relurl check -map site=https://example.org/ site
  $ relurl check -offline -explain docs/index.html
  $ relurl check -json -c 8 -per-host 2 https://www.example.org/
  $ relurl check -recursive -format github https://www.example.org/docs/
  $ relurl check -format markdown -cache .cache site >> "$GITHUB_STEP_SUMMARY"
`

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
	var f checkFlags
	var o linkcheck.Options
	fs.StringVar(&f.root, "root", "", "the site's root `DIR`: a link to /x is DIR/x, no file link outside it")
	specFlag(fs, &f.spec)
	documentSpec(fs, &f.spec)
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
		return code
	}
	only, code, ok := f.options(e, &d, &o)
	if !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "max-size" {
			o.MaxSize = d.maxSize // the pages check reads too, not only the documents
		}
	})
	o.Dialect = d.dialect.of(fs.Args())
	d.skip = repositoryFiles(fs.Args())
	if f.root == "" && len(d.maps) == 0 && d.url == "" && !f.recursive {
		// In a repository, a link to /docs/x.md is the repository's
		// docs/x.md, as GitHub renders it, not the file system's.
		if top, ok := repositoryTop(fs.Args()); ok {
			dir := top // named as -root . names it, for messages as -root's
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, top); err == nil && !strings.HasPrefix(rel, "..") {
					dir = rel
				}
			}
			d.maps = append(d.maps, source.Map{Dir: dir, URL: "file:///"})
			o.Maps = source.Maps(d.maps)
			fmt.Fprintf(e.stderr, "relurl check: root-relative links resolve against the repository's top, %s, as GitHub renders them (-root DIR for another)\n", printable(top))
		}
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
		return e.usageError("check", "%s: only with -recursive", strings.Join(crawlOnly, ", "))
	}
	// Find the links, as links does, with where each is, kept compactly
	// as each document's come (a page of millions of links).
	var (
		mu    sync.Mutex
		found linkcheck.LinkSet
		open  = map[*corpus.Doc]*linkcheck.DocumentLinks{}
	)
	defer found.Close()
	extract := links.Options{MaxDepth: d.maxDepth, Resolver: &relurl.Resolver{Spec: f.spec}, Only: only, Positions: true, Dialect: o.Dialect}
	// The anchors of the Markdown documents read, so that a fragment
	// into one does not read it again; kept once the document is done,
	// if it was read whole (not cut at -max-size, no read error).
	o.IDs = map[string][]string{}
	anchors := map[*corpus.Doc][]string{}
	wd, _ := os.Getwd()
	d.docIDs = func(doc *corpus.Doc, ids []string) {
		if doc.Local() {
			mu.Lock()
			anchors[doc] = ids
			mu.Unlock()
		}
	}
	docLinks := func(doc *corpus.Doc) func(*links.Link, *corpus.Output) {
		dl := found.Document()
		mu.Lock()
		open[doc] = dl
		mu.Unlock()
		return func(l *links.Link, _ *corpus.Output) {
			dl.Add(linkcheck.FromLink(l, linkcheck.Document{Source: doc.Source, File: localFile(doc)}))
		}
	}
	d.docDone = func(doc *corpus.Doc) {
		mu.Lock()
		dl := open[doc]
		delete(open, doc)
		if ids, ok := anchors[doc]; ok && doc.Err == nil && doc.Cut == 0 {
			path := doc.Name
			if !filepath.IsAbs(path) {
				path = filepath.Join(wd, path)
			}
			o.IDs[filepath.Clean(path)] = ids
		}
		delete(anchors, doc)
		mu.Unlock()
		if dl != nil {
			dl.Close()
		}
	}
	status, stats := d.run(e, "check", fs.Args(), extract, docLinks, nil)
	if stats.Documents == 0 {
		// Nothing read is not a pass: a tree of images, of reStructuredText.
		if stats.Failed > 0 {
			return worse(status, exitFailed) // said already
		}
		fmt.Fprintf(e.stderr, "relurl check: no document read, so no link was checked%s\n", skippedNote(stats))
		return worse(status, exitFailed)
	}

	ctx, cancel := f.context()
	defer cancel()
	p := e.newProgress().logEvery("check", progressEvery)
	c := linkcheck.Checker{Options: o, Progress: func(done, total int) {
		p.update(func(float64) string { return fmt.Sprintf("%d of %d targets checked", done, total) })
	}}
	c.CheckSet(ctx, &found)
	p.clear()
	status = f.report(e, found.Reports(), stats.Documents, f.saveCache(e, o, status))
	if err := found.Err(); err != nil {
		fmt.Fprintf(e.stderr, "relurl check: %v\n", err)
		status = worse(status, exitFailed)
	}
	return status
}

// repositoryTop returns the top of the git work tree that holds every
// local document of args, if there is one.
func repositoryTop(args []string) (string, bool) {
	top := ""
	for _, a := range args {
		if a == "-" || strings.Contains(a, "://") {
			continue
		}
		t, ok := gitignored.TopLevel(a)
		if !ok || top != "" && t != top {
			return "", false
		}
		top = t
	}
	return top, top != ""
}

// progressEvery is how often check writes a line of progress to a log.
const progressEvery = 10 * time.Second

// saveCache saves the cache, if any, and returns the status with its
// failure added.
func (f *checkFlags) saveCache(e *env, o linkcheck.Options, status int) int {
	if o.Cache == nil {
		return status
	}
	if err := o.Cache.Save(); err != nil {
		fmt.Fprintf(e.stderr, "relurl check: -cache: %v\n", printable(err.Error()))
		return worse(status, exitFailed)
	}
	return status
}

// skippedNote says what a run that read no document met instead:
// ": skipped 112 .md files (check reads HTML, MIME messages and WARC
// archives)".
func skippedNote(stats corpus.Stats) string {
	if len(stats.Skipped) == 0 {
		return ""
	}
	return fmt.Sprintf(": skipped %s (documents are HTML, MIME messages and WARC archives)", kindsNote(stats.Skipped))
}

// options sets o from the flags and returns the elements to read; on a
// bad value it reports it and returns the exit status, false.
func (f *checkFlags) options(e *env, d *docFlags, o *linkcheck.Options) (map[string]bool, int, bool) {
	fail := func(format string, args ...any) (map[string]bool, int, bool) {
		return nil, e.usageError("check", format, args...), false
	}
	if !slices.Contains([]string{"text", "markdown", "github", "junit"}, f.format) {
		return fail("-format %q: want text, markdown, github or junit", f.format)
	}
	only, err := links.ParseOnly(f.elements)
	if err != nil {
		return fail("-elements: %v", err)
	}
	for _, h := range f.headers {
		if err := addHeader(o, h); err != nil {
			return fail("-H %q: %v", h, err)
		}
	}
	for _, a := range f.auths {
		if err := addAuth(o, a); err != nil {
			return fail("-auth %q: %v", a, err)
		}
	}
	if o.Include, err = compilePatterns(f.includes); err != nil {
		return fail("-include: %v", err)
	}
	if o.Exclude, err = compilePatterns(f.excludes); err != nil {
		return fail("-exclude: %v", err)
	}
	ignored, err := linkcheck.ReadIgnoreFile(f.ignoreFile)
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl check: %v\n", err)
		return nil, exitFailed, false
	}
	o.Exclude = append(o.Exclude, ignored...)
	age, err := parseAge(f.maxAge)
	if err != nil {
		return fail("-max-cache-age %q: %v", f.maxAge, err)
	}
	if f.cacheFile != "" {
		if o.Cache, err = linkcheck.OpenCache(f.cacheFile, age); err != nil {
			fmt.Fprintf(e.stderr, "relurl check: -cache: %v\n", err)
			return nil, exitFailed, false
		}
		if o.Cache.Discarded != nil {
			fmt.Fprintf(e.stderr, "relurl check: warning: -cache: %s\n", printable(o.Cache.Discarded.Error()))
		}
	}
	if f.root != "" {
		// The files below DIR get the URLs a server rooted there gives
		// (file:///docs/x.html), and file: URLs are its files.
		d.maps = append(d.maps, source.Map{Dir: filepath.Clean(f.root), URL: "file:///"})
	}
	o.Maps = source.Maps(d.maps)
	o.Timeout, o.MaxRedirects = zeroIsNone(d.timeout), zeroIsNone(d.maxRedirects)
	o.Retry = source.Retry{Attempts: d.retries, MaxWait: d.retryWait, Base: linkcheck.DefaultRetry.Base, Refused: d.retryRefused}
	return only, exitOK, true
}

// report prints the reports in the format asked for, then the summary on
// standard error, and returns the exit status: status (the documents')
// with the findings and a time-out added.
func (f *checkFlags) report(e *env, reports iter.Seq[linkcheck.Report], documents int, status int) int {
	format := map[string]linkcheck.Format{"text": linkcheck.FormatText, "markdown": linkcheck.FormatMarkdown,
		"github": linkcheck.FormatGitHub, "junit": linkcheck.FormatJUnit}[f.format]
	if f.asJSON {
		format = linkcheck.FormatJSON
	}
	c, err := linkcheck.WriteReport(e.stdout, format, reports, linkcheck.ReportOptions{Explain: f.explain, Spec: f.spec})
	if err != nil {
		return exitWrite // main reports it
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); format == linkcheck.FormatGitHub && path != "" {
		// In a GitHub Actions job, the Markdown report goes to the job's
		// summary too, which GitHub shows on the run's page: appended, as
		// every step appends its own.
		if err := appendSummary(path, reports, f.spec); err != nil {
			fmt.Fprintf(e.stderr, "relurl check: GITHUB_STEP_SUMMARY: %v\n", err)
			status = worse(status, exitWrite)
		}
	}
	fmt.Fprintf(e.stderr, "relurl check: %s, %s, %s; broken: %s, %s; skipped: %s; excluded: %s\n",
		count(documents, "document"), count(c.Links, "link"),
		count(c.Targets, "target"), count(c.BrokenTargets, "target"), count(c.ByState[linkcheck.Broken], "link"),
		count(c.ByState[linkcheck.Skipped], "link"), count(c.ByState[linkcheck.Excluded], "link"))
	if c.Unresolved > 0 {
		fmt.Fprintf(e.stderr, "relurl check: hint: %s could not be resolved, for want of a base URL: give the documents one with -map DIR=URL, -url URL or -root DIR\n", count(c.Unresolved, "link"))
	}
	if n := c.ByState[linkcheck.Unchecked]; n > 0 {
		fmt.Fprintf(e.stderr, "relurl check: %s not checked: -max-time ran out\n", count(n, "link"))
		status = worse(status, exitTimeout)
	}
	if c.ByState[linkcheck.Broken] > 0 {
		status = worse(status, exitFound)
	}
	return status
}

// appendSummary appends the Markdown report of reports to the job summary
// file at path.
func appendSummary(path string, reports iter.Seq[linkcheck.Report], spec relurl.Spec) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = linkcheck.WriteReport(f, linkcheck.FormatMarkdown, reports, linkcheck.ReportOptions{Spec: spec})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// context is the run's, ended by -max-time.
func (f *checkFlags) context() (context.Context, context.CancelFunc) {
	if f.maxTime > 0 {
		return context.WithTimeout(context.Background(), f.maxTime)
	}
	return context.WithCancel(context.Background())
}

// crawlSite is check -recursive: the URLs are a site's starts, and
// package linkcheck reads its pages, package links finding their links.
func (f *checkFlags) crawlSite(e *env, d *docFlags, only map[string]bool, o linkcheck.Options, starts []string) int {
	for _, s := range starts {
		if !source.IsURL(s) || strings.HasPrefix(s, "s3:") {
			return e.usageError("check", "-recursive crawls a site from its http or https URLs; %q is none (a tree of files is checked whole without it)", s)
		}
	}
	if d.files != "" {
		return e.usageError("check", "-recursive starts from URL arguments, not -files")
	}
	f.crawl.Scope = f.scopes
	f.crawl.Links = linkcheck.PageLinks(links.Options{MaxDepth: d.maxDepth, Resolver: &relurl.Resolver{Spec: f.spec}, Only: only, Positions: true,
		ContentLocation: d.contentLocation, Dialect: o.Dialect})
	p := e.newProgress().logEvery("check", progressEvery)
	f.crawl.Progress = func(stage linkcheck.CrawlStage, done, total int) {
		p.update(func(float64) string {
			if stage == linkcheck.Reading {
				return fmt.Sprintf("%d of %d pages read", done, total)
			}
			return fmt.Sprintf("%d of %d targets checked", done, total)
		})
	}
	ctx, cancel := f.context()
	defer cancel()
	c := linkcheck.Checker{Options: o}
	res := c.Crawl(ctx, starts, f.crawl)
	defer res.Close()
	p.clear()
	status := exitOK
	for _, err := range res.Errors {
		fmt.Fprintf(e.stderr, "relurl check: %s\n", printable(err.Error()))
		status = exitFailed
	}
	if res.NotFollowed > 0 {
		fmt.Fprintf(e.stderr, "relurl check: %s in scope checked but not read: -crawl-depth or -max-pages\n", count(res.NotFollowed, "page"))
	}
	if n := res.Sitemaps; n.Read+n.Failed+n.NotRead > 0 {
		fmt.Fprintf(e.stderr, "relurl check: sitemaps: %s read (%d in part), %d not read for -max-pages, %d failed; %s listed, %d out of scope, %d past a sitemap's 50,000\n",
			count(n.Read, "sitemap"), n.Partly, n.NotRead, n.Failed, count(n.URLs, "page"), n.OutOfScope, n.PastLimit)
	}
	status = f.report(e, res.Reports(), res.Pages, f.saveCache(e, o, status))
	if err := res.Err(); err != nil {
		fmt.Fprintf(e.stderr, "relurl check: %v\n", err)
		status = worse(status, exitFailed)
	}
	return status
}

// localFile is the file a document was read from, "" when it is no local
// file (a page fetched by URL, a WARC record, standard input).
func localFile(doc *corpus.Doc) string {
	if doc.Local() {
		return doc.Name
	}
	return ""
}
