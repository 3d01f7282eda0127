// Package corpus extracts the links of many documents at once: it turns
// the inputs of a run (files, directories, manifests, http(s) and s3:// URLs,
// standard input, WARC web archives) into documents, each with its source
// and its retrieval URL, and runs them through an Extractor per worker on
// every core, handing out what each gives in input order.
//
// Docs walks the inputs, opened by package source, which retries and
// resumes remote ones. A directory is read recursively in lexical order;
// its files count by their extension (.html .htm .xhtml .eml .mht .mhtml
// .mime .warc .warc.gz .warc.zst), and the rest are skipped and counted. A
// file or URL named on its own counts whatever its name. An input is a WARC
// archive when its content says so (its first bytes are "WARC/",
// compressed with gzip or zstd or not: warc.Sniff), and each of its records
// is then a document of its own, read as the bytes arrive; one named as an
// archive that is not one is an error. A file below a directory mapped to a
// URL (Map) gets that URL and its path below the directory as its
// retrieval URL. Options.Files names a manifest of more inputs.
//
// Run extracts the documents' links, in parallel, in order. Memory is
// bounded by the workers and the documents in flight, each at most
// MaxSize, never by the size of the corpus, of an archive or the number of
// links. A WARC record's warnings are named with its archive and offset.
package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/capped"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
	"github.com/relurl/relurl/warc"
)

// A Doc is one document of a run, or a problem with one of its inputs.
type Doc struct {
	Source string // the retrieval URL, else the input's name ("-" for standard input)
	Name   string // the input it came from: a file's name, "-" or the URL asked for
	URL    string // the retrieval URL (RFC 1808, Section 3.3), "" if none

	// Record is set for a WARC record: its links are Extractor.Record's,
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

	in    io.Reader      // an open file, standard input, or a fetched body
	close func() error   // closes in
	resp  *http.Response // a fetched page's answer, its body in
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
	Maps          []source.Map
	MaxSize       int64 // read at most this much of a document; 0 means DefaultMaxSize
	MaxRedirects  int
	// Timeout bounds the fetch of a page by URL, body included, and any
	// wait for progress while reading an archive by URL (which may take
	// hours, but never stalls); 0 means none.
	Timeout         time.Duration
	ContentLocation bool // let an HTTP response's Content-Location set the base
	Stdin           io.Reader
	Client          *http.Client     // for fetches; nil means http.DefaultClient's settings
	Retry           source.Retry     // tries at a failing URL; the zero value means source.DefaultRetry
	S3              source.S3Options // how to reach s3:// URLs
	Context         context.Context

	// FileURLs gives a file that no Map covers the retrieval URL
	// file:///ITS/ABSOLUTE/PATH, so that its relative links resolve, as a
	// browser opening it would.
	FileURLs bool

	// Inflaters is how many gzip members of a .warc.gz are decompressed
	// at once (warc.Reader.Inflaters): a run on N cores sets N, so that
	// one archive is not read at the speed of one core.
	Inflaters int

	src     *source.Options
	mapUsed []bool // by Maps: some input was below it
}

// Source returns the options by which the run opens its inputs.
func (o *Options) Source() *source.Options {
	if o.src == nil {
		o.src = &source.Options{Client: o.Client, MaxRedirects: o.MaxRedirects, Timeout: o.Timeout, Retry: o.Retry, S3: o.S3}
	}
	return o.src
}

func (o *Options) ctx() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}

// DefaultMaxSize is the default limit on a document's size: 64 MiB.
const DefaultMaxSize = 64 << 20

// Stats count what a run read and skipped.
type Stats struct {
	Documents int   // documents read, WARC records among them
	Records   int   // WARC records read
	Links     int   // links handed out
	Bytes     int64 // bytes of documents read
	Failed    int   // documents that failed
	// Unreadable and Cut sum the documents' (Doc.Unreadable, Doc.Cut):
	// records and parts whose links are missing, or some of them.
	Unreadable, Cut int
	Skipped         map[string]int // what gave no links, by kind: "file" (in a directory, by its extension), a WARC record's type, "payload" (an HTTP response that is not HTML)
}

