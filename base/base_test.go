package base

import (
	"errors"
	"net/textproto"
	"strings"
	"testing"
)

// Section 3.1: the Base header.
func TestParseBaseHeader(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"<URL:http://www.ics.uci.edu/Test/a/b/c>", "http://www.ics.uci.edu/Test/a/b/c", ""}, // the RFC's own example
		{"  <url:http://a/b>  ", "http://a/b", ""},
		{"<URL: http://a/ b/c >", "http://a/b/c", ""},
		{"<URL:http://a/\r\n b/c>", "http://a/b/c", ""}, // folded
		{"< URL:http://a/b>", "http://a/b", ""},
		{"http://a/b", "", `want "<URL:absoluteURL>"`},
		{"<http://a/b>", "", `want "<URL:absoluteURL>"`},
		{"<URL:http://a/b", "", `want "<URL:absoluteURL>"`},
		{"<URL:../b>", "", "not absolute"},
		{"<URL:http://a/%zz>", "", "invalid escape"},
	}
	for _, tt := range tests {
		got, err := ParseBaseHeader(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseBaseHeader(%q) = %q, %v; want %q, error with %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// The precedence of the header layer: Base, then Content-Base, then
// Content-Location (when asked), and relative values against outer.
func TestFromHeader(t *testing.T) {
	outer := Retrieved("http://outer/dir/doc")
	h := func(kv ...string) textproto.MIMEHeader {
		m := textproto.MIMEHeader{}
		for i := 0; i < len(kv); i += 2 {
			m.Add(kv[i], kv[i+1])
		}
		return m
	}
	tests := []struct {
		name   string
		header textproto.MIMEHeader
		cl     bool
		want   Base
		err    error
	}{
		{"none", h(), true, outer, ErrNoHeader},
		{"base", h("Base", "<URL:http://b/x>", "Content-Base", "http://cb/", "Content-Location", "http://cl/"), true, Base{URL: "http://b/x", From: BaseHeader}, nil},
		{"content-base", h("Content-Base", "http://cb/", "Content-Location", "http://cl/"), true, Base{URL: "http://cb/", From: ContentBase}, nil},
		{"quoted content-base", h("Content-Base", `"http://cb/"`), true, Base{URL: "http://cb/", From: ContentBase}, nil},
		{"content-location", h("Content-Location", "http://cl/x.html"), true, Base{URL: "http://cl/x.html", From: ContentLocation}, nil},
		{"content-location not asked", h("Content-Location", "http://cl/x.html"), false, outer, ErrNoHeader},
		{"relative content-location", h("Content-Location", "img/a.png"), true,
			Base{URL: "http://outer/dir/img/a.png", From: ContentLocation,
				Note: `relative content-location "img/a.png" resolved against the retrieval base http://outer/dir/doc`}, nil},
		{"bad base header falls through", h("Base", "http://b/", "Content-Base", "http://cb/"), true, Base{URL: "http://cb/", From: ContentBase}, errAny},
	}
	for _, tt := range tests {
		got, err := FromHeader(tt.header, outer, tt.cl)
		if got != tt.want {
			t.Errorf("%s: FromHeader = %+v, want %+v", tt.name, got, tt.want)
		}
		if tt.err == errAny && err == nil || tt.err != errAny && !errors.Is(err, tt.err) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.err)
		}
	}
}

var errAny = errors.New("any error")

func TestLayers(t *testing.T) {
	if b := Retrieved(""); b != (Base{}) {
		t.Errorf("Retrieved(\"\") = %+v, want the empty base", b)
	}
	r := Retrieved("http://a/b/c")
	if e := r.Enclosed(); e != (Base{URL: "http://a/b/c", From: Encapsulating}) {
		t.Errorf("Enclosed = %+v", e)
	}
	if e := (Base{}).Enclosed(); e != (Base{}) {
		t.Errorf("empty base enclosed = %+v", e)
	}
	if b := r.Embedded("../x/", HTMLBase); b.URL != "http://a/x/" || b.From != HTMLBase || b.Note == "" {
		t.Errorf("relative embedded base = %+v", b)
	}
	if b := (Base{}).Embedded("x/", HTMLBase); b.URL != "x/" || !strings.Contains(b.Note, "no outer base") {
		t.Errorf("relative embedded base with no outer = %+v", b)
	}
	if b := r.Embedded("http://z/", HTMLBase); b != (Base{URL: "http://z/", From: HTMLBase}) {
		t.Errorf("absolute embedded base = %+v", b)
	}
	for s, want := range map[Source]string{None: "none", Retrieval: "retrieval", Encapsulating: "encapsulating",
		ContentLocation: "content-location", ContentBase: "content-base", BaseHeader: "base-header", HTMLBase: "html-base"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(s), s, want)
		}
	}
}

func FuzzParseBaseHeader(f *testing.F) {
	f.Add("<URL:http://www.ics.uci.edu/Test/a/b/c>")
	f.Add("<url: h t t p : / / a>")
	f.Fuzz(func(t *testing.T, v string) {
		u, err := ParseBaseHeader(v)
		if err == nil && (strings.ContainsAny(u, " \t\r\n") || !strings.Contains(u, ":")) {
			t.Fatalf("ParseBaseHeader(%q) = %q", v, u)
		}
	})
}
