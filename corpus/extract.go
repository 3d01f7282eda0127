package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"

	"github.com/relurl/relurl/internal/capped"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
)

// extract hands the links of d to h through x: a WARC record's, a fetched
// URL's, or those of a file or standard input, read up to MaxSize. It
// returns what stopped the document, named with it, and sets d.Bytes and
// d.Skipped. x's Options are the caller's: the document's own settings
// (the size limit, ContentLocation for a WARC record or a MIME file) hold
// for this call only.
func (o *Options) extract(w *worker, d *Doc, h *links.Handler) error {
	x := &w.x
	defer func(kept links.Options) { x.Options = kept }(x.Options)
	switch {
	case d.Err != nil || d.Warning != nil || d.Skipped:
		return d.Err
	case d.Record != nil:
		d.Bytes = int64(len(d.Record.Block))
		if d.Record.Cut && h.Warn != nil {
			h.Warn(&links.Loss{Err: fmt.Errorf("its block is longer than the size limit of %d bytes: links from its first %d bytes only", o.maxSize(), o.maxSize()), Cut: true})
		}
		x.ContentLocation = o.ContentLocation
		ok, err := record(x, d.Record, o.maxSize(), h)
		d.Skipped = !ok
		return err
	case d.resp != nil:
		return o.page(x, d, h)
	}
	defer d.close()
	if d.small {
		w.read(d)
	}
	r := newLimitReader(d.in, o.maxSize())
	var in io.Reader
	var prefix []byte
	if buf, ok := d.in.(*bytes.Buffer); ok && int64(buf.Len()) <= o.maxSize() {
		// A small file, read whole and within the limit: a
		// links.Extractor reads it where it is.
		in, prefix, d.Bytes = buf, buf.Bytes()[:min(buf.Len(), 512)], int64(buf.Len())
	} else {
		defer func() { d.Bytes = r.N() }()
		br := bufio.NewReader(r)
		prefix, _ = br.Peek(512)
		in = br
	}
	what := d.Name
	if what == "-" {
		what = "standard input"
	}
	format := o.Format
	if format == 0 {
		if format = links.FormatOf(d.Name, prefix); format == 0 {
			return fmt.Errorf("%s: not a document relurl reads (HTML, a MIME message, a WARC archive, Markdown, text, a sitemap or a feed), by its name or its first bytes (%q): no links", what, prefix[:min(len(prefix), 24)])
		}
	}
	if format == links.FormatMessage {
		x.ContentLocation = true // a file is a MIME message, not an HTTP response
	}
	err := x.Extract(in, links.Doc{Format: format, Base: links.Retrieved(d.URL)}, h)
	return r.finish(err, what, "reading "+what)
}

// A worker is what each of Run's workers keeps from one document to the
// next.
type worker struct {
	x   links.Extractor
	buf []byte // the small file it reads (Options.readLater)
}

// read reads d, a small file left open, whole into w's buffer, and makes
// d.in what it read: the links until a read error, then the error.
func (w *worker) read(d *Doc) {
	if int64(cap(w.buf)) <= d.size {
		w.buf = make([]byte, 0, d.size+1) // + 1: the end is seen without growing
	}
	var err error
	w.buf, err = readWhole(d.in, w.buf[:0], d.size)
	d.in = upTo(bytes.NewBuffer(w.buf), err)
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
	ok, err := response(x, &resp, retrievalOf(&resp), o.maxSize(), h)
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
		return fmt.Errorf("%s is larger than the size limit of %d bytes: links from its first %d bytes only", name, l.Max, l.Max)
	}
	if err != nil && l.Over {
		// The reader's error (XML's "unexpected EOF") is the cut's.
		return fmt.Errorf("%s is larger than the size limit of %d bytes, cut there (-max-size): %w", name, l.Max, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err) // a malformed message, say: which one
	}
	return err
}

// An Output is what a document prints, for standard output (Out) and
// standard error (Err). A Handler Run is given appends to it; Run hands it
// to its writer in input order, and in pieces: a handler that prints much
// calls Spill between links, so that a document's output is not held
// whole.
type Output struct {
	Out, Err []byte
	piece    *ordered.Output // the run's buffer for the document, nil outside Run
}

// Spill hands what o holds to the writer once it holds more than 256 KiB;
// outside Run it does nothing. Run calls it after each link.
func (o *Output) Spill() {
	if o.piece == nil {
		return
	}
	o.piece.Out, o.piece.Err = o.Out, o.Err
	o.piece.Spill()
	o.Out, o.Err = o.piece.Out, o.piece.Err
}

// Run extracts the links of docs on workers goroutines, each with an
// Extractor of its own, by lo (and, when they take every core, reading
// small files itself: see smallFile); for each document, handler returns
// the Handler that prints its links into out. Run yields each document, in
// input order, once write has been called with all it printed (in
// pieces), its Err set when it failed. write and the loop's body run on
// the calling goroutine; write returning false, or breaking out of the
// loop, stops the run. At most 16 documents per worker are in flight
// (opened, and the small ones read whole: smallFile), and up to 64 while
// a worker would otherwise wait behind a long document at the head of
// them (ordered.Window): those behind it are done by then, and each holds
// what it printed, at most 256 KiB.
func (o *Options) Run(docs iter.Seq[*Doc], workers int, lo links.Options,
	handler func(d *Doc, out *Output) *links.Handler, write func(out, errOut []byte) bool) iter.Seq[*Doc] {
	return func(yield func(*Doc) bool) {
		// With a worker on every core, none is left for the goroutine
		// that walks the inputs to read small files ahead on.
		o.readLater = workers >= runtime.GOMAXPROCS(0)
		idle := make(chan *worker, workers)
		for range workers {
			idle <- &worker{x: links.Extractor{Options: lo}}
		}
		// A document taken and then dropped, as the run stops, is
		// closed here: what it holds open is no worker's to close.
		taken := func(yield func(*Doc) bool) {
			for d := range docs {
				if !yield(d) {
					d.release()
					return
				}
			}
		}
		ordered.Run(taken, workers, ordered.Window{Jobs: 16 * workers, Widest: 64 * workers},
			func(d *Doc, piece *ordered.Output) {
				out := &Output{Out: piece.Out, Err: piece.Err, piece: piece}
				defer func() { piece.Out, piece.Err = out.Out, out.Err }()
				w := <-idle
				defer func() { idle <- w }()
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
				if err := o.extract(w, d, h); err != nil && d.Err == nil {
					d.Err = err
				}
			},
			func(piece *ordered.Output) bool { return write(piece.Out, piece.Err) },
			yield)
	}
}
