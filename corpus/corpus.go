// Package corpus extracts the links of many documents at once: it turns
// the inputs of a run (files, directories, manifests, http(s) and s3:// URLs,
// standard input, WARC web archives) into documents, each with its source
// and its retrieval URL, and runs them through an Extractor per worker on
// every core, handing out what each gives in input order.
//
// Docs walks the inputs, opened by package source, which retries and
// resumes remote ones. A directory is read recursively in lexical order;
// its files count by their extension, the formats links.FormatOf knows
// (HTML, MIME messages, Markdown, text, sitemaps and feeds) and WARC
// archives (.warc .warc.gz .warc.zst), and the rest are skipped and
// counted. A file or URL named on its own counts whatever its name. An
// input is a WARC archive when its content says so (its first bytes are
// "WARC/", compressed with gzip or zstd or not: warc.Sniff), and each of
// its records is then a document of its own, read as the bytes arrive; one
// named as an archive that is not one is an error. A file below a directory mapped to a
// URL (Map) gets that URL and its path below the directory as its
// retrieval URL. Options.Files names a manifest of more inputs.
//
// Run extracts the documents' links on every core and yields, for a range
// loop, what each printed and then the document, in input order. Memory is
// bounded by the workers and the documents in flight, each at most
// MaxSize, never by the size of the corpus, of an archive or the number of
// links. A WARC record's warnings are named with its archive and offset.
//
// Response reads one HTTP response for its links, every layer of RFC
// 1808's Section 3 applied (its final URL, its header, its content coding,
// a redirect's Location), as Run reads the pages it fetches and the
// response records of archives: transport is this package's, and package
// links reads documents.
package corpus

import (
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/source"
	"github.com/relurl/relurl/warc"
)

// A Doc is one document of a run, or a problem with one of its inputs.
type Doc struct {
	Source string // the retrieval URL, else the input's name ("-" for standard input)
	Name   string // the input it came from: a file's name, "-" or the URL asked for
	URL    string // the retrieval URL (RFC 1808, Section 3.3), "" if none

	// Record is set for a WARC record: its links are those of its HTTP
	// response, as Response reads one, or of its HTML resource,
	// and Status is the HTTP status of a response record.
	Record *warc.Record
	Status int

	// Warning is a problem that spoiled part of an input and left the
	// rest (a malformed WARC record); Err one that stopped a document (it
	// cannot be read, a fetch failed, it is over MaxSize: its links until
	// then are out). Either may come alone, in input order.
	Warning, Err error

	// After Run: the links the document gave, and whether its kind gives
	// none (a file of a directory that does not count, a WARC request
	// record, a response that is not HTML).
	Links   int
	Skipped bool
	// Unreadable and Cut count the losses (links.Loss) among its
	// warnings: the WARC record or the MIME parts that could not be read,
	// and those read only in part. A WARC record's Warning is one
	// Unreadable.
	Unreadable, Cut int
	// Bytes is how much of the document was read; Redirects, for a URL,
	// the URLs it was fetched through, the last its own.
	Bytes     int64
	Redirects []string

	kind  string         // what a skipped file is, when its name does not say
	in    io.Reader      // an open file, standard input, or a fetched body
	close func() error   // closes in
	resp  *http.Response // a fetched page's answer, its body in
	held  int64          // the bytes it holds in memory: a WARC record's, a small file's
	// small is set for a small file left open, in, for the worker to read
	// whole (Options.readLater); size is its size by fstat.
	small bool
	size  int64
}

// release closes what a document that will not be extracted holds open.
func (d *Doc) release() {
	if d.close != nil {
		d.close()
	}
}

// Local reports whether the document is a local file (a file named as an
// input, or found in a directory, with a Map's URL or not): not a page or
// object fetched by URL, a WARC record (a page of the web, wherever the
// archive is) or standard input.
func (d *Doc) Local() bool {
	return d.Record == nil && d.resp == nil && d.Name != "-" && !source.IsURL(d.Name)
}

