package links

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/relurl/relurl/markdown"
	"github.com/relurl/relurl/xmldoc"
)

// plainText extracts the links of the plain text r: its URLs, found where
// GitHub finds its extended autolinks (http, https and ftp URLs and www.
// names, without the punctuation that ends a sentence), resolved against
// outer as absolute links are. Element "text", Attribute "".
func (x *Extractor) plainText(r io.Reader, outer Base, h *Handler) error {
	d := x.begin(outer, "", h)
	if err := d.establish(outer); err != nil {
		return unwrapHandler(err)
	}
	if !d.wants("text", "") {
		return nil
	}
	// The text is read a chunk of whole lines at a time: no URL spans
	// lines, and a list of a million URLs takes the memory of a chunk.
	chunk := make([]byte, textChunk)
	have, line := 0, 1
	var skipped, firstSkipped int
	skipping := false // in a line longer than a chunk, not read
	for {
		n, readErr := io.ReadFull(r, chunk[have:])
		have += n
		end := have
		if readErr == nil {
			if i := bytes.LastIndexByte(chunk[:have], '\n'); i >= 0 {
				end = i + 1
			} else {
				if !skipping {
					skipped, firstSkipped = skipped+1, cmp.Or(firstSkipped, line)
				}
				skipping, have = true, 0
				continue
			}
		}
		text := chunk[:end]
		if skipping { // the rest of the long line: not read
			if i := bytes.IndexByte(text, '\n'); i >= 0 {
				text, line, skipping = text[i+1:], line+1, false
			} else {
				text = nil
			}
		}
		found, unread := markdown.TextLinks(text)
		lines := lineCursor{src: text, line: 1}
		for _, l := range found {
			x.link = Link{Base: &x.base, Element: "text", Ref: text[l.Span.Start:l.Span.End]}
			if x.Positions {
				x.link.Line, x.link.Column = lines.position(l.Span.Start)
				x.link.Line += line - 1
			}
			if err := d.resolveAndHand([]byte(l.Dest)); err != nil {
				return unwrapHandler(err)
			}
		}
		for _, u := range unread {
			l, _ := lines.position(u.Start)
			skipped, firstSkipped = skipped+1, cmp.Or(firstSkipped, l+line-1)
		}
		line += bytes.Count(text, []byte{'\n'})
		have = copy(chunk, chunk[end:have])
		if readErr == io.EOF || readErr == io.ErrUnexpectedEOF {
			break
		}
		if readErr != nil {
			warnLongLines(h, skipped, firstSkipped)
			return &ReadError{readErr}
		}
	}
	warnLongLines(h, skipped, firstSkipped)
	return nil
}

// textChunk is how much plain text plainText reads at once.
const textChunk = 1 << 20

// warnLongLines warns that n lines of plain text, the first at line
// first, were longer than markdown.MaxLine and not read.
func warnLongLines(h *Handler, n, first int) {
	if n == 1 {
		h.warn(&Loss{Err: fmt.Errorf("line %d is longer than %d bytes: not read for links", first, markdown.MaxLine)})
	} else if n > 1 {
		h.warn(&Loss{Err: fmt.Errorf("%d lines, the first line %d, are longer than %d bytes: not read for links", n, first, markdown.MaxLine)})
	}
}

// xml extracts the links of the sitemap or feed r (package xmldoc: a
// sitemap's URLs, RSS's and Atom's links, the links of the HTML they
// hold), each resolved against the base its element has by XML Base: an
// xml:base in scope (base_from "xml-base", RFC 1808's Section 3.1, for
// XML), else the document's URL, outer. Element and Attribute are the XML
// element's and attribute's; a link of the HTML a feed holds has its HTML
// element and attribute, and the line and column of the XML element that
// holds the HTML. A sitemap compressed with gzip is read as it is.
func (x *Extractor) xml(r io.Reader, outer Base, h *Handler) error {
	d := x.begin(outer, "", h)
	if err := d.establish(outer); err != nil {
		return unwrapHandler(err)
	}
	// The xml:bases met, the last few: a Link's Base is valid during its
	// callback only, and a feed of a million entries, each with a base of
	// its own, must not keep them all.
	bases := map[string]*Base{}
	baseOf := func(u string) *Base {
		if u == outer.URL {
			return &d.outer
		}
		if b, ok := bases[u]; ok {
			return b
		}
		if len(bases) >= 64 {
			clear(bases)
		}
		b := &Base{URL: u, From: FromXMLBase}
		bases[u] = b
		return b
	}
	for l, err := range xmldoc.Links(r, outer.URL) {
		if err != nil {
			return err
		}
		b := baseOf(l.Base)
		if l.HTML != "" {
			if err := x.xmlHTML(l, *b, h); err != nil {
				return err
			}
			x.setBase(outer) // the HTML's document is done: back to this one
			continue
		}
		if !d.wants(l.Element, l.Attribute) {
			continue
		}
		x.link = Link{Base: b, Element: l.Element, Attribute: l.Attribute, Ref: []byte(l.Ref)}
		if x.Positions {
			x.link.Line, x.link.Column = l.Line, l.Column
		}
		if err := d.resolveAgainst(x.cleanURL([]byte(l.Ref)), b); err != nil {
			return unwrapHandler(err)
		}
	}
	return nil
}

// xmlHTML extracts the links of HTML a feed holds, against its element's
// base, at the element's line and column.
func (x *Extractor) xmlHTML(l xmldoc.Link, b Base, h *Handler) error {
	positions := x.Positions
	x.Positions = false
	defer func() { x.Positions = positions }()
	err := x.html(strings.NewReader(l.HTML), "text/html; charset=utf-8", b, "", &Handler{Warn: h.Warn, Link: func(link *Link) error {
		if positions {
			link.Line, link.Column = l.Line, l.Column
		}
		return h.Link(link)
	}})
	return unwrapHandler(err)
}

// resolveAgainst resolves clean against the base b, which is not the
// document's (an xml:base), and hands out x.link.
func (d *document) resolveAgainst(clean []byte, b *Base) error {
	x := d.x
	if b.URL == x.base.URL {
		return d.resolveAndHand(clean)
	}
	rb, err := x.resolver.Base(b.URL)
	return d.hand(clean, &rb, err == nil)
}
