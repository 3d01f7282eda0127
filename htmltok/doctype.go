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
	b := z.buf[:z.end]
	z.arena = z.arena[:0]
	d := &z.doctype
	*d = doctype{}
	emit := func(next int) (Kind, int, status) { return DoctypeToken, next, done }
	// The DOCTYPE state: white space, or none, before the name.
	i := from
	if i < len(b) && isSpace(b[i]) {
		i++
	}
	st := dtBeforeName
	var quote byte
	appendTo := func(r *[2]int, c byte) {
		if c == 0 {
			z.arena = append(z.arena, "\uFFFD"...)
		} else if c != '\r' || !nextIs(b, i+1, '\n') {
			if c == '\r' {
				c = '\n'
			}
			z.arena = append(z.arena, c)
		}
		r[1] = len(z.arena)
	}
	for ; i < len(b); i++ {
		c := b[i]
		switch st {
		case dtBeforeName:
			switch {
			case isSpace(c):
			case c == '>':
				d.quirks = true
				return emit(i + 1)
			default:
				d.hasName, d.name = true, [2]int{len(z.arena), len(z.arena)}
				appendTo(&d.name, lower(c))
				st = dtName
			}
		case dtName:
			switch {
			case isSpace(c):
				st = dtAfterName
			case c == '>':
				return emit(i + 1)
			default:
				appendTo(&d.name, lower(c))
			}
		case dtAfterName:
			switch {
			case isSpace(c):
			case c == '>':
				return emit(i + 1)
			default:
				if len(b)-i < 6 && !z.eof {
					return 0, 0, more
				}
				switch {
				case hasPrefixFold(b[i:], []byte("public")):
					i += 5
					st = dtAfterPublicKeyword
				case hasPrefixFold(b[i:], []byte("system")):
					i += 5
					st = dtAfterSystemKeyword
				default:
					d.quirks = true
					st = dtBogus
				}
			}
		case dtAfterPublicKeyword, dtBeforePublic, dtAfterSystemKeyword, dtBeforeSystem:
			switch {
			case isSpace(c):
				if st == dtAfterPublicKeyword {
					st = dtBeforePublic
				} else if st == dtAfterSystemKeyword {
					st = dtBeforeSystem
				}
			case c == '"' || c == '\'':
				quote = c
				if st == dtAfterPublicKeyword || st == dtBeforePublic {
					d.hasPublic, d.public, st = true, [2]int{len(z.arena), len(z.arena)}, dtPublic
				} else {
					d.hasSystem, d.system, st = true, [2]int{len(z.arena), len(z.arena)}, dtSystem
				}
			case c == '>':
				d.quirks = true
				return emit(i + 1)
			default:
				d.quirks = true
				st = dtBogus
			}
		case dtPublic, dtSystem:
			r := &d.public
			if st == dtSystem {
				r = &d.system
			}
			switch c {
			case quote:
				if st == dtPublic {
					st = dtAfterPublic
				} else {
					st = dtAfterSystem
				}
			case '>':
				d.quirks = true
				return emit(i + 1)
			default:
				appendTo(r, c)
			}
		case dtAfterPublic, dtBetween:
			switch {
			case isSpace(c):
				st = dtBetween
			case c == '>':
				return emit(i + 1)
			case c == '"' || c == '\'':
				quote = c
				d.hasSystem, d.system, st = true, [2]int{len(z.arena), len(z.arena)}, dtSystem
			default:
				d.quirks = true
				st = dtBogus
			}
		case dtAfterSystem:
			switch {
			case isSpace(c):
			case c == '>':
				return emit(i + 1)
			default:
				st = dtBogus // not forcing quirks
			}
		case dtBogus:
			if c == '>' {
				return emit(i + 1)
			}
		}
	}
	if !z.eof {
		return 0, 0, more
	}
	if st != dtBogus {
		d.quirks = true
	}
	return emit(len(b))
}

func nextIs(b []byte, i int, c byte) bool { return i < len(b) && b[i] == c }
