package htmltok

import (
	"bytes"
	"fmt"
	"io"
)

// A Kind is the kind of a token.
type Kind uint8

const (
	// ErrorToken ends the tokens: Err says why (io.EOF at the end of the
	// input).
	ErrorToken Kind = iota
	TextToken
	StartTagToken
	EndTagToken
	CommentToken
	DoctypeToken
)

func (k Kind) String() string {
	switch k {
	case TextToken:
		return "Text"
	case StartTagToken:
		return "StartTag"
	case EndTagToken:
		return "EndTag"
	case CommentToken:
		return "Comment"
	case DoctypeToken:
		return "Doctype"
	}
	return "Error"
}

// A State is a tokenizer state in which text is read: the states the tree
// builder switches the tokenizer to (section 13.2.5.1 to 13.2.5.5, and
// 13.2.5.69 for CDATA sections).
type State uint8

const (
	Data State = iota
	RCDATA
	RAWTEXT
	ScriptData
	PLAINTEXT
	CDATASection
)

// A Span is the bytes [Start, End) of the input, counted from its first.
type Span struct{ Start, End int64 }

// Len is the number of bytes in s.
func (s Span) Len() int64 { return s.End - s.Start }

// LargeValue is the length from which a token's slices are never written
// over by the tokenizer: they stay valid after Next.
const LargeValue = 64 << 10

const (
	minRead  = 32 << 10 // read at least this much at once
	firstBuf = 64 << 10
)

// A Tokenizer reads the tokens of an HTML document.
type Tokenizer struct {
	r   io.Reader
	buf []byte // buf[:end] holds input from byte offset off
	off int64
	p   int   // where the next token starts, in buf
	end int   // input read into buf
	eof bool  // r has no more
	err error // the error that ends the tokens, once they are all handed out

	state  State
	script scriptState // where script data is, between pieces of its text
	last   []byte      // the last start tag's name: the appropriate end tag
	// lastIsTag says that the last start tag is the current token, whose
	// name is not yet in last: Next copies it there if a state needs it.
	lastIsTag bool
	byName    bool  // switch states by a start tag's name (the default)
	foreign   bool  // in foreign content: no switch, CDATA sections read
	pending   State // the state a start tag asks for, applied at the next Next
	maxTok    int
	bom       bool // a UTF-8 byte order mark at the start is to be skipped (SkipBOM)
	skip      bool // text in the data state is not handed out (SkipDataText)

	// The current token.
	kind        Kind
	tok         [2]int // its bytes in buf
	name        [2]int // a tag's name in buf
	nameDecode  bool   // the name holds A-Z or NUL
	selfClosing bool
	attrs       []rawAttr
	dupsKnown   bool                // the attrs' dup marks are set (AttrDup)
	seen        map[string]struct{} // markDups' set, kept between tags
	text        [2]int              // text, or a comment's data, in buf
	textMode    textMode
	doctype     doctype

	arena []byte // decoded names and values of the current token

	// Line counting for Position: lineOff is an offset up to which the
	// lines were counted; line, col are the position there.
	lineOff   int64
	line, col int
}

// A textMode says how text is decoded.
type textMode uint8

const (
	refsKeepNUL textMode = iota // data state: character references; NUL stays
	refsNoNUL                   // RCDATA: character references; NUL is U+FFFD
	rawNoNUL                    // RAWTEXT, script data, PLAINTEXT, comments: NUL is U+FFFD
	rawKeepNUL                  // CDATA sections
)

// New returns a tokenizer reading r, in the data state.
func New(r io.Reader) *Tokenizer {
	z := &Tokenizer{r: r, byName: true, pending: 0xff, line: 1, col: 1}
	return z
}

// Reset makes z read r from its start, in the data state, with its
// settings (SetStateByName, SetMaxToken) kept, SkipDataText off, and its
// buffer reused.
func (z *Tokenizer) Reset(r io.Reader) {
	buf, arena := z.buf[:0], z.arena[:0]
	if z.tok[1]-z.tok[0] >= LargeValue || z.r == nil {
		buf = nil // the caller may hold the last token's slices, or b is the caller's
	}
	if len(z.arena) >= LargeValue {
		arena = nil
	}
	*z = Tokenizer{r: r, buf: buf, attrs: z.attrs[:0], last: z.last[:0], byName: z.byName, maxTok: z.maxTok,
		pending: 0xff, line: 1, col: 1, arena: arena}
}

