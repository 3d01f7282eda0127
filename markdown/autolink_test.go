package markdown

import "testing"

// FuzzAutolinkLength holds autolinkLength to the regexps goldmark's
// linkify is given (autolinkRegexps): the same length for any line.
func FuzzAutolinkLength(f *testing.F) {
	for _, s := range []string{"http://a.b/c d", "https://x", "ftp://-", "http://", "http:// x", "https://é.fr/<x>", "www.a",
		"www.", "www._x\tb", "http://\xff", "http://a\fb", "https://٣.example/", "http://a\vb", "wWw.a", "HTTP://a"} {
		f.Add(s)
	}
	url, www := autolinkRegexps()
	f.Fuzz(func(t *testing.T, line string) {
		for _, c := range []struct {
			www bool
			re  interface{ FindStringIndex(string) []int }
		}{{false, url}, {true, www}} {
			want := 0
			if m := c.re.FindStringIndex(line); m != nil {
				want = m[1]
			}
			if got := autolinkLength([]byte(line), c.www); got != want {
				t.Errorf("autolinkLength(%q, www %v) = %d, the regexp's match ends at %d", line, c.www, got, want)
			}
		}
	})
}
