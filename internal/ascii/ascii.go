// Package ascii holds the ASCII character classes all three standards use:
// RFC 1808's alpha, digit and hex (Section 2.2), RFC 3986's ALPHA, DIGIT and
// HEXDIG (from RFC 2234), the URL Standard's ASCII alpha, digit and hex
// digit. One place, below every standard's package.
package ascii

// IsAlpha reports whether c is an ASCII letter.
func IsAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// IsHex reports whether c is an ASCII hexadecimal digit, in either case.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
