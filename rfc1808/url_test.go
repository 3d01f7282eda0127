package rfc1808

import (
	"encoding/json"
	"testing"
)

// components is what the accessors of URL return, absent ones as "-".
type components struct {
	scheme, netLoc, path, params, query, fragment string
	absPath                                       bool
}

func componentsOf(u URL) components {
	c := components{"-", "-", u.Path(), "-", "-", "-", u.AbsPath()}
	if u.HasScheme() {
		c.scheme = u.Scheme()
	}
	if u.HasNetLoc() {
		c.netLoc = u.NetLoc()
	}
	if u.HasParams() {
		c.params = u.Params()
	}
	if u.HasQuery() {
		c.query = u.Query()
	}
	if u.HasFragment() {
		c.fragment = u.Fragment()
	}
	return c
}

// Section 2.4, each rule in the order the parser applies it.
var splitTests = []struct {
	in   string
	want components
}{
	{"", components{"-", "-", "", "-", "-", "-", false}},
	{"http://a/b/c/d;p?q#f", components{"http", "a", "b/c/d", "p", "q", "f", true}},

	// 2.4.1: the first "#"; the rest may hold anything, another "#" too.
	{"#", components{"-", "-", "", "-", "-", "", false}},
	{"a#b#c?d", components{"-", "-", "a", "-", "-", "b#c?d", false}},
	{"x:#y", components{"x", "-", "", "-", "-", "y", false}},
	{"#x:y", components{"-", "-", "", "-", "-", "x:y", false}},

	// 2.4.2: scheme characters, a colon after the first character.
	{"g:h", components{"g", "-", "h", "-", "-", "-", false}},
	{"HTTP:", components{"HTTP", "-", "", "-", "-", "-", false}},
	{"9p+x.y-z:w", components{"9p+x.y-z", "-", "w", "-", "-", "-", false}},
	{":g", components{"-", "-", ":g", "-", "-", "-", false}},
	{"a_b:c", components{"-", "-", "a_b:c", "-", "-", "-", false}},
	{"./this:that", components{"-", "-", "./this:that", "-", "-", "-", false}},
	{"a/b:c", components{"-", "-", "a/b:c", "-", "-", "-", false}},
	{"a?b:c", components{"-", "-", "a", "-", "b:c", "-", false}},
	{"a:b:c", components{"a", "-", "b:c", "-", "-", "-", false}},

	// 2.4.3: "//" to the next "/", across ";" and "?".
	{"//", components{"-", "", "", "-", "-", "-", false}},
	{"///", components{"-", "", "", "-", "-", "-", true}},
	{"//a;b?c/d", components{"-", "a;b?c", "d", "-", "-", "-", true}},
	{"http://a?q", components{"http", "a?q", "", "-", "-", "-", false}},
	{"http:///g", components{"http", "", "g", "-", "-", "-", true}},
	{"/a//b", components{"-", "-", "a//b", "-", "-", "-", true}},
	{"a//b", components{"-", "-", "a//b", "-", "-", "-", false}},

	// 2.4.4 and 2.4.5: the first "?", then the first ";" before it.
	{"?", components{"-", "-", "", "-", "", "-", false}},
	{";", components{"-", "-", "", "", "-", "-", false}},
	{";?", components{"-", "-", "", "", "", "-", false}},
	{"?;", components{"-", "-", "", "-", ";", "-", false}},
	{"g;x;y/z?q;r?s", components{"-", "-", "g", "x;y/z", "q;r?s", "-", false}},
	{"/;x", components{"-", "-", "", "x", "-", "-", true}},

	// 2.4.6: the path and whether "/" preceded it.
	{"/", components{"-", "-", "", "-", "-", "-", true}},
	{"http://a", components{"http", "a", "", "-", "-", "-", false}},
	{"http://a/", components{"http", "a", "", "-", "-", "-", true}},
	{"//a//b", components{"-", "a", "/b", "-", "-", "-", true}},
}

func TestSplit(t *testing.T) {
	for _, tt := range splitTests {
		u := Split(tt.in)
		if got := componentsOf(u); got != tt.want {
			t.Errorf("Split(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if u.String() != tt.in {
			t.Errorf("Split(%q).String() = %q", tt.in, u.String())
		}
		if got := componentsOfSlow(slowSplit(tt.in)); got != tt.want {
			t.Errorf("slowSplit(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestZeroURL(t *testing.T) {
	var u URL
	if u != Split("") || u.String() != "" || u.HasScheme() || u.HasNetLoc() || u.AbsPath() ||
		u.HasParams() || u.HasQuery() || u.HasFragment() {
		t.Errorf("zero URL is not the empty reference: %+v", componentsOf(u))
	}
}

func componentsOfSlow(u slowURL) components {
	opt := func(s string, ok bool) string {
		if !ok {
			return "-"
		}
		return s
	}
	return components{opt(u.scheme, u.hasScheme), opt(u.netLoc, u.hasNetLoc), u.path,
		opt(u.params, u.hasParams), opt(u.query, u.hasQuery), opt(u.fragment, u.hasFragment), u.slash}
}

func TestURLText(t *testing.T) {
	in := struct{ U URL }{Split("http://a/b;p?q#f")}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"U":"http://a/b;p?q#f"}` {
		t.Errorf("json.Marshal = %s", b)
	}
	var out struct{ U URL }
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Errorf("json.Unmarshal(%s) = %v, %v; want %v", b, out, err, in)
	}
	if got, err := in.U.AppendText([]byte("x ")); string(got) != "x http://a/b;p?q#f" || err != nil {
		t.Errorf("AppendText = %q, %v", got, err)
	}
}
