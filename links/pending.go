package links

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/rfc1808"
)

// This file is the links that wait: for the document's base, which a
// <base> after them sets, and for the text of the <a> they are in.

// establish sets the document's base, tells the handler, and hands out the
// links that waited for it, unless an open <a> still holds them.
func (d *document) establish(b Base) error {
	d.based = true
	d.x.htmlParts++
	if d.h.Base != nil {
		d.h.Base(d.part, b)
	}
	x := d.x
	x.setBase(b)
	x.link = Link{Base: &x.base, Part: d.part}
	if d.anchor >= 0 {
		return nil
	}
	return d.flush()
}

// resolverOf returns o's resolver: o.Resolver, or the URL Standard's.
func (o *Options) resolverOf() relurl.Resolver {
	if o.Resolver == nil {
		return relurl.Resolver{Spec: relurl.WHATWG}
	}
	return *o.Resolver
}

// setBase makes b the base links resolve against.
func (x *Extractor) setBase(b Base) {
	x.base, x.absolute = b, rfc1808.Split(b.URL).HasScheme()
	x.resolver = x.resolverOf()
	x.resolver.QueryEncoding = x.queryEncoding
	if x.absolute {
		var err error
		x.resolveBase, err = x.resolver.Base(b.URL)
		x.absolute = err == nil
		if x.absolute && x.queryEncoding != nil {
			css := x.resolverOf()
			x.cssBase, _ = css.Base(b.URL)
		}
	}
}

// flush hands out the links that wait, unless the fast path holds them.
func (d *document) flush() error {
	if d.hold {
		return nil
	}
	x := d.x
	tag := int64(0) // the tag of the last link read, whose span the next is relative to
	ex := x.extras.reader()
	for _, piece := range x.pendingFull {
		if err := d.flushPiece(piece, &tag, &ex); err != nil {
			return err
		}
	}
	if err := d.flushPiece(x.pending, &tag, &ex); err != nil {
		return err
	}
	x.dropPending()
	return nil
}

// dropPending empties the links that wait, keeping pending's buffer.
func (x *Extractor) dropPending() {
	clear(x.held)
	clear(x.pendingFull)
	x.pending, x.pendingFull, x.held, x.pendingTag = x.pending[:0], x.pendingFull[:0], x.held[:0], 0
	x.extras.reset()
}

// flushPiece hands out the links of p, a piece of pending: tag and ex go
// on from the piece before it.
func (d *document) flushPiece(p []byte, tag *int64, ex *extrasReader) error {
	x := d.x
	for len(p) > 0 {
		n, w := binary.Uvarint(p)
		kind := p[w]
		value := p[w+1 : w+1+int(n)]
		p = p[w+1+int(n):]
		if kind&heldKind != 0 {
			i, w := binary.Uvarint(p)
			value, p = x.held[i], p[w:]
		}
		x.link.Rel, x.link.Text = nil, nil
		x.link.Line, x.link.Column = 0, 0
		if kind&extraKind != 0 {
			i, w := binary.Uvarint(p)
			p = p[w:]
			e := ex.at(int(i))
			x.link.Rel, x.link.Text = orNil(e.rel), orNil(e.text)
			x.link.Line, x.link.Column = e.line, e.col
		}
		if x.Sites {
			var d [4]int64 // see wait
			for i := range d {
				v, w := binary.Varint(p)
				d[i], p = v, p[w:]
			}
			*tag += d[0]
			t := *tag
			x.site = Site{Tag: htmltok.Span{Start: t, End: t + d[1]}, Value: htmltok.Span{Start: t + d[2], End: t + d[2] + d[3]},
				Quote: quotes[p[0]&3], Style: p[0]&4 != 0}
			p = p[1:]
		}
		if err := d.emit(value, kind&kindMask); err != nil {
			return err
		}
	}
	return nil
}

