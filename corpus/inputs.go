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
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/relurl/relurl/internal/bufpool"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
	"github.com/relurl/relurl/warc"
)

// warcName reports whether a name says it is a WARC archive.
func warcName(name string) bool {
	name = strings.ToLower(name)
	return strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".warc.gz") || strings.HasSuffix(name, ".warc.zst")
}

// counts reports whether a file found in a directory counts, by its name:
// a WARC archive, or a document whose name says its links.Format.
func counts(name string) bool {
	return warcName(name) || links.FormatOf(name, nil) != 0
}

// Docs returns the documents of the inputs, then of the manifest Files, in
// order: each input a file, a directory, "-" for standard input, or a URL
// ("SCHEME://...": http, https and s3 are opened by package source, other
// schemes are an error). A file of a directory that does not count is a
// Doc too, Skipped, so that it is counted in order; a Map that no input
// fell under is a Doc with a Warning, last. ctx bounds what is fetched: a
// URL, an S3 object, the manifest.
func (o *Options) Docs(ctx context.Context, inputs iter.Seq[string]) iter.Seq[*Doc] {
	return func(yield func(*Doc) bool) {
		// What the inputs share, made before they are read, which may be
		// on several goroutines at once.
		o.sourceOptions()
		if o.mapUsed == nil {
			o.mapUsed = make([]atomic.Bool, len(o.Maps))
		}
		// The working directory, for the file: URLs of relative names:
		// os.Getwd looks at two directories each time it is called.
		o.wd, _ = os.Getwd()
		if o.Concurrent > 1 {
			if !o.readAhead(ctx, o.names(ctx, inputs), yield) {
				return
			}
		} else {
			for name, err := range o.names(ctx, inputs) {
				if !o.entry(ctx, name, err, yield) {
					return
				}
			}
		}
		for _, err := range o.unusedMaps() {
			if !yield(&Doc{Name: err.Map.Dir, Source: err.Map.Dir, Warning: err}) {
				return
			}
		}
	}
}

// names yields the inputs, then those of the manifest, each with nil, or
// the manifest's name and why it could not be read on.
func (o *Options) names(ctx context.Context, inputs iter.Seq[string]) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for name := range inputs {
			if !yield(name, nil) {
				return
			}
		}
		if o.Files == "" {
			return
		}
		for name, err := range o.sourceOptions().Manifest(ctx, o.Files, o.Prefix, o.Stdin) {
			if err != nil {
				name, err = o.Files, fmt.Errorf("manifest: %w", err)
			}
			if !yield(name, err) {
				return
			}
		}
	}
}

// entry yields the documents of one of names' entries, and reports
// whether to go on.
func (o *Options) entry(ctx context.Context, name string, err error, yield func(*Doc) bool) bool {
	if err != nil {
		return yield(&Doc{Name: name, Source: name, Err: err})
	}
	return o.input(ctx, name, yield)
}

