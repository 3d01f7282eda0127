package ascii

import (
	"strings"
	"testing"
)

// HasTabOrNewline reads a word at a time: every byte value, at every
// place of strings long enough for two words and a tail, and after a
// byte that borrows (NUL), against the byte at a time answer.
func TestHasTabOrNewline(t *testing.T) {
	for n := 1; n <= 19; n++ {
		for i := range n {
			for c := range 256 {
				for _, fill := range []byte{'a', 0, 0xff} {
					b := []byte(strings.Repeat(string(fill), n))
					b[i] = byte(c)
					want := strings.ContainsAny(string(b), "\t\n\r")
					if got := HasTabOrNewline(string(b)); got != want {
						t.Fatalf("HasTabOrNewline(%q) = %v, want %v", b, got, want)
					}
				}
			}
		}
	}
}
