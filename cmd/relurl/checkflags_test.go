package main

import (
	"testing"
	"time"

	"github.com/relurl/relurl/linkcheck"
)

func TestAddHeaderAndAuth(t *testing.T) {
	var o linkcheck.Options
	for _, h := range []string{"Accept: text/html", "X-Token:  a:b "} {
		if err := addHeader(&o, h); err != nil {
			t.Fatal(h, err)
		}
	}
	if o.Header.Get("Accept") != "text/html" || o.Header.Get("X-Token") != "a:b" {
		t.Errorf("headers %v", o.Header)
	}
	for _, bad := range []string{"no colon", ": empty name"} {
		if err := addHeader(&o, bad); err == nil || err.Error() != `want "Name: value"` {
			t.Errorf("addHeader(%q): %v", bad, err)
		}
	}
	if err := addAuth(&o, "docs.example=me:pa:ss"); err != nil || o.Auth["docs.example"] != [2]string{"me", "pa:ss"} {
		t.Errorf("addAuth: %v, %v", err, o.Auth)
	}
	for _, bad := range []string{"docs.example", "=me:pw", "docs.example=me"} {
		if err := addAuth(&o, bad); err == nil {
			t.Errorf("addAuth(%q) accepted", bad)
		}
	}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"1d": 24 * time.Hour, "1.5d": 36 * time.Hour, "12h": 12 * time.Hour, "30m": 30 * time.Minute, "0": 0} {
		if got, err := parseAge(in); err != nil || got != want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "-1d", "-5m", "week"} {
		if _, err := parseAge(bad); err == nil {
			t.Errorf("parseAge(%q) accepted", bad)
		}
	}
}
