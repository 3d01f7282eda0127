package links

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/relurl/relurl/internal/bytestr"
)

// This file reads attribute values: rel tokens, and ASCII case folding
// without allocation.

// appendTokens appends the space-separated tokens of a rel attribute,
// ASCII-lowercased, one space between them.
func appendTokens(dst, v []byte) []byte {
	for _, f := range bytes.Fields(v) {
		if len(dst) > 0 {
			dst = append(dst, ' ')
		}
		for _, c := range f {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// foldEqual reports whether b is lower, an ASCII string in lower case, in
// any case.
func foldEqual(b []byte, lower string) bool {
	for i := range len(lower) {
		if toLower(b[i]) != lower[i] {
			return false
		}
	}
	return true
}

// containsFold reports whether s holds lower, an ASCII string in lower
// case, in any case.
func containsFold(s []byte, lower string) bool {
	if strings.Contains(bytestr.Transient(s), lower) {
		return true
	}
	if !hasUpper(s) {
		return false
	}
	for i := 0; i+len(lower) <= len(s); i++ {
		if foldEqual(s[i:], lower) {
			return true
		}
	}
	return false
}

// hasUpper reports whether s holds an ASCII upper-case letter, eight bytes
// at a time.
func hasUpper(s []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(s) >= 8 {
		x := binary.LittleEndian.Uint64(s)
		low := x &^ highs              // each byte's low seven bits
		geA := low + ones*(0x80-'A')   // high bit set where low >= 'A'
		gtZ := low + ones*(0x80-'Z'-1) // high bit set where low > 'Z'
		if geA&^gtZ&^x&highs != 0 {    // >= 'A', <= 'Z', and ASCII
			return true
		}
		s = s[8:]
	}
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

func toLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFold reports whether v is lower, ASCII case-insensitively.
func equalFold(v []byte, lower string) bool {
	return len(v) == len(lower) && containsFold(v, lower)
}
