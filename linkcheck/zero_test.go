package linkcheck

import (
	"testing"

	"github.com/relurl/relurl/internal/zerotest"
)

// TestZeroValues: no exported method of the package's types panics on a
// zero value (or a pointer to one), with zero arguments.
func TestZeroValues(t *testing.T) {
	zerotest.Check(t, Cache{}, Summary{}, CrawlOptions{}, CrawlResult{}, CrawlStage(0), Format(0), Link{}, Options{}, Report{}, ReportOptions{}, Result{}, SitemapCounts{}, State(0))
}
