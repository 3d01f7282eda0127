package relurl

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
	"github.com/relurl/relurl/whatwg"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// TestPercentEncodingJSON runs web-platform-tests' percent-encoding.json:
// the query of a special whatwg.URL in a document of each encoding.
func TestPercentEncodingJSON(t *testing.T) {
	cases := conformance.WPTCases[struct {
		Input  string
		Output map[string]string
	}](t, "percent-encoding.json")
	// golang.org/x/text's ISO-2022-JP encoder has no JIS X 0201 Roman, in
	// which the Encoding Standard's writes U+203E (see appendEncodedIn).
	known := map[[2]string]bool{{"\u203e\\", "iso-2022-jp"}: true}
	passed, tried := 0, 0
	for _, c := range cases {
		for name, want := range c.Output {
			tried++
			r := Resolver{Spec: WHATWG}
			if name != "utf-8" {
				enc, err := htmlindex.Get(name)
				if err != nil {
					t.Fatal(err)
				}
				r.QueryEncoding = enc
			}
			got, err := r.Resolve("https://doesnotmatter.invalid/", "?"+c.Input+"#"+c.Input)
			u, _ := whatwg.Parse(got)
			if err != nil || u.Search() != "?"+want {
				if known[[2]string{c.Input, name}] {
					t.Logf("%q in %s: %q, not %q: x/text cannot", c.Input, name, u.Search(), "?"+want)
					continue
				}
				t.Errorf("%q in %s: %q, %v; want the query %q", c.Input, name, got, err, want)
				continue
			}
			if _, frag := u.Fragment(); frag {
				passed++
			}
		}
	}
	t.Logf("percent-encoding.json: %d of %d cases pass; %d x/text's encoders cannot", passed, tried, len(known))
}

