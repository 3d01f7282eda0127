package whatwg

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/ascii"
)

// This file is the URL Standard's section "Validation errors" and the
// sink the host parser and the basic URL parser report to: the errors
// Check returns, the failure Parse wraps, and the steps Explain
// tells. A plain parse keeps none of it, and pays a nil check.

// A ValidationError is one of the URL Standard's validation errors
// (section "Validation errors"): a name such as "port-invalid" and the byte
// offset in the input where the parser met it. Most do not stop the parser;
// those that make it return failure come back wrapped in the error of
// Parse and URL.Parse.
type ValidationError struct {
	Offset int
	Name   string
}

func (e ValidationError) Error() string {
	msg := fmt.Sprintf("offset %d: %s", e.Offset, e.Name)
	if d := validationErrors[e.Name]; d != "" {
		msg += " (" + d + ")"
	}
	return msg
}

// validationErrors describes each validation error the parser reports.
var validationErrors = map[string]string{
	"domain-percent-encoded":                   "the host has percent-encoded bytes",
	"domain-to-ASCII":                          "UTS #46 ToASCII refuses the domain",
	"host-invalid-code-point":                  "an opaque host holds a forbidden host code point",
	"IPv4-empty-part":                          "an IPv4 address ends with a dot",
	"IPv4-too-few-parts":                       "an IPv4 address has fewer than four parts",
	"IPv4-too-many-parts":                      "an IPv4 address has more than four parts",
	"IPv4-non-numeric-part":                    "an IPv4 address part is not a number",
	"IPv4-non-decimal-part":                    "an IPv4 address part is octal or hexadecimal",
	"IPv4-out-of-range-part":                   "an IPv4 address part is too large",
	"IPv4-non-ASCII-input":                     "an IPv4 address written with code points beyond ASCII (\"１２７.０.０.１\")",
	"IPv6-unclosed":                            "an IPv6 address has no closing bracket",
	"IPv6-invalid-compression":                 "an IPv6 address starts with a single colon",
	"IPv6-too-many-pieces":                     "an IPv6 address has more than eight pieces",
	"IPv6-multiple-compression":                "an IPv6 address has more than one \"::\"",
	"IPv6-invalid-code-point":                  "an IPv6 address holds a character that does not belong",
	"IPv6-too-few-pieces":                      "an IPv6 address without \"::\" has fewer than eight pieces",
	"IPv4-in-IPv6-too-many-pieces":             "an IPv6 address with IPv4 has too many pieces",
	"IPv4-in-IPv6-invalid-code-point":          "the IPv4 part of an IPv6 address is malformed",
	"IPv4-in-IPv6-out-of-range-part":           "an IPv4 part of an IPv6 address is above 255",
	"IPv4-in-IPv6-too-few-parts":               "the IPv4 part of an IPv6 address has fewer than four parts",
	"invalid-URL-unit":                         "a character that is not a URL code point, or a \"%\" without two hex digits",
	"special-scheme-missing-following-solidus": "a special scheme is not followed by \"//\"",
	"missing-scheme-non-relative-URL":          "no scheme, and no base URL a reference can be relative to",
	"invalid-reverse-solidus":                  "\"\\\" where a special URL wants \"/\"",
	"invalid-credentials":                      "the URL has a username or password",
	"host-missing":                             "a special URL, or one with credentials or a port, has no host",
	"port-out-of-range":                        "the port is above 65535",
	"port-invalid":                             "the port is not a number",
	"file-invalid-Windows-drive-letter":        "a relative file URL starts with a Windows drive letter",
	"file-invalid-Windows-drive-letter-host":   "a file URL's host is a Windows drive letter",
}

// A webReport is where a parse reports what it met, for whoever asked:
// the validation errors (Check), the error that made it fail, and an
// account of its steps (Explain). Offsets are given in the input as
// written, which clean-up may have shortened.
type webReport struct {
	errs    *[]ValidationError // nil unless Check asked
	orig    string             // the input as given; offsets are in it
	lead    int                // bytes removed before the cleaned-up input
	removed bool               // tabs or newlines removed from it
	failure *ValidationError
	trace   func(string) // nil unless Explain asked
}

// warn records a validation error at offset i of the cleaned-up input (or,
// for i < 0, at offset -i-1 of the input as given).
func (p *webReport) warn(i int, name string) {
	if p.errs == nil && p.trace == nil {
		return
	}
	e := ValidationError{Offset: p.origOffset(i), Name: name}
	if p.errs != nil {
		if n := len(*p.errs); n == 0 || (*p.errs)[n-1] != e {
			*p.errs = append(*p.errs, e)
		}
	}
	if p.trace != nil {
		p.note("validation error: %s at offset %d (%s)", name, e.Offset, validationErrors[name])
	}
}

// fail records the validation error that makes the parser return failure,
// and returns false.
func (p *webReport) fail(i int, name string) bool {
	if p.failure == nil {
		p.failure = &ValidationError{Offset: p.origOffset(i), Name: name}
	}
	p.warn(i, name)
	return false
}

// failReported records the failure a validation error already reported
// explains (the domain parser's failures, after its one domain-to-ASCII),
// without reporting it again, and returns false.
func (p *webReport) failReported(i int, name string) bool {
	if p.failure == nil {
		p.failure = &ValidationError{Offset: p.origOffset(i), Name: name}
	}
	if p.trace != nil {
		p.note("failure: %s at offset %d", name, p.failure.Offset)
	}
	return false
}

// origOffset maps an offset in the cleaned-up input to one in the input as
// given: past the leading bytes removed, and past each tab and newline
// removed before it.
func (p *webReport) origOffset(i int) int {
	if i < 0 {
		return -i - 1
	}
	o := p.lead + i
	if !p.removed {
		return o
	}
	o = p.lead
	for k := 0; o < len(p.orig); o++ {
		if c := p.orig[o]; c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if k == i {
			break
		}
		k++
	}
	return o
}

func (p *webReport) note(format string, args ...any) {
	if p.trace != nil {
		p.trace(fmt.Sprintf(format, args...))
	}
}

// checkUnits records an invalid-URL-unit validation error for each code
// point of s, which starts at offset at, that is neither a URL code point
// nor a "%" followed by two hex digits.
func (p *webReport) checkUnits(s string, at int) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '%' {
			if i+2 >= len(s) || !ascii.IsHex(s[i+1]) || !ascii.IsHex(s[i+2]) {
				p.warn(at+i, "invalid-URL-unit")
			}
		} else if !isURLCodePoint(r) || r == utf8.RuneError && n == 1 {
			p.warn(at+i, "invalid-URL-unit")
		}
		i += n
	}
}

// isURLCodePoint tells the "URL code points": ASCII alphanumerics, the
// punctuation !$&'()*+,-./:;=?@_~, and every scalar value from U+00A0 on
// that is not a noncharacter.
func isURLCodePoint(r rune) bool {
	if r < utf8.RuneSelf {
		return ascii.IsAlpha(byte(r)) || ascii.IsDigit(byte(r)) || strings.ContainsRune("!$&'()*+,-./:;=?@_~", r)
	}
	if r < 0xa0 || 0xd800 <= r && r <= 0xdfff || 0xfdd0 <= r && r <= 0xfdef || r&0xfffe == 0xfffe {
		return false
	}
	return r <= 0x10fffd
}
