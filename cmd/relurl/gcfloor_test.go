package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A small run collects no garbage (setHeapFloor): checking 120 documents
// of Markdown (1 MB) spends nothing on the collector, where Go's default
// collects a few times.
// A run that holds more than the floor collects as Go's default has it:
// the links of a 48 MB document, held whole.
func TestHeapFloor(t *testing.T) {
	collections := func(args ...string) (int, []string) {
		t.Helper()
		cmd := exec.Command(relurlBin, args...)
		cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1")
		out, _ := cmd.CombinedOutput()
		gcs := regexp.MustCompile(`(?m)^gc \d+ .*`).FindAllString(string(out), -1)
		return len(gcs), gcs
	}
	tree := t.TempDir()
	for i := range 120 {
		var md strings.Builder
		for j := range 100 {
			fmt.Fprintf(&md, "## Part %d\n\nSee [the next](%d.md#part-%d), <span class=\"x\">or</span> [this one](#part-%d).\n\n", j, (i+1)%120, j, j)
		}
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("%d.md", i)), []byte(md.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n, gcs := collections("check", "-offline", tree); n != 0 {
		t.Errorf("a check of 120 small documents collected %d times: %s", n, strings.Join(gcs, "\n"))
	}
	big := filepath.Join(t.TempDir(), "big.md")
	if err := os.WriteFile(big, []byte(strings.Repeat("[a](b.md) and some text around the link.\n", 1_200_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, _ := collections("links", "-tsv", big); n == 0 {
		t.Errorf("links of a 48 MB document held whole: no collection")
	}
}
