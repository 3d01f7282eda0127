package whatwg

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/uts46"
)

// This file is the URL Standard's section "Hosts (domains and IP
// addresses)": the host parser, with IPv4 in all its forms, IPv6 with
// compression, domains through UTS #46 (package internal/uts46, on the
// Unicode version of its tables), and opaque hosts of non-special URLs.
//
// The section "IDNA" runs "domain parser ToASCII" with beStrict true and
// false: uts46.Strict and the zero uts46.Options. Both have CheckBidi and
// CheckJoiners true, Transitional_Processing and IgnoreInvalidPunycode
// false.

// hostTable classifies ASCII bytes for host parsing.
var hostTable = func() (t [256]uint8) {
	for _, c := range "\x00\t\n\r #/:<>?@[\\]^|" {
		t[c] |= forbiddenHost | forbiddenDomain
	}
	for c := 0; c < 0x20; c++ {
		t[c] |= forbiddenDomain
	}
	t['%'] |= forbiddenDomain | notPlain
	t[0x7f] |= forbiddenDomain
	for c := 0x80; c < 0x100; c++ {
		t[c] |= notPlain
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] |= upper
	}
	return t
}()

const (
	forbiddenHost   = 1 << iota // "forbidden host code point"
	forbiddenDomain             // "forbidden domain code point"
	upper                       // ASCII upper alpha
	notPlain                    // "%" or a byte of a non-ASCII code point: the domain needs decoding
)

// A hostParser is the host parser of the Standard's section "Host
// parsing". It sits below the basic URL parser and knows nothing of it:
// what it meets it tells the report, whose offsets are the parser's.
type hostParser struct{ *webReport }

// appendHost runs the host parser on input, which starts at byte at of
// the parser's input, and appends the host's serialization to dst. It
// reports false, with a validation error, when the host parser returns
// failure. An opaque host is one of a URL that is not special.
func (p hostParser) appendHost(dst []byte, input string, at int, opaque bool) ([]byte, bool) {
	if input != "" && input[0] == '[' {
		if input[len(input)-1] != ']' {
			return dst, p.fail(at, "IPv6-unclosed")
		}
		var a [8]uint16
		if !p.parseIPv6(&a, input[1:len(input)-1], at+1) {
			return dst, false
		}
		start := len(dst)
		dst = append(appendIPv6(append(dst, '['), &a), ']')
		if p.trace != nil {
			p.note("host parser: IPv6 address %q is %s", input, dst[start:])
		}
		return dst, true
	}
	if opaque {
		return p.appendOpaqueHost(dst, input, at)
	}
	start := len(dst)
	nonASCII := false // the domain, percent-decoded, is not ASCII
	// One pass tells what the common case needs: an ASCII domain with no
	// percent-encoded bytes, copied in bulk and lower-cased in place.
	var seen uint8
	for i := 0; i < len(input); i++ {
		seen |= hostTable[input[i]]
	}
	if seen&notPlain == 0 {
		dst = append(dst, input...)
		if seen&upper != 0 {
			for i := start; i < len(dst); i++ {
				if hostTable[dst[i]]&upper != 0 {
					dst[i] += 'a' - 'A'
				}
			}
			if p.trace != nil {
				p.note("host parser: domain %q lower-cased to %q", input, dst[start:])
			}
		}
		// "domain parser": an ASCII domain is only lower-cased, whatever
		// ToASCII makes of it; ToASCII run strictly tells the validation
		// error.
		if p.errs != nil && !strictToASCII(input) {
			p.warn(at, "domain-to-ASCII")
		}
	} else {
		var ok bool
		if dst, ok, nonASCII = p.appendDomain(dst, input, at); !ok {
			return dst[:start], false
		}
	}
	domain := dst[start:]
	// The first pass saw every byte of a plain domain: look again only
	// when it met a forbidden one, or when UTS #46 made the domain.
	if seen&(forbiddenDomain|notPlain) != 0 {
		for i, c := range domain {
			if hostTable[c]&forbiddenDomain != 0 {
				// ToASCII run strictly refused it, and said so.
				return dst[:start], p.failReported(at+min(i, len(input)-1), "domain-to-ASCII")
			}
		}
	}
	if endsInNumber(domain) {
		if nonASCII {
			// "１２７.０.０.１", "①.②.③.④": an IPv4 address only once
			// UTS #46 made it ASCII. The Standard added this error after
			// the text in ../shared/spec; jsdom/whatwg-url's cases have it.
			p.warn(at, "IPv4-non-ASCII-input")
		}
		addr, ok := p.parseIPv4(string(domain), at)
		if !ok {
			return dst[:start], false
		}
		dst = appendIPv4(dst[:start], addr)
		if p.trace != nil && string(dst[start:]) != input {
			p.note("host parser: IPv4 address %q is %s", input, dst[start:])
		}
	}
	return dst, true
}

