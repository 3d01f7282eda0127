package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helpExample is one "$ relurl ..." of a command's -h, with the output
// shown under it, if any.
type helpExample struct {
	command string
	output  string
	shown   bool // the help shows what it prints
}

// helpExamples parses the Examples section of a command's help: "$ "
// lines (a line ending in "\" goes on in the next), then the lines of
// output up to a blank line or the next "$".
func helpExamples(help string) []helpExample {
	_, section, ok := strings.Cut(help, "\nExamples:\n")
	if !ok {
		return nil
	}
	section, _, _ = strings.Cut(section, "\nFlags:")
	var examples []helpExample
	var cur *helpExample
	continued := false
	for line := range strings.Lines(section) {
		line = strings.TrimSuffix(line, "\n")
		text := strings.TrimPrefix(line, "  ")
		switch {
		case continued:
			cur.command += " " + strings.TrimSpace(strings.TrimSuffix(text, "\\"))
			continued = strings.HasSuffix(text, "\\") || strings.HasSuffix(text, "|")
		case strings.HasPrefix(text, "$ "):
			examples = append(examples, helpExample{command: strings.TrimSuffix(text[2:], "\\")})
			cur = &examples[len(examples)-1]
			continued = strings.HasSuffix(text, "\\") || strings.HasSuffix(text, "|")
		case strings.TrimSpace(line) == "":
			cur = nil
		case cur != nil:
			cur.output += text + "\n"
			cur.shown = true
		}
	}
	return examples
}

// needsOwnFiles are the names examples use for the reader's own files and
// sites; the examples that use them cannot run here.
var needsOwnFiles = []string{"page.html", " docs", " site", "crawl.warc.gz", "urls.txt", "find archive", "warc.paths.gz", "https://www.example.org/"}

// TestHelpExamples runs every example of every command's -h that needs
// nothing but relurl (and jq): each that shows its output must print it,
// byte for byte; the others must succeed.
func TestHelpExamples(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(relurlBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	checked, ran, skipped := 0, 0, 0
	for _, c := range commands {
		r := relurlRun(t, nil, c.name, "-h")
		for _, ex := range helpExamples(r.stdout + r.stderr) {
			if slicesContainsAny(ex.command, needsOwnFiles) {
				skipped++
				continue
			}
			if strings.Contains(ex.command, "| jq") {
				if _, err := exec.LookPath("jq"); err != nil {
					if os.Getenv("CI") != "" {
						t.Fatal("CI needs jq: .ci/run installs it")
					}
					skipped++
					continue
				}
			}
			cmd := exec.Command("bash", "-o", "pipefail", "-c", ex.command)
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "PATH="+path)
			out, err := cmd.CombinedOutput()
			switch {
			case ex.shown && string(out) != ex.output:
				t.Errorf("relurl %s -h: $ %s\nprints\n%s\nthe help shows\n%s", c.name, ex.command, out, ex.output)
			case !ex.shown && err != nil:
				t.Errorf("relurl %s -h: $ %s\nfails: %v\n%s", c.name, ex.command, err, out)
			}
			if ex.shown {
				checked++
			} else {
				ran++
			}
		}
	}
	t.Logf("help examples: %d with their output checked, %d run, %d left out (the reader's own files)", checked, ran, skipped)
	if checked < 8 {
		t.Errorf("only %d examples checked: the parser of the help misses some", checked)
	}
}

func slicesContainsAny(s string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// TestDidYouMean: a mistyped command or flag gets the nearest name.
func TestDidYouMean(t *testing.T) {
	runCLITests(t, []cliTest{
		{"a command", "", []string{"lnks", "x"}, "", "relurl: unknown command \"lnks\" (did you mean \"links\"?)\n…", 2},
		{"a command in capitals", "", []string{"RESOLVE", "x"}, "", "relurl: unknown command \"RESOLVE\" (did you mean \"resolve\"?)\n…", 2},
		{"nothing near", "", []string{"zzzzzz"}, "", "relurl: unknown command \"zzzzzz\"\n…", 2},
		{"a flag", "", []string{"links", "-jsn", "x"}, "", "relurl links: flag provided but not defined: -jsn (did you mean \"-json\"?)\n…", 2},
		{"a flag with two dashes", "", []string{"resolve", "--pair"}, "", "relurl resolve: flag provided but not defined: -pair (did you mean \"-pairs\"?)\n…", 2},
	})
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"links", "links", 0}, {"lnks", "links", 1}, {"tvs", "tsv", 2}, {"", "abc", 3}, {"kitten", "sitting", 3}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestClosedPipe: a reader that stops reading (| head -1) ends relurl by
// SIGPIPE, quietly, as Unix tools end, not by exit status 3.
func TestClosedPipe(t *testing.T) {
	_, _ = localCrawl(t)
	cmd := exec.Command(relurlBin, "links", "-tsv", docsCrawl)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first := make([]byte, 100)
	if _, err := io.ReadFull(out, first); err != nil {
		t.Fatal(err)
	}
	out.Close()
	cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE || stderr.String() != "" {
		t.Errorf("ended %v, stderr %q: want SIGPIPE (status 141 in a shell) and nothing said", cmd.ProcessState, stderr.String())
	}
}

// TestSIGTERM: SIGTERM while standard output waits for a slow reader ends
// relurl after the lines being written, never in the middle of one, and by
// the signal. (Without care, half the runs end in half a line: the pipe
// takes part of a write, and the signal ends the rest.)
func TestSIGTERM(t *testing.T) {
	_, want := localCrawl(t)
	for try := range 6 {
		cmd := exec.Command(relurlBin, "links", "-tsv", docsCrawl)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var got []byte
		buf := make([]byte, 1000)
		for start := time.Now(); time.Since(start) < time.Duration(300+50*try)*time.Millisecond; {
			n, _ := out.Read(buf) // a slow reader: the pipe has room for part of a write at a time
			got = append(got, buf[:n]...)
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		rest, _ := io.ReadAll(out)
		got = append(got, rest...)
		cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if len(got) == 0 || got[len(got)-1] != '\n' || !strings.HasPrefix(want, string(got)) || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("try %d: %d bytes, ending %q, %v: want whole lines, the start of the output, and SIGTERM", try, len(got), got[max(len(got)-20, 0):], cmd.ProcessState)
		}
	}
}