func (o *Options) input(ctx context.Context, name string, yield func(*Doc) bool) bool {
	switch {
	case source.IsURL(name):
		return o.openURL(ctx, name, yield)
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
		case o.Skip != nil && path != name && o.Skip(path, d.IsDir()):
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			// Not followed: it may lead out of the tree, or around it.
			ok = yield(&Doc{Name: path, Source: path, Skipped: true, kind: "symbolic link"})
		case !d.Type().IsRegular():
			ok = yield(&Doc{Name: path, Source: path, Skipped: true, kind: "special file"})
		case counts(path):
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
func (o *Options) openURL(ctx context.Context, name string, yield func(*Doc) bool) bool {
	ctx, cancel := context.WithCancelCause(ctx)
	noDeadline := func() bool { return false }
	if timeout := o.timeout(); timeout > 0 {
		noDeadline = time.AfterFunc(timeout, func() { cancel(fmt.Errorf("no complete answer within %v", timeout)) }).Stop
	}
	stop := func() {
		noDeadline()
		cancel(nil)
	}
	obj, err := o.sourceOptions().Open(ctx, name, nil)
	if err != nil {
		stop()
		return yield(&Doc{Name: name, Source: name, Err: err})
	}
	// A read error here comes again when the document is read, after the
	// links of the bytes before it.
	br, isWARC := warc.Sniff(obj)
	if !isWARC && o.Format == 0 && warcName(obj.URL) {
		prefix, _ := br.Peek(16)
		obj.Close()
		stop()
		return yield(&Doc{Name: name, Source: name, Err: notWARC(name, prefix)})
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
	f, err := openFile(path)
	if err != nil {
		return yield(&Doc{Name: path, Source: path, Err: err})
	}
	size, regular := f.size()
	if !regular || size > smallFile {
		return o.file(path, path, f, maybe, yield)
	}
	if o.readLater && leaveOpen() {
		return o.later(path, f, size, maybe, yield)
	}
	whole, release, readErr := readSmall(f, size)
	// Read whole, then told apart as an open file is: a WARC archive, read
	// from memory, or a document, which holds the bytes until it is done.
	held := false
	defer func() {
		if !held {
			release()
		}
	}()
	return o.file(path, path, io.NopCloser(bytes.NewReader(whole.Bytes())), maybe, func(d *Doc) bool {
		if d.in != nil && d.Record == nil {
			d.in, d.close, d.held, held = upTo(whole, readErr), release, int64(whole.Len()), true
		}
		return yield(d)
	})
}

// later yields the small file f, of size bytes by fstat, left open for
// the worker that extracts its links to read whole (extract), once its
// first bytes say it is no WARC archive: they are read by pread, which
// leaves the file to be read from its start. One that may be an archive
// is told apart as a large file is.
func (o *Options) later(path string, f *rawFile, size int64, maybe bool, yield func(*Doc) bool) bool {
	var head [512]byte
	n, err := f.ReadAt(head[:], 0)
	prefix := head[:n]
	left := false
	defer func() {
		if !left { // a WARC archive, read already, or no document
			later.Add(-1)
		}
	}()
	leave := func(d *Doc) bool {
		if d.in != nil && d.Record == nil {
			left, d.small, d.size = true, true, size
			d.close = func() error {
				later.Add(-1)
				return f.Close()
			}
		}
		return yield(d)
	}
	if err != nil && err != io.EOF || warc.CouldStart(prefix) {
		return o.file(path, path, f, maybe, leave) // which names a read error
	}
	d := o.document(path, prefix, maybe)
	if d.Err != nil || d.Skipped {
		f.Close()
		return yield(d)
	}
	d.in = f
	return leave(d)
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
	prefix, _ := br.Peek(512)
	d := o.document(name, prefix, maybe)
	if d.Err != nil || d.Skipped {
		f.Close()
		return yield(d)
	}
	d.in, d.close = br, f.Close
	return yield(d)
}

// document returns the Doc of a file name that is no WARC archive, whose
// content starts with prefix, without what reads it: one skipped, with
// maybe, if its content says it is no document; one named as a WARC
// archive, an error (read as HTML, it would give no links and no word).
func (o *Options) document(name string, prefix []byte, maybe bool) *Doc {
	switch {
	case maybe && links.FormatOf(name, prefix) == 0:
		return &Doc{Name: name, Source: name, Skipped: true}
	case o.Format == 0 && warcName(name):
		return &Doc{Name: name, Source: name, Err: notWARC(name, prefix)}
	}
	d := &Doc{Name: name, Source: name, URL: o.retrieval(name)}
	if d.URL != "" {
		d.Source = d.URL
	}
	return d
}

// smallFile is the size up to which a file is read whole, in a system call
// or two: by default by the goroutine that walks the inputs, ahead of the
// worker that extracts its links, so that even with one worker, opening
// and reading files (a third of the time, for pages of tens of kilobytes)
// overlaps extraction on a core of its own. When the workers take every
// core (Options.readLater), the worker reads the file, into a buffer it
// keeps from one file to the next: no core is left over to read ahead
// on, and the memory of files read ahead would be new to each of them,
// which costs the kernel a page fault for each 4 KiB (-j 2 over the 1,699
// pages: 9,000 page faults instead of 16,000). It is as much as links'
// fast path holds of a document it may hand over, so that a page read
// whole (a docs tree's index of a few MiB) is not copied again as it is
// read. Larger files are streamed by the worker, in bounded memory.
const smallFile = 4 << 20

// maxLater bounds the small files left open for the workers to read,
// counted in later: the documents in flight, and those of inputs read
// ahead (Concurrent), may be many more than a process may have open. Past
// it, the goroutine that walks the inputs reads them whole.
const maxLater = 256

var later atomic.Int64

// leaveOpen counts one more file left open, if that makes at most
// maxLater.
func leaveOpen() bool {
	for {
		n := later.Load()
		if n >= maxLater {
			return false
		}
		if later.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// readSmall reads f whole, a regular file of size bytes by fstat (at most
// smallFile), and closes it. It returns what was read, the read error that
// stopped it (after those bytes) if one did, and a function that gives the
// memory back once that is done with.
func readSmall(f *rawFile, size int64) (whole *bytes.Buffer, release func() error, readErr error) {
	bp := buffers.Get(int(size) + 1) // + 1: the end is seen without growing
	*bp, readErr = readWhole(f, (*bp)[:0], size)
	f.Close()
	return bytes.NewBuffer(*bp), func() error { buffers.Put(bp); return nil }, readErr
}

// readWhole appends what r holds to b, which has room for size bytes
// and one more: a regular file of that size by fstat, read in a system
// call or two (a short read that ends it at the size fstat gave is its
// end; a file that grew is read on). It returns the bytes read, and the
// error that stopped the reading if one did.
func readWhole(r io.Reader, b []byte, size int64) ([]byte, error) {
	start := len(b)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF || err == nil && size > 0 && int64(len(b)-start) == size { // cap(b) > size: a short read
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew
		}
	}
}

// buffers keeps the buffers of small files for the files after them: a
// run reads far ahead of its workers, and each buffer read ahead is
// memory the allocator clears.
var buffers bufpool.Pool

// upTo reads the bytes of a document read whole, then the error that
// stopped the reading, if one did: the links of the bytes before it, then
// the error.
func upTo(read *bytes.Buffer, err error) io.Reader {
	if err == nil {
		return read // which links.Extractor reads where it is
	}
	return io.MultiReader(read, errReader{err})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// notWARC is the error of an input named as a WARC archive that is not
// one, whose content starts with prefix.
func notWARC(name string, prefix []byte) error {
	prefix = prefix[:min(len(prefix), 16)]
	if len(prefix) == 0 {
		return fmt.Errorf("%s: not a WARC archive: it is empty", name)
	}
	return fmt.Errorf("%s: not a WARC archive: it starts with %q, not WARC/ (plain, gzip or zstd)", name, prefix)
}

// retrieval returns the retrieval URL of the file name, as the documents
// of a run get theirs: URL, if set; else its URL under the innermost of
// Maps (source.Maps.URLOf), which it marks used; else with FileURLs its
// file:// URL; else "".
func (o *Options) retrieval(name string) string {
	if o.URL != "" {
		return o.URL
	}
	if u, which := o.Maps.URLOf(name); which >= 0 {
		if o.mapUsed == nil { // outside Docs
			o.mapUsed = make([]atomic.Bool, len(o.Maps))
		}
		o.mapUsed[which].Store(true)
		return u
	}
	if o.FileURLs && name != "-" {
		abs, err := name, error(nil)
		switch {
		case filepath.IsAbs(name):
			abs = filepath.Clean(name)
		case o.wd != "":
			abs = filepath.Join(o.wd, name)
		default:
			abs, err = filepath.Abs(name)
		}
		if err == nil {
			return "file://" + source.EscapePath(filepath.ToSlash(abs))
		}
	}
	return ""
}

// An UnusedMapError is the warning for a Map that no input fell under: a
// mistyped directory leaves its links unresolved. Docs yields it as a
// Doc's Warning, named after the Map's directory.
type UnusedMapError struct{ Map source.Map }

func (e *UnusedMapError) Error() string {
	return fmt.Sprintf("%s=%s: no input is below %s", e.Map.Dir, e.Map.URL, e.Map.Dir)
}

// unusedMaps returns a warning for each Map that no input fell under.
func (o *Options) unusedMaps() []*UnusedMapError {
	var errs []*UnusedMapError
	for i, m := range o.Maps {
		if o.mapUsed == nil || !o.mapUsed[i].Load() {
			errs = append(errs, &UnusedMapError{m})
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
			d = &Doc{Name: name, Source: target, URL: target, Record: rec, Status: httpStatus(rec), held: int64(len(rec.Block))}
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
