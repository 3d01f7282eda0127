package htmltree

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	// A Builder is made by New: its zero value is none.
	zerotest.Check(t, DepthError{}, Namespace(0), Node(0), NopSink{}, Origin(0))
}
