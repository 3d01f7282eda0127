package corpus

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"

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
func (o *Options) extract(x *links.Extractor, d *Doc, h *links.Handler) error {
	defer func(kept links.Options) { x.Options = kept }(x.Options)
	x.MaxSize = o.maxSize()
	switch {
	case d.Err != nil || d.Warning != nil || d.Skipped:
		return d.Err
	case d.Record != nil:
		d.Bytes = int64(len(d.Record.Block))
		if d.Record.Cut && h.Warn != nil {
			h.Warn(&links.Loss{Err: fmt.Errorf("its block is longer than the size limit of %d bytes: links from its first %d bytes only", o.maxSize(), o.maxSize()), Cut: true})
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
			return fmt.Errorf("%s: not a document relurl reads (HTML, a MIME message, a WARC archive, Markdown, text, a sitemap or a feed), by its name or its first bytes (%q): no links", what, prefix[:min(len(prefix), 24)])
		}
	}
	if format == links.FormatMessage {
		x.ContentLocation = true // a file is a MIME message, not an HTTP response
	}
	err := x.Document(br, format, links.Retrieved(d.URL), h)
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

// An Output is what a document prints: bytes for standard output and
// standard error. Run hands them out in input order; a handler calls Spill
// between links, so that what a document prints is handed out in pieces.
//
// It is the type of relurl's ordered output, which the command's other
// streaming commands share, and not a copy of it: a worker appends to Out
// and Err directly, and the writer reuses the buffers of pieces written.
type Output = ordered.Output

// Run extracts the links of docs on workers goroutines, each with an
// Extractor of its own, by lo; for each document, handler returns the
// Handler that prints its links into out. Run yields, in input order, what
// the documents printed, in pieces (an Output, with a nil Doc), and each
// document once all it printed is yielded (a nil Output, and the Doc, with
// its Err set when it failed). The loop's body runs on the calling
// goroutine; breaking out of it stops the run. At most 16 documents per
// worker are in flight: opened, and the small ones read whole
// (smallFile).
func (o *Options) Run(docs iter.Seq[*Doc], workers int, lo links.Options,
	handler func(d *Doc, out *Output) *links.Handler) iter.Seq2[*Output, *Doc] {
	return func(yield func(*Output, *Doc) bool) {
		o.run(docs, workers, lo, handler,
			func(out *Output) bool { return yield(out, nil) },
			func(d *Doc) bool { return yield(nil, d) })
	}
}

// run is Run with a function for each of the two things it yields.
func (o *Options) run(docs iter.Seq[*Doc], workers int, lo links.Options,
	handler func(d *Doc, out *Output) *links.Handler, write func(*Output) bool, done func(*Doc) bool) {
	extractors := make(chan *links.Extractor, workers)
	for range workers {
		extractors <- &links.Extractor{Options: lo}
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
			if err := o.extract(x, d, h); err != nil && d.Err == nil {
				d.Err = err
			}
		},
		write, done)
}
