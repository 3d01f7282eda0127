package htmltok

import (
	"bytes"
	"fmt"
	"math"
)

// scanMarkup reads what the "<" at buf[p] begins, in the data state
// (13.2.5.6, tag open): a tag, a comment, a DOCTYPE, a CDATA section, or
// nothing (next == p: the "<" is text).
func (z *Tokenizer) scanMarkup(p int) (Kind, int, status) {
	b := z.buf[:z.end]
	c, ok := at(b, p+1)
	if !ok {
		if z.eof {
			return 0, p, done
		}
		return 0, 0, more
	}
	switch {
	case isAlpha(c):
		return z.scanTag(p)
	case c == '?':
		return z.scanBogusComment(p, p+1)
	case c == '!':
		return z.scanDeclaration(p)
	case c == '/':
		c2, ok := at(b, p+2)
		switch {
		case !ok && !z.eof:
			return 0, 0, more
		case !ok:
			return 0, p, done // "</" at the end is text
		case isAlpha(c2):
			return z.scanTag(p)
		case c2 == '>':
			return 0, p + 3, done // "</>" gives nothing
		}
		return z.scanBogusComment(p, p+2)
	}
	return 0, p, done
}

// scanDeclaration reads what "<!" at buf[p] begins (13.2.5.42, markup
// declaration open): a comment, a DOCTYPE, a CDATA section in foreign
// content, or a bogus comment.
func (z *Tokenizer) scanDeclaration(p int) (Kind, int, status) {
	b := z.buf[:z.end]
	rest := b[p+2:]
	if !z.eof && (len(rest) < 2 || len(rest) < len("doctype") && hasPrefixFold([]byte("doctype")[:len(rest)], rest) ||
		z.foreign && len(rest) < len("[CDATA[") && bytes.HasPrefix([]byte("[CDATA["), rest)) {
		return 0, 0, more // what it begins is not known yet
	}
	switch {
	case bytes.HasPrefix(rest, []byte("--")):
		return z.scanComment(p, p+4)
	case hasPrefixFold(rest, []byte("doctype")):
		return z.scanDoctype(p, p+2+len("doctype"))
	case z.foreign && bytes.HasPrefix(rest, []byte("[CDATA[")):
		z.state = CDATASection
		return 0, p + 2 + len("[CDATA["), done
	}
	return z.scanBogusComment(p, p+2)
}

// scanBogusComment reads a bogus comment (13.2.5.41) whose data starts at
// buf[from], up to ">" or the end.
func (z *Tokenizer) scanBogusComment(p, from int) (Kind, int, status) {
	b := z.buf[:z.end]
	i := bytes.IndexByte(b[from:], '>')
	if i < 0 {
		if !z.eof {
			return 0, 0, more
		}
		z.text, z.textMode = [2]int{from, len(b)}, rawNoNUL
		return CommentToken, len(b), done
	}
	z.text, z.textMode = [2]int{from, from + i}, rawNoNUL
	return CommentToken, from + i + 1, done
}

// scanComment reads a comment whose data starts at buf[from], after
// "<!--" (13.2.5.43 to 13.2.5.52). Its data is always the bytes between
// the start and where its end begins: "-->", "--!>", the abrupt "<!-->"
// and "<!--->", or the end of the input, which drops a partial "--",
// "--!" or "-" there.
func (z *Tokenizer) scanComment(p, from int) (Kind, int, status) {
	b := z.buf[:z.end]
	comment := func(end, next int) (Kind, int, status) {
		z.text, z.textMode = [2]int{from, end}, rawNoNUL
		return CommentToken, next, done
	}
	// Comment start and comment start dash states.
	switch c, _ := at(b, from); {
	case from >= len(b) && !z.eof:
		return 0, 0, more
	case c == '>' && from < len(b):
		return comment(from, from+1)
	case c == '-':
		c1, ok := at(b, from+1)
		switch {
		case !ok && !z.eof:
			return 0, 0, more
		case !ok:
			return comment(from, from+1)
		case c1 == '>':
			return comment(from, from+2)
		}
	}
	for i := from; ; {
		j := bytes.IndexByte(b[i:], '-')
		if j < 0 {
			if !z.eof {
				return 0, 0, more
			}
			return comment(len(b), len(b))
		}
		d := i + j // a "-": comment end dash state
		c1, ok := at(b, d+1)
		switch {
		case !ok && !z.eof:
			return 0, 0, more
		case !ok:
			return comment(d, len(b))
		case c1 != '-':
			i = d + 1
			continue
		}
		// "--": comment end state; more dashes are data.
		e := d + 2
		for e < len(b) && b[e] == '-' {
			e++
		}
		c2, ok := at(b, e)
		switch {
		case !ok && !z.eof:
			return 0, 0, more
		case !ok:
			return comment(e-2, len(b))
		case c2 == '>':
			return comment(e-2, e+1)
		case c2 == '!':
			c3, ok := at(b, e+1)
			switch {
			case !ok && !z.eof:
				return 0, 0, more
			case !ok:
				return comment(e-2, len(b))
			case c3 == '>':
				return comment(e-2, e+2)
			}
			i = e + 1 // "--!" is data; a "-" after it is a comment end dash
		default:
			i = e
		}
	}
}

