// Package textsafe makes text safe to print on a terminal or in a log:
// what a page or a server wrote reaches people's screens through relurl's
// reports, and a control byte there could move the cursor, hide a line or
// forge one.
package textsafe

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// String returns s for a message: controls (C0, DEL, C1) and invalid
// UTF-8 bytes are written \xNN, and a backslash stays a backslash.
func String(s string) string {
	clean := true
	for _, r := range s {
		if r < ' ' || (r >= 0x7f && r <= 0x9f) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b []byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < ' ', r == 0x7f:
			b = fmt.Appendf(b, `\x%02x`, s[i])
		case r >= 0x80 && r <= 0x9f:
			for _, c := range []byte(s[i : i+n]) {
				b = fmt.Appendf(b, `\x%02x`, c)
			}
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// Text output never carries a raw control byte from its input: a URL or a
// document could otherwise move a terminal's cursor, clear its screen, or
// (a newline) forge a line of output. URLs on standard output have their C0
// controls and DEL percent-encoded, which is how a URL writes them; messages
// on standard error show them, C1 controls and invalid UTF-8 as \xNN. JSON
// output escapes them as JSON does, and loses nothing.

// EndURLLine ends the line of the URL appended to dst from start:
// it percent-encodes the URL's control bytes and appends a newline.
func EndURLLine(dst []byte, start int) []byte {
	return append(EscapeControls(dst, start), '\n')
}

// EscapeControls percent-encodes the C0 controls and DEL in dst[from:].
func EscapeControls(dst []byte, from int) []byte {
	// Eight bytes at a time: this runs on every line resolve prints.
	rest := dst[from:]
	for len(rest) >= 8 && !hasControl(binary.LittleEndian.Uint64(rest)) {
		rest = rest[8:]
	}
	i := len(dst) - len(rest)
	for i < len(dst) && dst[i] >= ' ' && dst[i] != 0x7f {
		i++
	}
	if i == len(dst) {
		return dst // the usual case: nothing to escape
	}
	tail := append([]byte(nil), dst[i:]...)
	dst = dst[:i]
	for _, c := range tail {
		if c < ' ' || c == 0x7f {
			dst = fmt.Appendf(dst, "%%%02X", c)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// hasControl reports whether a byte of w is below 0x20 or is 0x7f, by the
// word-at-a-time test for a byte less than n (exact for n up to 0x80).
func hasControl(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	del := w ^ (0x7f * ones) // a zero byte where w has DEL
	return ((w-0x20*ones)&^w|(del-ones)&^del)&highs != 0
}

// QuoteName returns a file name as git prints one: as it is, unless it
// holds a control byte, a double quote, a backslash or bytes that are not
// UTF-8; then in double quotes, with those written as C writes them (\t,
// \n, \", \\, and \ooo in octal for the others). So a name with a
// newline in it is never read as two names.
func QuoteName(name string) string {
	plain := utf8.ValidString(name)
	for i := 0; plain && i < len(name); i++ {
		c := name[i]
		plain = c >= ' ' && c != 0x7f && c != '"' && c != '\\'
	}
	if plain {
		for _, r := range name {
			if r >= 0x80 && r <= 0x9f {
				plain = false
			}
		}
	}
	if plain {
		return name
	}
	b := []byte{'"'}
	for i := 0; i < len(name); {
		r, n := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < ' ', r == 0x7f, r >= 0x80 && r <= 0x9f:
			for _, c := range []byte(name[i : i+n]) {
				switch c {
				case '\a':
					b = append(b, `\a`...)
				case '\b':
					b = append(b, `\b`...)
				case '\t':
					b = append(b, `\t`...)
				case '\n':
					b = append(b, `\n`...)
				case '\v':
					b = append(b, `\v`...)
				case '\f':
					b = append(b, `\f`...)
				case '\r':
					b = append(b, `\r`...)
				default:
					b = fmt.Appendf(b, `\%03o`, c)
				}
			}
		case r == '"', r == '\\':
			b = append(b, '\\', byte(r))
		default:
			b = append(b, name[i:i+n]...)
		}
		i += n
	}
	return string(append(b, '"'))
}
