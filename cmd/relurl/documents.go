package main

// This file reads documents for links, base and check: their flags, and
// the run over them in input order.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/gitignored"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/markdown"
	"github.com/relurl/relurl/source"
)

// docFlags are the flags that say how to read documents, for links and base.
type docFlags struct {
	skip            func(path string, dir bool) bool // what a directory walk leaves out
	url             string
	typ             string
	dialect         dialectFlag
	docIDs          func(doc *corpus.Doc, ids []string) // if set, given each Markdown document's anchors
	docDone         func(doc *corpus.Doc)               // if set, called once a document's links are all handed out
	maxDepth        int
	maxSize         int64
	outputMemory    int64 // what the output holds beside the documents (output.held)
	maxRedirects    int
	timeout         time.Duration
	contentLocation bool
	verbose         bool
	files           string
	prefix          string
	fileURLs        bool
	maps            mapFlag
	jobs            int
	retries         int
	retryWait       time.Duration
	retryRefused    bool
	s3              source.S3Options
}

func (d *docFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.url, "url", "", "the absolute `URL` one file or standard input was retrieved by (3.3)")
	fs.StringVar(&d.typ, "type", "auto", "the documents' `type`: html, message (.eml, .mhtml), markdown, text, xml\n(a sitemap, a feed), or auto: by name, else first bytes")
	dialectFlagVar(fs, &d.dialect)
	fs.IntVar(&d.maxDepth, "max-depth", links.DefaultMaxDepth, "the deepest nesting of MIME parts to read, at least 1")
	fs.Int64Var(&d.maxSize, "max-size", corpus.DefaultMaxSize, "read at most this many `bytes` of a document, at least 1")
	fs.IntVar(&d.maxRedirects, "max-redirects", source.DefaultMaxRedirects, "follow at most this many HTTP redirects")
	fs.DurationVar(&d.timeout, "timeout", 30*time.Second, "a page's deadline; for an archive, the longest stall; 0: none")
	fs.BoolVar(&d.contentLocation, "content-location", false, "let an HTTP Content-Location header set the base (RFC 7231 says no)")
	fs.BoolVar(&d.verbose, "v", false, "report the redirects a fetch followed")
	fs.StringVar(&d.files, "files", "", "read more DOCUMENTs from `FILE` (or - or a URL), one a line, gzip or not")
	fs.StringVar(&d.prefix, "prefix", "", "join each relative line of -files to this `URL` or directory")
	fs.IntVar(&d.retries, "retries", source.DefaultRetry.Attempts, "retry a URL this many `times` after a transient failure")
	fs.DurationVar(&d.retryWait, "retry-max-wait", source.DefaultRetry.MaxWait, "wait at most this long in all for the retries of a failure")
	fs.BoolVar(&d.retryRefused, "retry-refused", false, "retry a connection the host refuses too (by default it fails at once)")
	fs.StringVar(&d.s3.Endpoint, "s3-endpoint", "", "the `URL` of an S3-compatible store (default $AWS_ENDPOINT_URL)")
	fs.BoolVar(&d.s3.Unsigned, "s3-no-sign-request", false, "read s3:// inputs without credentials, from public buckets")
	fs.Var(&d.maps, "map", "give the files below `DIR=URL`'s DIR the retrieval URL URL/PATH (repeatable)")
	fs.BoolVar(&d.fileURLs, "file-urls", true, "give other files their file:// URL as retrieval URL")
	fs.IntVar(&d.jobs, "j", runtime.GOMAXPROCS(0), "read this many documents, and inputs, at once")
}

// mapFlag is the repeatable -map DIR=URL.
type mapFlag []source.Map

func (m *mapFlag) String() string { return "" }

func (m *mapFlag) Set(s string) error {
	mp, err := source.ParseMap(s)
	if err == nil {
		*m = append(*m, mp)
	}
	return err
}

