// Package nodeoracle runs Node's URL and URLSearchParams, the URL
// Standard's oracle in relurl's differential tests, over many inputs at
// once.
package nodeoracle

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Run runs script with node, its standard input a JSON line for each of
// inputs, and returns the lines it writes: one for each input, as the
// differential tests' scripts answer. It stops node after timeout.
func Run(t testing.TB, node, script string, inputs []any, timeout time.Duration) [][]byte {
	t.Helper()
	var in bytes.Buffer
	for _, v := range inputs {
		line, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(line)
		in.WriteByte('\n')
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", script)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) != len(inputs) {
		t.Fatalf("node answered %d of %d inputs", len(lines), len(inputs))
	}
	return lines
}

// Version returns what node --version says, trimmed.
func Version(node string) string {
	out, _ := exec.Command(node, "--version").Output()
	return strings.TrimSpace(string(out))
}
