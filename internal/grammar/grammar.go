// Package grammar holds what the grammars of RFC 1808 and RFC 3986 share,
// below both packages: the search for the first byte a character class
// does not allow, and for the first dot segment of a path.
package grammar

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/ascii"
)

// Find returns the offset and text of the first byte of s[from:to] whose
// class in table has none of the bits allowed, or of the first "%" not
// followed by two hex digits, which escape reports; at is -1 when there is
// none. The text is the character there (a UTF-8 sequence, or one byte), or
// the broken escape.
func Find(s string, from, to int, table *[256]uint8, allowed uint8) (at int, text string, escape bool) {
	for i := from; i < to; i++ {
		c := s[i]
		if table[c]&allowed != 0 {
			continue
		}
		if c == '%' {
			if i+2 < to && ascii.IsHex(s[i+1]) && ascii.IsHex(s[i+2]) {
				i += 2
				continue
			}
			return i, s[i:min(i+3, to)], true
		}
		return i, CharAt(s[:to], i), false
	}
	return -1, "", false
}

// Message is the text of both RFCs' syntax errors: text, found at byte
// offset, breaks rule.
func Message(offset int, text, rule string) string {
	if strings.HasPrefix(text, "%") {
		return fmt.Sprintf("offset %d: %q is an invalid escape (%s)", offset, text, rule)
	}
	return fmt.Sprintf("offset %d: %q is not allowed in %s", offset, text, rule)
}

// CharAt returns the character at s[i]: a UTF-8 sequence, or one byte.
func CharAt(s string, i int) string {
	_, size := utf8.DecodeRuneInString(s[i:])
	return s[i : i+size]
}

// FirstDotSegment returns the index where the first segment "." or ".."
// of p begins, or -1 if it has none.
func FirstDotSegment(p []byte) int {
	if noDotSegment(p) {
		return -1
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(p[i:], '.')
		if j < 0 {
			return -1
		}
		if i += j; i > 0 && p[i-1] != '/' {
			continue
		}
		if j := i + 1; j == len(p) || p[j] == '/' || p[j] == '.' && (j+1 == len(p) || p[j+1] == '/') {
			return i
		}
	}
}

// noDotSegment reports, with one search, that p cannot have a "." or ".."
// segment: each is followed by "/" or ends the path, and ordinary paths
// rarely have a segment that ends in "." otherwise.
func noDotSegment(p []byte) bool {
	return !bytes.Contains(p, []byte("./")) && !bytes.HasSuffix(p, []byte("."))
}