// NewBytes returns a tokenizer reading b, which it never copies: every
// slice it hands out that needs no decoding is a sub-slice of b.
func NewBytes(b []byte) *Tokenizer {
	z := New(nil)
	z.buf, z.end, z.eof = b, len(b), true
	return z
}

// ResetBytes makes z read b from its start, as NewBytes does, with its
// settings kept, as Reset does.
func (z *Tokenizer) ResetBytes(b []byte) {
	z.Reset(nil)
	z.buf, z.end, z.eof = b, len(b), true
}

// SetState sets the state in which the next text is read, as the tree
// builder does after a start tag (html5lib's "initialStates").
func (z *Tokenizer) SetState(s State) {
	z.state, z.pending, z.script = s, 0xff, scriptData
}

// SetLastStartTag sets the name of the last start tag, which an end tag
// must have to end RCDATA, RAWTEXT or script data (html5lib's
// "lastStartTag").
func (z *Tokenizer) SetLastStartTag(name string) {
	z.last, z.lastIsTag = append(z.last[:0], name...), false
}

// SetStateByName says whether a start tag's name sets the state in which
// the text after it is read (true by default; the package doc lists the
// names). A tokenizer tested alone, as html5lib's tests do, has it false.
func (z *Tokenizer) SetStateByName(on bool) { z.byName = on }

// SetForeign says whether the tokenizer is in foreign content (inside
// <svg> or <math>, as the tree builder knows): there a start tag does not
// change the state, and <![CDATA[ begins a CDATA section. Called after a
// start tag, it applies to that tag.
func (z *Tokenizer) SetForeign(on bool) { z.foreign = on }

// SkipBOM makes z pass over a UTF-8 byte order mark at the start of its
// input, as the Encoding Standard's UTF-8 decode does before the HTML
// standard tokenizes: it is no character of the document (a "\uFEFF"
// before <frameset> would make the frameset ignored). The spans of the
// tokens after it still count its bytes. Call it before the first Next.
func (z *Tokenizer) SkipBOM() { z.bom = true }

// SkipDataText says whether text read in the data state is passed over
// rather than handed out as a TextToken: a reader that wants only the
// tags of a stretch of a document (links outside anchors) is then not
// called for its text. The text of RCDATA, RAWTEXT, script data,
// PLAINTEXT and CDATA sections is handed out still. It applies from the
// next call of Next.
func (z *Tokenizer) SkipDataText(on bool) { z.skip = on }

// SetMaxToken bounds the bytes of one tag, comment, DOCTYPE or RCDATA and
// RAWTEXT element: past it, Next returns ErrorToken and Err names the
// token's byte offset. 0, the default, is no bound.
func (z *Tokenizer) SetMaxToken(n int) { z.maxTok = n }

// Err returns the error that ended the tokens: io.EOF at the end of the
// input, a read error, or a token over SetMaxToken.
func (z *Tokenizer) Err() error { return z.err }

// Kind is the kind of the current token.
func (z *Tokenizer) Kind() Kind { return z.kind }

// Span is the current token's bytes in the input.
func (z *Tokenizer) Span() Span { return z.span(z.tok[0], z.tok[1]) }

// Raw is the current token's bytes as they are in the input.
func (z *Tokenizer) Raw() []byte { return z.buf[z.tok[0]:z.tok[1]] }

func (z *Tokenizer) span(start, end int) Span { return Span{z.off + int64(start), z.off + int64(end)} }

// Next reads the next token and returns its kind.
func (z *Tokenizer) Next() Kind {
	if z.lastIsTag {
		// The last start tag's name is copied out only when the state
		// it leaves is one whose end tag must match it.
		z.lastIsTag = false
		if z.pending != 0xff || z.state != Data {
			z.last = append(z.last[:0], z.Name()...)
		}
	}
	z.kind, z.selfClosing = ErrorToken, false
	if n := len(z.arena); n >= LargeValue {
		z.arena = nil // a caller may keep what was decoded into it
	} else if n > 0 {
		z.arena = z.arena[:0]
	}
	if z.pending != 0xff {
		if !z.foreign {
			z.state, z.script = z.pending, scriptData
		}
		z.pending = 0xff
	}
	for z.err == nil {
		var k Kind
		var next int
		var st status
		if z.state == Data && z.p < z.end && !z.bom {
			k, next, st = z.scanData() // most tokens: scan's first case, without its call
		} else {
			k, next, st = z.scan()
		}
		switch st {
		case done:
			z.tok = [2]int{z.p, next}
			z.p = next
			if k == 0 || k == TextToken && z.skip && z.state == Data {
				continue // a token of nothing, such as </>, or text skipped
			}
			z.kind = k
			if k == StartTagToken {
				z.lastIsTag = true
				if z.byName {
					z.stateByName()
				}
			} else if k == EndTagToken && z.state != Data && z.state != PLAINTEXT {
				z.state = Data
			}
			return k
		case dropped: // the input ends inside a tag: it is dropped
			z.tok = [2]int{z.p, z.end}
			z.p = z.end
		case more:
			if z.eof {
				panic("htmltok: more input asked for after its end")
			}
			z.fill()
			continue
		}
		if z.p >= z.end && z.eof {
			z.err = io.EOF
		}
	}
	return ErrorToken
}

