package relurl

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// wptCase is one case of web-platform-tests' urltestdata.json.
type wptCase struct {
	Input, Base                        *string
	Href, Origin, Protocol             *string
	Username, Password, Host, Hostname *string
	Port, Pathname, Search, Hash       *string
	SearchParams                       *string `json:"searchParams"` // the URL's searchParams, serialized
	Failure                            bool
}

// readJSONCases reads the objects of a wpt JSON list, skipping its comment
// strings, or skips the test when the shared data is absent.
func readJSONCases[T any](t *testing.T, name string) []T {
	t.Helper()
	cases, err := readWPT[T](name)
	if err != nil {
		t.Skipf("no conformance data (%v); it comes with the checkout's ../shared", err)
	}
	return cases
}

// readJSONCasesIfThere is readJSONCases for seeding fuzz targets: no
// cases when the shared data is absent.
func readJSONCasesIfThere[T any](name string) []T {
	cases, _ := readWPT[T](name)
	return cases
}

func readWPT[T any](name string) ([]T, error) {
	data, err := os.ReadFile(dataDir + "wpt/" + name)
	if err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	var cases []T
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue // a comment
		}
		var c T
		if err := json.Unmarshal(r, &c); err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// TestURLTestData runs every case of web-platform-tests' urltestdata.json:
// the href or the failure, every component, and the searchParams.
func TestURLTestData(t *testing.T) {
	cases := readJSONCases[wptCase](t, "urltestdata.json")
	passed := 0
	for _, c := range cases {
		name := *c.Input
		if c.Base != nil {
			name += " against " + *c.Base
		}
		var u WebURL
		var err error
		if c.Base != nil {
			var base WebURL
			if base, err = ParseWeb(*c.Base); err != nil {
				t.Errorf("%q: base: %v", name, err)
				continue
			}
			u, err = base.Parse(*c.Input)
		} else {
			u, err = ParseWeb(*c.Input)
		}
		if c.Failure {
			if err == nil {
				t.Errorf("%q: got %q, want failure", name, u.Href())
				continue
			}
			passed++
			continue
		}
		if err != nil {
			t.Errorf("%q: %v, want %q", name, err, *c.Href)
			continue
		}
		ok := true
		check := func(what string, got string, want *string) {
			if want != nil && got != *want {
				t.Errorf("%q: %s %q, want %q", name, what, got, *want)
				ok = false
			}
		}
		check("href", u.Href(), c.Href)
		check("origin", u.Origin(), c.Origin)
		check("protocol", u.Protocol(), c.Protocol)
		check("username", u.Username(), c.Username)
		check("password", u.Password(), c.Password)
		check("host", u.Host(), c.Host)
		check("hostname", u.Hostname(), c.Hostname)
		check("port", u.Port(), c.Port)
		check("pathname", u.Pathname(), c.Pathname)
		check("search", u.Search(), c.Search)
		check("hash", u.Hash(), c.Hash)
		q := u.SearchParams()
		check("searchParams", q.String(), c.SearchParams)
		if ok {
			passed++
		}
	}
	t.Logf("urltestdata.json: %d of %d cases pass", passed, len(cases))
}

// TestToASCII runs web-platform-tests' toascii.json: each input as the host
// of a special URL, and, as the Standard's tests do, of a URL with it.
func TestToASCII(t *testing.T) {
	cases := readJSONCases[struct {
		Input  string
		Output *string
	}](t, "toascii.json")
	passed := 0
	for _, c := range cases {
		u, err := ParseWeb("https://" + c.Input + "/x")
		switch {
		case c.Output == nil && err == nil:
			t.Errorf("%q: host %q, want failure", c.Input, u.Hostname())
		case c.Output != nil && err != nil:
			t.Errorf("%q: %v, want %q", c.Input, err, *c.Output)
		case c.Output != nil && u.Hostname() != *c.Output:
			t.Errorf("%q: host %q, want %q", c.Input, u.Hostname(), *c.Output)
		default:
			passed++
		}
	}
	t.Logf("toascii.json: %d of %d cases pass", passed, len(cases))
}

func TestParseWebError(t *testing.T) {
	for _, tt := range []struct {
		in, base string
		offset   int
		name     string
	}{
		{"http://a:99999/", "", 9, "port-out-of-range"},
		{"http://a:8x/", "", 10, "port-invalid"},
		{"g", "", 0, "missing-scheme-non-relative-URL"},
		{"g", "mailto:x", 0, "missing-scheme-non-relative-URL"},
		{"http://[::1/", "", 7, "IPv6-unclosed"},
		{"  http://a b/", "", 10, "domain-to-ASCII"},
		{"http://u@/", "", 8, "host-missing"},
	} {
		var err error
		if tt.base == "" {
			_, err = ParseWeb(tt.in)
		} else {
			b, _ := ParseWeb(tt.base)
			_, err = b.Parse(tt.in)
		}
		var ue *url.Error
		var ve *ValidationError
		if !errors.As(err, &ue) || !errors.As(err, &ve) {
			t.Errorf("%q: error %v, want a *url.Error wrapping a *ValidationError", tt.in, err)
			continue
		}
		if ve.Offset != tt.offset || ve.Name != tt.name {
			t.Errorf("%q: %v, want offset %d: %s", tt.in, ve, tt.offset, tt.name)
		}
	}
}

