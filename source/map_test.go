package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMapEquals(t *testing.T) {
	for in, want := range map[string]Map{
		"docs=https://a.example/":           {"docs", "https://a.example/"},
		"/tmp/a=b/c=https://a.example/?x=1": {"/tmp/a=b/c", "https://a.example/?x=1"},
		"x=http4/y=https://n.example/":      {"x=http4/y", "https://n.example/"},
	} {
		got, err := ParseMap(in)
		if err != nil || got != want {
			t.Errorf("ParseMap(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"docs", "=https://a/", "docs=a/b", "a=b=c"} {
		if _, err := ParseMap(bad); err == nil {
			t.Errorf("ParseMap(%q) accepted", bad)
		}
	}
}

// Nested Maps: a file is under the innermost directory, a URL under the
// longest URL, so URLOf and PathOf are each other's inverse.
func TestMapsNested(t *testing.T) {
	ms := Maps{{"site", "https://h/"}, {"site/docs", "https://docs.h/v2/"}, {"other", "https://h/other/"}}
	tests := []struct {
		path, url string
		which     int
	}{
		{"site/index.html", "https://h/index.html", 0},
		{"site/docs/a b.html", "https://docs.h/v2/a%20b.html", 1},
		{"site/docs", "https://docs.h/v2/", 1},
		{"other/x.html", "https://h/other/x.html", 2},
		{"elsewhere/x.html", "", -1},
	}
	for _, tt := range tests {
		u, which := ms.URLOf(tt.path)
		if u != tt.url || which != tt.which {
			t.Errorf("URLOf(%q) = %q, %d; want %q, %d", tt.path, u, which, tt.url, tt.which)
		}
		if tt.which < 0 || tt.path == "site/docs" {
			continue
		}
		if p, ok := ms.PathOf(tt.url); !ok || p != filepath.FromSlash(tt.path) {
			t.Errorf("PathOf(%q) = %q, %v; want %q", tt.url, p, ok, tt.path)
		}
	}
	// "https://h/other/x.html" is under both "https://h/" and
	// "https://h/other/": the longer wins, as above.
	if p, ok := ms.PathOf("https://nowhere/x"); ok || p != "" {
		t.Errorf("PathOf of a URL no Map covers = %q, %v", p, ok)
	}
	if p, ok := ms.PathOf("https://h/../../etc/passwd"); !ok || p != "" {
		t.Errorf("PathOf of a URL leaving the directory = %q, %v; want \"\", true", p, ok)
	}
}

// Below compares paths as written where both are absolute or both
// relative, and the answer is the same as that of the two made absolute.
func TestBelow(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	parent := filepath.Dir(wd)
	paths := []string{
		"docs", "docs/x.html", "./docs//x.html", "docs/../docs/a/b.html", "other/x.html",
		".", "..", "../x", "../" + filepath.Base(wd) + "/docs/x.html", "../../y",
		wd, filepath.Join(wd, "docs"), filepath.Join(wd, "docs", "x.html"), parent, filepath.Join(parent, "z"), "/",
	}
	for _, dir := range paths {
		for _, path := range paths {
			m := Map{Dir: dir}
			got, gotOK := m.Below(path)
			// The answer of the two paths made absolute.
			a, _ := filepath.Abs(dir)
			b, _ := filepath.Abs(path)
			rel, err := filepath.Rel(a, b)
			want, wantOK := filepath.ToSlash(rel), err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
			if !wantOK {
				want = ""
			}
			if got != want || gotOK != wantOK {
				t.Errorf("Map{%q}.Below(%q) = %q, %v; want %q, %v", dir, path, got, gotOK, want, wantOK)
			}
		}
	}
}
