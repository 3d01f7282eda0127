// Package clitest runs relurl's command as its end-to-end tests do: built
// once from source, run with a standard input and arguments, its outputs
// and exit status compared with what is wanted. It serves the tests of
// cmd/relurl and of the packages beside it that hold the command to
// outside references (headless Chromium, wget), which live in packages of
// their own so that each keeps well within go test's bound of 10 minutes
// a package on a busy machine.
package clitest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl/internal/docpages"
)

// tmp is the directory Main made for the test binary's run: the command's
// build and the pages DocPages writes.
var tmp string

// Main builds the command in the directory cmdDir into a temporary
// directory, sets *bin to the binary, runs the tests and removes the
// directory, and exits with the tests' status: a test package's TestMain.
func Main(m *testing.M, cmdDir string, bin *string) {
	var err error
	tmp, err = os.MkdirTemp("", "relurl-test")
	if err != nil {
		panic(err)
	}
	*bin, err = Build(cmdDir, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

var (
	pagesOnce sync.Once
	pagesDir  string
	pagesErr  error
)

// DocPages writes the 1,699 pages of the shared tarballs in the directory
// sharedData (../shared/data), as python/… and postgresql/…, once for the
// test binary's run, into the directory Main removes, and returns their
// directory. It skips the test, naming what is missing, without them.
func DocPages(t testing.TB, sharedData string) string {
	t.Helper()
	pagesOnce.Do(func() {
		pagesDir = filepath.Join(tmp, "pages")
		pagesErr = docpages.Write(sharedData, pagesDir)
	})
	if pagesErr != nil {
		t.Skipf("no shared data (%v)", pagesErr)
	}
	return pagesDir
}

// Build builds the command in the directory of package cmd/relurl into
// dir, with the VCS stamp a user's build would have, and returns the
// binary's path. RELURL_TEST_BINARY, when set, names another build to run
// instead, to see which tests an older relurl fails
// (docs/reliability.md).
func Build(cmdDir, dir string) (string, error) {
	if other := os.Getenv("RELURL_TEST_BINARY"); other != "" {
		return other, nil
	}
	bin := filepath.Join(dir, "relurl")
	cmd := exec.Command("go", "build", "-buildvcs=auto", "-o", bin, ".")
	cmd.Dir = cmdDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New("building relurl: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
}

// A Result is what one run of the command printed, its exit status, and
// its peak resident memory.
type Result struct {
	Stdout, Stderr string
	Code           int
	MaxRSSKiB      int64
}

// Run runs the binary bin with the given standard input and arguments. A
// run that cannot start fails the test; a non-zero exit is a Result.
func Run(t testing.TB, bin string, stdin io.Reader, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("relurl %q: %v", args, err)
	}
	return Result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode(), maxRSSKiB(cmd.ProcessState)}
}

// Check compares a run's outputs and status with what is wanted; a want
// field of "*" accepts anything, one ending in "…" is a prefix, and one
// starting with "*" a suffix.
func Check(t testing.TB, r Result, stdout, stderr string, code int) {
	t.Helper()
	if !Match(r.Stdout, stdout) {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.Stdout, stdout)
	}
	if !Match(r.Stderr, stderr) {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.Stderr, stderr)
	}
	if r.Code != code {
		t.Errorf("exit status %d, want %d (stderr %q)", r.Code, code, r.Stderr)
	}
}

// Match reports whether got is what want accepts, with Check's patterns.
func Match(got, want string) bool {
	if want == "*" {
		return true
	}
	if p, ok := strings.CutSuffix(want, "…"); ok {
		return strings.HasPrefix(got, p)
	}
	if s, ok := strings.CutPrefix(want, "*"); ok {
		return strings.HasSuffix(got, s)
	}
	return got == want
}