// Options say how to read a run's documents.
type Options struct {
	// Files names a manifest: more inputs, one a line, after those given
	// to Docs (source.Manifest: a file, "-", a URL or an S3 object, gzip
	// or zstd or not); Prefix is joined to each relative line.
	Files, Prefix string
	Format        links.Format // the format of every file that is not a WARC; 0: by extension and content
	URL           string       // the retrieval URL of a single file or standard input
	Maps          source.Maps
	MaxSize       int64 // read at most this much of a document; 0 means DefaultMaxSize
	// HTTP says how pages and archives are fetched by URL, as package
	// source fetches them: its Timeout bounds the fetch of a page, body
	// included, and any wait for progress while reading an archive by URL
	// (which may take hours, but never stalls).
	source.HTTP
	ContentLocation bool // let an HTTP response's Content-Location set the base
	Stdin           io.Reader
	S3              source.S3Options // how to reach s3:// URLs

	// Skip, if not nil, leaves out the files and directories of a
	// directory walked (not the inputs themselves) for which it is true:
	// a repository's .git, its node_modules, what .gitignore ignores. They
	// are not counted as skipped.
	Skip func(path string, dir bool) bool

	// FileURLs gives a file that no Map covers the retrieval URL
	// file:///ITS/ABSOLUTE/PATH, so that its relative links resolve, as a
	// browser opening it would.
	FileURLs bool

	// Inflaters is how many gzip members of a .warc.gz are decompressed
	// at once (warc.Reader.Inflaters): a run on N cores sets N, so that
	// one archive is not read at the speed of one core.
	Inflaters int

	// Concurrent is how many inputs Docs reads at once: up to Concurrent
	// files, directories, archives and URLs are opened, read and
	// inflated side by side, each on a goroutine of its own, while Docs
	// still yields their documents in input order. The documents of an
	// input after the first wait, at most 256 of them and 32 MiB of WARC
	// records and small files each. 0 and 1 read one input after
	// another. Skip is then called from several goroutines at once.
	Concurrent int

	src     *source.Options
	mapUsed []atomic.Bool // by Maps: some input was below it
	wd      string        // the working directory when Docs began

	// readLater is set by Run when its workers take every core: a small
	// file is then left open, for the worker that extracts its links to
	// read whole into a buffer of its own (see smallFile).
	readLater bool
}

// An OptionError is a field of Options whose value cannot work.
type OptionError struct {
	Field string // its name in Options: "MaxSize", "Retry.MaxWait", …
	Value any
	Want  string // what would work
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("corpus: %s %v: want %s", e.Field, e.Value, e.Want)
}

// Validate reports, as an *OptionError, the first field of o whose value
// cannot work. The zero value of each field works: it means the default.
// Docs and Run do not call it; a program that takes options from its
// users calls it first.
func (o *Options) Validate() error {
	bad := func(field string, v any, want string) error { return &OptionError{field, v, want} }
	switch {
	case o.MaxSize < 0:
		return bad("MaxSize", o.MaxSize, "a number of bytes, 0 for the default")
	case o.Retry.Attempts < 0:
		return bad("Retry.Attempts", o.Retry.Attempts, "0 or more")
	case o.Retry.MaxWait < 0:
		return bad("Retry.MaxWait", o.Retry.MaxWait, "more than 0, or 0 for the default")
	case o.Inflaters < 0:
		return bad("Inflaters", o.Inflaters, "0 or more")
	case o.Concurrent < 0:
		return bad("Concurrent", o.Concurrent, "0 or more")
	case o.Prefix != "" && o.Files == "":
		return bad("Prefix", o.Prefix, "a manifest in Files to join to")
	case o.URL != "" && !rfc1808.Split(o.URL).HasScheme():
		return bad("URL", o.URL, "an absolute URL, with a scheme")
	}
	return nil
}

// sourceOptions returns the options by which the run opens its inputs,
// made once.
func (o *Options) sourceOptions() *source.Options {
	if o.src == nil {
		o.src = &source.Options{HTTP: o.HTTP, S3: o.S3}
	}
	return o.src
}

// timeout is Timeout, its zero and negative values read: 0 is no bound.
func (o *Options) timeout() time.Duration {
	switch {
	case o.Timeout == 0:
		return source.DefaultTimeout
	case o.Timeout < 0:
		return 0
	}
	return o.Timeout
}

// DefaultMaxSize is the default limit on a document's size: 64 MiB.
const DefaultMaxSize = 64 << 20

func (o *Options) maxSize() int64 {
	if o.MaxSize <= 0 {
		return DefaultMaxSize
	}
	return o.MaxSize
}
