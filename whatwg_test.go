package relurl

import (
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"

	"golang.org/x/text/encoding/htmlindex"
)

// wptCase is one case of web-platform-tests' urltestdata.json.
type wptCase struct {
	Input, Base                        *string
	Href, Origin, Protocol             *string
	Username, Password, Host, Hostname *string
	Port, Pathname, Search, Hash       *string
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
// the href or the failure, and every component.
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
	known, passed := unicode15(t), 0
	for _, c := range cases {
		u, err := ParseWeb("https://" + c.Input + "/x")
		if known[c.Input] {
			continue
		}
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
	t.Logf("toascii.json: %d of %d cases pass; %d need Unicode 17 (testdata/idna-unicode15.txt)", passed, len(cases), len(cases)-passed)
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

// unicode15 reads testdata/idna-unicode15.txt: the IDNA cases that
// golang.org/x/net/idna cannot pass under Go 1.26, which the file explains.
func unicode15(t *testing.T) map[string]bool {
	data, err := os.ReadFile("testdata/idna-unicode15.txt")
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		var s string
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("idna-unicode15.txt: %q: %v", line, err)
		}
		set[s] = true
	}
	return set
}

// TestIdnaTestV2 runs IdnaTestV2.json as web-platform-tests does: each
// input as the host of "https://INPUT/x", with the characters that would
// end a host percent-encoded; output null means failure.
func TestIdnaTestV2(t *testing.T) {
	cases := readJSONCases[struct {
		Input  string
		Output *string
	}](t, "IdnaTestV2.json")
	known, passed, tried, unicode17 := unicode15(t), 0, 0, 0
	for _, c := range cases {
		if c.Input == "" {
			continue // the empty host cannot be given to the URL parser
		}
		tried++
		host := strings.NewReplacer(":", "%3A", "/", "%2F", "?", "%3F", "#", "%23", "\\", "%5C").Replace(c.Input)
		u, err := ParseWeb("https://" + host + "/x")
		var bad string
		switch {
		case c.Output == nil && err == nil:
			bad = "got " + u.Hostname() + ", want failure"
		case c.Output != nil && err != nil:
			bad = err.Error() + ", want " + *c.Output
		case c.Output != nil && u.Hostname() != *c.Output:
			bad = "got " + u.Hostname() + ", want " + *c.Output
		}
		switch {
		case bad == "":
			passed++
		case known[c.Input]:
			unicode17++
		default:
			t.Errorf("%q: %s", c.Input, bad)
		}
	}
	t.Logf("IdnaTestV2.json: %d of %d cases pass; %d need Unicode 17 (testdata/idna-unicode15.txt)", passed, tried, unicode17)
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
