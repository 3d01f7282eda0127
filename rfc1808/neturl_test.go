package rfc1808

import (
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
		if got := FromNetURL(nu); got != Split(s) {
			t.Errorf("FromNetURL(Split(%q).NetURL()) = %q", s, got)
		}
	}
}

// What the doc comments of NetURL and FromNetURL say does not carry over.
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
		if got := FromNetURL(nu).String(); got != tt.back {
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
