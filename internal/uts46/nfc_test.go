package uts46

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// assigned reports whether Go's own tables (of an older Unicode) know r,
// so that x/text's NFC, on those tables, must agree with ours: Unicode's
// stability policy keeps the normalization of assigned code points.
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S,
		unicode.Zs, unicode.Zl, unicode.Zp, unicode.Cc, unicode.Cf, unicode.Co)
}

// TestNFC checks each code point Go knows against x/text's NFC, and the
// lines of NormalizationTest.txt that hold one it does not know, as UAX
// #15's conformance test states them: c2 = NFC(c1) = NFC(c2) = NFC(c3),
// c4 = NFC(c4) = NFC(c5).
func TestNFC(t *testing.T) {
	known := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !assigned(r) {
			continue
		}
		known++
		if got, want := nfc(string(r)), norm.NFC.String(string(r)); got != want {
			t.Errorf("nfc(%U) = %+q, want %+q", r, got, want)
		}
	}
	f, err := os.Open("testdata/NormalizationTest-new.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		lines++
		var c [5]string
		for i, col := range strings.Split(sc.Text(), ";") {
			for _, h := range strings.Fields(col) {
				n, err := strconv.ParseUint(h, 16, 32)
				if err != nil {
					t.Fatal(err)
				}
				c[i] += string(rune(n))
			}
		}
		for _, check := range [][2]string{{c[1], c[0]}, {c[1], c[1]}, {c[1], c[2]}, {c[3], c[3]}, {c[3], c[4]}} {
			if got := nfc(check[1]); got != check[0] {
				t.Errorf("line %q: nfc(%+q) = %+q, want %+q", sc.Text(), check[1], got, check[0])
			}
		}
	}
	t.Logf("NFC: %d code points agree with x/text; %d lines of NormalizationTest.txt %s pass", known, lines, UnicodeVersion)
}

// FuzzNFC holds nfc to x/text's NFC on strings of code points both know.
func FuzzNFC(f *testing.F) {
	for _, s := range []string{"e\u0301", "\u1100\u1161\u11a8", "a\u0328\u0301\u0328", "\u0b47\u0b3e", "\u212b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for _, r := range s {
			if !assigned(r) {
				return
			}
		}
		if got, want := nfc(s), norm.NFC.String(s); got != want {
			t.Errorf("nfc(%+q) = %+q, want %+q", s, got, want)
		}
	})
}
