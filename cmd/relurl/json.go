package main

import (
	"unicode/utf8"
)

// appendJSONString appends s as a JSON string, as encoding/json writes it
// with HTML escaping off: quotes, backslashes and control characters
// escaped, U+2028 and U+2029 too, and each byte that is not UTF-8 as
// U+FFFD. It serves the writers that run for every link.
func appendJSONString[T string | []byte](dst []byte, s T) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendJSONStringOrNull appends s as a JSON string when ok, else null.
func appendJSONStringOrNull[T string | []byte](dst []byte, s T, ok bool) []byte {
	if !ok {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, s)
}

// decodeRune decodes the first rune of s, string or bytes alike, without
// converting it.
func decodeRune[T string | []byte](s T) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s)
	return utf8.DecodeRune(buf[:n])
}
