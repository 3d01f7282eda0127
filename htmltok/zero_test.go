package htmltok

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	// A Tokenizer is made by New: its zero value is none.
	zerotest.Check(t, Attr{}, Kind(0), Span{}, State(0))
}
