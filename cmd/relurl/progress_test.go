package main

import (
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/corpus"
)

// The progress line appears only on a terminal, at most a few times a
// second, and is erased before anything else is written. (The end-to-end
// tests check that pipes never see it.)
func TestProgress(t *testing.T) {
	var stderr strings.Builder
	p := (&env{stderr: &stderr, stderrIsTTY: true}).newProgress()
	p.show(10) // too soon after the start
	if stderr.Len() != 0 {
		t.Errorf("progress shown at once: %q", stderr.String())
	}
	p.start, p.last = p.start.Add(-2*time.Second), p.last.Add(-time.Second)
	p.show(4000)
	if got := stderr.String(); !strings.HasPrefix(got, "\r\x1b[Krelurl: 4000 lines, ") || !strings.HasSuffix(got, " lines/s") {
		t.Errorf("progress line %q", got)
	}
	p.last = p.last.Add(-time.Second)
	stderr.Reset()
	p.showDocs(&corpus.Stats{Documents: 12, Bytes: 3e6, Links: 345})
	if got := stderr.String(); !strings.HasPrefix(got, "\r\x1b[Krelurl: 12 documents, 3.0 MB, 345 links, ") || !strings.HasSuffix(got, " MB/s") {
		t.Errorf("progress line %q", got)
	}
	stderr.Reset()
	p.clear()
	p.clear()
	if got := stderr.String(); got != "\r\x1b[K" {
		t.Errorf("clear wrote %q, want one erase", got)
	}

	stderr.Reset()
	p = (&env{stderr: &stderr, stderrIsTTY: false}).newProgress()
	p.last = p.last.Add(-time.Second)
	p.show(4000)
	p.clear()
	if stderr.Len() != 0 {
		t.Errorf("progress written to a non-terminal: %q", stderr.String())
	}
}

// On a terminal that shows both, the progress line is erased before the
// output is written, not only before messages.
func TestProgressBeforeOutput(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var stdout, stderr strings.Builder
		e := &env{stdout: &stdout, stderr: &stderr, stderrIsTTY: true, stdoutIsTTY: tty}
		p := e.newProgress()
		p.start, p.last = p.start.Add(-2*time.Second), p.last.Add(-time.Second)
		p.show(4000)
		status := 0
		e.writer(p, &status)([]byte("http://a/\n"), nil)
		erased := strings.HasSuffix(stderr.String(), "\r\x1b[K")
		if erased != tty || stdout.String() != "http://a/\n" {
			t.Errorf("stdout a terminal %v: progress erased %v, stdout %q", tty, erased, stdout.String())
		}
	}
}
