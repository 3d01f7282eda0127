package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/clitest"
	"github.com/relurl/relurl/rfc1808"
)

// These tests build the relurl binary and run it as a user does: arguments,
// standard input, standard output and error, exit status.

var relurlBin string

// TestMain builds the command once for every test. The long tests (the
// 1,699 pages, the archives, the memory bounds) call t.Parallel, so that
// they run beside each other, two at a time on a 2-core machine
// (-parallel is GOMAXPROCS), and the package keeps well within go test's
// bound of 10 minutes a package on a busy machine; the comparisons with
// Chromium, which take minutes more, are package
// cmd/relurl/internal/browsertest's.
func TestMain(m *testing.M) {
	if out := os.Getenv(rusageEnv); out != "" {
		measureChild(out)
		return
	}
	clitest.Main(m, ".", &relurlBin)
}

type result struct {
	stdout, stderr string
	code           int
	maxRSSKiB      int64
}

// relurlRun runs the binary with the given standard input and arguments.
func relurlRun(t *testing.T, stdin io.Reader, args ...string) result {
	t.Helper()
	r := clitest.Run(t, relurlBin, stdin, args...)
	return result{r.Stdout, r.Stderr, r.Code, r.MaxRSSKiB}
}

// check compares a run's outputs and status with what is wanted, as
// clitest.Check does.
func check(t *testing.T, r result, stdout, stderr string, code int) {
	t.Helper()
	clitest.Check(t, clitest.Result{Stdout: r.stdout, Stderr: r.stderr, Code: r.code, MaxRSSKiB: r.maxRSSKiB}, stdout, stderr, code)
}

func in(s string) io.Reader { return strings.NewReader(s) }

// cliTest is one run of the command: its standard input and arguments, and
// what it must print and exit with (see check for the patterns).
type cliTest struct {
	name   string
	stdin  string
	args   []string
	stdout string
	stderr string
	code   int
}

