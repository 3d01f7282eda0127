package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/clitest"
)

// A consoleCommand is one "$ ..." of a README console block and what the
// block shows it printing, standard error included.
type consoleCommand struct {
	command, output string
}

// consoleCommands returns the commands of the ```console blocks of a
// Markdown text. A command with no output shown is joined to the next,
// as a shell session runs them ("$ cd x" then "$ relurl ...").
func consoleCommands(markdown string) [][]consoleCommand {
	var blocks [][]consoleCommand
	for _, part := range strings.Split(markdown, "```console\n")[1:] {
		body, _, _ := strings.Cut(part, "```")
		var block []consoleCommand
		for line := range strings.Lines(body) {
			if cmd, ok := strings.CutPrefix(line, "$ "); ok {
				block = append(block, consoleCommand{command: strings.TrimSuffix(cmd, "\n")})
			} else if len(block) > 0 {
				block[len(block)-1].output += line
			}
		}
		blocks = append(blocks, block)
	}
	return blocks
}

// TestREADMEConsole runs every console block of the README, and of the
// reference documents in docs/, as a user would, from the root of a checkout with ../shared beside it, relurl on
// the PATH, and checks what each command prints, byte for byte. The blocks
// run in a directory of their own, so that the files they write (a
// tarball unpacked, a graph) go nowhere else.
func TestREADMEConsole(t *testing.T) {
	if _, err := os.Stat("../../../shared/data"); err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	repo, _ := filepath.Abs("../..")
	shared, _ := filepath.Abs("../../../shared")
	root := t.TempDir()
	dir := filepath.Join(root, "main")
	os.Mkdir(dir, 0o755)
	os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(dir, "testdata"))
	os.Symlink(shared, filepath.Join(root, "shared"))
	path := filepath.Dir(relurlBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	n := 0
	for _, doc := range append([]string{"../../README.md"}, docs...) {
		n += runConsoleBlocks(t, doc, dir, path)
	}
	t.Logf("%d commands of README.md and docs/*.md run, their output checked", n)
}

// runConsoleBlocks runs the console blocks of the Markdown file doc in dir,
// with PATH path, and returns how many commands it ran.
func runConsoleBlocks(t *testing.T, doc, dir, path string) int {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(doc, "../../")
	n := 0
	for _, block := range consoleCommands(string(text)) {
		for _, c := range block {
			if strings.Contains(c.command, "| jq") {
				if _, err := exec.LookPath("jq"); err != nil {
					if os.Getenv("CI") != "" {
						t.Fatal("CI needs jq: .ci/run installs it")
					}
					continue
				}
			}
			cmdPath := path
			if strings.HasPrefix(c.command, "duckdb ") {
				// DuckDB's command line, from PyPI's duckdb-cli: .ci/run
				// installs it and names it in RELURL_DUCKDB.
				duckdb := os.Getenv("RELURL_DUCKDB")
				if duckdb == "" {
					if os.Getenv("CI") != "" {
						t.Fatal("CI needs duckdb: .ci/run installs it and sets RELURL_DUCKDB")
					}
					continue
				}
				cmdPath = filepath.Dir(duckdb) + string(os.PathListSeparator) + path
			}
			// Each command is bounded: one that hangs (a server that never
			// answers) fails here, not at the whole run's -timeout.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			cmd := exec.CommandContext(ctx, "bash", "-c", c.command)
			clitest.StopWithTest(cmd)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+cmdPath)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			timedOut := ctx.Err() != nil
			cancel()
			if timedOut {
				t.Errorf("%s: $ %s did not end in 3 minutes", name, c.command)
			}
			if !shows(c.output, stdout.String(), stderr.String()) {
				t.Errorf("%s: $ %s\nprints\n%s%s\n%s shows\n%s", name, c.command, stdout.String(), stderr.String(), name, c.output)
			}
			n++
		}
	}
	return n
}

// shows reports whether a console block shows what a command printed: a
// terminal interleaves standard output and standard error as they come,
// so the block must hold every line of standard error, somewhere, and
// the rest of its lines must be standard output, in order. Blank lines at
// the end, which part commands in a block, do not count.
func shows(block, stdout, stderr string) bool {
	rest := strings.Split(strings.TrimRight(block, "\n"), "\n")
	for _, line := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if line == "" {
			continue
		}
		i := slices.Index(rest, line)
		if i < 0 {
			return false
		}
		rest = slices.Delete(rest, i, i+1)
	}
	return strings.Join(rest, "\n") == strings.TrimRight(stdout, "\n")
}
