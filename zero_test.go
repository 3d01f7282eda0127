package relurl

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues calls every exported method of every exported type of the
// package on its zero value (and on a pointer to one), with zero values
// for its arguments: none may panic, as none of net/netip's does. The zero
// Base is RFC 1808's empty base.
func TestZeroValues(t *testing.T) {
	calls := zerotest.Check(t, Base{}, Part{}, Resolver{}, Spec(0), Step{}, Trace{})
	t.Logf("%d methods called on zero values", calls)
	var b Base
	if got, err := b.Resolve("../g"); got != "../g" || err != nil {
		t.Errorf("the zero Base resolves \"../g\" to %q, %v", got, err)
	}
}