// appendDomain appends the domain parser's result for an input that is not
// all ASCII or holds percent-encoded bytes: percent-decoded, UTF-8 decoded,
// and mapped by UTS #46 ToASCII. nonASCII reports that the domain, decoded,
// was not ASCII.
func (p hostParser) appendDomain(dst []byte, input string, at int) (_ []byte, ok, nonASCII bool) {
	domain := input
	if strings.IndexByte(input, '%') >= 0 {
		p.warn(at+strings.IndexByte(input, '%'), "domain-percent-encoded")
		domain = PercentDecode(input)
	}
	domain = utf8Decode(domain)
	// Only the validation error needs ToASCII run strictly: a parse that
	// does not report one runs the lenient ToASCII alone.
	if (p.errs != nil || p.trace != nil) && !strictToASCII(domain) {
		p.warn(at, "domain-to-ASCII")
	}
	// The failures below come with that validation error, the one the
	// domain parser reports: ToASCII run strictly refuses what it refuses
	// run leniently, and the empty domain.
	nonASCII = !isASCII(domain)
	result, err := domainToASCII(domain, !nonASCII)
	if err != nil {
		if p.trace != nil && err != errEmptyDomain {
			p.note("host parser: UTS #46 ToASCII refuses %q: %v", domain, err)
		}
		return dst, p.failReported(at, "domain-to-ASCII"), nonASCII
	}
	if p.trace != nil {
		p.note("host parser: domain %q to ASCII by UTS #46: %q", input, result)
	}
	return append(dst, result...), true, nonASCII
}

// errEmptyDomain is domainToASCII's failure on a domain that comes out
// empty.
var errEmptyDomain = errors.New("the domain is empty")

// domainToASCII is the Standard's "domain to ASCII" (beStrict false) of a
// percent-decoded domain, ascii saying whether it is all ASCII, up to its
// last step: the check for forbidden domain code points, which the host
// parser makes over the whole host. An ASCII domain is only lower-cased,
// whatever ToASCII would make of it; the error is ToASCII's, or
// errEmptyDomain.
func domainToASCII(domain string, ascii bool) (string, error) {
	result := domain
	if ascii {
		result = strings.ToLower(domain)
	} else {
		var err error
		if result, err = uts46.ToASCII(domain, uts46.Options{}); err != nil {
			return "", err
		}
	}
	if result == "" {
		return "", errEmptyDomain
	}
	return result, nil
}

// strictToASCII reports whether the "domain parser ToASCII" run strictly
// (beStrict) accepts domain.
func strictToASCII(domain string) bool {
	_, err := uts46.ToASCII(domain, uts46.Strict)
	return err == nil
}

// appendOpaqueHost is the "opaque-host parser".
func (p hostParser) appendOpaqueHost(dst []byte, input string, at int) ([]byte, bool) {
	for i := 0; i < len(input); i++ {
		if hostTable[input[i]]&forbiddenHost != 0 {
			return dst, p.fail(at+i, "host-invalid-code-point")
		}
	}
	if p.errs != nil {
		p.checkUnits(input, at)
	}
	start := len(dst)
	dst = appendEncoded(dst, input, c0ControlSet)
	if len(dst)-start != len(input) {
		if p.trace != nil {
			p.note("host parser: opaque host %q percent-encoded to %q (C0 control percent-encode set)", input, dst[start:])
		}
	}
	return dst, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// endsInNumber is the "ends in a number checker".
func endsInNumber(domain []byte) bool {
	if n := len(domain); n > 0 && domain[n-1] == '.' {
		domain = domain[:n-1]
	}
	last := domain[bytes.LastIndexByte(domain, '.')+1:]
	if len(last) == 0 {
		return false
	}
	digits := true
	for _, c := range last {
		if !ascii.IsDigit(c) {
			digits = false
			break
		}
	}
	if digits {
		return true
	}
	// "0x" or "0X" and hex digits only: an IPv4 number in hex.
	if len(last) < 2 || last[0] != '0' || last[1]|0x20 != 'x' {
		return false
	}
	for _, c := range last[2:] {
		if !ascii.IsHex(c) {
			return false
		}
	}
	return true
}

// parseIPv4 is the "IPv4 parser": up to four parts, each decimal, octal
// ("0" first) or hex ("0x" first), the last filling the bytes that remain.
func (p hostParser) parseIPv4(s string, at int) (uint32, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		p.warn(at+len(s)-1, "IPv4-empty-part")
		if len(parts) > 1 {
			parts = parts[:len(parts)-1]
		}
	}
	if len(parts) < 4 {
		p.warn(at, "IPv4-too-few-parts")
	}
	if len(parts) > 4 {
		return 0, p.fail(at, "IPv4-too-many-parts")
	}
	var numbers [4]uint64
	off := at
	for i, part := range parts {
		n, nonDecimal, ok := parseIPv4Number(part)
		if !ok {
			return 0, p.fail(off, "IPv4-non-numeric-part")
		}
		if nonDecimal {
			p.warn(off, "IPv4-non-decimal-part")
		}
		if n > 255 {
			if i < len(parts)-1 {
				return 0, p.fail(off, "IPv4-out-of-range-part")
			}
			p.warn(off, "IPv4-out-of-range-part")
		}
		numbers[i] = n
		off += len(part) + 1
	}
	n := len(parts)
	last := numbers[n-1]
	if last >= 1<<(8*(5-n)) {
		return 0, p.fail(off-len(parts[n-1])-1, "IPv4-out-of-range-part")
	}
	ipv4 := last
	for i := 0; i < n-1; i++ {
		ipv4 += numbers[i] << (8 * (3 - i))
	}
	return uint32(ipv4), true
}

