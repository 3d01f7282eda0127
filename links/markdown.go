package links

import (
	"bytes"
	"fmt"
	"io"

	"github.com/relurl/relurl/markdown"
)

// markdown extracts the links of the Markdown document r, written for the
// renderer Dialect, against its base outer. A Markdown document declares
// no base of its own (the renderers drop a <base> in its HTML, and so does
// Markdown here): its base is the URL it was retrieved by, RFC 1808's
// Section 3.3.
//
// Its links are package markdown's, resolved as the browser resolves the
// href the renderer writes: an inline link or an autolink is Element "a",
// Attribute "href"; an image "img", "src"; a reference definition, handed
// out once whatever its uses (Link.Uses counts them), "a" (or "img" when
// only images use it), Attribute "definition". The links of its raw HTML
// are HTML's, found as in an HTML document, and all are handed out in the
// order they are written. Line and Column are the Markdown source's, and
// with Sites, a link's Site is its destination's bytes there (Quote '<'
// when it is written in angle brackets, Markdown its kind).
func (x *Extractor) markdown(r io.Reader, outer Base, h *Handler) error {
	src, readErr := x.readText(r)
	// The Markdown links are handed out as package markdown finds them,
	// each after the links of the raw HTML before it, which are read
	// first (the HTML reading is a document of its own to the Extractor,
	// before this one begins), from a document of the same length in
	// which only the HTML is left: memory does not grow with the links
	// of the Markdown.
	doc, mdLinks := markdown.Scan(src, x.Dialect)
	inHTML, err := x.markdownHTML(doc, outer)
	if err != nil {
		return unwrapHandler(err)
	}
	d := x.begin(outer, "", h)
	if err := d.establish(outer); err != nil {
		return unwrapHandler(err)
	}
	lines := lineCursor{src: src, line: 1}
	if doc.Read < len(src) {
		line, _ := lines.position(doc.Read)
		h.warn(&Loss{Err: fmt.Errorf("a Markdown document is read up to %d MiB (its parser holds it whole, in about a hundred times its size): from line %d on, %d bytes give no links", markdown.MaxSize>>20, line, len(src)-doc.Read), Cut: true})
	}
	warnUnread(h, doc.Unread, &lines)
	for l := range mdLinks {
		if err != nil {
			break
		}
		for len(inHTML) > 0 && int(inHTML[0].site.Tag.Start) < l.Span.Start && err == nil {
			err = d.emitHeld(&inHTML[0], &lines)
			inHTML = inHTML[1:]
		}
		if err == nil {
			err = d.emitMarkdown(l, src, &lines)
		}
	}
	for err == nil && len(inHTML) > 0 {
		err = d.emitHeld(&inHTML[0], &lines)
		inHTML = inHTML[1:]
	}
	if err != nil {
		return unwrapHandler(err)
	}
	if readErr != nil {
		return &ReadError{readErr}
	}
	if h.IDs != nil {
		h.IDs(doc.Anchors(x.Dialect))
	}
	return nil
}

// readText reads r whole, into the Extractor's buffer: nothing it holds
// is kept once its document is read. The buffer is kept for the next
// document, unless a large one made it large.
func (x *Extractor) readText(r io.Reader) ([]byte, error) {
	if buf, ok := r.(*bytes.Buffer); ok {
		return buf.Next(buf.Len()), nil // in memory already: read where it is
	}
	b := x.mdBytes[:0]
	if n, ok := r.(interface{ Len() int }); ok && cap(b) < n.Len()+1 {
		b = make([]byte, 0, n.Len()+1) // + 1: the end is seen without growing
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if cap(b) <= 4<<20 {
				x.mdBytes = b
			} else {
				x.mdBytes = nil
			}
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
	}
}

// markdownHTML returns the links of a Markdown document's raw HTML, read
// from a document of the same length in which only the HTML is left.
func (x *Extractor) markdownHTML(doc *markdown.Document, outer Base) ([]heldLink, error) {
	if len(doc.HTML) == 0 {
		return nil, nil
	}
	var inHTML []heldLink
	sites, positions := x.Sites, x.Positions
	x.Sites, x.Positions, x.ignoreBase = true, false, true
	// Markdown is text, whose HTML is UTF-8 as its renderers write it:
	// no <meta> in it says otherwise, and none is looked for.
	err := x.html(bytes.NewBuffer(doc.Shadow()), "text/html; charset=utf-8", outer, "", &Handler{Link: func(l *Link) error {
		inHTML = append(inHTML, hold(l))
		return nil
	}})
	x.Sites, x.Positions, x.ignoreBase = sites, positions, false
	return inHTML, err
}