// runCLITests runs each test; none may take more than a few seconds, even
// those that wait for a slow server, since every limit is bounded.
func runCLITests(t *testing.T, tests []cliTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			check(t, relurlRun(t, in(tt.stdin), tt.args...), tt.stdout, tt.stderr, tt.code)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestSection5Golden runs the 39 examples of RFC 1808, Section 5 through
// "relurl resolve -pairs", one pair a line, the empty reference included.
func TestSection5Golden(t *testing.T) {
	f, err := os.Open("../../testdata/rfc1808-examples.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var input, want strings.Builder
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Split(sc.Text(), "\t")
		input.WriteString("http://a/b/c/d;p?q#f\t" + fields[1] + "\n")
		want.WriteString(fields[2] + "\n")
		n++
	}
	if n != 39 {
		t.Fatalf("%d examples, want 39", n)
	}
	check(t, relurlRun(t, in(input.String()), "resolve", "-pairs"), want.String(), "", 0)
}

func TestResolve(t *testing.T) {
	const base = "http://a/b/c/d;p?q#f"
	tests := []cliTest{
		{"arguments", "", []string{"resolve", base, "g", "../g", "", "?y"},
			"http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?q#f\nhttp://a/b/c/d;p?y\n", "", 0},
		{"-base and arguments", "", []string{"resolve", "-base", base, ";x"}, "http://a/b/c/d;x\n", "", 0},
		{"-base and stdin", "g\n../g\n\n#s\n", []string{"resolve", "-base", base},
			"http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?q#f\nhttp://a/b/c/d;p?q#s\n", "", 0},
		{"-base CRLF, no final newline", "g\r\n\r\n../g", []string{"resolve", "-base", base},
			"http://a/b/c/g\nhttp://a/b/c/d;p?q#f\nhttp://a/b/g\n", "", 0},
		{"-base empty input", "", []string{"resolve", "-base", base}, "", "", 0},
		{"-base empty base", "g\n", []string{"resolve", "-base", ""}, "g\n", "", 0},
		{"-pairs", "http://a/b/c\t../d\nhttp://x/y/\tz\r\nhttp://x/y/\t\n", []string{"resolve", "-pairs"},
			"http://a/d\nhttp://x/y/z\nhttp://x/y/\n", "", 0},
		{"-pairs without a tab", "http://a/b\tc\nnotab\nhttp://a/b\td\n", []string{"resolve", "-pairs"},
			"http://a/c\n\nhttp://a/d\n", "relurl resolve: line 2: no tab: want \"BASE<TAB>REF\"\n", 1},
		{"-pairs -strict", "http://a/b\tc\nnotab\nhttp://a/b\td\n", []string{"resolve", "-pairs", "-strict"},
			"http://a/c\n", "relurl resolve: line 2: no tab: want \"BASE<TAB>REF\"\n", 1},
		{"-pairs empty input", "", []string{"resolve", "-pairs"}, "", "", 0},

		{"no arguments", "", []string{"resolve"}, "", "relurl resolve: missing BASE and REF…", 2},
		{"BASE alone", "", []string{"resolve", base}, "", "relurl resolve: missing REF after BASE…", 2},
		{"-pairs with arguments", "", []string{"resolve", "-pairs", "x"}, "", "relurl resolve: -pairs reads standard input…", 2},
		{"-pairs and -base", "", []string{"resolve", "-pairs", "-base", "x"}, "", "relurl resolve: -pairs and -base exclude each other…", 2},
		{"unknown flag", "", []string{"resolve", "-x"}, "", "relurl resolve: flag provided but not defined: -x\nusage: relurl resolve…", 2},
		{"-h", "", []string{"resolve", "-h"}, "usage: relurl resolve…", "", 0},
	}
	runCLITests(t, tests)
}

// TestOverLongLine: a line over 1 MiB is reported with its number and
// gives an empty line (under -json, an object saying so), or stops the run
// with -strict; the lines around it are kept.
func TestOverLongLine(t *testing.T) {
	input := "g\n" + strings.Repeat("x", 1<<20+1) + "\r\nh\n" + strings.Repeat("y", 1<<20) + "\n"
	tooLong := "relurl resolve: line 2: longer than 1048576 bytes, skipped\n"
	r := relurlRun(t, in(input), "resolve", "-base", "http://a/")
	check(t, r, "http://a/g\n\nhttp://a/h\nhttp://a/"+strings.Repeat("y", 1<<20)+"\n", tooLong, 1)
	r = relurlRun(t, in(input), "resolve", "-base", "http://a/", "-strict")
	check(t, r, "http://a/g\n", tooLong, 1)

	// Under -json, the skipped line is an object too: one object per
	// input line, always, so that output and input stay paired.
	urls := "http://a/g\nhttp://a/" + strings.Repeat("x", 1<<20) + "\nhttp://a/h\n"
	for _, args := range [][]string{
		{"url", "-json", "-"}, {"parse", "-json", "-"}, {"parse", "-spec", "whatwg", "-json", "-"},
		{"validate", "-json", "-"}, {"validate", "-spec", "whatwg", "-json", "-"}, {"compare", "-json", "-base", "http://a/"},
	} {
		r := relurlRun(t, in(urls), args...)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if r.code != 1 || len(lines) != 3 || !strings.HasPrefix(lines[1], `{"line":2,`) || !strings.Contains(lines[1], "longer than 1048576 bytes, skipped") ||
			!strings.Contains(lines[2], "http://a/h") {
			t.Errorf("%v: exit %d, %d lines:\n%.300s", args, r.code, len(lines), r.stdout)
		}
		for _, l := range lines {
			if !json.Valid([]byte(l)) {
				t.Errorf("%v: not JSON: %.100s", args, l)
			}
		}
	}
}

// rusageEnv, set to a file name, makes the test binary a measuring parent:
// it runs the command of its arguments and writes the child's peak RSS (KiB)
// to that file. The peak RSS Linux reports for a child counts the memory of
// the process it was forked from, here the test binary with its data; a
// small parent of its own makes the figure the child's.
const rusageEnv = "RELURL_TEST_RUSAGE"

func measureChild(out string) {
	if as, err := strconv.ParseUint(os.Getenv(addressSpaceEnv), 10, 64); err == nil {
		// The child's memory limit (RLIMIT_AS), which it inherits.
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as})
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	clitest.StopWithTest(cmd) // killed with this process, by the test's time bound
	cmd.Run()
	var maxRSS int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = ru.Maxrss
	}
	var signal syscall.Signal
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		signal = ws.Signal()
	}
	os.WriteFile(out, fmt.Appendf(nil, "%d %d", maxRSS, signal), 0o644)
	os.Exit(cmd.ProcessState.ExitCode())
}

