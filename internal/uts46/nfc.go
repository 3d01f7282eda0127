package uts46

import (
	"slices"
	"unicode/utf8"
)

// nfc returns s in Unicode Normalization Form C (UAX #15): canonical
// decomposition, the canonical ordering of combining marks, and canonical
// composition, on the tables of UnicodeVersion. It is written for the
// short strings of domains.
func nfc(s string) string {
	if quickNFC(s) {
		return s
	}
	// Decomposition, with the marks of each run ordered by
	// Canonical_Combining_Class as they arrive (a stable insertion sort).
	type mark struct {
		r  rune
		cc uint8
	}
	d := make([]mark, 0, len(s))
	add := func(r rune) {
		cc := propsOf(r).ccc()
		i := len(d)
		if cc != 0 {
			for i > 0 && d[i-1].cc > cc {
				i--
			}
		}
		d = append(d, mark{})
		copy(d[i+1:], d[i:])
		d[i] = mark{r, cc}
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			d = append(d, mark{r, 0})
		case hangulS0 <= r && r < hangulS0+hangulCount:
			idx := r - hangulS0
			d = append(d, mark{hangulL0 + idx/hangulNCount, 0}, mark{hangulV0 + idx%hangulNCount/hangulTCount, 0})
			if t := idx % hangulTCount; t != 0 {
				d = append(d, mark{hangulT0 + t, 0})
			}
		default:
			if m, ok := decomposition(r); ok {
				for _, c := range m {
					add(c)
				}
			} else {
				add(r)
			}
		}
	}
	// Composition: each code point joins the last starter before it
	// unless a code point between blocks it.
	out := d[:0]
	starter := -1
	for _, m := range d {
		if starter >= 0 {
			last := len(out) - 1
			if last == starter || out[last].cc < m.cc {
				if p, ok := compose(out[starter].r, m.r); ok {
					out[starter].r = p
					continue
				}
			}
		}
		out = append(out, m)
		if m.cc == 0 {
			starter = len(out) - 1
		}
	}
	b := make([]byte, 0, len(s))
	for _, m := range out {
		b = utf8.AppendRune(b, m.r)
	}
	return string(b)
}

// quickNFC reports whether s is in NFC by UAX #15's quick check, made
// coarser: every code point has NFC_Quick_Check Yes and is a starter. It
// may answer false for a string in NFC.
func quickNFC(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if p := propsOf(r); p.nfcMaybe() || p.ccc() != 0 {
			return false
		}
	}
	return true
}

// The constants of Hangul syllable (de)composition, Unicode section 3.12.
const (
	hangulS0     = 0xAC00
	hangulL0     = 0x1100
	hangulV0     = 0x1161
	hangulT0     = 0x11A7
	hangulLCount = 19
	hangulVCount = 21
	hangulTCount = 28
	hangulNCount = hangulVCount * hangulTCount
	hangulCount  = hangulLCount * hangulNCount
)

// decomposition returns r's full canonical decomposition, if it has one.
func decomposition(r rune) (string, bool) {
	i, found := slices.BinarySearch(decompKeys[:], uint32(r))
	if !found {
		return "", false
	}
	off, n := decompValues[i]>>8, decompValues[i]&0xff
	return decompositions[off : off+n], true
}

// compose returns the primary composite of a and b, if there is one.
func compose(a, b rune) (rune, bool) {
	// Hangul: a leading consonant and a vowel, or an LV syllable and a
	// trailing consonant.
	if hangulL0 <= a && a < hangulL0+hangulLCount && hangulV0 <= b && b < hangulV0+hangulVCount {
		return hangulS0 + ((a-hangulL0)*hangulVCount+b-hangulV0)*hangulTCount, true
	}
	if hangulS0 <= a && a < hangulS0+hangulCount && (a-hangulS0)%hangulTCount == 0 &&
		hangulT0 < b && b < hangulT0+hangulTCount {
		return a + b - hangulT0, true
	}
	key := uint64(a)<<21 | uint64(b)
	lo, hi := 0, len(compKeys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compKeys[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(compKeys) && compKeys[lo] == key {
		return rune(compValues[lo]), true
	}
	return 0, false
}