// The accessors beyond the Standard's API, text marshalling, and
// Components, which lists the non-null parts of the record.
func TestURLParts(t *testing.T) {
	for _, tt := range []struct {
		in                string
		query, fragment   string
		hasQuery, hasFrag bool
		hasHost, opaque   bool
		components        string
	}{
		{"https://a/b?#", "", "", true, true, true, false, `scheme "https", host "a", path "/b", query "", fragment ""`},
		{"mailto:x@y?s=1", "s=1", "", true, false, false, true, `scheme "mailto", opaque path "x@y", query "s=1"`},
		{"file:///C:/x#f", "", "f", false, true, true, false, `scheme "file", host "", path "/C:/x", fragment "f"`},
		{"sc:/.//p", "", "", false, false, false, false, `scheme "sc", path "//p"`},
	} {
		u, err := whatwg.Parse(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		q, hasQ := u.Query()
		f, hasF := u.Fragment()
		if q != tt.query || hasQ != tt.hasQuery || f != tt.fragment || hasF != tt.hasFrag || u.HasHost() != tt.hasHost || u.HasOpaquePath() != tt.opaque {
			t.Errorf("%q: query %q %v, fragment %q %v, host %v, opaque %v", tt.in, q, hasQ, f, hasF, u.HasHost(), u.HasOpaquePath())
		}
		parts, err := Resolver{Spec: WHATWG}.Components(tt.in)
		var got []string
		for _, p := range parts {
			got = append(got, p.Name+" "+strconv.Quote(p.Value))
		}
		if err != nil || strings.Join(got, ", ") != tt.components {
			t.Errorf("%q: components %s, %v; want %s", tt.in, strings.Join(got, ", "), err, tt.components)
		}
		text, _ := u.MarshalText()
		var back whatwg.URL
		if err := back.UnmarshalText(text); err != nil || back != u {
			t.Errorf("%q: text %q unmarshals to %q, %v", tt.in, text, back.Href(), err)
		}
	}
	var u whatwg.URL
	if err := u.UnmarshalText([]byte("not a URL")); err == nil {
		t.Errorf("UnmarshalText of a relative reference succeeds")
	}
	if _, err := (Resolver{Spec: WHATWG}).Components("g"); err == nil {
		t.Errorf("Components of a relative reference under WHATWG succeeds")
	}
	for _, spec := range []Spec{RFC1808, RFC3986, WHATWG} {
		text, _ := spec.MarshalText()
		var back Spec
		if err := back.UnmarshalText(text); err != nil || back != spec {
			t.Errorf("%v: text %q gives %v, %v", spec, text, back, err)
		}
	}
	if s, err := ParseSpec("WHATWG"); s != WHATWG || err != nil {
		t.Errorf("ParseSpec(WHATWG) = %v, %v", s, err)
	}
	for name, want := range map[string]Spec{"1808": RFC1808, "RFC1808": RFC1808, "3986": RFC3986, "rfc3986": RFC3986, "whatwg": WHATWG, "URL": WHATWG} {
		if s, err := ParseSpec(name); s != want || err != nil {
			t.Errorf("ParseSpec(%s) = %v, %v; want %v", name, s, err, want)
		}
	}
	if _, err := ParseSpec("2396"); err == nil {
		t.Errorf("ParseSpec(2396) succeeds")
	}
}

// TestExplainWeb: the trace tells each kind of step the Standard takes,
// in order, and a failure.
func TestExplainWeb(t *testing.T) {
	r := Resolver{Spec: WHATWG}
	trace := r.Explain("https://example.com/a/b", " \\\\Bücher.example\\c/%2e%2E/d e?q=ü#top\t")
	var steps []string
	for _, s := range trace.Steps {
		steps = append(steps, s.Step+": "+s.Text)
	}
	all := strings.Join(steps, "\n")
	for _, want := range []string{
		"clean-up: leading and trailing C0 controls and spaces removed",
		"no scheme state: no scheme, so the scheme \"https\" is the base's",
		"validation error: invalid-reverse-solidus at offset 1",
		"relative slash state: two slashes start a host",
		"host parser: domain \"Bücher.example\" to ASCII by UTS #46: \"xn--bcher-kva.example\"",
		"path state: \"%2e%2E\" pops the last segment",
		"path state: segment \"d e\" percent-encoded to \"d%20e\"",
		"query state: \"q=ü\" percent-encoded to \"q=%C3%BC\"",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the trace lacks %q:\n%s", want, all)
		}
	}
	if trace.Result != "https://xn--bcher-kva.example/d%20e?q=%C3%BC#top" || trace.Error != "" {
		t.Errorf("result %q, error %q", trace.Result, trace.Error)
	}
	trace = r.Explain("http://a/", "//0x7f.1:80/./x")
	all = fmt.Sprint(trace.Steps)
	for _, want := range []string{"IPv4 address \"0x7f.1\" is 127.0.0.1", "port 80 is the scheme's default", "\".\" is dropped"} {
		if !strings.Contains(all, want) {
			t.Errorf("the trace lacks %q: %s", want, all)
		}
	}
	if trace = r.Explain("http://a/", "//a:99999/"); trace.Result != "" || !strings.Contains(trace.Error, "port-out-of-range") {
		t.Errorf("a failure: result %q, error %q", trace.Result, trace.Error)
	}
}

// TestQueryEncoding: a special whatwg.URL's query, but ws: and wss:, is encoded
// in the document's encoding; a code point the encoding lacks is sent as
// "&#N;"; the path, the fragment and other URLs stay UTF-8.
func TestQueryEncoding(t *testing.T) {
	r := Resolver{Spec: WHATWG, QueryEncoding: charmap.Windows1252}
	for _, tt := range []struct{ ref, want string }{
		{"é?é#é", "http://h/%C3%A9?%E9#%C3%A9"},
		{"?Ж", "http://h/?%26%231046%3B"},
		{"ws://w/?é", "ws://w/?%C3%A9"},
		{"wss://w/?é", "wss://w/?%C3%A9"},
		{"sc://s/?é", "sc://s/?%C3%A9"},
		{"?a b'", "http://h/?a%20b%27"},
	} {
		if got, err := r.Resolve("http://h/", tt.ref); err != nil || got != tt.want {
			t.Errorf("%q in windows-1252: %q, %v; want %q", tt.ref, got, err, tt.want)
		}
	}
}