// extras are the rel, text and position of the waiting links of each tag
// that needs them, in document order. Every link of a page without a
// <base> waits for its end (a later <base> would set its base), and most
// are an <a>'s, with a rel, a text and a position each: kept as a few
// bytes in a stream (line and column as varints, the rel's bytes), not as
// records of offsets (48 bytes each), they keep a page of short links
// within three times its size. An <a>'s text is known only once it
// closes; <a>s do not nest, so the texts are a stream of their own, in the
// order of their <a>s.
type extras struct {
	buf   []byte // for each: its line (a varint, from the last's), column, rel's length and bytes, and 1 for an <a>'s
	texts []byte // for each <a>: its text's length and bytes
	n     int    // extras in buf
	line  int    // the line of the last
}

func (e *extras) reset() { e.buf, e.texts, e.n, e.line = e.buf[:0], e.texts[:0], 0, 0 }

// add keeps an extra and returns its index.
func (e *extras) add(rel []byte, line, col int, anchor bool) int {
	e.buf = binary.AppendVarint(e.buf, int64(line-e.line))
	e.buf = binary.AppendUvarint(e.buf, uint64(max(col, 0)))
	e.buf = binary.AppendUvarint(e.buf, uint64(len(rel)))
	e.buf = append(e.buf, rel...)
	a := byte(0)
	if anchor {
		a = 1
	}
	e.buf = append(e.buf, a)
	e.line = line
	e.n++
	return e.n - 1
}

// text keeps the text of the last <a> added.
func (e *extras) text(t []byte) {
	e.texts = binary.AppendUvarint(e.texts, uint64(len(t)))
	e.texts = append(e.texts, t...)
}

// extra is one extra, decoded.
type extra struct {
	rel, text []byte
	line, col int
}

// extrasReader reads the extras in order: the waiting links refer to them
// by indexes that never decrease.
type extrasReader struct {
	buf, texts []byte
	i          int // the index of cur
	cur        extra
}

func (e *extras) reader() extrasReader { return extrasReader{buf: e.buf, texts: e.texts, i: -1} }

// at returns extra i, which is not before the last one asked for.
func (r *extrasReader) at(i int) extra {
	for r.i < i && len(r.buf) > 0 {
		d, w := binary.Varint(r.buf)
		r.buf = r.buf[w:]
		col, w := binary.Uvarint(r.buf)
		r.buf = r.buf[w:]
		n, w := binary.Uvarint(r.buf)
		r.buf = r.buf[w:]
		r.cur = extra{rel: r.buf[:n], line: r.cur.line + int(d), col: int(col)}
		r.buf = r.buf[n:]
		if r.buf[0] == 1 && len(r.texts) > 0 {
			n, w := binary.Uvarint(r.texts)
			r.cur.text, r.texts = r.texts[w:w+int(n)], r.texts[w+int(n):]
		}
		r.buf = r.buf[1:]
		r.i++
	}
	return r.cur
}

// newExtra keeps the rel just read for the links of a tag, and its
// position, and returns its index in extras; anchor says that it is an
// <a>'s, whose text closeAnchor keeps.
func (d *document) newExtra(anchor bool) int {
	return d.x.extras.add(d.x.rel, d.line, d.col, anchor)
}

// closeAnchor ends the open <a> whose text is read: its text goes with its
// links, which are handed out with those inside it, if the base is known.
func (d *document) closeAnchor() error {
	if d.anchor < 0 {
		return nil
	}
	x := d.x
	x.extras.text(trimText(x.text))
	d.anchor = -1
	if !d.based {
		return nil
	}
	return d.flush()
}

