package links

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// Document extracts the links of r, a document of format f, whose base from
// outside is outer (Retrieved(url) for a document retrieved by url): it
// calls the reader of f (HTML, Message, Markdown, PlainText or XML).
func (x *Extractor) Document(r io.Reader, f Format, outer Base, h *Handler) error {
	switch f {
	case FormatHTML:
		err := x.HTML(r, outer, h)
		return err
	case FormatMessage:
		return x.Message(r, outer, h)
	case FormatMarkdown:
		return x.Markdown(r, outer, h)
	case FormatText:
		return x.PlainText(r, outer, h)
	case FormatXML:
		return x.XML(r, outer, h)
	}
	return fmt.Errorf("links: no reader for format %d", int(f))
}

// Links extracts the links of r, a document of format f whose base from
// outside is outer, as Document does, for a range loop: each Link the
// caller may keep (its byte slices are its own), with a nil error. A
// problem the extraction went on after (a relative base, a part that
// could not be decoded, a document cut short: what a Handler's Warn is
// told) comes as an error with the zero Link, and so does the error that
// stopped it, last. Breaking out of the loop stops the extraction.
//
// The Handler callbacks of Document are the fast path: their Link's
// slices are the Extractor's own, valid during the call, so nothing is
// copied.
func (x *Extractor) Links(r io.Reader, f Format, outer Base) iter.Seq2[Link, error] {
	return func(yield func(Link, error) bool) {
		stopped := false
		h := &Handler{
			Link: func(l *Link) error {
				if stopped || !yield(l.Clone(), nil) {
					stopped = true
					return errBreak
				}
				return nil
			},
			Warn: func(err error) {
				if !stopped && !yield(Link{}, err) {
					stopped = true
				}
			},
		}
		err := x.Document(r, f, outer, h)
		if err != nil && !errors.Is(err, errBreak) && !stopped {
			yield(Link{}, err)
		}
	}
}

// errBreak stops an extraction whose range loop ended.
var errBreak = errors.New("links: the loop ended")

// Clone returns a copy of l that owns its byte slices, for a Handler that
// keeps links beyond its call.
func (l *Link) Clone() Link {
	c := *l
	c.URL = bytes.Clone(l.URL)
	c.Ref = bytes.Clone(l.Ref)
	c.Rel = bytes.Clone(l.Rel)
	c.Text = bytes.Clone(l.Text)
	c.Site.Decoded = bytes.Clone(l.Site.Decoded)
	if l.Base != nil {
		b := *l.Base
		c.Base = &b
	}
	return c
}