// Add counts a document that Run is done with.
func (s *Stats) Add(d *Doc) {
	s.Links += d.Links // those before a failure too
	s.Bytes += d.Bytes
	s.Unreadable += d.Unreadable
	s.Cut += d.Cut
	switch {
	case d.Err != nil:
		s.Failed++
		return
	case d.Warning != nil, d.Skipped && d.Unreadable > 0:
		return // counted as lost, not as giving no links
	}
	if d.Skipped {
		if s.Skipped == nil {
			s.Skipped = map[string]int{}
		}
		kind := "file"
		if d.Record != nil {
			kind = d.Record.Type()
			if kind == "response" || kind == "resource" {
				kind = "payload"
			}
		} else if d.resp != nil {
			kind = "payload" // a fetched page that is not HTML
		}
		s.Skipped[kind]++
		return
	}
	s.Documents++
	if d.Record != nil {
		s.Records++
	}
}

// Count returns "1 document", "2 documents": n and the noun, plural but
// for one.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// String sums the stats up, as the links command reports them.
func (s *Stats) String() string {
	var b strings.Builder
	b.WriteString(Count(s.Documents, "document"))
	switch {
	case s.Records == 1 && s.Documents == 1:
		b.WriteString(" (a WARC record)")
	case s.Records > 0:
		fmt.Fprintf(&b, " (%d of them WARC records)", s.Records)
	}
	fmt.Fprintf(&b, ", %s, %.1f MB", Count(s.Links, "link"), float64(s.Bytes)/1e6)
	if s.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", s.Failed)
	}
	if s.Unreadable+s.Cut > 0 {
		fmt.Fprintf(&b, "; lost: %d unreadable, %d read in part", s.Unreadable, s.Cut)
	}
	if len(s.Skipped) > 0 {
		kinds := make([]string, 0, len(s.Skipped))
		for k := range s.Skipped {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for i, k := range kinds {
			kinds[i] = fmt.Sprintf("%s %d", k, s.Skipped[k])
		}
		fmt.Fprintf(&b, "; skipped, giving no links: %s", strings.Join(kinds, ", "))
	}
	return b.String()
}

func (o *Options) maxSize() int64 {
	if o.MaxSize <= 0 {
		return DefaultMaxSize
	}
	return o.MaxSize
}

// extensions are the files of a directory that count.
var extensions = []string{".html", ".htm", ".xhtml", ".eml", ".mht", ".mhtml", ".mime", ".warc", ".warc.gz", ".warc.zst"}

// warcName reports whether a name says it is a WARC archive.
func warcName(name string) bool {
	name = strings.ToLower(name)
	return strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".warc.gz") || strings.HasSuffix(name, ".warc.zst")
}

// Counts reports whether a file found in a directory counts, by its name.
func Counts(name string) bool {
	name = strings.ToLower(name)
	for _, ext := range extensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// Docs returns the documents of the inputs, then of the manifest Files, in
// order: each input a file, a directory, "-" for standard input, or a URL
// ("SCHEME://...": http, https and s3 are opened by package source, other
// schemes are an error). A file of a directory that does not count is a
// Doc too, Skipped, so that it is counted in order; a Map that no input
// fell under is a Doc with a Warning, last.
func (o *Options) Docs(inputs iter.Seq[string]) iter.Seq[*Doc] {
	return func(yield func(*Doc) bool) {
		if !o.inputs(inputs, yield) {
			return
		}
		for _, err := range o.unusedMaps() {
			if !yield(&Doc{Name: "-map", Source: "-map", Warning: err}) {
				return
			}
		}
	}
}

// inputs yields the documents of the inputs, then of the manifest, and
// reports whether to go on.
func (o *Options) inputs(inputs iter.Seq[string], yield func(*Doc) bool) bool {
	for name := range inputs {
		if !o.input(name, yield) {
			return false
		}
	}
	if o.Files == "" {
		return true
	}
	for name, err := range o.Source().Manifest(o.ctx(), o.Files, o.Prefix, o.Stdin) {
		if err != nil {
			if !yield(&Doc{Name: o.Files, Source: o.Files, Err: fmt.Errorf("-files: %w", err)}) {
				return false
			}
			continue
		}
		if !o.input(name, yield) {
			return false
		}
	}
	return true
}

func (o *Options) input(name string, yield func(*Doc) bool) bool {
	switch {
	case source.IsURL(name):
		return o.openURL(name, yield)
	case name == "-":
		return o.file("-", "standard input", io.NopCloser(o.Stdin), false, yield)
	}
	if fi, err := os.Stat(name); err != nil || !fi.IsDir() {
		return o.open(name, false, yield) // which names what is wrong with name, if anything
	}
	ok, files := true, 0
	filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			ok = yield(&Doc{Name: path, Source: path, Err: err})
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			ok = yield(&Doc{Name: path, Source: path, Skipped: true})
		case Counts(path):
			ok = o.open(path, false, yield)
		case mayBeDocument(path):
			ok = o.open(path, true, yield)
		default:
			ok = yield(&Doc{Name: path, Source: path, Skipped: true})
		}
		files++
		if !ok {
			return filepath.SkipAll
		}
		return nil
	})
	if ok && files == 0 {
		return yield(&Doc{Name: name, Source: name, Err: fmt.Errorf("%s: an empty directory: no documents", name)})
	}
	return ok
}

