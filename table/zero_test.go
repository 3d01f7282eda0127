package table

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	// A Writer is made by NewArrow or NewParquet: its zero value is none.
	zerotest.Check(t, Doc{}, DocFilter{}, Filter{}, FormatError{}, Rows{}, Scope(0))
}
