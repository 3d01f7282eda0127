package htmltok

import "unicode/utf8"

// appendDecoded appends b to dst as the tokenizer hands it out: character
// references decoded when refs (13.2.5.72 to 13.2.5.80; inAttr applies
// the attribute-value rule for legacy references), NUL kept or made
// U+FFFD, and "\r\n" and "\r" made "\n" (13.2.3.5, preprocessing the input
// stream).
func appendDecoded(dst, b []byte, refs, inAttr, keepNUL bool) []byte {
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '\r':
			dst = append(dst, '\n')
			i++
			if i < len(b) && b[i] == '\n' {
				i++
			}
		case c == 0 && !keepNUL:
			dst = append(dst, "\uFFFD"...)
			i++
		case c == '&' && refs:
			var n int
			dst, n = appendRef(dst, b[i:], inAttr)
			i += n
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// appendRef decodes the character reference at b[0] ("&") onto dst and
// returns how many bytes it took; a "&" that begins none is itself.
func appendRef(dst, b []byte, inAttr bool) ([]byte, int) {
	if len(b) > 1 && b[1] == '#' {
		return appendNumericRef(dst, b)
	}
	k := 1
	for k < len(b) && k <= longestEntity && isAlnum(b[k]) {
		k++
	}
	if k == 1 {
		return append(dst, '&'), 1
	}
	if k < len(b) && b[k] == ';' {
		if v, ok := entities[string(b[1:k+1])]; ok {
			return append(dst, v...), k + 1
		}
	}
	// The longest legacy name, without ";", that the run starts with.
	for l := min(k-1, 6); l >= 2; l-- {
		v, ok := entities[string(b[1:1+l])]
		if !ok {
			continue
		}
		if inAttr && 1+l < len(b) && (b[1+l] == '=' || isAlnum(b[1+l])) {
			// As written, for historical reasons (13.2.5.73).
			return append(dst, b[:1+l]...), 1 + l
		}
		return append(dst, v...), 1 + l
	}
	return append(dst, '&'), 1 // an ambiguous ampersand: the rest is text
}

// appendNumericRef decodes "&#..." at b[0] (13.2.5.75 to 13.2.5.80).
func appendNumericRef(dst, b []byte) ([]byte, int) {
	i, hex := 2, false
	if i < len(b) && (b[i] == 'x' || b[i] == 'X') {
		i, hex = i+1, true
	}
	start := i
	n := 0
	for ; i < len(b); i++ {
		c := b[i]
		var d int
		switch {
		case isDigit(c):
			d = int(c - '0')
		case hex && c|0x20 >= 'a' && c|0x20 <= 'f':
			d = int(c|0x20-'a') + 10
		default:
			goto end
		}
		if hex {
			n = n*16 + d
		} else {
			n = n*10 + d
		}
		n = min(n, 0x110000) // past the last code point, it stays there
	}
end:
	if i == start {
		return append(dst, b[:start]...), start // "&#" or "&#x" with no digits
	}
	if i < len(b) && b[i] == ';' {
		i++
	}
	r := rune(n)
	switch {
	case n == 0, n > 0x10FFFF, n >= 0xD800 && n <= 0xDFFF:
		r = utf8.RuneError
	case n >= 0x80 && n <= 0x9F:
		if w := windows1252[n-0x80]; w != 0 {
			r = w
		}
	}
	return utf8.AppendRune(dst, r), i
}

// windows1252 is the numeric character reference end state's table: the
// code points 0x80 to 0x9F as windows-1252 has them; 0 for those it leaves.
var windows1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}