// scanTag reads the start or end tag at buf[p] (13.2.5.6 to 13.2.5.40):
// its name and the spans of its attributes, nothing decoded.
func (z *Tokenizer) scanTag(p int) (Kind, int, status) {
	b := z.buf[:z.end]
	kind := StartTagToken
	i := p + 1
	if b[i] == '/' {
		kind, i = EndTagToken, i+1
	}
	// Tag name state.
	start := i
	var seen uint8 // the classes of the name's bytes
	for i < len(b) {
		c := class[b[i]]
		if c&nameEnd != 0 {
			break
		}
		seen |= c
		i++
	}
	z.name, z.nameDecode = [2]int{start, i}, seen&nameDecode != 0
	// The attributes are gathered in a slice of the scan's own, kept in
	// z once the tag is whole (a tag cut short is scanned again, or
	// dropped).
	attrs := z.attrs[:0]
	z.dupsKnown = false
	// Before attribute name, attribute name, after attribute name, before
	// attribute value, the attribute value states, after attribute value
	// (quoted) and self-closing start tag states.
	for {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return z.tagEnds()
		}
		switch b[i] {
		case '>':
			z.attrs = attrs
			if tagFits(p, i+1) {
				return kind, i + 1, done
			}
			return z.tagTooLong(p, i+1)
		case '/':
			i++
			if i >= len(b) {
				return z.tagEnds()
			}
			if b[i] == '>' {
				z.selfClosing = true
				z.attrs = attrs
				if tagFits(p, i+1) {
					return kind, i + 1, done
				}
				return z.tagTooLong(p, i+1)
			}
			continue
		}
		// An attribute; its first character may be "=".
		a := rawAttr{name: [2]uint32{uint32(i - p), uint32(i - p + 1)}}
		seen := class[b[i]]
		i++
		for i < len(b) {
			c := class[b[i]]
			if c&(nameEnd|equals) != 0 {
				break
			}
			seen |= c
			i++
		}
		a.name[1], a.nameDecode = uint32(i-p), seen&nameDecode != 0
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return z.tagEnds()
		}
		if b[i] != '=' {
			a.value = [2]uint32{uint32(i - p), uint32(i - p)}
			attrs = append(attrs, a)
			continue
		}
		i++
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return z.tagEnds()
		}
		switch q := b[i]; q {
		case '"', '\'':
			j := bytes.IndexByte(b[i+1:], q)
			if j < 0 {
				return z.tagEnds()
			}
			a.quote, a.value = q, [2]uint32{uint32(i + 1 - p), uint32(i + 1 + j - p)}
			i += j + 2
		case '>':
			a.value = [2]uint32{uint32(i - p), uint32(i - p)} // a missing value is empty
		default:
			s := i
			for i < len(b) && !isSpace(b[i]) && b[i] != '>' {
				i++
			}
			if i >= len(b) {
				return z.tagEnds()
			}
			a.value = [2]uint32{uint32(s - p), uint32(i - p)}
		}
		attrs = append(attrs, a)
	}
}

// tagFits reports whether a tag of buf[p:next] is short enough for
// rawAttr's offsets; tagTooLong ends the tokens at one that is not.
func tagFits(p, next int) bool { return next-p <= math.MaxUint32 }

//go:noinline
func (z *Tokenizer) tagTooLong(p, next int) (Kind, int, status) {
	z.err = fmt.Errorf("htmltok: a tag of over 4 GiB at byte offset %d", z.off+int64(p))
	return 0, next, done
}

// tagEnds is the end of the input read inside a tag: more is read, or at
// the end of the input the tag is dropped (eof-in-tag).
func (z *Tokenizer) tagEnds() (Kind, int, status) {
	if z.eof {
		return 0, z.end, dropped
	}
	return 0, 0, more
}

// hasPrefixFold reports whether b starts with prefix, in any case.
func hasPrefixFold(b, prefix []byte) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i, c := range prefix {
		if lower(b[i]) != lower(c) {
			return false
		}
	}
	return true
}
