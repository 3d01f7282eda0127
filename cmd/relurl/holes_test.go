//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests pin the holes of the second hostile kit (docs/reliability.md,
// "The second kit"), each failing on 0f3cd26.

// TestCrashIsNotUsage: relurl out of memory (here under a 2 GiB limit,
// told to take a 4 GiB document) ends by SIGABRT, 134 in a shell, never
// with 2, the exit table's usage error, which Go's runtime gives a crash.
func TestCrashIsNotUsage(t *testing.T) {
	r := runBounded(t, &endless{chunk: []byte("<a href=x>")}, 2<<30, "rewrite", "-absolute", "-url", "https://x.example/", "-max-size", "4294967296", "-")
	if r.signal != syscall.SIGABRT || !strings.Contains(r.stderr, "out of memory") {
		t.Errorf("exit %d, signal %v, stderr %.200q; want SIGABRT and out of memory", r.code, r.signal, r.stderr)
	}
}

// TestIterateStreams: four -iterate of 100 values are 10^8 URLs; the
// first are written at once, in little memory (it built every
// combination first, printed nothing and died at 2.1 GB).
func TestIterateStreams(t *testing.T) {
	values := make([]string, 100)
	for i := range values {
		values[i] = string(rune('a'+i%26)) + strings.Repeat("x", i/26)
	}
	v := strings.Join(values, " ")
	// Run by the measuring parent (measureChild), whose peak RSS is the
	// child's alone.
	rss := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command(os.Args[0], relurlBin, "url", "https://a.example/", "-iterate", "path="+v, "-iterate", "query="+v, "-iterate", "fragment="+v, "-iterate", "user="+v)
	cmd.Env = append(os.Environ(), rusageEnv+"="+rss)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	done := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var lines []string
		for len(lines) < 200_000 && sc.Scan() {
			lines = append(lines, sc.Text())
		}
		done <- lines
	}()
	select {
	case lines := <-done:
		if len(lines) != 200_000 || lines[0] != "https://a@a.example/a?a#a" || lines[1] != "https://b@a.example/a?a#a" {
			t.Errorf("%d lines, the first %q", len(lines), lines[:min(2, len(lines))])
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no 200,000 lines within a minute")
	}
	out.Close() // relurl ends by SIGPIPE, and its parent writes its peak RSS
	cmd.Wait()
	var kib int64
	b, err := os.ReadFile(rss)
	if _, serr := fmt.Sscan(string(b), &kib); err != nil || serr != nil {
		t.Fatalf("no peak RSS: %v %v", err, serr)
	}
	if kib > 200<<10 {
		t.Errorf("peak RSS %d KiB writing the first 200,000 of 10^8 URLs", kib)
	}
}

// TestCutDocumentSaysSo: a feed cut by -max-size is said to be, not a
// bare "XML syntax error: unexpected EOF".
func TestCutDocumentSaysSo(t *testing.T) {
	feed := filepath.Join(t.TempDir(), "feed.rss")
	os.WriteFile(feed, []byte(`<?xml version="1.0"?>`+"\n"+`<rss version="2.0"><channel><link x="`+strings.Repeat("a", 5000)+`">http://a/</link></channel></rss>`), 0o644)
	r := relurlRun(t, nil, "links", "-max-size", "1000", feed)
	check(t, r, "", "*/feed.rss is larger than the size limit of 1000 bytes, cut there (-max-size): XML syntax error on line 2: unexpected EOF\n", exitFailed)
}

// TestLinksOfAnchorsMemory: 6 million <a href> in a 66 MB page, with
// -json's positions and anchor texts, and checked, stay within the
// README's 3 × the page's size and 55 MB, and for check the 32 MiB of
// links it holds before they spill to a temporary file. Each waiting
// link's rel, text and position took a 48-byte record (links -json: 401
// MB), and check kept 490 bytes a link (past 4 GB).
func TestLinksOfAnchorsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a page of 6 million links")
	}
	const n = 6_000_000
	body := strings.Repeat("<a href=/x>", n)
	page := filepath.Join(t.TempDir(), "anchors.html")
	if err := os.WriteFile(page, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	bound := int64(3*len(body)/1024 + 55<<10)
	for _, args := range [][]string{
		{"links", "-json", "-max-size", fmt.Sprint(len(body)), page},
		{"check", "-offline", "-max-size", fmt.Sprint(len(body)), page},
	} {
		var out countingWriter
		code, maxRSS, stderr := relurlMeasured(t, nil, &out, args...)
		if code != exitOK && code != exitFound {
			t.Fatalf("%v: exit %d, stderr %q", args[0], code, stderr)
		}
		bound := bound
		if args[0] == "check" {
			bound += 32 << 10
		}
		t.Logf("%s: peak RSS %d KiB, bound %d KiB", args[0], maxRSS, bound)
		if maxRSS > bound {
			t.Errorf("%s: peak RSS %d KiB for %d links, over %d KiB", args[0], maxRSS, n, bound)
		}
	}
}