// mayBeDocument reports whether a file of a directory that does not count
// by its name may be a document all the same: pages that servers make
// (.php, .shtml, .asp, .aspx, .jsp, .cgi) and files without an extension,
// which crawlers and mirrors write.
func mayBeDocument(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case "", ".php", ".shtml", ".shtm", ".asp", ".aspx", ".jsp", ".cgi":
		return true
	}
	return false
}

// openURL yields the documents of a URL: the records of a WARC archive
// (whatever its name or Content-Type), else the page or object itself. A
// page must be read whole within the Timeout; an archive may take as long
// as it takes, as long as it never stalls for the Timeout.
func (o *Options) openURL(name string, yield func(*Doc) bool) bool {
	ctx, cancel := context.WithCancelCause(o.ctx())
	noDeadline := func() bool { return false }
	if o.Timeout > 0 {
		noDeadline = time.AfterFunc(o.Timeout, func() { cancel(fmt.Errorf("no complete answer within %v", o.Timeout)) }).Stop
	}
	stop := func() {
		noDeadline()
		cancel(nil)
	}
	obj, err := o.Source().Open(ctx, name, nil)
	if err != nil {
		stop()
		return yield(&Doc{Name: name, Source: name, Err: err})
	}
	// A read error here comes again when the document is read, after the
	// links of the bytes before it.
	br, isWARC := warc.Sniff(obj)
	if !isWARC && o.Format == 0 && warcName(obj.URL) {
		obj.Close()
		stop()
		return yield(&Doc{Name: name, Source: name, Err: notWARC(name, br)})
	}
	if isWARC {
		noDeadline() // the stream's own timer bounds each stall
		defer stop()
		defer obj.Close()
		return o.records(name, br, yield)
	}
	d := &Doc{Name: name, Source: name, in: br, resp: obj.Response, Redirects: obj.Redirects,
		close: func() error { stop(); return obj.Close() }}
	if d.resp != nil {
		d.URL, d.Source, d.Status = obj.URL, obj.URL, d.resp.StatusCode
	} else if d.URL = o.retrieval(name); d.URL != "" {
		d.Source = d.URL
	}
	return yield(d)
}

// open yields the documents of the file path; with maybe, of a file of a
// directory that counts only if its content is HTML, a MIME message or a
// WARC archive, and is else skipped, as other files are.
func (o *Options) open(path string, maybe bool, yield func(*Doc) bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return yield(&Doc{Name: path, Source: path, Err: err})
	}
	return o.file(path, path, f, maybe, yield)
}