// parseIPv4Number is the "IPv4 number parser". Values too large for any
// part saturate at 1<<40, which every caller refuses.
func parseIPv4Number(s string) (n uint64, nonDecimal, ok bool) {
	if s == "" {
		return 0, false, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'x':
		s, base, nonDecimal = s[2:], 16, true
	case len(s) >= 2 && s[0] == '0':
		s, base, nonDecimal = s[1:], 8, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case ascii.IsDigit(c):
			d = uint64(c - '0')
		case base == 16 && ascii.IsHex(c):
			d = uint64(unhex(c))
		default:
			return 0, nonDecimal, false
		}
		if d >= base {
			return 0, nonDecimal, false
		}
		n = min(n*base+d, 1<<40)
	}
	return n, nonDecimal, true
}

func appendIPv4(dst []byte, a uint32) []byte {
	for i := 3; i >= 0; i-- {
		dst = strconv.AppendUint(dst, uint64(a>>(8*i)&0xff), 10)
		if i > 0 {
			dst = append(dst, '.')
		}
	}
	return dst
}

// parseIPv6 is the "IPv6 parser", on the text between the brackets.
func (p hostParser) parseIPv6(a *[8]uint16, s string, at int) bool {
	piece, compress := 0, -1
	i := 0
	if len(s) > 0 && s[0] == ':' {
		if len(s) < 2 || s[1] != ':' {
			return p.fail(at, "IPv6-invalid-compression")
		}
		i += 2
		piece++
		compress = piece
	}
	for i < len(s) {
		if piece == 8 {
			return p.fail(at+i, "IPv6-too-many-pieces")
		}
		if s[i] == ':' {
			if compress >= 0 {
				return p.fail(at+i, "IPv6-multiple-compression")
			}
			i++
			piece++
			compress = piece
			continue
		}
		value, length, pieceStart := 0, 0, i
		for length < 4 && i < len(s) && ascii.IsHex(s[i]) {
			value = value*16 + int(unhex(s[i]))
			i++
			length++
		}
		if i < len(s) && s[i] == '.' {
			if length == 0 {
				return p.fail(at+i, "IPv4-in-IPv6-invalid-code-point")
			}
			i -= length
			if piece > 6 {
				return p.fail(at+i, "IPv4-in-IPv6-too-many-pieces")
			}
			seen := 0
			for i < len(s) {
				part := -1
				if seen > 0 {
					if s[i] != '.' || seen >= 4 {
						return p.fail(at+i, "IPv4-in-IPv6-invalid-code-point")
					}
					i++
				}
				if i == len(s) || !ascii.IsDigit(s[i]) {
					return p.fail(at+i, "IPv4-in-IPv6-invalid-code-point")
				}
				for i < len(s) && ascii.IsDigit(s[i]) {
					d := int(s[i] - '0')
					switch part {
					case -1:
						part = d
					case 0:
						return p.fail(at+i, "IPv4-in-IPv6-invalid-code-point")
					default:
						part = part*10 + d
					}
					if part > 255 {
						return p.fail(at+i, "IPv4-in-IPv6-out-of-range-part")
					}
					i++
				}
				a[piece] = a[piece]<<8 | uint16(part)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return p.fail(at+i, "IPv4-in-IPv6-too-few-parts")
			}
			break
		}
		if i < len(s) && s[i] == ':' {
			i++
			if i == len(s) {
				return p.fail(at+i, "IPv6-invalid-code-point")
			}
		} else if i < len(s) {
			return p.fail(at+i, "IPv6-invalid-code-point")
		}
		if length > 1 && value < 1<<(4*(length-1)) {
			p.warn(at+pieceStart, "IPv6-piece-leading-zero") // "01", "0DB8"
		}
		a[piece] = uint16(value)
		piece++
	}
	if compress >= 0 {
		swaps := piece - compress
		for piece = 7; piece != 0 && swaps > 0; piece, swaps = piece-1, swaps-1 {
			a[piece], a[compress+swaps-1] = a[compress+swaps-1], a[piece]
		}
	} else if piece != 8 {
		return p.fail(at+len(s), "IPv6-too-few-pieces")
	}
	return true
}

// appendIPv6 is the "IPv6 serializer": lower-case hex pieces, the first
// longest run of two or more zero pieces written "::".
func appendIPv6(dst []byte, a *[8]uint16) []byte {
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	for i := 0; i < 8; i++ {
		if i == best {
			if i == 0 {
				dst = append(dst, ':')
			}
			dst = append(dst, ':')
			i += bestLen - 1
			continue
		}
		dst = strconv.AppendUint(dst, uint64(a[i]), 16)
		if i < 7 {
			dst = append(dst, ':')
		}
	}
	return dst
}
