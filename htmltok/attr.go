package htmltok

import (
	"bytes"
	"encoding/binary"
)

// rawAttr is an attribute as scanned: the spans of its name and value,
// from the start of the tag in buf, nothing decoded. Offsets of 32 bits
// keep it small, as a tag has many: a tag over 4 GiB is an error.
type rawAttr struct {
	name, value [2]uint32
	quote       byte
	nameDecode  bool // the name holds A-Z or NUL
	dup         bool // the name of an earlier attribute (markDups)
}

// nameAt and valueAt are attribute i's name and value in buf.
func (z *Tokenizer) nameAt(i int) (int, int) {
	a := &z.attrs[i]
	return z.tok[0] + int(a.name[0]), z.tok[0] + int(a.name[1])
}

func (z *Tokenizer) valueAt(i int) (int, int) {
	a := &z.attrs[i]
	return z.tok[0] + int(a.value[0]), z.tok[0] + int(a.value[1])
}

// An Attr is an attribute of a start tag.
type Attr struct {
	// Name and Value are as the standard gives them: the name in lower
	// case, the value with its character references decoded; NUL is
	// U+FFFD, and "\r\n" and "\r" are "\n". Either is a sub-slice of the
	// input when it needs none of that.
	Name, Value []byte
	// NameSpan and ValueSpan are their bytes in the input; ValueSpan
	// excludes the quotes, and is empty, at the end of the name's span or
	// where a value would have been, when there is no value.
	NameSpan, ValueSpan Span
	// Quote is the value's quote, '"' or '\'', or 0 when it has none.
	Quote byte
}

// Name returns the current tag's name, in lower case.
func (z *Tokenizer) Name() []byte {
	if z.nameDecode {
		return z.decodedName()
	}
	return z.buf[z.name[0]:z.name[1]] // most names, with Name inlined: a caller asks at every tag
}

// decodedName is Name for a name with A-Z or NUL, apart so that Name is
// small enough to be inlined.
//
//go:noinline
func (z *Tokenizer) decodedName() []byte { return z.decodeName(z.buf[z.name[0]:z.name[1]]) }

// NameSpan is the current tag's name in the input.
func (z *Tokenizer) NameSpan() Span { return z.span(z.name[0], z.name[1]) }

// SelfClosing reports whether the current tag ends in "/>".
func (z *Tokenizer) SelfClosing() bool { return z.selfClosing }

// AttrCount is the number of attributes the current start tag was written
// with, duplicates included.
func (z *Tokenizer) AttrCount() int {
	if z.kind != StartTagToken {
		return 0
	}
	return len(z.attrs)
}

// Attr returns the current start tag's attribute with the given name,
// which must be in lower case: the first one, as the standard drops
// duplicates. Only its value is decoded.
func (z *Tokenizer) Attr(name string) (Attr, bool) {
	if z.kind != StartTagToken {
		return Attr{}, false
	}
	for i := range z.attrs {
		if s, e := z.nameAt(i); equalFoldName(z.buf[s:e], name) {
			return z.attr(i), true
		}
	}
	return Attr{}, false
}

// AttrName returns the name of the current start tag's attribute i (from
// 0 to AttrCount-1, duplicates included), in lower case: a caller that
// looks at every attribute reads the names, and decodes only the values it
// wants, with AttrAt.
func (z *Tokenizer) AttrName(i int) []byte { return z.attrName(i) }

// AttrAt returns the current start tag's attribute i, duplicates
// included: a later attribute with the name of an earlier one is not an
// attribute of the element.
func (z *Tokenizer) AttrAt(i int) Attr { return z.attr(i) }

// AttrDup reports whether the current start tag's attribute i (from 0 to
// AttrCount-1) has the name of an earlier one: the standard drops it (a
// duplicate-attribute parse error), and it is no attribute of the
// element. The duplicates of a tag are found once, in time linear in its
// attributes, whatever their number.
func (z *Tokenizer) AttrDup(i int) bool {
	if !z.dupsKnown {
		z.markDups()
	}
	return z.attrs[i].dup
}

// markDups marks the current start tag's duplicate attributes: pairwise
// among a few, through a set among many (a tag of 200,000 attributes took
// a minute pairwise).
func (z *Tokenizer) markDups() {
	z.dupsKnown = true
	n := len(z.attrs)
	if n <= 16 {
		for i := 1; i < n; i++ {
			si, ei := z.nameAt(i)
			for j := range i {
				sj, ej := z.nameAt(j)
				if z.sameName(i, j, si, ei, sj, ej) {
					z.attrs[i].dup = true
					break
				}
			}
		}
		return
	}
	if z.seen == nil {
		z.seen = make(map[string]struct{}, n)
	}
	clear(z.seen)
	for i := range n {
		name := z.attrName(i)
		if _, ok := z.seen[string(name)]; ok {
			z.attrs[i].dup = true
		} else {
			z.seen[string(name)] = struct{}{}
		}
	}
	if n > 1<<10 {
		z.seen = nil // a hostile tag's set is not kept for the next
	}
}

