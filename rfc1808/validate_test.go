package rfc1808

import (
	"errors"
	"net/url"
	"testing"
)

// Section 2.2: strings and the form the BNF gives them.
var validTests = []struct {
	in   string
	want Form
}{
	// URL = ( absoluteURL | relativeURL ) [ "#" fragment ]
	{"", FormRelPath},
	{"#", FormRelPath},
	{"#a/b?c;d:e@f&g=h", FormRelPath},

	// generic-RL = scheme ":" relativeURL
	{"http://a/b/c/d;p?q#f", FormGenericRL},
	{"http:", FormGenericRL},
	{"http:g", FormGenericRL},
	{"9p://x", FormGenericRL},
	{"ftp://u:pw@h:21/a;type=d", FormGenericRL},
	{"mailto:a@b.c", FormGenericRL},
	{"http://a/b%20c%7E", FormGenericRL},
	{"http://a/$-_.+!*'(),", FormGenericRL},

	// absoluteURL = scheme ":" *( uchar | reserved ), when not generic-RL:
	// a "/" after abs_path's "/" begins an empty first segment.
	{"http://a//b", FormAbsolute},
	{"http:////", FormAbsolute},
	{"file://h//x?q#f", FormAbsolute},

	// net_path = "//" net_loc [ abs_path ]; net_loc = *( pchar | ";" | "?" )
	{"//", FormNetPath},
	{"//a;b?c", FormNetPath},
	{"//u@h:80/p", FormNetPath},
	{"///g", FormNetPath},

	// abs_path = "/" rel_path
	{"/", FormAbsPath},
	{"/g;x?y", FormAbsPath},
	{"/a//b", FormAbsPath},
	{"/;x", FormAbsPath},

	// rel_path = [ path ] [ ";" params ] [ "?" query ]
	{"g", FormRelPath},
	{"a//b", FormRelPath},
	{";x;y/z", FormRelPath},
	{"?y/./x?z", FormRelPath},
	{"../g", FormRelPath},
	{":g", FormRelPath}, // no scheme: the colon is first, and ":" is a pchar
	{"%41", FormRelPath},
}

