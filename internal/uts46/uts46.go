// Package uts46 is Unicode IDNA Compatibility Processing (Unicode Technical
// Standard #46): the mapping, normalization and validity checks that turn a
// domain a person typed, "Bücher.example", into the one a resolver looks up,
// "xn--bcher-kva.example", and back.
//
// The URL Standard's host parser ("domain to ASCII") and "domain to Unicode"
// run it with options of their own; see Options. Its tables are generated
// from the Unicode Character Database of UnicodeVersion by ./internal/gen,
// so that a code point Unicode added or remapped after the version Go's own
// tables follow is treated as browsers treat it. Transitional processing,
// which UTS #46 deprecates and the URL Standard never uses, is left out.
package uts46

//go:generate sh -c "cd ../.. && go run ./internal/gen -ucd \"$UCD\" -idna \"$IDNA\""

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Options are UTS #46's processing flags ("Processing", section 4) that
// the URL Standard varies. The zero value is the lenient ToASCII of its
// host parser. CheckBidi and CheckJoiners are always on, as the Standard
// has them; Transitional_Processing and IgnoreInvalidPunycode always off.
type Options struct {
	// CheckHyphens refuses a label with "--" in its third and fourth
	// places or with "-" at either end (validity criteria 2 and 3).
	CheckHyphens bool
	// UseSTD3ASCIIRules allows only a-z, 0-9 and "-" of ASCII in a label
	// (criterion 7.3).
	UseSTD3ASCIIRules bool
	// VerifyDNSLength refuses an empty label, a label over 63 bytes, and
	// a domain over 253 bytes (ToASCII, step 4).
	VerifyDNSLength bool
}

// Strict is the profile the URL Standard's "domain parser ToASCII" uses
// with beStrict true, which decides its domain-to-ASCII validation error.
var Strict = Options{CheckHyphens: true, UseSTD3ASCIIRules: true, VerifyDNSLength: true}

// An Error tells the first check a domain failed.
type Error struct {
	Label  string // the label, as processing made it (Punycode decoded)
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("uts46: label %q: %s", e.Label, e.Reason)
}

// ToASCII is UTS #46's ToASCII (section 4.2): domain mapped, normalized,
// checked, and each label that is not ASCII written as "xn--" and its
// Punycode. It returns an *Error for the first check domain fails.
func ToASCII(domain string, o Options) (string, error) {
	labels, err := process(domain, o)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, label := range labels {
		if i > 0 {
			b.WriteByte('.')
		}
		if isASCII(label) {
			b.WriteString(label)
			continue
		}
		start := b.Len()
		b.WriteString("xn--")
		p, ok := appendPunycode(nil, label)
		if !ok {
			return "", &Error{label, "overflows Punycode"}
		}
		b.Write(p)
		if o.VerifyDNSLength && b.Len()-start > 63 {
			return "", &Error{label, "longer than 63 bytes in ASCII"}
		}
	}
	if o.VerifyDNSLength {
		for _, label := range labels {
			if label == "" {
				return "", &Error{label, "empty"}
			}
			if len(label) > 63 && isASCII(label) {
				return "", &Error{label, "longer than 63 bytes"}
			}
		}
		if b.Len() > 253 {
			return "", &Error{"", fmt.Sprintf("the domain is %d bytes, over 253", b.Len())}
		}
	}
	return b.String(), nil
}

// ToUnicode is UTS #46's ToUnicode (section 4.3): domain mapped,
// normalized and checked, its Punycode labels decoded. Where a check
// fails it still returns the domain as far as processing made it, with
// the *Error.
func ToUnicode(domain string, o Options) (string, error) {
	o.VerifyDNSLength = false
	labels, err := process(domain, o)
	return strings.Join(labels, "."), err
}

