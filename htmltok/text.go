package htmltok

import "bytes"

// scanData reads from z.p in the data state (13.2.5.1): text up to the
// next "<" that begins a tag, a comment or a DOCTYPE, or that token.
func (z *Tokenizer) scanData() (Kind, int, status) {
	b, p := z.buf[:z.end], z.p
	if b[p] == '<' {
		if tagAt(b, p) { // most often
			return z.scanTag(p)
		}
		if k, next, st := z.scanMarkup(p); st != done || next > p {
			return k, next, st
		}
	}
	for i := p; ; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return z.textUpTo(len(b), refsKeepNUL)
		}
		lt := i + j
		switch c, ok := at(b, lt+1); {
		case !ok && !z.eof:
			return z.textUpTo(lt, refsKeepNUL)
		case !ok:
			return z.text1(p, len(b), refsKeepNUL) // "<" at the end is text
		case z.skip && tagAt(b, lt):
			z.p = lt // the text is passed over: on to the tag
			return z.scanTag(lt)
		case isAlpha(c) || c == '!' || c == '?':
			return z.text1(p, lt, refsKeepNUL)
		case c == '/':
			if _, ok := at(b, lt+2); ok {
				return z.text1(p, lt, refsKeepNUL) // an end tag, "</>" or a bogus comment
			}
			if !z.eof {
				return z.textUpTo(lt, refsKeepNUL)
			}
			return z.text1(p, len(b), refsKeepNUL) // "</" at the end is text
		}
		i = lt + 1 // a "<" that begins nothing is text
	}
}

// tagAt reports whether the "<" at b[i] begins a start or end tag whose
// name's first letter is in b: what scanTag reads.
func tagAt(b []byte, i int) bool {
	return i+2 < len(b) && (isAlpha(b[i+1]) || b[i+1] == '/' && isAlpha(b[i+2]))
}

// textUpTo ends the text at z.p where more input is needed at cut: the
// text before cut is handed out if there is any that more input cannot
// change, else more is read.
func (z *Tokenizer) textUpTo(cut int, mode textMode) (Kind, int, status) {
	if z.eof {
		return z.text1(z.p, cut, mode)
	}
	b := z.buf[z.p:cut]
	n := len(b)
	if n > 0 && b[n-1] == '\r' {
		n-- // a "\r\n" is one line break
	}
	if mode == refsKeepNUL || mode == refsNoNUL {
		// A character reference may go on past the end of the input read.
		if amp := bytes.LastIndexByte(b[:n], '&'); amp >= 0 && refChars(b[amp+1:n]) {
			n = amp
		}
	}
	if n == 0 {
		return 0, 0, more
	}
	return z.text1(z.p, z.p+n, mode)
}

// refChars reports whether b could be the start of a character reference
// after its "&".
func refChars(b []byte) bool {
	for _, c := range b {
		if !isAlnum(c) && c != '#' {
			return false
		}
	}
	return true
}

// scanRaw reads RCDATA or RAWTEXT (13.2.5.2, 13.2.5.3): text up to an
// appropriate end tag, or that tag.
func (z *Tokenizer) scanRaw() (Kind, int, status) {
	mode := rawNoNUL
	if z.state == RCDATA {
		mode = refsNoNUL
	}
	b, p := z.buf[:z.end], z.p
	for i := p; ; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return z.rawUpTo(len(b), mode)
		}
		lt := i + j
		switch z.endTagAt(lt) {
		case yes:
			if lt == p {
				return z.scanTag(p)
			}
			return z.text1(p, lt, mode)
		case unknown:
			return z.rawUpTo(lt, mode)
		}
		i = lt + 1
	}
}

// rawUpTo ends RCDATA or RAWTEXT where more input is needed: unlike text
// in the data state, its text is one token up to SetMaxToken, as the CSS
// of a <style> must be read whole.
func (z *Tokenizer) rawUpTo(cut int, mode textMode) (Kind, int, status) {
	if z.eof {
		return z.text1(z.p, cut, mode)
	}
	if z.maxTok > 0 && cut-z.p >= z.maxTok {
		return z.text1(z.p, cut, mode)
	}
	return 0, 0, more
}

type tristate uint8

const (
	no tristate = iota
	yes
	unknown // more input is needed to tell
)

