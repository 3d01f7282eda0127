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
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl/internal/clitest"
	"github.com/relurl/relurl/internal/docpages"
)

var relurlBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "relurl-browsertest")
	if err != nil {
		panic(err)
	}
	relurlBin, err = clitest.Build(filepath.Join("..", ".."), dir)
	if err != nil {
		os.RemoveAll(dir)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func relurlRun(t *testing.T, stdin io.Reader, args ...string) clitest.Result {
	t.Helper()
	return clitest.Run(t, relurlBin, stdin, args...)
}

func check(t *testing.T, r clitest.Result, stdout, stderr string, code int) {
	t.Helper()
	clitest.Check(t, r, stdout, stderr, code)
}

func in(s string) io.Reader { return strings.NewReader(s) }

var (
	pagesOnce sync.Once
	pagesDir  string
	pagesErr  error
)

// docPages writes the 1,699 pages of ../shared/data, as docpages lays
// them out, once, and returns their directory. It skips the test, naming
// what is missing, where ../shared is not beside the checkout.
func docPages(t *testing.T) string {
	pagesOnce.Do(func() {
		pagesDir = filepath.Join(filepath.Dir(relurlBin), "pages")
		pagesErr = docpages.Write(filepath.Join("..", "..", "..", "..", "..", "shared", "data"), pagesDir)
	})
	if pagesErr != nil {
		t.Skipf("no shared data (%v)", pagesErr)
	}
	return pagesDir
}