// process is section 4, "Processing": the mapping of step 1, NFC (step 2),
// the labels (step 3), each converted and checked (step 4). It returns the
// labels, Punycode decoded, and the first error it recorded.
func process(domain string, o Options) ([]string, error) {
	mapped := mapDomain(domain)
	var firstErr error
	record := func(label, reason string) {
		if firstErr == nil {
			firstErr = &Error{label, reason}
		}
	}
	labels := strings.Split(nfc(mapped), ".")
	bidiDomain := false
	for i, label := range labels {
		if strings.HasPrefix(label, "xn--") {
			if !isASCII(label) {
				record(label, "starts with xn-- and is not ASCII")
				continue
			}
			decoded, ok := decodePunycode(label[4:])
			if !ok {
				record(label, "is not valid Punycode")
				continue
			}
			labels[i] = decoded
			if decoded == "" || isASCII(decoded) {
				record(label, "decodes to nothing but ASCII")
			}
			if reason := validate(decoded, o, true); reason != "" {
				record(decoded, reason)
			}
		} else if reason := validate(label, o, false); reason != "" {
			record(label, reason)
		}
		bidiDomain = bidiDomain || isBidiLabel(labels[i])
	}
	if bidiDomain {
		for _, label := range labels {
			if reason := checkBidi(label); reason != "" {
				record(label, reason)
			}
		}
	}
	return labels, firstErr
}

// validate checks section 4.1, "Validity Criteria", for nontransitional
// processing, and CheckJoiners. It returns why label fails, or "".
// decoded tells a label that came from Punycode, which must be unchanged by
// mapping and normalization (criteria 1 and 7).
func validate(label string, o Options, decoded bool) string {
	if label == "" {
		return ""
	}
	if decoded && nfc(label) != label {
		return "is not in Normalization Form C"
	}
	if o.CheckHyphens {
		if len(label) >= 4 && label[2] == '-' && label[3] == '-' {
			return `has "--" in its third and fourth places`
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return `begins or ends with "-"`
		}
	} else if strings.HasPrefix(label, "xn--") {
		return "begins with xn--"
	}
	first, _ := utf8.DecodeRuneInString(label)
	if propsOf(first).mark() {
		return "begins with a combining mark"
	}
	for i, r := range label {
		if r < utf8.RuneSelf {
			if r == '.' {
				return "holds a full stop"
			}
			if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' {
				continue
			}
			if o.UseSTD3ASCIIRules {
				return fmt.Sprintf("holds %q, which STD3 rules refuse", r)
			}
		}
		if status, _ := idnaOf(r); status != statusValid && status != statusDeviation {
			return fmt.Sprintf("holds %U, which is not valid", r)
		}
		if (r == zwnj || r == zwj) && !joinerAllowed(label, i, r) {
			return fmt.Sprintf("has %U where CONTEXTJ refuses it", r)
		}
	}
	return ""
}

const (
	zwnj = '\u200c'
	zwj  = '\u200d'
)

// joinerAllowed is RFC 5892's Appendix A.1 and A.2, the CONTEXTJ rules, for
// the joiner r at byte i of label.
func joinerAllowed(label string, i int, r rune) bool {
	before, _ := utf8.DecodeLastRuneInString(label[:i])
	if i > 0 && propsOf(before).ccc() == virama {
		return true
	}
	if r == zwj {
		return false
	}
	// (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
	ok := false
	for j := i; j > 0; {
		c, n := utf8.DecodeLastRuneInString(label[:j])
		j -= n
		jt := propsOf(c).joining()
		if jt == joinT {
			continue
		}
		ok = jt == joinL || jt == joinD
		break
	}
	if !ok {
		return false
	}
	for _, c := range label[i+utf8.RuneLen(r):] {
		jt := propsOf(c).joining()
		if jt == joinT {
			continue
		}
		return jt == joinR || jt == joinD
	}
	return false
}

// virama is the Canonical_Combining_Class of a virama.
const virama = 9

// isBidiLabel reports whether label has a code point of Bidi_Class R, AL
// or AN, which makes its domain a "Bidi domain name" (RFC 5893, 1.4).
func isBidiLabel(label string) bool {
	for _, r := range label {
		if r >= 0x590 {
			switch propsOf(r).bidi() {
			case bidiR, bidiAL, bidiAN:
				return true
			}
		}
	}
	return false
}