// sameName reports whether attributes i and j, whose raw names are at
// buf[si:ei] and buf[sj:ej], have the same name once decoded (lower case,
// NUL as U+FFFD).
func (z *Tokenizer) sameName(i, j, si, ei, sj, ej int) bool {
	if !z.attrs[i].nameDecode && !z.attrs[j].nameDecode {
		return string(z.buf[si:ei]) == string(z.buf[sj:ej])
	}
	return string(z.attrName(i)) == string(z.attrName(j))
}

// Attrs appends the current start tag's attributes to dst, in order,
// without duplicates (the first of a name is kept), and returns it.
func (z *Tokenizer) Attrs(dst []Attr) []Attr {
	if z.kind != StartTagToken {
		return dst
	}
	for i := range z.attrs {
		if !z.AttrDup(i) {
			dst = append(dst, Attr{})
			z.attrNamed(&dst[len(dst)-1], i, z.attrName(i))
		}
	}
	return dst
}

// attrName is the decoded name of attribute i.
func (z *Tokenizer) attrName(i int) []byte {
	s, e := z.nameAt(i)
	n := z.buf[s:e]
	if !z.attrs[i].nameDecode {
		return n
	}
	return z.decodeName(n)
}

// attr decodes attribute i.
func (z *Tokenizer) attr(i int) (a Attr) {
	z.attrNamed(&a, i, z.attrName(i))
	return a
}

// attrNamed decodes attribute i, whose decoded name is name.
func (z *Tokenizer) attrNamed(out *Attr, i int, name []byte) {
	ns, ne := z.nameAt(i)
	vs, ve := z.valueAt(i)
	v := z.buf[vs:ve]
	if needsValueDecode(v) {
		v = z.decodeInto(v, true, true, false)
	}
	out.Name, out.Value, out.Quote = name, v, z.attrs[i].quote
	out.NameSpan, out.ValueSpan = z.span(ns, ne), z.span(vs, ve)
}

// Text returns the current text token's characters, or a comment's data,
// decoded: character references in the data state and RCDATA, NUL as the
// standard says for the state, line breaks as "\n".
func (z *Tokenizer) Text() []byte {
	t := z.buf[z.text[0]:z.text[1]]
	refs := z.textMode == refsKeepNUL || z.textMode == refsNoNUL
	keepNUL := z.textMode == refsKeepNUL || z.textMode == rawKeepNUL
	if refs && bytes.IndexByte(t, '&') >= 0 || !keepNUL && bytes.IndexByte(t, 0) >= 0 || bytes.IndexByte(t, '\r') >= 0 {
		return z.decodeInto(t, refs, false, keepNUL)
	}
	return t
}

// TextSpan is the current text, or a comment's data, in the input.
func (z *Tokenizer) TextSpan() Span { return z.span(z.text[0], z.text[1]) }

// decodeInto decodes b into the arena and returns it there: refs decodes
// character references (inAttr: by the attribute-value rule).
func (z *Tokenizer) decodeInto(b []byte, refs, inAttr, keepNUL bool) []byte {
	start := len(z.arena)
	z.arena = appendDecoded(z.arena, b, refs, inAttr, keepNUL)
	return z.arena[start:len(z.arena):len(z.arena)]
}

// decodeName decodes a tag's or an attribute's name into the arena: lower
// case, NUL as U+FFFD.
func (z *Tokenizer) decodeName(n []byte) []byte {
	start := len(z.arena)
	for _, c := range n {
		if c == 0 {
			z.arena = append(z.arena, "\uFFFD"...)
		} else {
			z.arena = append(z.arena, lower(c))
		}
	}
	return z.arena[start:len(z.arena):len(z.arena)]
}

// needsValueDecode reports whether v holds "&", NUL or CR: eight bytes at
// a time (a URL is read a word where a byte loop takes eight steps), by
// the word-at-a-time test for a zero byte in v, in v^"&&&&&&&&" and in
// v^"\r\r\r\r\r\r\r\r".
func needsValueDecode(v []byte) bool {
	if len(v) > 64 {
		return bytes.IndexByte(v, '&') >= 0 || bytes.IndexByte(v, 0) >= 0 || bytes.IndexByte(v, '\r') >= 0
	}
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(v) >= 8 {
		w := binary.LittleEndian.Uint64(v)
		amp, cr := w^('&'*ones), w^('\r'*ones)
		if ((w-ones)&^w|(amp-ones)&^amp|(cr-ones)&^cr)&highs != 0 {
			return true // each test is exact for the word: a borrow marks bytes only above a zero one
		}
		v = v[8:]
	}
	for _, c := range v {
		if class[c]&valueDecode != 0 {
			return true
		}
	}
	return false
}

// equalFoldName reports whether the raw name n is name once decoded.
func equalFoldName(n []byte, name string) bool {
	if len(n) != len(name) {
		return false
	}
	for i := range n {
		if lower(n[i]) != name[i] {
			return false
		}
	}
	return true
}