// warnUnread warns of what package markdown did not read: lines longer
// than markdown.MaxLine, paragraphs of more than markdown.MaxParagraph
// lines, on which its parser takes time that grows with the square of
// their length. A Loss, which names the first.
func warnUnread(h *Handler, unread []markdown.Span, lines *lineCursor) {
	if len(unread) == 0 {
		return
	}
	line, _ := lines.position(unread[0].Start)
	what := fmt.Sprintf("the text at line %d", line)
	if len(unread) > 1 {
		what = fmt.Sprintf("%d pieces of text, the first at line %d,", len(unread), line)
	}
	h.warn(&Loss{Err: fmt.Errorf("%s not read for links: a line longer than %d bytes, or a paragraph of more than %d lines (a Markdown parser takes time that grows with the square of their size)", what, markdown.MaxLine, markdown.MaxParagraph)})
}

// emitMarkdown resolves a Markdown link and hands it out.
func (d *document) emitMarkdown(l markdown.Link, src []byte, lines *lineCursor) error {
	x := d.x
	x.link = Link{Base: &x.base, Uses: l.Uses, Markdown: l.Kind, Element: "a", Attribute: "href"}
	switch l.Kind {
	case markdown.Image:
		x.link.Element, x.link.Attribute = "img", "src"
	case markdown.Definition:
		x.link.Attribute = "definition"
		if l.Uses > 0 && l.Uses == l.ImageUses {
			x.link.Element = "img"
		}
	}
	if !d.wants(x.link.Element, x.link.Attribute) {
		return nil
	}
	if x.Positions {
		x.link.Line, x.link.Column = lines.position(l.Span.Start)
	}
	raw := src[l.Span.Start:l.Span.End]
	if x.Sites && l.Unplaced {
		// No place to write a target in: a rewrite must not claim it.
		line, _ := lines.position(l.Span.Start)
		d.h.warn(&Loss{Err: fmt.Errorf("line %d: a link with an empty destination, whose place in the text relurl could not tell: it cannot be rewritten", line)})
	} else if x.Sites {
		quote := byte(0)
		if l.Angle {
			quote = '<'
		}
		// Decoded is the href the renderer writes: the destination with
		// its escapes and references decoded, percent-encoded.
		x.link.Site = Site{Value: spanOf(l.Span), Tag: spanOf(l.Span), Quote: quote, Decoded: []byte(l.Dest), Ref: [2]int{0, len(l.Dest)}, Markdown: l.Kind}
	}
	x.link.Ref = raw
	return d.resolveAndHand([]byte(l.Dest))
}

// wants reports whether Only lets the links of an element's attribute
// through; a Markdown definition counts as its element's href or src.
func (d *document) wants(element, attribute string) bool {
	only := d.x.Only
	if only == nil || only[element] || only[element+"@"+attribute] {
		return true
	}
	switch attribute {
	case "definition":
		return only[element+"@href"] || only[element+"@src"]
	}
	return false
}

// A heldLink is a link of a Markdown document's HTML, kept until the
// Markdown links before it are handed out.
type heldLink struct {
	link Link
	site Site
}

// hold copies what a link holds only during the callback.
func hold(l *Link) heldLink {
	h := heldLink{link: *l, site: l.Site}
	h.link.URL = bytes.Clone(l.URL)
	h.link.Ref = bytes.Clone(l.Ref)
	h.link.Rel = bytes.Clone(l.Rel)
	h.link.Text = bytes.Clone(l.Text)
	h.site.Decoded = bytes.Clone(l.Site.Decoded)
	return h
}

// emitHeld hands out a link of the document's HTML, with the Markdown
// document's base, position and (with Sites) site.
func (d *document) emitHeld(l *heldLink, lines *lineCursor) error {
	x := d.x
	x.link = l.link
	x.link.Base = &x.base
	x.link.Site = Site{}
	if x.Sites {
		x.link.Site = l.site
	}
	if x.Positions {
		x.link.Line, x.link.Column = lines.position(int(l.site.Tag.Start))
	}
	if err := d.h.Link(&x.link); err != nil {
		x.stop = err
		return handlerError{err}
	}
	return nil
}

// A lineCursor tells the line and column of offsets in a text, each
// counted from the one told before: offsets that come in order, or
// nearly, cost the bytes between them, however long the text, and no
// table of its lines.
type lineCursor struct {
	src         []byte
	off         int // the offset told last
	line, start int // its line (1-based), and where that line starts
}

// position returns the 1-based line and column (in bytes) of offset off.
func (c *lineCursor) position(off int) (int, int) {
	nl := []byte{'\n'}
	switch {
	case off > c.off:
		if n := bytes.Count(c.src[c.off:off], nl); n > 0 {
			c.line += n
			c.start = c.off + bytes.LastIndexByte(c.src[c.off:off], '\n') + 1
		}
	case off < c.off:
		if n := bytes.Count(c.src[off:c.off], nl); n > 0 {
			c.line -= n
			c.start = bytes.LastIndexByte(c.src[:off], '\n') + 1
		}
	}
	c.off = off
	return c.line, off - c.start + 1
}