// checkBidi is RFC 5893's Bidi Rule (section 2), its six conditions, for
// one label of a Bidi domain name. It returns why label fails, or "".
func checkBidi(label string) string {
	if label == "" {
		return ""
	}
	first, _ := utf8.DecodeRuneInString(label)
	rtl := false
	switch propsOf(first).bidi() {
	case bidiR, bidiAL:
		rtl = true
	case bidiL:
	default:
		return "begins with neither a left-to-right nor a right-to-left letter (bidi rule 1)"
	}
	// The last code point that is not NSM (conditions 3 and 6).
	last := -1
	hasEN, hasAN := false, false
	for _, r := range label {
		c := propsOf(r).bidi()
		if rtl {
			switch c {
			case bidiR, bidiAL, bidiAN, bidiEN, bidiES, bidiCS, bidiET, bidiON, bidiBN, bidiNSM:
			default:
				return fmt.Sprintf("has %U in a right-to-left label (bidi rule 2)", r)
			}
		} else {
			switch c {
			case bidiL, bidiEN, bidiES, bidiCS, bidiET, bidiON, bidiBN, bidiNSM:
			default:
				return fmt.Sprintf("has %U in a left-to-right label (bidi rule 5)", r)
			}
		}
		hasEN = hasEN || c == bidiEN
		hasAN = hasAN || c == bidiAN
		if c != bidiNSM {
			last = c
		}
	}
	if rtl {
		if last != bidiR && last != bidiAL && last != bidiEN && last != bidiAN {
			return "a right-to-left label ends wrongly (bidi rule 3)"
		}
		if hasEN && hasAN {
			return "has both European and Arabic digits (bidi rule 4)"
		}
	} else if last != bidiL && last != bidiEN {
		return "a left-to-right label ends wrongly (bidi rule 6)"
	}
	return ""
}

// mapDomain is step 1 of Processing: each code point's status applied,
// nontransitionally (a deviation stays). A disallowed code point stays,
// for the validity criteria to refuse. Bytes that are not UTF-8 become
// U+FFFD, which is disallowed.
func mapDomain(domain string) string {
	var b []byte
	for i := 0; i < len(domain); {
		c := domain[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(domain[i:])
		i += n
		switch status, mapping := idnaOf(r); status {
		case statusMapped:
			b = append(b, mapping...)
		case statusIgnored:
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// idnaOf returns r's status in IdnaMappingTable.txt, and its mapping if
// the status is mapped.
func idnaOf(r rune) (status uint32, mapping string) {
	v := idnaValues[idnaIndex.find(r)]
	status = v & 7
	if status == statusMapped {
		p := v >> 3
		off, n := p>>8, p&0xff
		mapping = idnaMappings[off : off+n]
	}
	return status, mapping
}

// A runIndex finds the run of a table of runs (a sorted list of each
// run's first code point) that holds a code point: it knows, for each
// block of 256 code points, the run that holds the block's first, so a
// search looks only among the runs that start inside one block.
type runIndex struct {
	starts []uint32
	first  [utf8.MaxRune>>8 + 2]uint16
}

func newRunIndex(starts []uint32) *runIndex {
	x := &runIndex{starts: starts}
	i := 0
	for b := range x.first {
		for i+1 < len(starts) && starts[i+1] <= uint32(b)<<8 {
			i++
		}
		x.first[b] = uint16(i)
	}
	return x
}

// find returns the index of the run that holds r.
func (x *runIndex) find(r rune) int {
	if uint32(r) > utf8.MaxRune {
		r = utf8.RuneError
	}
	b := r >> 8
	lo, hi := int(x.first[b]), int(x.first[b+1])
	// The run is the last in starts[lo:hi+1] that starts at or before r.
	for lo < hi {
		m := int(uint(lo+hi+1) >> 1)
		if x.starts[m] <= uint32(r) {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

var (
	idnaIndex = newRunIndex(idnaStarts[:])
	propIndex = newRunIndex(propStarts[:])
)

// props are the properties of a code point the checks ask for, packed as
// ./internal/gen writes them.
type props uint32

func propsOf(r rune) props { return props(propValues[propIndex.find(r)]) }

func (p props) bidi() int      { return int(p & 0x1f) }
func (p props) joining() int   { return int(p >> 5 & 7) }
func (p props) mark() bool     { return p>>8&1 != 0 }
func (p props) ccc() uint8     { return uint8(p >> 9) }
func (p props) nfcMaybe() bool { return p>>17&1 != 0 }
