package rfc3986

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/grammar"
)

// Character classes of RFC 3986, Section 2, as bits.
const (
	unreserved3986 = 1 << iota // ALPHA / DIGIT / "-" / "." / "_" / "~"
	subDelims3986              // "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
	colon3986                  // ":"
	at3986                     // "@"
	slash3986                  // "/"
	question3986               // "?"

	pchar3986    = unreserved3986 | subDelims3986 | colon3986 | at3986
	path3986     = pchar3986 | slash3986
	query3986    = pchar3986 | slash3986 | question3986
	regName3986  = unreserved3986 | subDelims3986
	userinfo3986 = unreserved3986 | subDelims3986 | colon3986 // IPvFuture's address too
)

var class3986 = func() (t [256]uint8) {
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~" {
		t[c] = unreserved3986
	}
	for _, c := range "!$&'()*+,;=" {
		t[c] = subDelims3986
	}
	t[':'], t['@'], t['/'], t['?'] = colon3986, at3986, slash3986, question3986
	return t
}()

// A SyntaxError says where a string breaks the grammar of Appendix A.
// [Validate] returns it wrapped in a [*net/url.Error]; errors.As finds it.
type SyntaxError struct {
	Offset int    // byte offset of Text in the string
	Text   string // the offending character, or escape sequence such as "%zz"
	Rule   string // the rule it breaks, such as "path (pchar or \"/\")"
}

func (e *SyntaxError) Error() string { return grammar.Message(e.Offset, e.Text, e.Rule) }

// Validate checks s against the URI-reference rule of Appendix A. s is
// split by Appendix B, then each part is checked: the scheme (ALPHA *(
// ALPHA / DIGIT / "+" / "-" / "." )); the authority's userinfo, host (an
// IP-literal in brackets, IPv6 or IPvFuture, or a reg-name, which covers
// IPv4 addresses) and port (digits); the path; the query and fragment
// (pchar, "/" and "?"). A relative reference whose first segment holds a
// ":" (which path-noscheme forbids) splits with a scheme, and fails as one.
// pchar is unreserved ("~" among them), sub-delims, ":", "@" and
// percent-encodings; anything else, non-ASCII bytes included, must be
// percent-encoded.
//
// An invalid s gives a [*net/url.Error] with Op "parse", so callers that
// handle net/url's errors handle these, wrapping a [*SyntaxError] that
// names the first offending byte.
func Validate(s string) error {
	if err := validate(s); err != nil {
		return &url.Error{Op: "parse", URL: s, Err: err}
	}
	return nil
}

func validate(s string) *SyntaxError {
	var u URI
	u.split(s)
	if u.HasScheme() {
		scheme := s[:u.schemeEnd-1]
		for i := 0; i < len(scheme); i++ {
			c := scheme[i]
			if !ascii.IsAlpha(c) && (i == 0 || !(ascii.IsDigit(c) || c == '+' || c == '-' || c == '.')) {
				return syntaxErrorAt(s, i, `scheme (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ))`)
			}
		}
	}
	if u.HasAuthority() {
		if err := checkAuthority(s, u.schemeEnd+2, u.authEnd); err != nil {
			return err
		}
	}
	if err := check3986(s, u.authEnd, u.pathEnd, path3986, "path (pchar or \"/\")"); err != nil {
		return err
	}
	if u.HasQuery() {
		if err := check3986(s, u.pathEnd+1, u.queryEnd, query3986, "query (pchar, \"/\" or \"?\")"); err != nil {
			return err
		}
	}
	if u.queryEnd < len(s) {
		return check3986(s, u.queryEnd+1, len(s), query3986, "fragment (pchar, \"/\" or \"?\")")
	}
	return nil
}

// checkAuthority checks s[from:to] against authority = [ userinfo "@" ]
// host [ ":" port ].
func checkAuthority(s string, from, to int) *SyntaxError {
	host := from
	if i := strings.LastIndexByte(s[from:to], '@'); i >= 0 {
		if err := check3986(s, from, from+i, userinfo3986, "userinfo (unreserved, sub-delims or \":\")"); err != nil {
			return err
		}
		host = from + i + 1
	}
	hostEnd := to
	if strings.HasPrefix(s[host:to], "[") {
		end := strings.IndexByte(s[host:to], ']')
		if end < 0 {
			return &SyntaxError{Offset: host, Text: "[", Rule: `IP-literal (no closing "]")`}
		}
		hostEnd = host + end + 1
		if err := checkIPLiteral(s, host+1, hostEnd-1); err != nil {
			return err
		}
	} else {
		if i := strings.LastIndexByte(s[host:to], ':'); i >= 0 {
			hostEnd = host + i
		}
		if err := check3986(s, host, hostEnd, regName3986, "host (reg-name: unreserved or sub-delims)"); err != nil {
			return err
		}
	}
	if hostEnd < to {
		if s[hostEnd] != ':' {
			return syntaxErrorAt(s, hostEnd, `authority (after an IP-literal, only ":" port)`)
		}
		for i := hostEnd + 1; i < to; i++ {
			if !ascii.IsDigit(s[i]) {
				return syntaxErrorAt(s, i, "port (DIGIT)")
			}
		}
	}
	return nil
}

// checkIPLiteral checks what is between "[" and "]": an IPv6 address
// (without a zone, which RFC 3986 does not have) or IPvFuture.
func checkIPLiteral(s string, from, to int) *SyntaxError {
	lit := s[from:to]
	if len(lit) > 0 && (lit[0] == 'v' || lit[0] == 'V') {
		dot := strings.IndexByte(lit, '.')
		if dot < 2 || dot == len(lit)-1 {
			return &SyntaxError{Offset: from, Text: lit, Rule: `IPvFuture ("v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ))`}
		}
		for i := 1; i < dot; i++ {
			if !ascii.IsHex(lit[i]) {
				return syntaxErrorAt(s, from+i, "IPvFuture (HEXDIG)")
			}
		}
		return check3986(s, from+dot+1, to, userinfo3986, "IPvFuture (unreserved, sub-delims or \":\")")
	}
	if a, err := netip.ParseAddr(lit); err != nil || !a.Is6() || a.Zone() != "" {
		return &SyntaxError{Offset: from, Text: lit, Rule: "IP-literal (an IPv6 address)"}
	}
	return nil
}

// check3986 reports the first byte of s[from:to] outside the class
// allowed of RFC 3986, or the first "%" not followed by two hex digits.
func check3986(s string, from, to int, allowed uint8, rule string) *SyntaxError {
	at, text, escape := grammar.Find(s, from, to, &class3986, allowed)
	if at < 0 {
		return nil
	}
	if escape {
		rule = `pct-encoded ("%" HEXDIG HEXDIG)`
	}
	return &SyntaxError{Offset: at, Text: text, Rule: rule}
}

// syntaxErrorAt returns the error for the character at s[i].
func syntaxErrorAt(s string, i int, rule string) *SyntaxError {
	return &SyntaxError{Offset: i, Text: grammar.CharAt(s, i), Rule: rule}
}