// file yields the documents of an open file: its WARC records, or itself.
func (o *Options) file(name, what string, f io.ReadCloser, maybe bool, yield func(*Doc) bool) bool {
	// The first bytes only, to tell a WARC: the worker reads the rest,
	// not the goroutine that walks the inputs.
	br := bufio.NewReaderSize(f, 512)
	if _, err := br.Peek(512); err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		f.Close()
		return yield(&Doc{Name: name, Source: name, Err: fmt.Errorf("reading %s: %w", what, err)})
	}
	br, isWARC := warc.Sniff(br)
	if isWARC {
		defer f.Close()
		return o.records(name, br, yield)
	}
	if prefix, _ := br.Peek(512); maybe && links.FormatOf(name, prefix) == 0 {
		f.Close()
		return yield(&Doc{Name: name, Source: name, Skipped: true})
	}
	if o.Format == 0 && warcName(name) {
		// Read as HTML, it would give no links and no word.
		f.Close()
		return yield(&Doc{Name: name, Source: name, Err: notWARC(name, br)})
	}
	d := &Doc{Name: name, Source: name, URL: o.retrieval(name), in: br, close: f.Close}
	if file, ok := f.(*os.File); ok {
		d.in, d.close = readSmall(file, br)
	}
	if d.URL != "" {
		d.Source = d.URL
	}
	return yield(d)
}

// smallFile is the size up to which a file is read whole by the goroutine
// that walks the inputs, ahead of the worker that extracts its links: so
// that even with one worker, opening and reading files (a third of the
// time, for pages of tens of kilobytes) overlaps extraction. Larger files
// are streamed by the worker, in bounded memory.
const smallFile = 1 << 20

// readSmall reads f whole, through br, if it is a regular file of at
// most smallFile bytes, and closes it; it returns a reader of what was
// read, which ends in the error that stopped the reading, if any, and a
// function that gives the memory back once the reader is done with. Another
// file is left open, to be read through br.
func readSmall(f *os.File, br *bufio.Reader) (io.Reader, func() error) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > smallFile {
		return br, f.Close
	}
	bp := getBuffer(int(fi.Size()) + 1) // + 1: the end is seen without growing
	b := (*bp)[:0]
	for {
		n, err := br.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return io.MultiReader(bytes.NewReader(b), errReader{err}), func() error { return nil }
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew
		}
	}
	f.Close()
	*bp = b
	return bytes.NewReader(b), func() error { putBuffer(bp); return nil }
}

// buffers keeps the buffers of small files for the files after them, by
// size class: 64 KiB, 128 KiB, ... smallFile, and one over.
var buffers [6]sync.Pool

func sizeClass(n int) int {
	c := 0
	for size := 64 << 10; size < n && c < len(buffers)-1; size <<= 1 {
		c++
	}
	return c
}

func getBuffer(n int) *[]byte {
	c := sizeClass(n)
	if bp, ok := buffers[c].Get().(*[]byte); ok && cap(*bp) >= n {
		return bp
	}
	b := make([]byte, 0, max(n, 64<<10<<c))
	return &b
}