func TestValidate(t *testing.T) {
	for _, tt := range validTests {
		got, err := Validate(tt.in)
		if got != tt.want || err != nil {
			t.Errorf("Validate(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// Section 2.2: what may not appear unescaped, and where.
var invalidTests = []struct {
	in   string
	want string // the SyntaxError's message
}{
	{"http://a/b c", `offset 10: " " is not allowed in path (pchar)`},
	{"http://a/b?c d", `offset 12: " " is not allowed in query (uchar or reserved)`},
	{"b/c d", `offset 3: " " is not allowed in path (pchar)`},
	{"a%zz", `offset 1: "%zz" is an invalid escape (escape = "%" hex hex)`},
	{"a%4", `offset 1: "%4" is an invalid escape (escape = "%" hex hex)`},
	{"a%", `offset 1: "%" is an invalid escape (escape = "%" hex hex)`},
	{"a%4#1", `offset 1: "%4" is an invalid escape (escape = "%" hex hex)`},
	{"//a b/c", `offset 3: " " is not allowed in net_loc (pchar, ";" or "?")`},
	{"//a//b", `offset 4: "/" is not allowed in abs_path (the first segment after "/" must not be empty: fsegment = 1*pchar)`},
	{"//a#b", ""},
	{"g;a b", `offset 3: " " is not allowed in params (pchar or "/")`},
	{"g?a b", `offset 3: " " is not allowed in query (uchar or reserved)`},
	{"g#a b", `offset 3: " " is not allowed in fragment (uchar or reserved)`},
	{"g#a#b", `offset 3: "#" is not allowed in fragment (uchar or reserved)`},
	{"a{b", `offset 1: "{" is not allowed in path (pchar)`},
	{"a~b", `offset 1: "~" is not allowed in path (pchar)`},
	{"a\"b", `offset 1: "\"" is not allowed in path (pchar)`},
	{"a<b", `offset 1: "<" is not allowed in path (pchar)`},
	{"a\x00b", `offset 1: "\x00" is not allowed in path (pchar)`},
	{"a\x7fb", `offset 1: "\x7f" is not allowed in path (pchar)`},
	{"café", `offset 3: "é" is not allowed in path (pchar)`},
	{"a\xffb", `offset 1: "\xff" is not allowed in path (pchar)`},
	{"http://a/b#c d", `offset 12: " " is not allowed in fragment (uchar or reserved)`},
	{"http://a//b c", `offset 11: " " is not allowed in absoluteURL (uchar or reserved)`},
	{"x:|", `offset 2: "|" is not allowed in path (pchar)`},
}

func TestValidateErrors(t *testing.T) {
	for _, tt := range invalidTests {
		form, err := Validate(tt.in)
		if tt.want == "" {
			if err != nil {
				t.Errorf("Validate(%q) = %v", tt.in, err)
			}
			continue
		}
		var uerr *url.Error
		var serr *SyntaxError
		switch {
		case err == nil:
			t.Errorf("Validate(%q) = %v, nil; want error %s", tt.in, form, tt.want)
		case !errors.As(err, &uerr) || uerr.Op != "parse" || uerr.URL != tt.in:
			t.Errorf("Validate(%q) error %#v is not a *url.Error{Op: parse, URL: input}", tt.in, err)
		case !errors.As(err, &serr):
			t.Errorf("Validate(%q) error %v wraps no *SyntaxError", tt.in, err)
		case serr.Error() != tt.want:
			t.Errorf("Validate(%q) error:\n got %s\nwant %s", tt.in, serr, tt.want)
		case form != 0:
			t.Errorf("Validate(%q) form = %v with an error", tt.in, form)
		}
	}
}

func TestValidateErrorText(t *testing.T) {
	_, err := Validate("http://a/b c")
	want := `parse "http://a/b c": offset 10: " " is not allowed in path (pchar)`
	if err == nil || err.Error() != want {
		t.Errorf("Validate error = %v, want %s", err, want)
	}
}

func TestFormString(t *testing.T) {
	for f, want := range map[Form]string{0: "invalid", FormGenericRL: "generic-RL", FormAbsolute: "absoluteURL",
		FormNetPath: "net_path", FormAbsPath: "abs_path", FormRelPath: "rel_path"} {
		if f.String() != want {
			t.Errorf("Form(%d).String() = %q, want %q", int(f), f.String(), want)
		}
		if f.IsAbs() != (f == FormGenericRL || f == FormAbsolute) {
			t.Errorf("%v.IsAbs() = %v", f, f.IsAbs())
		}
	}
}

// Section 2.3.
func TestSchemeCategoryOf(t *testing.T) {
	tests := []struct {
		scheme string
		want   SchemeCategory
	}{
		{"mailto", SchemeNeverRelative}, {"NEWS", SchemeNeverRelative}, {"Telnet", SchemeNeverRelative},
		{"gopher", SchemeOwnReserved}, {"PROSPERO", SchemeOwnReserved}, {"wais", SchemeOwnReserved},
		{"file", SchemeGenericRL}, {"FTP", SchemeGenericRL}, {"hTtP", SchemeGenericRL}, {"nntp", SchemeGenericRL},
		{"https", SchemeUnknown}, {"", SchemeUnknown}, {"http:", SchemeUnknown}, {"mail", SchemeUnknown},
	}
	for _, tt := range tests {
		if got := SchemeCategoryOf(tt.scheme); got != tt.want {
			t.Errorf("SchemeCategoryOf(%q) = %v, want %v", tt.scheme, got, tt.want)
		}
	}
	for c, want := range map[SchemeCategory]string{SchemeUnknown: "unknown", SchemeNeverRelative: "never-relative",
		SchemeOwnReserved: "own-reserved", SchemeGenericRL: "generic-RL"} {
		if c.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(c), c.String(), want)
		}
	}
}
