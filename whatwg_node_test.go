package relurl

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/nodeoracle"
	"github.com/relurl/relurl/whatwg"
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

// TestAgainstNode compares relurl's WHATWG parser with Node's whatwg.URL (the ada
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
	lines := nodeoracle.Run(t, node, nodeScript, inputs, 2*time.Minute)
	agree, i := 0, 0
	for ; i < len(lines) && i < len(jobs); i++ {
		var want *string
		if err := json.Unmarshal(lines[i], &want); err != nil {
			t.Fatalf("node's line %d: %v", i+1, err)
		}
		j := jobs[i]
		var u whatwg.URL
		var err error
		if j.base == nil {
			u, err = whatwg.Parse(*j.input)
		} else if b, berr := whatwg.Parse(*j.base); berr != nil {
			err = berr
		} else {
			u, err = b.Parse(*j.input)
		}
		href := u.Href()
		got := &href
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
	t.Logf("node %s agrees on %d of %d inputs", nodeoracle.Version(node), agree, len(jobs))
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