func putBuffer(bp *[]byte) {
	if c := sizeClass(cap(*bp)); 64<<10<<c <= cap(*bp) {
		buffers[c].Put(bp)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// notWARC is the error of an input named as a WARC archive that is not one.
func notWARC(name string, br *bufio.Reader) error {
	prefix, _ := br.Peek(16)
	if len(prefix) == 0 {
		return fmt.Errorf("%s: not a WARC archive: it is empty", name)
	}
	return fmt.Errorf("%s: not a WARC archive: it starts with %q, not WARC/ (plain, gzip or zstd)", name, prefix)
}

// retrieval returns the retrieval URL of the file name: -url's, or the
// one a Map gives it.
// RetrievalURL returns the retrieval URL of the file name, as the
// documents of a run get theirs: URL, if set; else the URL of the Map
// with the longest Dir that holds it, followed by its path below Dir,
// escaped; else with FileURLs its file:// URL; else "".
func (o *Options) RetrievalURL(name string) string { return o.retrieval(name) }

func (o *Options) retrieval(name string) string {
	if o.URL != "" {
		return o.URL
	}
	best, which := -1, -1
	u := ""
	for i, m := range o.Maps {
		rel, err := filepath.Rel(m.Dir, filepath.Clean(name))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || len(m.Dir) <= best {
			continue
		}
		best, which, u = len(m.Dir), i, strings.TrimSuffix(m.URL, "/")+"/"+escapePath(rel)
	}
	if which >= 0 {
		if o.mapUsed == nil {
			o.mapUsed = make([]bool, len(o.Maps))
		}
		o.mapUsed[which] = true
		return u
	}
	if o.FileURLs && name != "-" {
		if abs, err := filepath.Abs(name); err == nil {
			return "file://" + escapePath(abs)
		}
	}
	return ""
}

// escapePath writes a file path as a URL path, each segment escaped.
func escapePath(path string) string {
	segs := strings.Split(filepath.ToSlash(path), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// unusedMaps returns a warning for each Map that no input fell under: a
// mistyped directory leaves its links unresolved.
func (o *Options) unusedMaps() []error {
	var errs []error
	for i, m := range o.Maps {
		if o.mapUsed == nil || !o.mapUsed[i] {
			errs = append(errs, fmt.Errorf("-map %s=%s: no input is below %s", m.Dir, m.URL, m.Dir))
		}
	}
	return errs
}

// records yields the records of the WARC file name.
func (o *Options) records(name string, r io.Reader, yield func(*Doc) bool) bool {
	wr := warc.NewReader(r)
	wr.MaxBlock = o.maxSize()
	wr.Inflaters = o.Inflaters
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return true
		}
		var d *Doc
		var rerr *warc.ReadError
		var serr *source.Error
		var ferr *warc.FormatError
		switch {
		case errors.As(err, &serr) && errors.As(err, &ferr):
			// The source names the archive and where it stopped.
			d = &Doc{Name: name, Source: name, Err: fmt.Errorf("%w, in the WARC record at offset %d", serr, ferr.Offset)}
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &rerr):
			d = &Doc{Name: name, Source: name, Err: fmt.Errorf("%s: %w", name, err)}
		case err != nil:
			d = &Doc{Name: name, Source: name, Warning: &links.Loss{Err: fmt.Errorf("%s: %w", name, err)}, Unreadable: 1}
		default:
			target := rec.TargetURI()
			d = &Doc{Name: name, Source: target, URL: target, Record: rec, Status: httpStatus(rec)}
			if target == "" {
				d.Source = name
			}
		}
		if !yield(d) {
			return false
		}
	}
}

// httpStatus returns the status of a response record's HTTP response, 0
// for another record.
func httpStatus(rec *warc.Record) int {
	if rec.Type() != "response" || !bytes.HasPrefix(rec.Block, []byte("HTTP/")) {
		return 0
	}
	line, _, _ := bytes.Cut(rec.Block, []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(fields[1])
	return n
}

// Extract hands the links of d to h through x: a WARC record's, a fetched
// URL's, or those of a file or standard input, read up to MaxSize. It
// returns what stopped the document, named with it, and sets d.Bytes and
// d.Skipped.
func (o *Options) Extract(x *links.Extractor, d *Doc, h *links.Handler) error {
	x.MaxSize = o.maxSize()
	switch {
	case d.Err != nil || d.Warning != nil || d.Skipped:
		return d.Err
	case d.Record != nil:
		d.Bytes = int64(len(d.Record.Block))
		if d.Record.Cut && h.Warn != nil {
			h.Warn(&links.Loss{Err: fmt.Errorf("its block is longer than -max-size %d bytes: links from its first %d bytes only", o.maxSize(), o.maxSize()), Cut: true})
		}
		x.ContentLocation = o.ContentLocation
		ok, err := x.Record(d.Record, h)
		d.Skipped = !ok
		return err
	case d.resp != nil:
		return o.page(x, d, h)
	}
	defer d.close()
	r := newLimitReader(d.in, o.maxSize())
	defer func() { d.Bytes = r.N() }()
	br := bufio.NewReader(r)
	what := d.Name
	if what == "-" {
		what = "standard input"
	}
	format := o.Format
	if format == 0 {
		prefix, _ := br.Peek(512)
		if format = links.FormatOf(d.Name, prefix); format == 0 {
			return fmt.Errorf("%s: neither HTML nor a MIME message nor a WARC archive, by its name or its first bytes (%q): no links", what, prefix[:min(len(prefix), 24)])
		}
	}
	outer := base.Retrieved(d.URL)
	var err error
	switch format {
	case links.FormatHTML:
		_, err = x.HTML(br, outer, h)
	case links.FormatMessage:
		x.ContentLocation = true // a file is a MIME message, not an HTTP response
		err = x.Message(br, outer, h)
	}
	return r.finish(err, what, "reading "+what)
}

// page extracts the links of a page fetched by URL.
func (o *Options) page(x *links.Extractor, d *Doc, h *links.Handler) error {
	defer d.close()
	r := newLimitReader(d.in, o.maxSize())
	defer func() { d.Bytes = r.N() }()
	resp := *d.resp
	resp.Header = resp.Header.Clone()
	resp.Body = io.NopCloser(r)
	if o.Format == links.FormatHTML {
		resp.Header.Set("Content-Type", "text/html") // read as HTML, whatever it says it is
	}
	x.ContentLocation = o.ContentLocation
	ok, err := x.Response(&resp, h)
	d.Skipped = !ok
	return r.finish(err, d.Name, "reading the body of "+d.URL)
}

// limitReader reads at most a document's MaxSize, and names what went
// wrong with it.
type limitReader struct{ *capped.Reader }

func newLimitReader(r io.Reader, n int64) limitReader { return limitReader{capped.New(r, n)} }

// finish returns err, the outcome of reading the document name through l,
// with what it was reading (such as "reading FILE") before a read error; or
// if there is none and l cut the document short, an error that says so.
func (l limitReader) finish(err error, name, reading string) error {
	var rerr *links.ReadError
	if errors.As(err, &rerr) {
		var serr *source.Error
		if errors.As(rerr.Err, &serr) {
			return serr // which names the URL and where it stopped
		}
		return fmt.Errorf("%s: %w", reading, rerr.Err)
	}
	if err == nil && l.Over {
		return fmt.Errorf("%s is larger than -max-size %d bytes: links from its first %d bytes only", name, l.Max, l.Max)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err) // a malformed message, say: which one
	}
	return err
}

// An Output is what a document prints: bytes for standard output and
// standard error. Run hands them out in input order; a handler calls Spill
// between links, so that what a document prints is handed out in pieces.
type Output = ordered.Output

// Run extracts the links of docs on workers goroutines, each with an
// Extractor of its own from newExtractor. For each document, handler
// returns the Handler that prints its links into out; write receives what
// the documents printed, in input order, and done each document once its
// output is written, with d.Err set when it failed. write or done
// returning false stops the run. At most 16 documents per worker are in
// flight: opened, and the small ones read whole (smallFile).
func (o *Options) Run(docs iter.Seq[*Doc], workers int, newExtractor func() *links.Extractor,
	handler func(d *Doc, out *Output) *links.Handler, write func(*Output) bool, done func(*Doc) bool) {
	extractors := make(chan *links.Extractor, workers)
	for range workers {
		extractors <- newExtractor()
	}
	ordered.Run(docs, workers, 16*workers,
		func(d *Doc, out *Output) {
			x := <-extractors
			defer func() { extractors <- x }()
			h := handler(d, out)
			warn := h.Warn
			h.Warn = func(err error) {
				var loss *links.Loss
				if errors.As(err, &loss) && loss.Cut {
					d.Cut++
				} else if loss != nil {
					d.Unreadable++
				}
				if d.Record != nil {
					// A record's problems name the archive and where it is.
					err = fmt.Errorf("%s, WARC record at offset %d: %w", d.Name, d.Record.Offset, err)
				}
				if warn != nil {
					warn(err)
				}
			}
			link := h.Link
			h.Link = func(l *links.Link) error {
				d.Links++
				err := link(l)
				out.Spill()
				return err
			}
			if err := o.Extract(x, d, h); err != nil && d.Err == nil {
				d.Err = err
			}
		},
		write, done)
}