// stateByName asks for the state a start tag's name sets (SetStateByName).
func (z *Tokenizer) stateByName() {
	switch string(z.Name()) {
	case "title", "textarea":
		z.pending = RCDATA
	case "style", "xmp", "iframe", "noembed", "noframes", "noscript":
		z.pending = RAWTEXT
	case "script":
		z.pending = ScriptData
	case "plaintext":
		z.pending = PLAINTEXT
	}
}

// status is how a scan ended.
type status uint8

const (
	done    status = iota
	more           // the token runs past the input read so far
	dropped        // the input ended inside a tag
)

// scan reads the token at z.p. It returns its kind (0 for a token that is
// dropped or gives nothing) and the index after it.
func (z *Tokenizer) scan() (Kind, int, status) {
	if z.bom {
		if z.end-z.p < 3 && !z.eof {
			return 0, 0, more
		}
		if bytes.HasPrefix(z.buf[z.p:z.end], []byte("\xef\xbb\xbf")) {
			z.p += 3
		}
		z.bom = false
	}
	if z.p >= z.end {
		if z.eof {
			return 0, z.p, dropped
		}
		return 0, 0, more
	}
	switch z.state {
	case Data:
		return z.scanData()
	case RCDATA, RAWTEXT:
		return z.scanRaw()
	case ScriptData:
		return z.scanScript()
	case PLAINTEXT:
		return z.text1(z.p, z.end, rawNoNUL)
	case CDATASection:
		return z.scanCDATA(z.p)
	}
	panic("htmltok: unknown state")
}

// text1 makes buf[start:end] the current text, in mode, and ends the scan
// there: text in pieces is text still.
func (z *Tokenizer) text1(start, end int, mode textMode) (Kind, int, status) {
	z.text, z.textMode = [2]int{start, end}, mode
	return TextToken, end, done
}

// fill reads more input, moving the current token to the front of the
// buffer or into a larger one.
func (z *Tokenizer) fill() {
	n := z.end - z.p
	if z.maxTok > 0 && n >= z.maxTok {
		z.err = fmt.Errorf("htmltok: a token of over %d bytes at byte offset %d", z.maxTok, z.off+int64(z.p))
		return
	}
	z.countLines(z.p)
	need := n + minRead
	if kept := z.tok[1]-z.tok[0] >= LargeValue; kept || cap(z.buf) < need {
		// The last token's slices may be kept by the caller: a buffer
		// that held one of LargeValue bytes is left to them.
		size := max(cap(z.buf), firstBuf)
		for size < need {
			size *= 2
		}
		nb := make([]byte, size)
		copy(nb, z.buf[z.p:z.end])
		z.buf = nb
	} else {
		z.buf = z.buf[:cap(z.buf)]
		copy(z.buf, z.buf[z.p:z.end])
	}
	z.off += int64(z.p)
	z.p, z.end = 0, n
	for z.end < len(z.buf) {
		m, err := z.r.Read(z.buf[z.end:])
		z.end += m
		if err != nil {
			z.eof = true
			if err != io.EOF {
				z.err = err
			}
			return
		}
		if m > 0 {
			return
		}
	}
}

// Position returns the line and column (1-based; the column in bytes) of
// the byte at offset off of the input, which must be in the current token
// or after it, and not before an offset asked for earlier. Lines end at
// "\n".
func (z *Tokenizer) Position(off int64) (line, col int) {
	z.countLines(int(off - z.off))
	return z.line, z.col
}

// countLines moves the line count to buf[i].
func (z *Tokenizer) countLines(i int) {
	from := int(z.lineOff - z.off)
	if i <= from {
		return
	}
	b := z.buf[from:i]
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		z.line += n
		z.col = len(b) - bytes.LastIndexByte(b, '\n')
	} else {
		z.col += len(b)
	}
	z.lineOff = z.off + int64(i)
}
