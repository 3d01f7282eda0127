package source

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	// An Object is what Options.Open returns, its reader embedded: its
	// zero value is none.
	zerotest.Check(t, Error{}, Map{}, Options{}, Retry{}, S3Options{}, StatusError{})
}
