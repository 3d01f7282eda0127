package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestAddHeaderAndAuth(t *testing.T) {
	var o Options
	for _, h := range []string{"Accept: text/html", "X-Token:  a:b "} {
		if err := o.AddHeader(h); err != nil {
			t.Fatal(h, err)
		}
	}
	if o.Header.Get("Accept") != "text/html" || o.Header.Get("X-Token") != "a:b" {
		t.Errorf("headers %v", o.Header)
	}
	for _, bad := range []string{"no colon", ": empty name"} {
		if err := o.AddHeader(bad); err == nil || err.Error() != `want "Name: value"` {
			t.Errorf("AddHeader(%q): %v", bad, err)
		}
	}
	if err := o.AddAuth("docs.example=me:pa:ss"); err != nil || o.Auth["docs.example"] != [2]string{"me", "pa:ss"} {
		t.Errorf("AddAuth: %v, %v", err, o.Auth)
	}
	for _, bad := range []string{"docs.example", "=me:pw", "docs.example=me"} {
		if err := o.AddAuth(bad); err == nil {
			t.Errorf("AddAuth(%q) accepted", bad)
		}
	}
}

func TestReadIgnoreFile(t *testing.T) {
	dir := t.TempDir()
	if res, err := ReadIgnoreFile(filepath.Join(dir, "none")); res != nil || err != nil {
		t.Errorf("a missing file: %v, %v; want none", res, err)
	}
	good := filepath.Join(dir, ".relurlignore")
	os.WriteFile(good, []byte("# comment\n\n^https://twitter\\.com/\n  localhost  \n"), 0o644)
	res, err := ReadIgnoreFile(good)
	if err != nil || len(res) != 2 || !res[0].MatchString("https://twitter.com/x") || res[1].String() != "localhost" {
		t.Errorf("%v, %v", res, err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("ok\n(unclosed\n"), 0o644)
	if _, err := ReadIgnoreFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+", line 2: ") {
		t.Errorf("a bad pattern: %v, want the file and line 2", err)
	}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"1d": 24 * time.Hour, "1.5d": 36 * time.Hour, "12h": 12 * time.Hour, "30m": 30 * time.Minute, "0": 0} {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "-1d", "-5m", "week"} {
		if _, err := ParseAge(bad); err == nil {
			t.Errorf("ParseAge(%q) accepted", bad)
		}
	}
}

func TestSortAndCount(t *testing.T) {
	ls := []Link{{Source: "b", Line: 1}, {Source: "a", Line: 9, Column: 2}, {Source: "a", Line: 9, Column: 1}, {Source: "a", Line: 2}}
	SortLinks(ls)
	var order []string
	for _, l := range ls {
		order = append(order, l.Source+":"+strings.Repeat("|", l.Line)+strings.Repeat(".", l.Column))
	}
	if got := strings.Join(order, " "); got != "a:|| a:|||||||||. a:|||||||||.. b:|" {
		t.Errorf("order %s", got)
	}
	reports := []Report{
		{Link: Link{URL: "http://x/#a"}, Result: Result{State: OK}},
		{Link: Link{URL: "http://x/#b"}, Result: Result{State: Broken}},
		{Link: Link{URL: "", BaseFrom: "none"}, Result: Result{State: Broken}},
		{Link: Link{URL: "mailto:a@b"}, Result: Result{State: Skipped}},
	}
	c := Count(slices.Values(reports))
	// Three targets, each URL as linked (a fragment makes a target of its
	// own), and one broken: the unresolved link has none.
	if c.Targets != 3 || c.BrokenTargets != 1 || c.Unresolved != 1 || c.ByState[Broken] != 2 || c.ByState[Skipped] != 1 || c.ByState[OK] != 1 {
		t.Errorf("%+v", c)
	}
}