// addressSpaceEnv, set for measureChild, is the child's RLIMIT_AS in
// bytes.
const addressSpaceEnv = "RELURL_TEST_RLIMIT_AS"

// relurlMeasured runs the binary as relurlRun does, with its standard
// output going to stdout, and returns its exit status and its own peak RSS
// in KiB.
func relurlMeasured(t *testing.T, stdin io.Reader, stdout io.Writer, args ...string) (code int, maxRSSKiB int64, stderr string) {
	t.Helper()
	rss := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command(os.Args[0], append([]string{relurlBin}, args...)...)
	cmd.Env = append(os.Environ(), rusageEnv+"="+rss)
	var errBuf bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, &errBuf
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("relurl %q: %v", args, err)
	}
	b, err := os.ReadFile(rss)
	if err != nil {
		t.Fatal(err)
	}
	maxRSSKiB, _ = strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
	return cmd.ProcessState.ExitCode(), maxRSSKiB, errBuf.String()
}

// TestStreamingMemory pipes 64 MiB of pairs through resolve -pairs and
// checks the output line for line and that memory stayed far below the
// input's size.
func TestStreamingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB of input")
	}
	line := "https://docs.example.org/3/library/functions.html\t../reference/index.html#x\n"
	n := 64 << 20 / len(line)
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		for range n {
			w.WriteString(line)
		}
		w.Flush()
		pw.Close()
	}()
	var out bytes.Buffer
	code, maxRSS, stderr := relurlMeasured(t, pr, &out, "resolve", "-pairs")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := "https://docs.example.org/3/reference/index.html#x\n"
	got := out.String()
	if len(got) != n*len(want) || got[:len(want)] != want || got[len(got)-len(want):] != want {
		t.Errorf("output has %d bytes, want %d lines of %q", len(got), n, want)
	}
	if maxRSS > 48<<10 {
		t.Errorf("max RSS %d KiB for 64 MiB of input: memory grows with the input", maxRSS)
	}
}

// TestOutputMemory: what a line prints does not pile up. A 2 KiB base
// and half a million empty references print a gigabyte, in pieces whose
// buffers are used again (with a new buffer for each piece, the collector
// fell behind on a busy machine: 140 to 254 MB for this run). The bound
// is the README's constant memory, asserted as peak RSS.
func TestOutputMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a gigabyte of output")
	}
	const lines = 512 << 10
	base := "http://a/" + strings.Repeat("b", 2<<10)
	var out countingWriter
	code, maxRSS, stderr := relurlMeasured(t, strings.NewReader(strings.Repeat("\n", lines)), &out, "resolve", "-base", base)
	if code != 0 || stderr != "" || out.lines != lines {
		t.Fatalf("exit %d, %d lines, stderr %q", code, out.lines, stderr)
	}
	if maxRSS > 100<<10 {
		t.Errorf("peak RSS %d KiB for a gigabyte of output, over 100 MB: the output piles up", maxRSS)
	}
	t.Logf("peak RSS %d KiB", maxRSS)
}

// TestRealPairs resolves the 207,861 pairs of the shared data through the
// command and checks every line against the library.
func TestRealPairs(t *testing.T) {
	f, err := os.Open("../../../shared/data/doc-links.tsv.gz")
	if err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	r := relurlRun(t, bytes.NewReader(data), "resolve", "-pairs")
	check(t, r, "*", "", 0)
	got := strings.Split(r.stdout, "\n")
	pairs := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(got) != len(pairs)+1 {
		t.Fatalf("%d output lines for %d pairs", len(got)-1, len(pairs))
	}
	for i, p := range pairs {
		base, ref, _ := strings.Cut(p, "\t")
		if want := rfc1808.Resolve(base, ref); got[i] != want {
			t.Fatalf("line %d: %q, want %q", i+1, got[i], want)
		}
	}
}