// orNil returns b, or nil if it is empty: a Link's Rel and Text are nil
// when the element has none.
func orNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// appendText appends text to an anchor's text, its runs of ASCII white
// space made one space, up to maxText bytes and a little more, which
// trimText cuts.
func appendText(dst, text []byte) []byte {
	for _, c := range text {
		if len(dst) > maxText {
			break
		}
		switch c {
		case ' ', '\t', '\n', '\f', '\r':
			if len(dst) > 0 && dst[len(dst)-1] != ' ' {
				dst = append(dst, ' ')
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// trimText trims an anchor's text and cuts it to maxText bytes, at a
// character boundary.
func trimText(t []byte) []byte {
	t = bytes.TrimSpace(t)
	if len(t) <= maxText {
		return t
	}
	t = t[:maxText]
	for i := len(t) - 1; i >= 0 && i >= len(t)-utf8.UTFMax; i-- {
		if utf8.RuneStart(t[i]) {
			if !utf8.FullRune(t[i:]) {
				t = t[:i]
			}
			break
		}
	}
	return bytes.TrimRight(t, " ")
}

// keep hands out a link attribute's value, or keeps it while links wait,
// with its rel and text as extras[ex] when ex >= 0.
func (d *document) keep(kind byte, val []byte, ex int) error {
	x := d.x
	if !d.queueing() {
		x.link.Rel, x.link.Text = orNil(x.rel), nil
		x.link.Line, x.link.Column = d.line, d.col
		return d.emit(val, kind)
	}
	x.wait(val, kind, ex)
	return nil
}

// heldSize is the length from which a waiting value is kept where it is,
// in the tokenizer's buffer, rather than copied: the tokenizer never writes
// over a value that long, so a document of a few huge values (one srcset
// of millions of candidates) takes its size once, not twice.
const heldSize = htmltok.LargeValue

// wait keeps a link attribute's value until the document's base is known.
// Waiting costs the value's bytes and two or three more.
func (x *Extractor) wait(val []byte, kind byte, ex int) {
	// A value this long stays valid after Next, and waits as it is (a
	// style's value is in x.scratch, behind its element's name).
	held := len(val) >= heldSize && kind != styleAttrKind
	copied := len(val)
	if held {
		copied = 0
	}
	if len(x.pending) >= pendingChunk && len(x.pending)+copied+maxWaitRecord > cap(x.pending) {
		// A new piece, rather than pending grown by a copy: the copy and
		// the buffer it leaves behind, for a page of 6 million links
		// waiting for its end, took 100 MB at once, beside the page and
		// its rewritten text.
		x.pendingFull = append(x.pendingFull, x.pending)
		x.pending = make([]byte, 0, pendingChunk+heldSize+maxWaitRecord)
	}
	flags := byte(0)
	if ex >= 0 {
		flags |= extraKind
	}
	if held {
		x.pending = binary.AppendUvarint(x.pending, 0)
		x.pending = append(x.pending, kind|flags|heldKind)
		x.pending = binary.AppendUvarint(x.pending, uint64(len(x.held)))
		x.held = append(x.held, val)
	} else {
		x.pending = binary.AppendUvarint(x.pending, uint64(len(val)))
		x.pending = append(x.pending, kind|flags)
		x.pending = append(x.pending, val...)
	}
	if ex >= 0 {
		x.pending = binary.AppendUvarint(x.pending, uint64(ex))
	}
	if x.Sites {
		// The spans as small numbers, a byte or two each, rather than
		// offsets of up to four bytes: a page of millions of short links
		// that wait for a late <base> waits in about its own size. The tag
		// from the last one's, its length, the value from the tag's start,
		// and its length.
		t, v := x.site.Tag, x.site.Value
		for _, n := range [4]int64{t.Start - x.pendingTag, t.End - t.Start, v.Start - t.Start, v.End - v.Start} {
			x.pending = binary.AppendVarint(x.pending, n)
		}
		x.pendingTag = t.Start
		b := byte(bytes.IndexByte(quotes[:], x.site.Quote))
		if x.site.Style {
			b |= 4
		}
		x.pending = append(x.pending, b)
	}
}

// pendingChunk is the size past which the links that wait are kept in
// pieces; maxWaitRecord bounds what a waiting link adds to its value's
// bytes: varints of its length, its extra's index and four spans, its
// kind and its quote.
const (
	pendingChunk  = 1 << 20
	maxWaitRecord = 7*binary.MaxVarintLen64 + 2
)

// quotes are the quotes of a value, by the code a waiting link keeps.
var quotes = [3]byte{0, '"', '\''}