// parse parses the flags and arguments of links or base, DOCUMENT..., and
// reports as parseFlags does whether the command should run: a flag value
// that cannot work is a usage error.
func (d *docFlags) parse(e *env, fs *flag.FlagSet, args []string, help string) (int, bool) {
	if code, ok := e.parseFlags(fs, args, help); !ok {
		return code, false
	}
	if err := d.check(e, fs.Args()); err != nil {
		return e.usageError(fs.Name(), "%v", err), false
	}
	return 0, true
}

// check reports a flag value or argument that cannot work: corpus judges
// its options (Options.Validate), and the command what is its own, with
// the flags' 0 that the library reads as "the default" refused.
func (d *docFlags) check(e *env, docs []string) error {
	switch {
	case len(docs) == 0 && d.files == "":
		return errors.New("want a DOCUMENT (a file, a directory, - or a URL), or -files")
	case d.typ != "auto" && !validFormat(d.typ):
		return fmt.Errorf("-type %q: want html, message, markdown, text, xml or auto", d.typ)
	case d.maxSize < 1:
		return fmt.Errorf("-max-size %d: want a number of bytes, at least 1", d.maxSize)
	case d.maxDepth < 1:
		return fmt.Errorf("-max-depth %d: want at least 1", d.maxDepth)
	case d.jobs < 1:
		return fmt.Errorf("-j %d: want at least 1", d.jobs)
	case d.retryWait <= 0:
		return fmt.Errorf("-retry-max-wait %v: want more than 0", d.retryWait)
	case d.maxRedirects < 0:
		return fmt.Errorf("-max-redirects %d: want 0 or more", d.maxRedirects)
	case d.timeout < 0:
		return fmt.Errorf("-timeout %v: want 0 (none) or more", d.timeout)
	}
	if err := d.options(e).Validate(); err != nil {
		return flagError(err)
	}
	switch {
	case d.url != "" && (len(docs) != 1 || d.files != "" || source.IsURL(docs[0])):
		return errors.New("-url is for a single file or standard input; a fetched document's URL is where it was found, and -map gives many files theirs")
	case d.files == "-" && slices.Contains(docs, "-"):
		return errors.New("-files - and the DOCUMENT - both want standard input")
	}
	return nil
}

// docFlagOf names the flag that sets each field of corpus.Options.
var docFlagOf = map[string]string{
	"MaxSize":        "-max-size",
	"Retry.Attempts": "-retries", "Retry.MaxWait": "-retry-max-wait",
}

// flagError says a *corpus.OptionError in the words of the flag that set
// the field.
func flagError(err error) error {
	var oe *corpus.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	switch oe.Field {
	case "Prefix":
		return errors.New("-prefix is for the lines of -files")
	case "URL":
		return fmt.Errorf("-url %q: a retrieval URL must be absolute, with a scheme", oe.Value)
	}
	return fmt.Errorf("%s %v: want %s", docFlagOf[oe.Field], oe.Value, oe.Want)
}

