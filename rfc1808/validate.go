package rfc1808

import (
	"net/url"

	"github.com/relurl/relurl/internal/grammar"
)

// Form is the shape a valid URL has in the BNF of RFC 1808, Section 2.2:
//
//	URL         = ( absoluteURL | relativeURL ) [ "#" fragment ]
//	absoluteURL = generic-RL | ( scheme ":" *( uchar | reserved ) )
//	generic-RL  = scheme ":" relativeURL
//	relativeURL = net_path | abs_path | rel_path
type Form int

// The forms of Section 2.2. The zero Form is none, the form of an invalid URL.
const (
	FormGenericRL Form = iota + 1 // scheme ":" relativeURL, as "http://a/b;p?q"
	FormAbsolute                  // scheme ":" *( uchar | reserved ), but not generic-RL, as "http://a//b"
	FormNetPath                   // "//" net_loc [ abs_path ], as "//a/b"
	FormAbsPath                   // "/" rel_path, as "/b/c"
	FormRelPath                   // [ path ] [ ";" params ] [ "?" query ], as "c;p?q"
)

// String returns the name the BNF gives the form: "generic-RL",
// "absoluteURL" (for FormAbsolute), "net_path", "abs_path" or "rel_path".
func (f Form) String() string {
	switch f {
	case FormGenericRL:
		return "generic-RL"
	case FormAbsolute:
		return "absoluteURL"
	case FormNetPath:
		return "net_path"
	case FormAbsPath:
		return "abs_path"
	case FormRelPath:
		return "rel_path"
	}
	return "invalid"
}

// IsAbs reports whether f is one of the absoluteURL forms.
func (f Form) IsAbs() bool { return f == FormGenericRL || f == FormAbsolute }

// A SyntaxError says where a string breaks the BNF of Section 2.2. Validate
// returns it wrapped in a [*net/url.Error]; errors.As finds it.
type SyntaxError struct {
	Offset int    // byte offset of Text in the string
	Text   string // the offending character, or escape sequence such as "%zz"
	Rule   string // the rule it breaks, such as "path (pchar)"
}

func (e *SyntaxError) Error() string { return grammar.Message(e.Offset, e.Text, e.Rule) }

// Validate checks s against the BNF of RFC 1808, Section 2.2 and returns
// its form. s is split as [Split] does (Section 2.4); a string with a scheme
// must then be an absoluteURL, and one without a relativeURL, each with an
// optional fragment.
//
// Only the characters the BNF allows may appear unescaped: letters, digits,
// the "safe" and "extra" characters, and the reserved characters where
// their component allows them. Spaces, controls, "national" and
// "punctuation" characters ("{", "|", "~", "<", "\"", a second "#", …) and
// bytes outside ASCII must be escaped as "%" hex hex.
//
// An invalid s gives a [*net/url.Error] with Op "parse", so callers that
// handle net/url's errors handle these, wrapping a [*SyntaxError] that names
// the first offending byte offset, the text found there, and the rule.
func Validate(s string) (Form, error) {
	form, err := Split(s).form()
	if err != nil {
		return 0, &url.Error{Op: "parse", URL: s, Err: err}
	}
	return form, nil
}

// form returns u's form, or the first place where u breaks the BNF.
func (u URL) form() (Form, *SyntaxError) {
	form, err := u.relativeForm()
	if u.HasScheme() {
		switch {
		case err == nil:
			form = FormGenericRL
		default:
			otherErr := u.check(u.schemeEnd, u.queryEnd, ucharOrReserved, "absoluteURL (uchar or reserved)")
			if otherErr == nil {
				form, err = FormAbsolute, nil
			} else if otherErr.Offset != err.Offset {
				// Invalid in both shapes, and generic-RL failed first on
				// a "/" that absoluteURL allows: the character absoluteURL
				// rejects is the one to fix. When both reject the same
				// character, generic-RL's error names its component.
				err = otherErr
			}
		}
	}
	if err == nil && u.HasFragment() {
		err = u.check(u.queryEnd+1, len(u.s), ucharOrReserved, "fragment (uchar or reserved)")
	}
	return form, err
}

// relativeForm checks the part of u after its scheme against relativeURL.
func (u URL) relativeForm() (Form, *SyntaxError) {
	form := FormRelPath
	if u.HasNetLoc() {
		form = FormNetPath
		if err := u.check(u.schemeEnd+2, u.netLocEnd, netLoc, "net_loc (pchar, \";\" or \"?\")"); err != nil {
			return 0, err
		}
	} else if u.AbsPath() {
		form = FormAbsPath
	}
	// abs_path = "/" rel_path, and a rel_path's path begins with
	// fsegment = 1*pchar, so "/" is never followed by a second "/".
	if u.AbsPath() && u.pathEnd > u.netLocEnd+1 && u.s[u.netLocEnd+1] == '/' {
		return 0, &SyntaxError{Offset: u.netLocEnd + 1, Text: "/",
			Rule: "abs_path (the first segment after \"/\" must not be empty: fsegment = 1*pchar)"}
	}
	if err := u.check(u.netLocEnd, u.pathEnd, path, "path (pchar)"); err != nil {
		return 0, err
	}
	if err := u.check(u.pathEnd+1, u.paramsEnd, params, "params (pchar or \"/\")"); err != nil {
		return 0, err
	}
	if err := u.check(u.paramsEnd+1, u.queryEnd, ucharOrReserved, "query (uchar or reserved)"); err != nil {
		return 0, err
	}
	return form, nil
}

// Character classes of Section 2.2, as bits; each component allows a union.
const (
	pchar     = 1 << iota // uchar | ":" | "@" | "&" | "="
	slash                 // "/"
	semicolon             // ";"
	question              // "?"

	path            = pchar | slash                        // segments joined by "/"
	params          = pchar | slash | semicolon            // param *( ";" param )
	netLoc          = pchar | semicolon | question         // *( pchar | ";" | "?" )
	ucharOrReserved = pchar | slash | semicolon | question // *( uchar | reserved )
)

var class = func() (t [256]uint8) {
	// unreserved = alpha | digit | safe | extra, and pchar's own four.
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$-_.+!*'(),:@&=" {
		t[c] = pchar
	}
	t['/'], t[';'], t['?'] = slash, semicolon, question
	return t
}()

// check reports the first byte of u.s[from:to] outside the class allowed,
// or the first "%" not followed by two hex digits (escape = "%" hex hex).
func (u URL) check(from, to int, allowed uint8, rule string) *SyntaxError {
	return checkClass(u.s, from, to, &class, allowed, rule, `escape = "%" hex hex`)
}

// checkClass reports the first byte of s[from:to] that the class table
// does not allow, breaking rule, or the first "%" not followed by two hex
// digits, breaking escapeRule.
func checkClass(s string, from, to int, table *[256]uint8, allowed uint8, rule, escapeRule string) *SyntaxError {
	at, text, escape := grammar.Find(s, from, to, table, allowed)
	if at < 0 {
		return nil
	}
	if escape {
		rule = escapeRule
	}
	return &SyntaxError{Offset: at, Text: text, Rule: rule}
}
