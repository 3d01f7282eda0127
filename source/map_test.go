package source

import "testing"

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
