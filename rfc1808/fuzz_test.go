package rfc1808

import (
	"strings"
	"testing"
)

// FuzzSplit: splitting is lossless, and agrees with the literal parser.
func FuzzSplit(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := Split(s)
		if u.String() != s {
			t.Fatalf("Split(%q).String() = %q", s, u.String())
		}
		if got, want := componentsOf(u), componentsOfSlow(slowSplit(s)); got != want {
			t.Fatalf("Split(%q) = %+v, literal 2.4 gives %+v", s, got, want)
		}
		if got := slowSplit(s).String(); got != s {
			t.Fatalf("recombined components of %q give %q", s, got)
		}
	})
}

// FuzzValidate: validation never panics, and its verdict fits the split.
func FuzzValidate(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.in)
	}
	for _, tt := range invalidTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		form, err := Validate(s)
		if err != nil {
			if form != 0 {
				t.Fatalf("Validate(%q) = %v with error %v", s, form, err)
			}
			return
		}
		u := Split(s)
		if form.IsAbs() != u.HasScheme() {
			t.Fatalf("Validate(%q) = %v, but HasScheme = %v", s, form, u.HasScheme())
		}
		if form == FormNetPath && !u.HasNetLoc() || form == FormAbsPath && !u.AbsPath() {
			t.Fatalf("Validate(%q) = %v, split %+v", s, form, componentsOf(u))
		}
		if strings.ContainsAny(s[:strings.IndexByte(s+"#", '#')], " <>\"{}|\\^`~[]") {
			t.Fatalf("Validate(%q) accepts a character the BNF does not", s)
		}
	})
}
