package links

import (
	"errors"
	"net/textproto"
	"strings"
	"testing"

	"github.com/relurl/relurl"
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
		got, err := parseBaseHeader(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("parseBaseHeader(%q) = %q, %v; want %q, error with %q", tt.in, got, err, tt.want, tt.err)
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
		{"none", h(), true, outer, errNoHeader},
		{"base", h("Base", "<URL:http://b/x>", "Content-Base", "http://cb/", "Content-Location", "http://cl/"), true, Base{URL: "http://b/x", From: FromBaseHeader}, nil},
		{"content-base", h("Content-Base", "http://cb/", "Content-Location", "http://cl/"), true, Base{URL: "http://cb/", From: FromContentBase}, nil},
		{"quoted content-base", h("Content-Base", `"http://cb/"`), true, Base{URL: "http://cb/", From: FromContentBase}, nil},
		{"content-location", h("Content-Location", "http://cl/x.html"), true, Base{URL: "http://cl/x.html", From: FromContentLocation}, nil},
		{"content-location not asked", h("Content-Location", "http://cl/x.html"), false, outer, errNoHeader},
		{"relative content-location", h("Content-Location", "img/a.png"), true,
			Base{URL: "http://outer/dir/img/a.png", From: FromContentLocation,
				Note: `relative content-location "img/a.png" resolved against the retrieval base http://outer/dir/doc`}, nil},
		{"bad base header falls through", h("Base", "http://b/", "Content-Base", "http://cb/"), true, Base{URL: "http://cb/", From: FromContentBase}, errAny},
	}
	for _, tt := range tests {
		got, err := baseFromHeader(tt.header, outer, tt.cl)
		if got != tt.want {
			t.Errorf("%s: baseFromHeader = %+v, want %+v", tt.name, got, tt.want)
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
	if e := r.enclosed(); e != (Base{URL: "http://a/b/c", From: FromEncapsulating}) {
		t.Errorf("Enclosed = %+v", e)
	}
	if e := (Base{}).enclosed(); e != (Base{}) {
		t.Errorf("empty base enclosed = %+v", e)
	}
	var rfc1808 relurl.Resolver
	if b, _ := r.embedded("../x/", FromHTMLBase, rfc1808); b.URL != "http://a/x/" || b.From != FromHTMLBase || b.Note == "" {
		t.Errorf("relative embedded base = %+v", b)
	}
	if b, _ := (Base{}).embedded("x/", FromHTMLBase, rfc1808); b.URL != "x/" || !strings.Contains(b.Note, "no outer base") {
		t.Errorf("relative embedded base with no outer = %+v", b)
	}
	if b, _ := r.embedded("http://z/", FromHTMLBase, rfc1808); b != (Base{URL: "http://z/", From: FromHTMLBase}) {
		t.Errorf("absolute embedded base = %+v", b)
	}
	// A relative value resolves by the resolver's standard.
	for spec, want := range map[relurl.Spec]string{relurl.RFC1808: "http://a/../x", relurl.RFC3986: "http://a/x", relurl.WHATWG: "http://a/x"} {
		b, err := r.embedded("/../x", FromHTMLBase, relurl.Resolver{Spec: spec})
		if b.URL != want || err != nil {
			t.Errorf("%v: embedded base /../x = %+v, %v; want %s", spec, b, err, want)
		}
	}
	// Under the URL Standard, a value the parser refuses leaves outer.
	if b, err := r.embedded("http://a:99999/", FromHTMLBase, relurl.Resolver{Spec: relurl.WHATWG}); b != r || err == nil {
		t.Errorf("a base the URL parser refuses: %+v, %v; want the outer base and an error", b, err)
	}
	for s, want := range map[BaseFrom]string{FromNone: "none", FromRetrieval: "retrieval", FromEncapsulating: "encapsulating",
		FromContentLocation: "content-location", FromContentBase: "content-base", FromBaseHeader: "base-header", FromHTMLBase: "html-base"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(s), s, want)
		}
	}
}

func FuzzParseBaseHeader(f *testing.F) {
	f.Add("<URL:http://www.ics.uci.edu/Test/a/b/c>")
	f.Add("<url: h t t p : / / a>")
	f.Fuzz(func(t *testing.T, v string) {
		u, err := parseBaseHeader(v)
		if err == nil && (strings.ContainsAny(u, " \t\r\n") || !strings.Contains(u, ":")) {
			t.Fatalf("parseBaseHeader(%q) = %q", v, u)
		}
	})
}

// A BaseFrom is written and read as its name, as relurl's JSON has it.
func TestBaseFromText(t *testing.T) {
	for from := FromNone; from <= FromXMLBase; from++ {
		text, err := from.MarshalText()
		var back BaseFrom
		if err != nil || back.UnmarshalText(text) != nil || back != from {
			t.Errorf("%v: %q, read back %v", from, text, back)
		}
	}
	var b BaseFrom
	if err := b.UnmarshalText([]byte("elsewhere")); err == nil {
		t.Error(`"elsewhere" read as a layer`)
	}
}