func TestCheckWeb(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // offset:name, space-separated
	}{
		{"https://example.com/", ""},
		{"https://user:pass@example.com/", "17:invalid-credentials"},
		{"http:\\\\a\\b", "5:special-scheme-missing-following-solidus 6:special-scheme-missing-following-solidus 8:invalid-reverse-solidus"},
		{"http://0x7f.1/", "7:IPv4-too-few-parts 7:IPv4-non-decimal-part"},
		{"http://a/b c", "10:invalid-URL-unit"},
		{" http://a/\tb", "0:invalid-URL-unit 10:invalid-URL-unit"},
		{"http://a/%zz", "9:invalid-URL-unit"},
		{"file:///C|/x", "9:invalid-URL-unit"},
		{"file://C:/x", "7:file-invalid-Windows-drive-letter-host"},
		{"http://ex%41mple.com/", "9:domain-percent-encoded"},
	} {
		_, errs, err := CheckWeb(tt.in, nil)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		var got []string
		for _, e := range errs {
			got = append(got, strings.Join([]string{itoa(e.Offset), e.Name}, ":"))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q: validation errors %q, want %q", tt.in, g, tt.want)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestIdnaTestV2 runs IdnaTestV2.json as web-platform-tests does: each
// input as the host of "https://INPUT/x", with the characters that would
// end a host percent-encoded; output null means failure.
func TestIdnaTestV2(t *testing.T) {
	cases := readJSONCases[struct {
		Input  string
		Output *string
	}](t, "IdnaTestV2.json")
	passed, tried := 0, 0
	for _, c := range cases {
		if c.Input == "" {
			continue // the empty host cannot be given to the URL parser
		}
		tried++
		host := strings.NewReplacer(":", "%3A", "/", "%2F", "?", "%3F", "#", "%23", "\\", "%5C").Replace(c.Input)
		u, err := ParseWeb("https://" + host + "/x")
		switch {
		case c.Output == nil && err == nil:
			t.Errorf("%q: got %s, want failure", c.Input, u.Hostname())
		case c.Output != nil && err != nil:
			t.Errorf("%q: %v, want %s", c.Input, err, *c.Output)
		case c.Output != nil && u.Hostname() != *c.Output:
			t.Errorf("%q: got %s, want %s", c.Input, u.Hostname(), *c.Output)
		default:
			passed++
		}
	}
	t.Logf("IdnaTestV2.json: %d of %d cases pass", passed, tried)
}

// TestPercentEncodingJSON runs web-platform-tests' percent-encoding.json:
// the query of a special URL in a document of each encoding.
func TestPercentEncodingJSON(t *testing.T) {
	cases := readJSONCases[struct {
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
			u, _ := ParseWeb(got)
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
func TestWebURLParts(t *testing.T) {
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
		u, err := ParseWeb(tt.in)
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
		var back WebURL
		if err := back.UnmarshalText(text); err != nil || back != u {
			t.Errorf("%q: text %q unmarshals to %q, %v", tt.in, text, back.Href(), err)
		}
	}
	var u WebURL
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

// TestQueryEncoding: a special URL's query, but ws: and wss:, is encoded
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

// TestValidationCases runs jsdom/whatwg-url's validation cases
// (test/validation.js at commit 0306eac, kept as
// testdata/whatwg-url-validation.json, with its test of errors reported in
// order): the validation errors CheckWeb reports, in order, and whether
// the parser fails.
func TestValidationCases(t *testing.T) {
	data, err := os.ReadFile("testdata/whatwg-url-validation.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Input, Base            *string
		ParserValidationErrors []string
		ParserFailure          bool
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	passed, apart := 0, 0
	for _, c := range cases {
		if strings.ContainsRune(*c.Input, utf8.RuneError) {
			// "#\ud800": a lone surrogate, which a JavaScript string can
			// hold and a Go string cannot; JSON gives U+FFFD for it.
			apart++
			continue
		}
		var base *WebURL
		if c.Base != nil {
			b, err := ParseWeb(*c.Base)
			if err != nil {
				t.Fatalf("base %q: %v", *c.Base, err)
			}
			base = &b
		}
		_, errs, err := CheckWeb(*c.Input, base)
		got := []string{}
		for _, e := range errs {
			got = append(got, e.Name)
		}
		want := c.ParserValidationErrors
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) || (err != nil) != c.ParserFailure {
			t.Errorf("%q: errors %q, failure %v; want %q, failure %v", *c.Input, got, err, want, c.ParserFailure)
			continue
		}
		passed++
	}
	t.Logf("whatwg-url's validation cases: %d of %d pass (%d apart: a lone surrogate)", passed, len(cases)-apart, apart)
}
