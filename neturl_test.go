package relurl

import (
	"net/url"
	"testing"
)

func TestNetURLRoundTrip(t *testing.T) {
	// Strings that survive a trip through net/url unchanged.
	for _, s := range []string{
		"http://a/b/c/d;p?q#f", "http://a/b?", "///g", "http:///g", "g;x?y#s",
		"ftp://u:pw@h:21/a;type=d", "http://a/b%20c", "mailto:a@b", "../g",
	} {
		nu, err := Split(s).NetURL()
		if err != nil {
			t.Errorf("Split(%q).NetURL() = %v", s, err)
			continue
		}
		if got := URLFromNet(nu); got != Split(s) {
			t.Errorf("URLFromNet(Split(%q).NetURL()) = %q", s, got)
		}
	}
}

// What the doc comments of NetURL and URLFromNet say does not carry over.
func TestNetURLLosses(t *testing.T) {
	tests := []struct{ in, back string }{
		{"http://a#", "http://a"}, // an empty fragment
		{"//", ""},                // an empty net_loc with nothing after it
	}
	for _, tt := range tests {
		nu, err := Split(tt.in).NetURL()
		if err != nil {
			t.Fatal(err)
		}
		if got := URLFromNet(nu).String(); got != tt.back {
			t.Errorf("%q through net/url = %q, want %q", tt.in, got, tt.back)
		}
	}
	nu, err := Split("http://a/b;p").NetURL()
	if err != nil || nu.Path != "/b;p" {
		t.Errorf(`NetURL of "http://a/b;p": Path %q, %v; want params inside Path`, nu.Path, err)
	}
	for _, s := range []string{"a%zz", "http://a/%", ":g"} {
		if _, err := Split(s).NetURL(); err == nil {
			t.Errorf("Split(%q).NetURL() succeeded; net/url rejects it", s)
		}
	}
}

// TestWebURLNetURL checks what carries over between WebURL and net/url's
// URL, both ways, case by case as WebURLFromNet and NetURL document it.
func TestWebURLNetURL(t *testing.T) {
	for _, s := range []string{
		"https://user:pw@example.com:8080/a%20b/c?q=1&r=%2F#frag",
		"http://h/?", "mailto:x@example.com", "file:///C:/dir/f", "http://[::1]:81/p", "sc://h/p?q#f",
	} {
		u, err := ParseWeb(s)
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
		back, err := WebURLFromNet(n)
		if err != nil || back != u {
			t.Errorf("%s: back from net/url: %q, %v", s, back.Href(), err)
		}
	}
	// What net/url refuses of the Standard's URLs.
	if u, _ := ParseWeb("sc://a%zz/"); true {
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
		got, err := WebURLFromNet(tt.n)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%#v: %q, want an error", tt.n, got.Href())
		case tt.want != "" && (err != nil || got.Href() != tt.want):
			t.Errorf("%#v: %q, %v; want %q", tt.n, got.Href(), err, tt.want)
		}
	}
}

func TestWebURLLogValue(t *testing.T) {
	for s, want := range map[string]string{
		"https://me:secret@h/p": "https://me:xxxxx@h/p",
		"https://me@h/p":        "https://me@h/p",
		"https://:secret@h/p":   "https://:xxxxx@h/p",
	} {
		u, _ := ParseWeb(s)
		if got := u.LogValue().String(); got != want {
			t.Errorf("%s logs as %q, want %q", s, got, want)
		}
	}
}
