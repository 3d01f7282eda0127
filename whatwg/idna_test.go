package whatwg

import (
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/nodeoracle"
)

// domainInputs are domains ASCII and not, valid and not: Punycode good and
// bad, mapped and disallowed code points, joiners, bidi, forbidden domain
// code points, dots of other scripts, the empty string.
var domainInputs = []string{
	"", "example.com", "EXAMPLE.com", "bücher.example", "BÜCHER.example", "xn--bcher-kva.example",
	"XN--BCHER-KVA.example", "xn--a", "xn--8i7caa", "ｗｗｗ.example", "☕.example", "a\u200db.example",
	"ß.de", "faß.de", "xn--zca.de", "a。b", "a．b", "ab\u0301c", "\u0661\u0662.example", "a-.example",
	"-a.example", "ab--c.example", "a b", "a%b", "a<b", "a^b", "a|b", "\x00", "\x7f", "\u00ad", "\ufffd",
	"a..b", ".", "..", "a.", strings63() + ".example", "xn--nxasmq6b.com", "1.2.3.4", "localhost",
}

func strings63() string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}

// domainScript writes, for each JSON string read, Node's url.domainToASCII
// and url.domainToUnicode of it, as a JSON pair; each is "" where Node
// finds the domain invalid.
const domainScript = `
const url = require("url");
const rl = require("readline").createInterface({input: process.stdin});
const out = [];
rl.on("line", line => {
  const d = JSON.parse(line);
  out.push(JSON.stringify([url.domainToASCII(d), url.domainToUnicode(d)]));
});
rl.on("close", () => process.stdout.write(out.join("\n") + "\n"));
`

// TestDomainToASCII holds DomainToASCII to the host parser, which the
// wpt suites hold to the Standard: each domain, as the host of an http URL,
// parses to the host DomainToASCII gives, or fails where it fails.
func TestDomainToASCII(t *testing.T) {
	for _, d := range domainInputs {
		got, err := DomainToASCII(d)
		u, perr := Parse("http://" + d + "/")
		switch {
		case err != nil && got != "":
			t.Errorf("DomainToASCII(%q) = %q with %v", d, got, err)
		case (err != nil) != (perr != nil):
			t.Errorf("DomainToASCII(%q) = %q, %v; the host parser: %v", d, got, err, perr)
		case err == nil && got != u.Hostname():
			t.Errorf("DomainToASCII(%q) = %q; the host parser: %q", d, got, u.Hostname())
		}
	}
}

// nodeDomainLags are the domains on which Node's url.domainToASCII (ada,
// in Node 20) is behind the Standard: an ASCII domain is lowercased
// whatever ToASCII says of it (the Standard's "domain to ASCII", step 4,
// for web compatibility), and CheckBidi refuses a label that starts with an
// Arabic-Indic digit (UTS #46, criterion 4; RFC 5893, rule 1).
var nodeDomainLags = map[string]bool{"xn--a": true, "xn--8i7caa": true, "\u0661\u0662.example": true}

// TestDomainAgainstNode holds DomainToASCII and DomainToUnicode to Node's
// url.domainToASCII and url.domainToUnicode, which implement the same
// algorithms (Node gives "" for a failure, where DomainToASCII gives an
// error and DomainToUnicode the domain as given), but for nodeDomainLags.
// It skips without node.
func TestDomainAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: no differential test of the domain algorithms")
	}
	var inputs []any
	for _, d := range domainInputs {
		inputs = append(inputs, d)
	}
	lines := nodeoracle.Run(t, node, domainScript, inputs, time.Minute)
	lags := 0
	for i, d := range domainInputs {
		var want [2]string
		if err := json.Unmarshal(lines[i], &want); err != nil {
			t.Fatalf("%q: node wrote %s", d, lines[i])
		}
		got, err := DomainToASCII(d)
		if got != want[0] {
			if nodeDomainLags[d] {
				lags++
				continue
			}
			t.Errorf("DomainToASCII(%q) = %q, %v; node %q", d, got, err, want[0])
		}
		if want[1] != "" {
			if got := DomainToUnicode(d); got != want[1] {
				t.Errorf("DomainToUnicode(%q) = %q; node %q", d, got, want[1])
			}
		}
	}
	if lags != len(nodeDomainLags) {
		t.Errorf("node differs on %d of the %d domains it lags on: update nodeDomainLags", lags, len(nodeDomainLags))
	}
}
