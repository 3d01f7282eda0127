package uts46

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no method of the package's types panics on a zero value.
func TestZeroValues(t *testing.T) {
	zerotest.Check(t, Error{}, Options{})
	for _, s := range []string{"", ".", "..", "xn--", "-"} {
		ToASCII(s, Options{})
		ToASCII(s, Strict)
		ToUnicode(s, Options{})
	}
}
