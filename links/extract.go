package links

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/textproto"
	"strings"
)

// A Doc is what an Extractor knows of a document before it reads it: its
// format, and the layers of RFC 1808, Section 3 that lie outside its
// content. The zero Doc is a document of no known origin whose format is
// sniffed from its first bytes.
type Doc struct {
	// Format is what the document is. 0 reads it as its Header's
	// Content-Type says, as a crawler reads a response: HTML (also when
	// the type is missing), a MIME multipart or message (whose HTML parts
	// give links), Markdown (text/markdown), a sitemap or feed (XML
	// types, and gzip for a URL that ends in .xml.gz); and with no Header,
	// as its first bytes say (FormatOf). Any other type, plain text
	// included, is no document: Extract returns an error that
	// errors.Is(err, errors.ErrUnsupported) recognizes, having read
	// nothing.
	Format Format
	// Base is the document's base from outside its content: the URL it
	// was retrieved by (Section 3.3, Retrieved), or the base of the entity
	// it is a part of (3.2). The zero Base is none (3.4).
	Base Base
	// Header, if not nil, is the header the document came with: an HTTP
	// response's, or a MIME part's. The bases it sets (Base, Content-Base,
	// and with Options.ContentLocation Content-Location) are the layer
	// over Base, its Content-Type's charset decodes HTML, and its
	// Content-Transfer-Encoding is removed. With FormatMessage, r is then
	// the entity's body; without a Header, r holds the whole message. With
	// FormatRedirect, its Location is the one link.
	Header textproto.MIMEHeader
}

// Extract hands the links of the document r, described by doc, to h, in
// document order, each resolved against the document's base URL. It reads
// r to its end, or until h.Link returns an error, which Extract then
// returns as it is. Problems the extraction goes on after (a relative
// base, a MIME part that cannot be decoded, a document cut short) go to
// h.Warn; a failure to read r stops it, after the links found until then,
// as a *ReadError.
//
// Each format has its reader, described with its Format: HTML, MIME
// messages, Markdown, plain text, sitemaps and feeds, HTTP redirects.
func (x *Extractor) Extract(r io.Reader, doc Doc, h *Handler) error {
	switch doc.Format {
	case 0:
		if doc.Header != nil {
			f, err := formatOfType(doc)
			if err != nil {
				return err
			}
			if f == FormatMessage {
				return x.entityOf(doc, r, 0, h)
			}
			doc.Format = f
			break
		}
		var prefix []byte
		if buf, ok := r.(*bytes.Buffer); ok {
			prefix = buf.Bytes()[:min(buf.Len(), 512)] // read where it is (see html)
		} else {
			br := bufio.NewReaderSize(r, 512)
			prefix, _ = br.Peek(512)
			r = br
		}
		if doc.Format = sniff(prefix); doc.Format == 0 {
			return &formatError{fmt.Sprintf("a document of unknown format, by its first bytes (%q): no links", prefix[:min(len(prefix), 24)])}
		}
	case FormatRedirect:
		return unwrapHandler(x.redirect(doc, h))
	case FormatHTML, FormatMessage, FormatMarkdown, FormatText, FormatXML:
	default:
		return fmt.Errorf("links: no reader for format %d", int(doc.Format))
	}
	if doc.Header != nil {
		as := doc.Format
		if as == FormatMessage {
			as = 0 // the entity is what its header says
		}
		return x.entityOf(doc, r, as, h)
	}
	return unwrapHandler(x.read(r, doc.Format, doc.Base, h))
}

// read extracts the links of r, a document of format f with no header,
// whose base from outside is outer.
func (x *Extractor) read(r io.Reader, f Format, outer Base, h *Handler) error {
	switch f {
	case FormatHTML:
		return x.html(r, "", outer, "", h)
	case FormatMessage:
		return x.message(r, outer, h)
	case FormatMarkdown:
		return x.markdown(r, outer, h)
	case FormatText:
		return x.plainText(r, outer, h)
	}
	return x.xml(r, outer, h)
}

// formatOfType returns the format a document's Content-Type gives it, when
// Doc.Format is 0: FormatMessage for a multipart or a message, whose parts
// the MIME reader walks.
func formatOfType(doc Doc) (Format, error) {
	mediaType, _, _ := mime.ParseMediaType(doc.Header.Get("Content-Type"))
	switch {
	case mediaType == "text/markdown":
		return FormatMarkdown, nil
	case isXML(mediaType), (mediaType == "application/gzip" || mediaType == "application/x-gzip") && strings.HasSuffix(strings.ToLower(doc.Base.URL), ".xml.gz"):
		return FormatXML, nil
	case mediaType == "" || mediaType == "text/html" || mediaType == "application/xhtml+xml":
		return FormatHTML, nil // no type at all is HTML, as browsers sniff it
	case strings.HasPrefix(mediaType, "multipart/") || strings.HasPrefix(mediaType, "message/"):
		return FormatMessage, nil
	}
	what := "of no type"
	if mediaType != "" {
		what = mediaType
	}
	return 0, &formatError{fmt.Sprintf("%s is %s, not HTML: no links", doc.Base.URL, what)}
}

// A formatError says a document is of no format an Extractor reads.
type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }
func (e *formatError) Unwrap() error { return errors.ErrUnsupported }

// isXML reports whether a media type is XML that may be a sitemap or a
// feed.
func isXML(mediaType string) bool {
	switch mediaType {
	case "application/xml", "text/xml", "application/rss+xml", "application/atom+xml", "application/rdf+xml":
		return true
	}
	return false
}

// redirect hands out the one link of an HTTP redirect: its Location,
// resolved against the URL that was redirected (RFC 9110, Section
// 10.2.2).
func (x *Extractor) redirect(doc Doc, h *Handler) error {
	loc := doc.Header.Get("Location")
	if loc == "" || x.Only != nil && !x.Only[RedirectElement] {
		return nil
	}
	d := x.begin(doc.Base, "", h)
	if err := d.establish(doc.Base); err != nil {
		return err
	}
	return d.emit([]byte(loc), locationKind)
}

// Links is Extract for a range loop: each Link the caller may keep (its
// byte slices are its own), with a nil error. A problem the extraction
// went on after (what a Handler's Warn is told) comes as an error with the
// zero Link, and so does the error that stopped it, last. Breaking out of
// the loop stops the extraction.
//
// Extract's Handler is the fast path: the slices of the Link it is handed
// are the Extractor's own, valid during the call, so nothing is copied.
func (x *Extractor) Links(r io.Reader, doc Doc) iter.Seq2[Link, error] {
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
		err := x.Extract(r, doc, h)
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
