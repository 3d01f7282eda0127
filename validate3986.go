package relurl

import (
	"net/netip"
	"strings"
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

func validate3986(s string) *SyntaxError {
	var u uri
	u.split(s)
	if u.hasScheme() {
		scheme := s[:u.schemeEnd-1]
		for i := 0; i < len(scheme); i++ {
			c := scheme[i]
			if !isAlpha(c) && (i == 0 || !(isDigit(c) || c == '+' || c == '-' || c == '.')) {
				return syntaxErrorAt(s, i, `scheme (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ))`)
			}
		}
	}
	if u.hasAuthority() {
		if err := checkAuthority(s, u.schemeEnd+2, u.authEnd); err != nil {
			return err
		}
	}
	if err := check3986(s, u.authEnd, u.pathEnd, path3986, "path (pchar or \"/\")"); err != nil {
		return err
	}
	if u.hasQuery() {
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
			if !isDigit(s[i]) {
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
			if !isHex(lit[i]) {
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
	return checkClass(s, from, to, &class3986, allowed, rule, `pct-encoded ("%" HEXDIG HEXDIG)`)
}

// syntaxErrorAt returns the error for the character at s[i].
func syntaxErrorAt(s string, i int, rule string) *SyntaxError {
	return &SyntaxError{Offset: i, Text: charAt(s, i), Rule: rule}
}
