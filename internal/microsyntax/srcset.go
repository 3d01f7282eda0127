package microsyntax

import "iter"

// SrcsetURLs yields the URLs of the image candidates in the value of a
// srcset attribute, in order, as the HTML standard's "parse a srcset
// attribute" algorithm finds them. The URLs are sub-slices of v.
func SrcsetURLs(v []byte) iter.Seq[[]byte] {
	return func(yield func(url []byte) bool) { Srcset(v, yield) }
}

// Srcset calls yield with the URL of each image candidate of the
// srcset value v, in order, until yield returns false, by the HTML
// standard's algorithm: candidates are separated by commas, each a URL and
// descriptors; a URL ends at white space, and commas that end it are not
// part of it; descriptors are separated by white space, with commas inside
// parentheses. A candidate whose descriptors the standard rejects (an
// unknown one, two densities, a width and a density, a height without a
// width, a number out of form) is dropped, as browsers drop it.
func Srcset(v []byte, yield func(url []byte) bool) {
	i := 0
	for {
		// Splitting loop: skip white space and commas, collect the URL.
		for i < len(v) && (isSpace(v[i]) || v[i] == ',') {
			i++
		}
		if i == len(v) {
			return
		}
		start := i
		for i < len(v) && !isSpace(v[i]) {
			i++
		}
		url := v[start:i]
		if url[len(url)-1] == ',' {
			for len(url) > 0 && url[len(url)-1] == ',' {
				url = url[:len(url)-1]
			}
			// No descriptors.
			if len(url) > 0 && !yield(url) {
				return
			}
			continue
		}
		var ok bool
		i, ok = descriptors(v, i)
		if ok && !yield(url) {
			return
		}
	}
}

// descriptors reads the descriptors of a candidate from v[i:], up to the
// comma that ends it, and returns where the next candidate starts and
// whether the descriptors are valid. It is the standard's descriptor
// tokenizer, and then its descriptor parser, without keeping the values.
func descriptors(v []byte, i int) (next int, ok bool) {
	var d descriptorSet
	for i < len(v) && isSpace(v[i]) {
		i++
	}
	start, parens := i, false
	for ; i < len(v); i++ {
		c := v[i]
		switch {
		case parens:
			parens = c != ')'
		case c == '(':
			parens = true
		case isSpace(c):
			d.add(v[start:i])
			start = i + 1
		case c == ',':
			d.add(v[start:i])
			return i + 1, d.valid()
		}
	}
	d.add(v[start:i])
	return i, d.valid()
}

// descriptorSet is what the descriptor parser has seen of one candidate.
type descriptorSet struct {
	width, density, height, bad bool
}

func (d *descriptorSet) add(desc []byte) {
	if len(desc) == 0 {
		return
	}
	n := len(desc) - 1
	num := desc[:n]
	switch desc[n] {
	case 'w':
		if d.width || d.density || !isNonNegativeInteger(num) || isZero(num) {
			d.bad = true
		}
		d.width = true
	case 'x':
		// "Less than zero" is an error, and -0 is not: "-0x" is a
		// density (WPT's srcset tests and Chromium keep it).
		if d.width || d.density || d.height || !isFloat(num) || num[0] == '-' && !isFloatZero(num[1:]) {
			d.bad = true
		}
		d.density = true
	case 'h':
		if d.height || d.density || !isNonNegativeInteger(num) || isZero(num) {
			d.bad = true
		}
		d.height = true
	default:
		d.bad = true
	}
}

// valid reports whether the descriptors make a candidate: none bad, and a
// height only with a width.
func (d *descriptorSet) valid() bool { return !d.bad && (!d.height || d.width) }

// isNonNegativeInteger reports whether s is a valid non-negative integer:
// one or more ASCII digits.
func isNonNegativeInteger(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isZero(s []byte) bool {
	for _, c := range s {
		if c != '0' {
			return false
		}
	}
	return true
}

// isFloatZero reports whether s, a valid floating-point number without a
// sign, is zero: its digits before any exponent are all 0.
func isFloatZero(s []byte) bool {
	for _, c := range s {
		switch c {
		case '0', '.':
		case 'e', 'E':
			return true
		default:
			return false
		}
	}
	return true
}

// isFloat reports whether s is a valid floating-point number as HTML
// defines it: an optional "-", digits, a "." and digits, or both, then
// optionally "e" or "E", an optional sign and digits.
func isFloat(s []byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	mantissa := digits()
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
		mantissa++
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isSpace reports whether c is ASCII white space as HTML defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
