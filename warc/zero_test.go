package warc

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	// A Reader is made by NewReader: its zero value is none.
	zerotest.Check(t, FormatError{}, ReadError{}, Record{})
}
