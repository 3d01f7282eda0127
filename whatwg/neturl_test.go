package whatwg

import (
	"net/url"
	"testing"
)

// TestURLNetURL checks what carries over between URL and net/url's
// URL, both ways, case by case as FromNetURL and NetURL document it.
func TestURLNetURL(t *testing.T) {
	for _, s := range []string{
		"https://user:pw@example.com:8080/a%20b/c?q=1&r=%2F#frag",
		"http://h/?", "mailto:x@example.com", "file:///C:/dir/f", "http://[::1]:81/p", "sc://h/p?q#f",
	} {
		u, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		n, err := u.NetURL()
		if err != nil {
			t.Errorf("%s: NetURL: %v", s, err)
			continue
		}
		if n.String() != u.Href() {
			t.Errorf("%s: net/url writes %q", s, n.String())
		}
		back, err := FromNetURL(n)
		if err != nil || back != u {
			t.Errorf("%s: back from net/url: %q, %v", s, back.Href(), err)
		}
	}
	// What net/url refuses of the Standard's URLs.
	if u, _ := Parse("sc://a%zz/"); true {
		if _, err := u.NetURL(); err == nil {
			t.Error(`"sc://a%zz/": net/url took it`)
		}
	}
	// What the Standard reads otherwise, or refuses, of net/url's.
	for _, tt := range []struct {
		n    *url.URL
		want string // "" for an error
	}{
		{&url.URL{Path: "relative/ref"}, ""},
		{&url.URL{Scheme: "http", OmitHost: true, Path: "/x"}, "http://x/"},
		{&url.URL{Scheme: "http", Host: "H.Example:80", Path: "/a/./b c"}, "http://h.example/a/b%20c"},
		{&url.URL{Scheme: "http", Host: "h", Path: "/a/b", RawPath: "/a%2Fb"}, "http://h/a%2Fb"},
		{&url.URL{Scheme: "http", Host: "h", Path: "/", ForceQuery: true}, "http://h/?"},
		{&url.URL{Scheme: "mailto", Opaque: "x@example.com"}, "mailto:x@example.com"},
	} {
		got, err := FromNetURL(tt.n)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%#v: %q, want an error", tt.n, got.Href())
		case tt.want != "" && (err != nil || got.Href() != tt.want):
			t.Errorf("%#v: %q, %v; want %q", tt.n, got.Href(), err, tt.want)
		}
	}
}

func TestURLLogValue(t *testing.T) {
	for s, want := range map[string]string{
		"https://me:secret@h/p": "https://me:xxxxx@h/p",
		"https://me@h/p":        "https://me@h/p",
		"https://:secret@h/p":   "https://:xxxxx@h/p",
	} {
		u, _ := Parse(s)
		if got := u.LogValue().String(); got != want {
			t.Errorf("%s logs as %q, want %q", s, got, want)
		}
	}
}
