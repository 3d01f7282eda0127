package relurl

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// nodeScript reads lines of JSON [base, input] and writes, for each, the
// href of new URL(input, base) (new URL(input) for a null base) as a JSON
// string, or null when it throws.
const nodeScript = `
const rl = require("readline").createInterface({input: process.stdin});
const out = [];
rl.on("line", line => {
  const [base, input] = JSON.parse(line);
  let href = null;
  try { href = (base === null ? new URL(input) : new URL(input, base)).href; } catch (e) {}
  out.push(JSON.stringify(href));
});
rl.on("close", () => process.stdout.write(out.join("\n") + "\n"));
`

// TestAgainstNode compares relurl's WHATWG parser with Node's URL (the ada
// parser) on real pairs: the 207,861 links of the Python and PostgreSQL
// docs, the 48,009 web URLs, and the references of the README's comparison
// table against RFC 1808's base. It skips without node or the shared data.
// (Node's ada may lag the Standard on edge cases, which is why the
// Standard's own tests are TestURLTestData's, not this one's.)
func TestAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: no differential test against its URL parser")
	}
	if testing.Short() {
		t.Skip("a quarter of a million URLs")
	}
	type job struct{ base, input *string }
	var jobs []job
	for _, p := range loadPairs(t) {
		jobs = append(jobs, job{&p.base, &p.ref})
	}
	for _, u := range loadURLs(t) {
		jobs = append(jobs, job{nil, &u})
	}
	refs, err := os.ReadFile("testdata/compare-refs.txt")
	if err != nil {
		t.Fatal(err)
	}
	base := rfcBase
	for _, r := range strings.Split(strings.TrimSuffix(string(refs), "\n"), "\n") {
		jobs = append(jobs, job{&base, &r})
	}

	inputs := make([]any, len(jobs))
	for i, j := range jobs {
		inputs[i] = []*string{j.base, j.input}
	}
	lines := runNode(t, node, nodeScript, inputs, 2*time.Minute)
	agree, i := 0, 0
	for ; i < len(lines) && i < len(jobs); i++ {
		var want *string
		if err := json.Unmarshal(lines[i], &want); err != nil {
			t.Fatalf("node's line %d: %v", i+1, err)
		}
		j := jobs[i]
		var u WebURL
		var err error
		if j.base == nil {
			u, err = ParseWeb(*j.input)
		} else if b, berr := ParseWeb(*j.base); berr != nil {
			err = berr
		} else {
			u, err = b.Parse(*j.input)
		}
		got := &u.href
		if err != nil {
			got = nil
		}
		if (got == nil) == (want == nil) && (got == nil || *got == *want) {
			agree++
			continue
		}
		base := "(none)"
		if j.base != nil {
			base = *j.base
		}
		t.Errorf("%q against %s: relurl %s, node %s", *j.input, base, show(got, err), show(want, nil))
	}
	if i != len(jobs) {
		t.Fatalf("node answered %d of %d inputs", i, len(jobs))
	}
	t.Logf("node %s agrees on %d of %d inputs", strings.TrimSpace(nodeVersion(node)), agree, len(jobs))
}

// runNode runs script with node, its standard input a JSON line for each
// of inputs, and returns the lines it writes: one for each input, as the
// differential tests' scripts answer. It stops node after timeout.
func runNode(t *testing.T, node, script string, inputs []any, timeout time.Duration) [][]byte {
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

func show(s *string, err error) string {
	if s == nil {
		if err != nil {
			return "failure (" + err.Error() + ")"
		}
		return "failure"
	}
	return strings.TrimSpace(*s)
}

func nodeVersion(node string) string {
	out, _ := exec.Command(node, "--version").Output()
	return string(out)
}