// zeroIsNone turns a flag's 0, which means none (-max-redirects 0,
// -timeout 0), into the libraries' spelling of none, a negative value:
// their 0 means their default.
func zeroIsNone[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// options are the corpus.Options of the flags.
func (d *docFlags) options(e *env) *corpus.Options {
	return &corpus.Options{
		URL: d.url, Maps: source.Maps(d.maps), MaxSize: d.maxSize, ContentLocation: d.contentLocation,
		Stdin: e.stdin, S3: d.s3, Files: d.files, Prefix: d.prefix,
		HTTP: source.HTTP{
			MaxRedirects: zeroIsNone(d.maxRedirects), Timeout: zeroIsNone(d.timeout),
			Retry: source.Retry{Attempts: d.retries, MaxWait: d.retryWait, Base: source.DefaultRetry.Base, Refused: d.retryRefused},
		},
	}
}

// listFiles prints the lines of the manifest -files, joined to -prefix,
// as the documents would be read, and reads none of them.
func (d *docFlags) listFiles(e *env, cmd string) int {
	o := d.options(e)
	src := source.Options{HTTP: o.HTTP, S3: o.S3}
	var out []byte
	for name, err := range src.Manifest(context.Background(), o.Files, o.Prefix, o.Stdin) {
		if err != nil {
			e.write(out)
			fmt.Fprintf(e.stderr, "relurl %s: -files: %s\n", cmd, printable(err.Error()))
			return exitFailed
		}
		out = append(append(out, printable(name)...), '\n')
		if len(out) > 64<<10 {
			if code := e.write(out); code != exitOK {
				return code
			}
			out = out[:0]
		}
	}
	return e.write(out)
}

// run reads the documents of the arguments and of -files, handing each
// link to link and each base to base (either may be nil), printing what
// they print into out in input order, and warnings and errors with the
// document's name. It returns the exit status and what was read.
func (d *docFlags) run(e *env, cmd string, args []string, x links.Options,
	docLinks func(doc *corpus.Doc) func(l *links.Link, out *corpus.Output), printBase func(doc *corpus.Doc, part string, b links.Base, out *corpus.Output)) (int, corpus.Stats) {
	o := d.options(e)
	o.Format, _ = links.ParseFormat(d.typ)
	o.FileURLs, o.Inflaters, o.Concurrent, o.Skip = d.fileURLs, d.jobs, d.jobs, d.skip
	// One file named alone is the run: its warnings need no name.
	single := len(args) == 1 && d.files == "" && !isDir(args[0])
	limitMemory(d.jobs, single, d.maxSize, corpus.ReadAheadBytes, d.outputMemory)
	var stats corpus.Stats
	status := exitOK
	p := e.newProgress()
	defer p.clear()
	write := e.writer(p, &status)
	docs := o.Run(o.Docs(context.Background(), slices.Values(args)), d.jobs, x,
		func(doc *corpus.Doc, out *corpus.Output) *links.Handler {
			named := func(err error) string {
				if single && doc.Record == nil {
					return printable(err.Error())
				}
				return printable(doc.Source + ": " + err.Error())
			}
			var link func(*links.Link, *corpus.Output)
			if docLinks != nil {
				link = docLinks(doc)
			}
			h := &links.Handler{
				Link: func(l *links.Link) error {
					if link != nil {
						link(l, out)
					}
					return nil
				},
				Warn: func(err error) { out.Err = fmt.Appendf(out.Err, "relurl %s: warning: %s\n", cmd, named(err)) },
			}
			if printBase != nil {
				h.Base = func(part string, b links.Base) { printBase(doc, part, b, out) }
			}
			if d.docIDs != nil {
				h.IDs = func(ids []string) { d.docIDs(doc, ids) }
			}
			return h
		}, write)
	for doc := range docs {
		stats.Add(doc)
		if d.docDone != nil {
			d.docDone(doc)
		}
		if d.verbose && len(doc.Redirects) > 1 {
			p.clear()
			fmt.Fprintf(e.stderr, "relurl: redirected: %s\n", printable(strings.Join(doc.Redirects, " -> ")))
		}
		for _, err := range []error{doc.Warning, doc.Err} {
			if err != nil {
				p.clear()
				kind := ""
				if err == doc.Warning {
					kind = "warning: "
				}
				if _, ok := errors.AsType[*corpus.UnusedMapError](err); ok {
					kind += "-map "
				}
				fmt.Fprintf(e.stderr, "relurl %s: %s%s\n", cmd, kind, printable(err.Error()))
			}
		}
		if doc.Err != nil || doc.Unreadable+doc.Cut > 0 {
			// Links are missing: a failure, or a loss.
			status = worse(status, exitFailed)
		}
		p.showDocs(&stats)
	}
	return status, stats
}

// limitMemory sets Go's soft memory limit under the bound the README
// promises, 3 × -max-size and 55 MB for each document read at once,
// readAhead for each input after the first read at once
// (corpus.Options.Concurrent), and what the output holds, held (a table's
// batches: under a limit that left them out, the collector would run
// without end), unless GOMEMLIMIT sets one. Go's collector lets the heap
// grow to twice what is live before it runs, so a document near
// -max-size (the tokenizer's buffer, grown by doubling, and a huge
// attribute waiting for the base) would otherwise take a third more: a
// gzip-encoded page of 66 MB took 348 MB over HTTP, 181 MB with the
// limit. The limit makes the collector run sooner; it never stops a
// document.
func limitMemory(jobs int, single bool, maxSize, readAhead, held int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if single {
		jobs = 1
	}
	// A tenth below the bound: the limit counts the heap, and the process
	// holds a little more (freed pages not yet returned, the runtime's own).
	if per := 3*maxSize + 55<<20 + readAhead; maxSize < math.MaxInt64/6 && per < math.MaxInt64/int64(jobs) {
		debug.SetMemoryLimit((per*int64(jobs) - readAhead + held) / 10 * 9)
	}
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// validFormat reports whether s names a format of documents, for -type: a
// redirect is an HTTP response's, never a file's.
func validFormat(s string) bool {
	f, ok := links.ParseFormat(s)
	return ok && f != links.FormatRedirect
}

// dialectFlag is -markdown: the name of a markdown.Dialect, or "auto".
type dialectFlag string

// dialectFlagVar defines -markdown, "auto" by default.
func dialectFlagVar(fs *flag.FlagSet, f *dialectFlag) {
	*f = "auto"
	fs.Var(f, "markdown", "the Markdown `renderer`, whose rule makes a heading's anchor: github,\n"+
		"mkdocs, mdbook, or auto: mdbook under a book.toml, mkdocs under a\nmkdocs.yml, else github")
}

func (f *dialectFlag) String() string { return string(*f) }

func (f *dialectFlag) Set(s string) error {
	if _, ok := markdown.ParseDialect(s); !ok && s != "auto" {
		return errors.New("want github, mkdocs, mdbook or auto")
	}
	*f = dialectFlag(s)
	return nil
}

// of returns the renderer the Markdown documents among the inputs are
// written for: the flag's, or with "auto" the one a project file says,
// found in the first input's directory or one above it (an mdBook's
// book.toml, MkDocs's mkdocs.yml), else GitHub.
func (f dialectFlag) of(inputs []string) markdown.Dialect {
	if dialect, ok := markdown.ParseDialect(string(f)); ok {
		return dialect
	}
	return detectDialect(inputs)
}

func detectDialect(inputs []string) markdown.Dialect {
	for _, in := range inputs {
		if source.IsURL(in) || in == "-" {
			continue
		}
		dir, err := filepath.Abs(in)
		if err != nil {
			continue
		}
		if !isDir(dir) {
			dir = filepath.Dir(dir)
		}
		for {
			switch {
			case fileExists(filepath.Join(dir, "book.toml")):
				return markdown.MdBook
			case fileExists(filepath.Join(dir, "mkdocs.yml")), fileExists(filepath.Join(dir, "mkdocs.yaml")):
				return markdown.MkDocs
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
		break
	}
	return markdown.GitHub
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// repositoryFiles returns what leaves out of a walk of the inputs what is
// not a repository's documents: .git and node_modules directories, and,
// in a git work tree, what git ignores (.gitignore and its kin).
func repositoryFiles(inputs []string) func(path string, dir bool) bool {
	var ignored []func(string) bool
	for _, in := range inputs {
		if isDir(in) {
			if f, ok := gitignored.In(in); ok {
				ignored = append(ignored, f)
			}
		}
	}
	return func(path string, dir bool) bool {
		if name := filepath.Base(path); dir && (name == ".git" || name == "node_modules") {
			return true
		}
		for _, f := range ignored {
			if f(path) {
				return true
			}
		}
		return false
	}
}
