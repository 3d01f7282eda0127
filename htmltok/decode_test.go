package htmltok

import (
	"bytes"
	"strings"
	"testing"
)

// needsValueDecode reads a word at a time: every byte value, at every
// place of values long enough for two words and a tail, among bytes that
// borrow (NUL, "&" plus one) or not, and past the 64 bytes where it
// switches to IndexByte, against the byte at a time answer.
func TestNeedsValueDecode(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 16, 19, 64, 65} {
		for i := range n {
			for c := range 256 {
				for _, fill := range []byte{'a', '\'', 0x0e, 0xff} {
					v := bytes.Repeat([]byte{fill}, n)
					v[i] = byte(c)
					want := strings.ContainsAny(string(v), "&\x00\r")
					if got := needsValueDecode(v); got != want {
						t.Fatalf("needsValueDecode(%q) = %v, want %v", v, got, want)
					}
				}
			}
		}
	}
}
