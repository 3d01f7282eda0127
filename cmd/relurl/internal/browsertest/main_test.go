// Package browsertest holds relurl's command to outside references:
// headless Chromium (Debian's chromium package) for the links of pages and
// of moved sites, and wget's --convert-links for comparison. Its tests
// skip, saying so, where the browser is not installed; .ci/run installs it.
// They live apart from cmd/relurl's own tests so that each package keeps
// well within go test's bound of 10 minutes a package on a busy 2-core
// machine: loading the 1,699 pages in Chromium alone takes minutes.
package browsertest

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/clitest"
)

var relurlBin string

func TestMain(m *testing.M) { clitest.Main(m, filepath.Join("..", ".."), &relurlBin) }

func relurlRun(t *testing.T, stdin io.Reader, args ...string) clitest.Result {
	t.Helper()
	return clitest.Run(t, relurlBin, stdin, args...)
}

func check(t *testing.T, r clitest.Result, stdout, stderr string, code int) {
	t.Helper()
	clitest.Check(t, r, stdout, stderr, code)
}

func in(s string) io.Reader { return strings.NewReader(s) }

// docPages writes the 1,699 pages of ../shared/data once, as
// clitest.DocPages does, and returns their directory.
func docPages(t *testing.T) string {
	return clitest.DocPages(t, filepath.Join("..", "..", "..", "..", "..", "shared", "data"))
}
