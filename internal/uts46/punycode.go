package uts46

import (
	"strings"
	"unicode/utf8"
)

// Punycode (RFC 3492), with the parameters of section 5 for IDNA.
const (
	base        = 36
	tMin        = 1
	tMax        = 26
	skew        = 38
	damp        = 700
	initialBias = 72
	initialN    = 128
	maxInt      = 1<<31 - 1 // the widest number a decoder must handle
)

// adapt is the bias adaptation function of RFC 3492 section 6.1.
func adapt(delta, numPoints int, first bool) int {
	if first {
		delta /= damp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > (base-tMin)*tMax/2 {
		delta /= base - tMin
		k += base
	}
	return k + (base-tMin+1)*delta/(delta+skew)
}

func threshold(k, bias int) int {
	switch {
	case k <= bias:
		return tMin
	case k >= bias+tMax:
		return tMax
	}
	return k - bias
}

func digitValue(c byte) (int, bool) {
	switch {
	case 'a' <= c && c <= 'z':
		return int(c - 'a'), true
	case 'A' <= c && c <= 'Z':
		return int(c - 'A'), true
	case '0' <= c && c <= '9':
		return int(c-'0') + 26, true
	}
	return 0, false
}

func digit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// decodePunycode is RFC 3492's decoding procedure (section 6.2). It
// refuses input that overflows, that is not basic, or whose code points
// are not Unicode scalar values.
func decodePunycode(s string) (string, bool) {
	var out []rune
	rest := s
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		for j := 0; j < i; j++ {
			if s[j] >= utf8.RuneSelf {
				return "", false
			}
			out = append(out, rune(s[j]))
		}
		rest = s[i+1:]
	}
	n, bias, i := initialN, initialBias, 0
	for len(rest) > 0 {
		oldi, w := i, 1
		for k := base; ; k += base {
			if len(rest) == 0 {
				return "", false
			}
			d, ok := digitValue(rest[0])
			rest = rest[1:]
			if !ok || d > (maxInt-i)/w {
				return "", false
			}
			i += d * w
			t := threshold(k, bias)
			if d < t {
				break
			}
			if w > maxInt/(base-t) {
				return "", false
			}
			w *= base - t
		}
		bias = adapt(i-oldi, len(out)+1, oldi == 0)
		if i/(len(out)+1) > maxInt-n {
			return "", false
		}
		n += i / (len(out) + 1)
		i %= len(out) + 1
		if n > utf8.MaxRune || 0xD800 <= n && n <= 0xDFFF {
			return "", false
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = rune(n)
		i++
	}
	return string(out), true
}

// appendPunycode appends the Punycode of label (RFC 3492 section 6.3) to
// dst. It reports false on overflow.
func appendPunycode(dst []byte, label string) ([]byte, bool) {
	runes := []rune(label)
	b := 0
	for _, r := range runes {
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
			b++
		}
	}
	h := b
	if b > 0 {
		dst = append(dst, '-')
	}
	n, delta, bias := initialN, 0, initialBias
	for h < len(runes) {
		m := maxInt
		for _, r := range runes {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if m-n > (maxInt-delta)/(h+1) {
			return dst, false
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range runes {
			if int(r) < n {
				if delta++; delta > maxInt {
					return dst, false
				}
			}
			if int(r) != n {
				continue
			}
			q := delta
			for k := base; ; k += base {
				t := threshold(k, bias)
				if q < t {
					break
				}
				dst = append(dst, digit(t+(q-t)%(base-t)))
				q = (q - t) / (base - t)
			}
			dst = append(dst, digit(q))
			bias = adapt(delta, h+1, h == b)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return dst, true
}
