// Package textsafe makes text safe to print on a terminal or in a log:
// what a page or a server wrote reaches people's screens through relurl's
// reports, and a control byte there could move the cursor, hide a line or
// forge one.
package textsafe

import (
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