// endTagAt tells whether an appropriate end tag begins at buf[lt] ("<"):
// "</", the last start tag's name in any case, then white space, "/" or
// ">" (13.2.5.11's "appropriate end tag").
func (z *Tokenizer) endTagAt(lt int) tristate {
	b := z.buf[:z.end]
	n := len(z.last)
	if len(z.last) == 0 {
		return no
	}
	for k := 1; k < n+3; k++ {
		c, ok := at(b, lt+k)
		if !ok {
			if z.eof {
				return no
			}
			return unknown
		}
		switch {
		case k == 1:
			if c != '/' {
				return no
			}
		case k < n+2:
			if lower(c) != z.last[k-2] {
				return no
			}
		default:
			if !isSpace(c) && c != '/' && c != '>' {
				return no
			}
		}
	}
	return yes
}

// scanCDATA reads a CDATA section's text (13.2.5.69), up to "]]>", or
// the "]]>" that ends it.
func (z *Tokenizer) scanCDATA(p int) (Kind, int, status) {
	b := z.buf[:z.end]
	if bytes.HasPrefix(b[p:], []byte("]]>")) {
		z.state = Data
		return 0, p + 3, done
	}
	if i := bytes.Index(b[p:], []byte("]]>")); i >= 0 {
		return z.text1(p, p+i, rawKeepNUL)
	}
	if z.eof {
		return z.text1(p, len(b), rawKeepNUL)
	}
	cut := len(b)
	for cut > p && cut > len(b)-2 && b[cut-1] == ']' {
		cut-- // "]]" may begin the end
	}
	if cut > p && b[cut-1] == '\r' {
		cut--
	}
	if cut == p {
		return 0, 0, more
	}
	return z.text1(p, cut, rawKeepNUL)
}

// scriptState is where script data is: the states 13.2.5.4 and
// 13.2.5.15 to 13.2.5.31 that text passes through, those that matter
// between one piece of text and the next.
type scriptState uint8

const (
	scriptData scriptState = iota
	scriptEscapeStartDash
	scriptEscaped
	scriptEscapedDash
	scriptEscapedDashDash
	scriptDoubleEscaped
	scriptDoubleEscapedDash
	scriptDoubleEscapedDashDash
)

// scanScript reads script data, with its escaped and double-escaped
// states, up to an appropriate end tag (</script> outside a double-escaped
// part), or that tag. Each step function reads from b[i], where a byte that
// matters is, and says where the walk goes on and whether it stops there.
func (z *Tokenizer) scanScript() (Kind, int, status) {
	b, p := z.buf[:z.end], z.p
	s := z.script
	i := p
	for i < len(b) {
		if s == scriptData {
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				break // no "<": the rest is text, as after the loop
			}
			i += j
		}
		var stop scriptStop
		switch s {
		case scriptData:
			i, s, stop = z.scriptLessThan(b, i)
		case scriptEscapeStartDash:
			if b[i] == '-' {
				i++
				s = scriptEscapedDashDash
			} else {
				s = scriptData
			}
		case scriptEscaped, scriptEscapedDash, scriptEscapedDashDash:
			i, s, stop = z.scriptEscapedStep(b, i, s)
		default:
			i, s, stop = z.scriptDoubleEscapedStep(b, i, s)
		}
		switch stop {
		case scriptEndTag:
			z.script = s
			if i == p {
				return z.scanTag(p)
			}
			return z.text1(p, i, rawNoNUL)
		case scriptWait:
			return z.scriptText(p, i, s)
		}
	}
	if !z.eof {
		cut := len(b)
		if b[cut-1] == '\r' {
			cut--
		}
		return z.scriptText(p, cut, s)
	}
	z.script = s
	return z.text1(p, len(b), rawNoNUL)
}

// scriptStop is whether a step of the script data states stops the walk.
type scriptStop uint8

const (
	scriptOn     scriptStop = iota // go on from the returned offset
	scriptEndTag                   // an appropriate end tag starts there
	scriptWait                     // undecided there until more input comes
)

// scriptText hands out the script data from p to at, which ends in state
// s, or asks for more input when there is none yet.
func (z *Tokenizer) scriptText(p, at int, s scriptState) (Kind, int, status) {
	if at == p {
		return 0, 0, more
	}
	z.script = s
	return z.text1(p, at, rawNoNUL)
}

