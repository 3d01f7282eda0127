// Package ascii holds the ASCII character classes all three standards use:
// RFC 1808's alpha, digit and hex (Section 2.2), RFC 3986's ALPHA, DIGIT and
// HEXDIG (from RFC 2234), the URL Standard's ASCII alpha, digit and hex
// digit. One place, below every standard's package.
package ascii

import "encoding/binary"

// IsAlpha reports whether c is an ASCII letter.
func IsAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// IsHex reports whether c is an ASCII hexadecimal digit, in either case.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// HasTabOrNewline reports whether s holds a tab, LF or CR, the bytes the
// URL Standard's basic URL parser removes from its input: eight bytes at
// a time, by the word-at-a-time test for a byte below 0x0e, then exactly.
func HasTabOrNewline(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		if (w-0x0e*ones)&^w&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}
