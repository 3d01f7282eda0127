package whatwg_test

import (
	"fmt"
	"testing"

	"github.com/relurl/relurl/whatwg"
)

func TestAppendSURT(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://www.Example.com/A/b?y=2&x=1#f", "com,example)/a/b?x=1&y=2"},
		{"http://example.com", "com,example)/"},
		{"http://www2.example.co.uk:8080/?", "uk,co,example:8080)/"},
		{"http://www.com/", "com,www)/"}, // a www that is the domain stays
		{"http://user:pw@192.168.0.1:80/x", "192.168.0.1)/x"},
		{"http://[::1]:8443/", "[::1]:8443)/"},
		{"mailto:Someone@Example.com#x", "mailto:someone@example.com"},
		{"sc://Opaque.Host/p", "Opaque.Host)/p"},
	} {
		u, err := whatwg.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(u.AppendSURT(nil)); got != tt.want {
			t.Errorf("SURT of %s = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The examples of the URL Standard's "Host miscellaneous" table, as URLs.
func TestRegistrableDomain(t *testing.T) {
	for _, tt := range []struct{ host, suffix, domain string }{
		{"com", "com", ""},
		{"example.com", "com", "example.com"},
		{"www.example.com", "com", "example.com"},
		{"sub.www.example.com", "com", "example.com"},
		{"EXAMPLE.COM", "com", "example.com"},
		{"example.com.", "com.", "example.com."},
		{"github.io", "github.io", ""},
		{"whatwg.github.io", "github.io", "whatwg.github.io"},
		{"إختبار", "xn--kgbechtv", ""},
		{"example.إختبار", "xn--kgbechtv", "example.xn--kgbechtv"},
		{"192.168.0.1", "", ""},
		{"[::1]", "", ""},
	} {
		u, err := whatwg.Parse("https://" + tt.host + "/")
		if err != nil {
			t.Fatal(err)
		}
		if s, d := u.PublicSuffix(), u.RegistrableDomain(); s != tt.suffix || d != tt.domain {
			t.Errorf("%s: public suffix %q, registrable domain %q; want %q, %q", tt.host, s, d, tt.suffix, tt.domain)
		}
	}
	u, _ := whatwg.Parse("sc://example.com/")
	if u.RegistrableDomain() != "" {
		t.Errorf("an opaque host has the registrable domain %q", u.RegistrableDomain())
	}
}

func ExampleURL_RegistrableDomain() {
	for _, s := range []string{"https://www.example.co.uk/", "https://whatwg.github.io/", "http://192.168.0.1/"} {
		u, _ := whatwg.Parse(s)
		fmt.Printf("%q %q\n", u.Hostname(), u.RegistrableDomain())
	}
	// Output:
	// "www.example.co.uk" "example.co.uk"
	// "whatwg.github.io" "whatwg.github.io"
	// "192.168.0.1" ""
}

func ExampleURL_AppendSURT() {
	u, _ := whatwg.Parse("https://www.Example.com/A/b?y=2&x=1#top")
	fmt.Println(string(u.AppendSURT(nil)))
	// Output: com,example)/a/b?x=1&y=2
}

func TestDefaultPortAndPercentDecode(t *testing.T) {
	for scheme, want := range map[string]int{"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": -1, "sc": -1} {
		if p, ok := whatwg.DefaultPort(scheme); ok != (want >= 0) || ok && p != want {
			t.Errorf("DefaultPort(%q) = %d, %v", scheme, p, ok)
		}
	}
	for in, want := range map[string]string{"a%20b": "a b", "%zz%4": "%zz%4", "%C3%A9": "é", "+": "+", "%": "%"} {
		if got := whatwg.PercentDecode(in); got != want {
			t.Errorf("PercentDecode(%q) = %q, want %q", in, got, want)
		}
	}
}