// scriptLessThan is the script data less-than sign state and those after
// it, at the "<" at b[i]: an end tag, or "<!--" that escapes.
func (z *Tokenizer) scriptLessThan(b []byte, i int) (int, scriptState, scriptStop) {
	switch z.endTagAt(i) {
	case yes:
		return i, scriptData, scriptEndTag
	case unknown:
		return i, scriptData, scriptWait
	}
	c1, ok1 := at(b, i+1)
	c2, ok2 := at(b, i+2)
	switch {
	case ok1 && c1 != '!', ok1 && ok2 && c2 != '-':
		return i + 1, scriptData, scriptOn // "<" and "<!" are text
	case !ok1 || !ok2:
		if z.eof {
			return len(b), scriptData, scriptOn
		}
		return i, scriptData, scriptWait
	}
	return i + 3, scriptEscapeStartDash, scriptOn // "<!-"
}

// scriptEscapedStep is the script data escaped states (escaped, dash,
// dash dash) and their less-than sign states, at b[i].
func (z *Tokenizer) scriptEscapedStep(b []byte, i int, s scriptState) (int, scriptState, scriptStop) {
	switch b[i] {
	case '-':
		if s == scriptEscaped {
			return i + 1, scriptEscapedDash, scriptOn
		}
		return i + 1, scriptEscapedDashDash, scriptOn
	case '<':
		switch z.endTagAt(i) {
		case yes:
			return i, s, scriptEndTag
		case unknown:
			return i, s, scriptWait
		}
		switch z.scriptWordAt(i + 1) {
		case yes:
			return i + len("<script") + 1, scriptDoubleEscaped, scriptOn
		case unknown:
			return i, s, scriptWait
		}
	case '>':
		if s == scriptEscapedDashDash {
			return i + 1, scriptData, scriptOn
		}
	}
	return i + 1, scriptEscaped, scriptOn
}

// scriptDoubleEscapedStep is the script data double escaped states and
// their less-than sign and end states, at b[i]: "</script" ends them.
func (z *Tokenizer) scriptDoubleEscapedStep(b []byte, i int, s scriptState) (int, scriptState, scriptStop) {
	switch b[i] {
	case '-':
		if s == scriptDoubleEscaped {
			return i + 1, scriptDoubleEscapedDash, scriptOn
		}
		return i + 1, scriptDoubleEscapedDashDash, scriptOn
	case '<':
		if c1, ok := at(b, i+1); ok && c1 == '/' {
			switch z.scriptWordAt(i + 2) {
			case yes:
				return i + len("</script") + 1, scriptEscaped, scriptOn
			case unknown:
				return i, s, scriptWait
			}
		} else if !ok && !z.eof {
			return i, s, scriptWait
		}
	case '>':
		if s == scriptDoubleEscapedDashDash {
			return i + 1, scriptData, scriptOn
		}
	}
	return i + 1, scriptDoubleEscaped, scriptOn
}

// scriptWordAt tells whether "script" in any case, then white space, "/"
// or ">", is at buf[i]: what switches script data into or out of its
// double-escaped state (13.2.5.27, 13.2.5.31).
func (z *Tokenizer) scriptWordAt(i int) tristate {
	b := z.buf[:z.end]
	const word = "script"
	for k := 0; k <= len(word); k++ {
		c, ok := at(b, i+k)
		if !ok {
			if z.eof {
				return no
			}
			return unknown
		}
		if k < len(word) && lower(c) != word[k] || k == len(word) && !isSpace(c) && c != '/' && c != '>' {
			return no
		}
	}
	return yes
}

func at(b []byte, i int) (byte, bool) {
	if i < len(b) {
		return b[i], true
	}
	return 0, false
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// isSpace is the tokenizer's white space: tab, LF, FF, space, and CR,
// which the input stream's preprocessing makes LF.
func isSpace(c byte) bool { return class[c]&space != 0 }

// class holds what each byte is to the tokenizer, as bits.
var class = func() (t [256]uint8) {
	for _, c := range "\t\n\f\r " {
		t[c] |= space | nameEnd
	}
	t['/'] |= nameEnd
	t['>'] |= nameEnd
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= nameDecode
	}
	t[0] |= nameDecode | valueDecode
	t['&'] |= valueDecode
	t['='] |= equals
	t['\r'] |= valueDecode
	return t
}()

const (
	space       = 1 << iota // white space
	nameEnd                 // ends a tag's name: white space, "/", ">"
	nameDecode              // a name that holds it must be decoded: A-Z, NUL
	valueDecode             // a value that holds it must be decoded: "&", NUL, CR
	equals                  // "="
)

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
