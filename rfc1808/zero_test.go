package rfc1808

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues calls every exported method of every exported type of the
// package on its zero value (and on a pointer to one), with zero values
// for its arguments: none may panic, as none of net/netip's does.
func TestZeroValues(t *testing.T) {
	calls := zerotest.Check(t, Form(0), SchemeCategory(0), SyntaxError{}, URL{})
	t.Logf("%d methods called on zero values", calls)
}
