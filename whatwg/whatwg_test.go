package whatwg

import (
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/conformance"
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

// TestURLTestData runs every case of web-platform-tests' urltestdata.json:
// the href or the failure, every component, and the searchParams.
func TestURLTestData(t *testing.T) {
	cases := conformance.WPTCases[wptCase](t, "urltestdata.json")
	passed := 0
	for _, c := range cases {
		name := *c.Input
		if c.Base != nil {
			name += " against " + *c.Base
		}
		var u URL
		var err error
		if c.Base != nil {
			var base URL
			if base, err = Parse(*c.Base); err != nil {
				t.Errorf("%q: base: %v", name, err)
				continue
			}
			u, err = base.Parse(*c.Input)
		} else {
			u, err = Parse(*c.Input)
		}
		// AppendResolve, the strings in one go, gives the same.
		base := ""
		if c.Base != nil {
			base = *c.Base
		}
		if got, aerr := AppendResolve([]byte("dst:"), base, *c.Input); (aerr != nil) != (err != nil) ||
			err == nil && string(got) != "dst:"+u.Href() || err != nil && string(got) != "dst:" {
			t.Errorf("%q: AppendResolve gives %q, %v; Parse %q, %v", name, got, aerr, u.Href(), err)
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
	cases := conformance.WPTCases[struct {
		Input  string
		Output *string
	}](t, "toascii.json")
	passed := 0
	for _, c := range cases {
		u, err := Parse("https://" + c.Input + "/x")
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
			_, err = Parse(tt.in)
		} else {
			b, _ := Parse(tt.base)
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

func TestCheck(t *testing.T) {
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
		_, errs, err := Check(tt.in, nil)
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
	cases := conformance.WPTCases[struct {
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
		u, err := Parse("https://" + host + "/x")
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

// TestValidationCases runs jsdom/whatwg-url's validation cases
// (test/validation.js at commit 0306eac, kept as
// testdata/whatwg-url-validation.json, with its test of errors reported in
// order): the validation errors Check reports, in order, and whether
// the parser fails.
func TestValidationCases(t *testing.T) {
	data, err := os.ReadFile("../testdata/whatwg-url-validation.json")
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
		var base *URL
		if c.Base != nil {
			b, err := Parse(*c.Base)
			if err != nil {
				t.Fatalf("base %q: %v", *c.Base, err)
			}
			base = &b
		}
		_, errs, err := Check(*c.Input, base)
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

// TestAgain: a parser readied by again is a new parser, but for what parse
// sets itself and the buffer it keeps, whatever the first parse left in it.
func TestAgain(t *testing.T) {
	for _, first := range []string{"http://u:p@h.example:8/p?q#f", "\thttps://[::1]/\n", "sc:opaque?q", "file:///C:/x"} {
		p := webParser{}
		if !p.parse(first, nil) {
			t.Fatalf("%q does not parse", first)
		}
		p.again(nil)
		fresh := webParser{buf: p.buf}
		// What parse sets before it reads anything.
		fresh.in, fresh.base, fresh.o, fresh.port, fresh.queryStart, fresh.fragStart = p.in, p.base, p.o, p.port, p.queryStart, p.fragStart
		fresh.orig, fresh.lead = p.orig, p.lead
		if !reflect.DeepEqual(p, fresh) {
			t.Errorf("after %q, again leaves %+v\nwant %+v", first, p, fresh)
		}
	}
}
