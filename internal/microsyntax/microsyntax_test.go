package microsyntax

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSrcsetURLs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a.png", []string{"a.png"}},
		{"a.png 2x, b.png 3x", []string{"a.png", "b.png"}},
		{" a.png,b.png , c.png 640w ", []string{"a.png,b.png", "c.png"}}, // a comma inside a URL is part of it
		{"a,b.png 2x,c.png", []string{"a,b.png", "c.png"}},
		{"a.png,,, b.png", []string{"a.png", "b.png"}},
		{"a.png (x, y) 2x, b.png", []string{"b.png"}}, // "(x, y)" is a descriptor, and not a valid one
		{"a.png 2x (x, y), b.png 1x", []string{"b.png"}},
		// The descriptor parser: a candidate with an invalid descriptor is dropped.
		{"a 1x 2x, b", []string{"b"}},                         // two densities
		{"a 10h, b 100w 10h, c 10h 100w", []string{"b", "c"}}, // a height needs a width
		{"a 0w, b 0x, c -1x, d 1.x, e .5x, f 1e2x, g 1.5E-1x", []string{"b", "e", "f", "g"}},
		{"a 100w 2x, b 2q, c 2, d 1x, e 01w", []string{"d", "e"}},
		{"a 2x,b 3x,,c", []string{"a", "b", "c"}},
		{"a,  b 1x", []string{"a", "b"}},
		{"data:image/png;base64,AAAA 1x", []string{"data:image/png;base64,AAAA"}},
		{",,,", nil},
		// Less than zero is an error; -0 is not (WPT, Chromium).
		{"data:,a -0x, b -0.0x, c -0e5x, d -0.1x, e -1x", []string{"data:,a", "b", "c"}},
	}
	for _, tt := range tests {
		var got []string
		for u := range SrcsetURLs([]byte(tt.in)) {
			got = append(got, string(u))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("SrcsetURLs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzSrcset(f *testing.F) {
	f.Add("a.png 2x, b.png (x, y) 3x,,c")
	f.Fuzz(func(t *testing.T, v string) {
		for u := range SrcsetURLs([]byte(v)) {
			if len(u) == 0 || bytes.ContainsAny(u, " \t\n\f\r") || u[len(u)-1] == ',' || !strings.Contains(v, string(u)) {
				t.Fatalf("SrcsetURLs(%q) gives %q", v, u)
			}
		}
	})
}

// FuzzCSS: any CSS gives no panic, and the same URLs every time, each
// in a token of its own, in order, that holds it: a url(...) or a string.
func FuzzCSS(f *testing.F) {
	f.Add(`@import "i.css"; a { background: url( "k\"l.png" ) url(m\28 1\29.png) image-set("n" 1x) } /* url(c) */`)
	f.Fuzz(func(t *testing.T, src string) {
		var buf []byte
		var first, second []string
		last := 0
		CSS([]byte(src), &buf, func(u []byte, tok [2]int) bool {
			if tok[0] < last || tok[1] <= tok[0] || tok[1] > len(src) {
				t.Fatalf("%q: a URL in bytes %v, after %d", src, tok, last)
			}
			if s := src[tok[0]:tok[1]]; s[0] != '"' && s[0] != '\'' && !strings.Contains(strings.ToLower(s), "(") {
				t.Fatalf("%q: URL %q in the token %q", src, u, s)
			}
			last = tok[1]
			first = append(first, string(u))
			return true
		})
		CSS([]byte(src), &buf, func(u []byte, _ [2]int) bool { second = append(second, string(u)); return true })
		if !slices.Equal(first, second) {
			t.Fatalf("%q gives %q, then %q", src, first, second)
		}
	})
}

// FuzzRefresh: the URL of a refresh is part of its content.
func FuzzRefresh(f *testing.F) {
	for _, s := range []string{"0; url='a'", "1.5, URL = b", "0 c", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		if u, ok := Refresh([]byte(content)); ok && !strings.Contains(content, string(u)) {
			t.Fatalf("Refresh(%q) = %q", content, u)
		}
	})
}

func TestRefresh(t *testing.T) {
	for _, tt := range []struct {
		content, want string
		ok            bool
	}{
		{"0; url=a", "a", true},
		{"0;URL='a b'c", "a b", true},
		{`1.5, url="x`, "x", true},
		{"0 x", "x", true},
		{"0; uri=x", "uri=x", true},
		{"0; url x", "url x", true},
		{".5;'q'", "q", true},
		{"0", "", false},
		{"0;", "", false},
		{"x; url=a", "", false},
		{"0x; url=a", "", false},
		{"", "", false},
	} {
		got, ok := Refresh([]byte(tt.content))
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("Refresh(%q) = %q, %v; want %q, %v", tt.content, got, ok, tt.want, tt.ok)
		}
	}
}

func ExampleSrcsetURLs() {
	for u := range SrcsetURLs([]byte("small.jpg 480w, large.jpg 1080w, a,b.jpg 2x")) {
		fmt.Println(string(u))
	}
	// Output:
	// small.jpg
	// large.jpg
	// a,b.jpg
}

func ExampleCSSURLs() {
	css := []byte(`@import "print.css"; body { background: url(img/bg\ 1.png) }`)
	for u, token := range CSSURLs(css) {
		fmt.Printf("%s in %s\n", u, css[token[0]:token[1]])
	}
	// Output:
	// print.css in "print.css"
	// img/bg 1.png in url(img/bg\ 1.png)
}
