package links

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	zerotest.Check(t, Base{}, BaseFrom(0), Doc{}, Extractor{}, Format(0), Handler{}, Link{}, Loss{}, ReadError{}, Site{})
}