func TestParse(t *testing.T) {
	r := relurlRun(t, nil, "parse", "http://a/b/c/d;p?q#f", "g?#")
	check(t, r, `"http://a/b/c/d;p?q#f"
  scheme    "http" (generic-RL)
  net_loc   "a"
  path      "b/c/d" (after "/")
  params    "p"
  query     "q"
  fragment  "f"
  form      generic-RL
  valid     yes

"g?#"
  scheme    (absent)
  net_loc   (absent)
  path      "g"
  params    (absent)
  query     ""
  fragment  ""
  form      rel_path
  valid     yes

`, "", 0)

	r = relurlRun(t, nil, "parse", "http://a/b c")
	check(t, r, "*", "", 0)
	if !strings.Contains(r.stdout, `  valid     no: offset 10: " " is not allowed in path (pchar)`) {
		t.Errorf("parse of an invalid URL:\n%s", r.stdout)
	}
}

func TestParseJSON(t *testing.T) {
	r := relurlRun(t, in("//h\nmailto:x@y\n"), "parse", "-json", "-")
	check(t, r, "*", "", 0)
	r2 := relurlRun(t, nil, "parse", "-json", "http://a/b c", "g;p?q#f")
	check(t, r2, "*", "", 0)
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout+r2.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		objs = append(objs, m)
	}
	if len(objs) != 4 {
		t.Fatalf("%d objects, want 4", len(objs))
	}
	netPath, mailto, bad, rel := objs[0], objs[1], objs[2], objs[3]
	expect := func(m map[string]any, key string, want any) {
		t.Helper()
		if got := m[key]; got != want {
			t.Errorf("%v: %s = %#v, want %#v", m["url"], key, got, want)
		}
	}
	expect(netPath, "net_loc", "h")
	expect(netPath, "scheme", nil)
	expect(netPath, "form", "net_path")
	expect(netPath, "path", "")
	expect(netPath, "abs_path", false)
	expect(mailto, "scheme_category", "never-relative")
	expect(mailto, "form", "generic-RL")
	expect(bad, "valid", false)
	expect(bad, "form", nil)
	if e, ok := bad["error"].(map[string]any); !ok || e["offset"] != 10.0 || e["text"] != " " || e["rule"] != "path (pchar)" {
		t.Errorf("error of an invalid URL: %#v", bad["error"])
	}
	expect(rel, "params", "p")
	expect(rel, "query", "q")
	expect(rel, "fragment", "f")
	expect(rel, "error", nil)
	expect(rel, "valid", true)
}

func TestValidate(t *testing.T) {
	check(t, relurlRun(t, nil, "validate", "http://a/b;p?q", "../g", "#f"), "", "", 0)
	check(t, relurlRun(t, nil, "validate", "http://a/b c", "ok", "a%zz"), "",
		"http://a/b c: offset 10: \" \" is not allowed in path (pchar)\n"+
			"a%zz: offset 1: \"%zz\" is an invalid escape (escape = \"%\" hex hex)\n", exitFound)
	check(t, relurlRun(t, nil, "validate", "-q", "http://a/b c"), "", "", exitFound)
	check(t, relurlRun(t, in("ok\r\nb c\n\ngood"), "validate", "-"), "", "line 2: b c: offset 1: \" \" is not allowed in path (pchar)\n", exitFound)
	check(t, relurlRun(t, in("ok\nfine"), "validate", "-"), "", "", 0)
	check(t, relurlRun(t, in(""), "validate", "-"), "", "", 0)
	check(t, relurlRun(t, nil, "validate"), "", "relurl validate: missing URL…", 2)
}

func TestCommandLine(t *testing.T) {
	check(t, relurlRun(t, nil, "version"), "relurl v…", "", 0)
	// Built from a checkout (with -buildvcs=auto, whatever GOFLAGS says),
	// it names the commit.
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		check(t, relurlRun(t, nil, "version"), "relurl "+devVersion+" (commit "+strings.TrimSpace(string(head))+"…", "", 0)
	}
	check(t, relurlRun(t, nil, "version", "x"), "", "relurl version: unexpected argument…", 2)
	check(t, relurlRun(t, nil), "", "relurl resolves…", 2)
	check(t, relurlRun(t, nil, "frobnicate"), "", "relurl: unknown command \"frobnicate\"\n…", 2)
	check(t, relurlRun(t, nil, "help"), "relurl resolves…", "", 0)
	check(t, relurlRun(t, nil, "help", "parse"), "usage: relurl parse…", "", 0)
	check(t, relurlRun(t, nil, "parse"), "", "relurl parse: missing URL…", 2)
	check(t, relurlRun(t, nil, "parse", "-bogus"), "", "relurl parse: flag provided but not defined…", 2)
}
