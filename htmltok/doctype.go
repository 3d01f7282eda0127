package htmltok

// doctype is a DOCTYPE token: its name and identifiers as ranges of the
// arena, each present or missing, and its force-quirks flag.
type doctype struct {
	name, public, system          [2]int
	hasName, hasPublic, hasSystem bool
	quirks                        bool
}

// Doctype returns the current DOCTYPE token's name and public and system
// identifiers, each nil when missing, and whether it forces quirks mode.
func (z *Tokenizer) Doctype() (name, public, system []byte, forceQuirks bool) {
	d := &z.doctype
	get := func(r [2]int, has bool) []byte {
		if !has {
			return nil
		}
		return z.arena[r[0]:r[1]:r[1]]
	}
	return get(d.name, d.hasName), get(d.public, d.hasPublic), get(d.system, d.hasSystem), d.quirks
}

// The DOCTYPE states, 13.2.5.53 to 13.2.5.68.
const (
	dtBeforeName = iota
	dtName
	dtAfterName
	dtAfterPublicKeyword
	dtBeforePublic
	dtPublic
	dtAfterPublic
	dtBetween
	dtAfterSystemKeyword
	dtBeforeSystem
	dtSystem
	dtAfterSystem
	dtBogus
)

// scanDoctype reads a DOCTYPE from buf[from], after "<!DOCTYPE".
func (z *Tokenizer) scanDoctype(p, from int) (Kind, int, status) {
	z.arena = z.arena[:0]
	z.doctype = doctype{}
	s := doctypeScan{z: z, b: z.buf[:z.end], i: from, st: dtBeforeName}
	// The DOCTYPE state: white space, or none, before the name.
	if s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
	for ; s.i < len(s.b); s.i++ {
		var end doctypeEnd
		if s.st <= dtAfterName {
			end = s.nameStep(s.b[s.i])
		} else {
			end = s.identifierStep(s.b[s.i])
		}
		switch end {
		case doctypeEmit:
			return DoctypeToken, s.i + 1, done
		case doctypeMore:
			return 0, 0, more
		}
	}
	if !z.eof {
		return 0, 0, more
	}
	if s.st != dtBogus {
		z.doctype.quirks = true
	}
	return DoctypeToken, len(s.b), done
}

// doctypeScan is one reading of a DOCTYPE: the DOCTYPE states walked one
// byte at a time, the token built in the tokenizer's doctype and arena.
type doctypeScan struct {
	z     *Tokenizer
	b     []byte
	i     int  // the byte being read
	st    int  // the DOCTYPE state
	quote byte // the quote that ends the identifier being read
}

// doctypeEnd is what a step of the DOCTYPE states asks for.
type doctypeEnd uint8

const (
	doctypeOn   doctypeEnd = iota // read the next byte
	doctypeEmit                   // the token ends with this byte
	doctypeMore                   // more input first
)

// appendTo appends c to the identifier (or name) r, as its state does:
// NUL as U+FFFD, and a newline normalized.
func (s *doctypeScan) appendTo(r *[2]int, c byte) {
	z := s.z
	if c == 0 {
		z.arena = append(z.arena, "\uFFFD"...)
	} else if c != '\r' || !nextIs(s.b, s.i+1, '\n') {
		if c == '\r' {
			c = '\n'
		}
		z.arena = append(z.arena, c)
	}
	r[1] = len(z.arena)
}

// start begins the empty identifier (or name) r.
func (s *doctypeScan) start(r *[2]int) { *r = [2]int{len(s.z.arena), len(s.z.arena)} }

// nameStep is the before DOCTYPE name, DOCTYPE name and after DOCTYPE name
// states, on the byte c.
func (s *doctypeScan) nameStep(c byte) doctypeEnd {
	d := &s.z.doctype
	switch {
	case isSpace(c):
		if s.st == dtName {
			s.st = dtAfterName
		}
	case c == '>':
		d.quirks = d.quirks || s.st == dtBeforeName
		return doctypeEmit
	case s.st == dtBeforeName:
		d.hasName = true
		s.start(&d.name)
		s.appendTo(&d.name, lower(c))
		s.st = dtName
	case s.st == dtName:
		s.appendTo(&d.name, lower(c))
	default: // after the name: a keyword or bogus
		b, i := s.b, s.i
		if len(b)-i < 6 && !s.z.eof {
			return doctypeMore
		}
		switch {
		case hasPrefixFold(b[i:], []byte("public")):
			s.i += 5
			s.st = dtAfterPublicKeyword
		case hasPrefixFold(b[i:], []byte("system")):
			s.i += 5
			s.st = dtAfterSystemKeyword
		default:
			d.quirks = true
			s.st = dtBogus
		}
	}
	return doctypeOn
}

// identifierStep is the states from after the keyword PUBLIC or SYSTEM to
// the bogus DOCTYPE state, on the byte c.
func (s *doctypeScan) identifierStep(c byte) doctypeEnd {
	d := &s.z.doctype
	switch s.st {
	case dtAfterPublicKeyword, dtBeforePublic, dtAfterSystemKeyword, dtBeforeSystem:
		switch {
		case isSpace(c):
			if s.st == dtAfterPublicKeyword {
				s.st = dtBeforePublic
			} else if s.st == dtAfterSystemKeyword {
				s.st = dtBeforeSystem
			}
		case c == '"' || c == '\'':
			s.quote = c
			if s.st == dtAfterPublicKeyword || s.st == dtBeforePublic {
				d.hasPublic, s.st = true, dtPublic
				s.start(&d.public)
			} else {
				d.hasSystem, s.st = true, dtSystem
				s.start(&d.system)
			}
		case c == '>':
			d.quirks = true
			return doctypeEmit
		default:
			d.quirks = true
			s.st = dtBogus
		}
	case dtPublic, dtSystem:
		switch c {
		case s.quote:
			if s.st == dtPublic {
				s.st = dtAfterPublic
			} else {
				s.st = dtAfterSystem
			}
		case '>':
			d.quirks = true
			return doctypeEmit
		default:
			if s.st == dtPublic {
				s.appendTo(&d.public, c)
			} else {
				s.appendTo(&d.system, c)
			}
		}
	case dtAfterPublic, dtBetween:
		switch {
		case isSpace(c):
			s.st = dtBetween
		case c == '>':
			return doctypeEmit
		case c == '"' || c == '\'':
			s.quote = c
			d.hasSystem, s.st = true, dtSystem
			s.start(&d.system)
		default:
			d.quirks = true
			s.st = dtBogus
		}
	case dtAfterSystem:
		switch {
		case isSpace(c):
		case c == '>':
			return doctypeEmit
		default:
			s.st = dtBogus // not forcing quirks
		}
	case dtBogus:
		if c == '>' {
			return doctypeEmit
		}
	}
	return doctypeOn
}

func nextIs(b []byte, i int, c byte) bool { return i < len(b) && b[i] == c }
