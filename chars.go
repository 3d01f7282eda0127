package relurl

import "unsafe"

// The ASCII character classes all three standards use: RFC 1808's alpha,
// digit and hex (Section 2.2), RFC 3986's ALPHA, DIGIT and HEXDIG (from
// RFC 2234), the URL Standard's ASCII alpha, digit and hex digit. One
// place, below every standard's file.

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// ownString returns b as a string without copying it. b must not be used
// again, so that the string can own its memory, as strings.Builder does.
func ownString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
