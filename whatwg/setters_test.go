package whatwg

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// getters are URL's getters by the API's names.
var getters = map[string]func(URL) string{
	"href": URL.Href, "protocol": URL.Protocol, "username": URL.Username, "password": URL.Password,
	"host": URL.Host, "hostname": URL.Hostname, "port": URL.Port, "pathname": URL.Pathname,
	"search": URL.Search, "hash": URL.Hash, "origin": URL.Origin,
}

// TestSetters runs every case of the web platform tests' setters_tests.json
// and checks every component each expects.
func TestSetters(t *testing.T) {
	data, err := os.ReadFile("../testdata/wpt/setters_tests.json")
	if err != nil {
		t.Fatal(err)
	}
	var tests map[string]json.RawMessage
	if err := json.Unmarshal(data, &tests); err != nil {
		t.Fatal(err)
	}
	n, passed := 0, 0
	for name, raw := range tests {
		if name == "comment" {
			continue
		}
		var cases []struct {
			Href     string            `json:"href"`
			NewValue string            `json:"new_value"`
			Expected map[string]string `json:"expected"`
			Comment  string            `json:"comment"`
		}
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			n++
			u, err := Parse(c.Href)
			if err != nil {
				t.Errorf("%s: Parse(%q): %v", name, c.Href, err)
				continue
			}
			got, _ := u.With(name, c.NewValue)
			ok := true
			for component, want := range c.Expected {
				if g := getters[component](got); g != want {
					t.Errorf("%s: %q set to %q: %s %q, want %q (%s)", name, c.Href, c.NewValue, component, g, want, c.Comment)
					ok = false
				}
			}
			if ok {
				passed++
			}
		}
	}
	t.Logf("setters_tests.json: %d / %d cases pass", passed, n)
}

// FuzzSetters applies three setters in a row to a URL and checks the
// standard's idempotence after each: the href parses to the URL itself.
func FuzzSetters(f *testing.F) {
	f.Add("http://user:pass@example.com:8080/a/b?q=1#f", uint16(0x4862), "sc", "x:99", "/../a?b")
	f.Add("sc:/.//p", uint16(0x0543), "", "h", "..")
	f.Add("file:///C:/x", uint16(0x7410), "localhost", "C|/y", "%zz")
	names := []string{"href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"}
	f.Fuzz(func(t *testing.T, href string, which uint16, a, b, c string) {
		u, err := Parse(href)
		if err != nil {
			return
		}
		for i, v := range []string{a, b, c} {
			name := names[int(which>>(4*i)&15)%len(names)]
			next, err := u.With(name, v)
			if err != nil && next != u && name != "host" {
				t.Fatalf("%q set %s to %q: an error, and the URL changed to %q", u.Href(), name, v, next.Href())
			}
			u = next
			if w, err := Parse(u.Href()); err != nil || w != u {
				t.Fatalf("after setting %s to %q: %q parses to %+v, %v; want %+v", name, v, u.Href(), w, err, u)
			}
		}
	})
}

func BenchmarkSetters(b *testing.B) {
	const href = "https://user:pass@www.example.com:8080/a/b/c.html?q=1&r=2#frag"
	u, _ := Parse(href)
	b.Run("Parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Parse(href)
		}
	})
	for _, tt := range []struct{ name, value string }{
		{"protocol", "http"}, {"username", "me"}, {"password", "secret"}, {"host", "example.org:81"},
		{"hostname", "example.org"}, {"port", "81"}, {"pathname", "/x/y/../z"}, {"search", "?a=b"}, {"hash", "top"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				u.With(tt.name, tt.value)
			}
		})
	}
}

// The README's example of the setters and search parameters.
func ExampleURL_WithPathname() {
	u, _ := Parse("https://example.com/old?utm_source=mail&q=go")
	u, _ = u.WithPathname("/new place")
	fmt.Println(u)
	q := u.SearchParams()
	q.Delete("utm_source")
	q.Append("page", "2")
	u = u.WithSearchParams(q)
	fmt.Println(u)
	_, err := u.WithPort("99999")
	fmt.Println(err)
	// Output:
	// https://example.com/new%20place?utm_source=mail&q=go
	// https://example.com/new%20place?q=go&page=2
	// set port to "99999": a port is at most 65535
}

func ExampleURL_WithPort() {
	u, _ := Parse("file:///etc/hosts")
	v, err := u.WithPort("8080") // JavaScript: url.port = "8080" does nothing
	fmt.Println(v, err)
	w, _ := Parse("https://example.com:8443/")
	w, _ = w.WithPort("443") // the default port is no port
	fmt.Println(w)
	// Output:
	// file:///etc/hosts set port to "8080": a URL without a host (or with the empty host, or a file URL) has no port
	// https://example.com/
}
