package whatwg

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/nodeoracle"
)

// setterScript reads lines of JSON [href, setter, value] and writes, for
// each, the href of new URL(href) after url[setter] = value, as a JSON
// string, or null when the setter throws (only href's does).
const setterScript = `
const rl = require("readline").createInterface({input: process.stdin});
const out = [];
rl.on("line", line => {
  const [href, setter, value] = JSON.parse(line);
  const u = new URL(href);
  let result = null;
  try { u[setter] = value; result = u.href; } catch (e) {}
  out.push(JSON.stringify(result));
});
rl.on("close", () => process.stdout.write(out.join("\n") + "\n"));
`

// setterBases are URLs of every kind a setter treats apart: special and
// not, with credentials and ports, IPv4 and IPv6 hosts, file URLs with and
// without a host, hostless and opaque paths, the empty host.
var setterBases = []string{
	"http://user:pass@example.com:8080/a/b?q=1#f", "https://example.com/", "http://1.2.3.4/x?y", "http://[::1]:81/",
	"ws://w.example/", "ftp://f.example/pub/", "file:///C:/dir/f", "file://host/share/x", "file:///",
	"sc://h/p?q#f", "sc://u@h:9/p", "sc:/a/b", "sc:opaque?q#f", "sc://", "sc:/.//p", "mailto:x@y.example",
	"data:text/plain,hi", "javascript:alert(1)",
}

// setterValues are values valid and hostile: every kind of host, ports in
// and out of range, dot segments and drive letters, schemes, separators
// that end a component when parsing but not when setting, controls,
// spaces, non-ASCII and percent-encoding edges.
var setterValues = []string{
	"", "x", "a b", " x ", "%", "%zz", "%41", "%2e", "%2E%2e", "%C3%A9", "%00", "é", "€", "😀", "\uFFFF",
	"\x00", "\x01", "\x7f", "\t", "\n", "a\tb", "a\nb\r", "?", "#", "/", "\\", ":", "@", "[", "]", "^", "|", "<>", "'", "\"", "`", "{}",
	"[::1]", "[::1", "[1:2::3]:4", "1.2.3.4", "0x7f.1", "256.0.0.1", "1.2.3.4.5", "example.com", "EXAMPLE.com", "example.com:8080",
	"example.com:", "example.com:x", "h:99999", "h:0", "h:80", "h:443", "h/p?q#f", "h\\p", "ß.de", "xn--a", "xn--nxasmq6b.com",
	"bücher.example", "a@b", "u:p@h", "localhost", "LOCALHOST", "..", ".", "a/../b", "/./x", "/../x", "a/./b/", "//x", "\\\\x\\y",
	"C|", "C:", "/C|/x", "c:/x", "http", "https:", "HTTP", "file", "file:", "sc", "mailto", "ws", "h-t+p.x", "1http", "ht tp",
	"http:foo", "8080", "65535", "65536", "0", "80", "443", "021", " 1", "1 ", "80abc", "8\t0", "?q=1&r=2", "#frag", "a?b#c",
}

// TestSettersAgainstNode sets every component of every URL of setterBases
// to every value of setterValues, in relurl and in Node's URL (ada), and
// fails on any difference. It skips without node.
func TestSettersAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: no differential test of the setters")
	}
	names := []string{"href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"}
	type job struct{ href, setter, value string }
	var jobs []job
	var inputs []any
	for _, href := range setterBases {
		for _, name := range names {
			for _, v := range setterValues {
				jobs = append(jobs, job{href, name, v})
				inputs = append(inputs, []string{href, name, v})
			}
		}
	}
	lines := nodeoracle.Run(t, node, setterScript, inputs, time.Minute)
	agree, i := 0, 0
	lags := map[string]int{}
	for ; i < len(jobs); i++ {
		j := jobs[i]
		var want *string
		if err := json.Unmarshal(lines[i], &want); err != nil {
			t.Fatalf("node's line %d: %v", i+1, err)
		}
		u, err := Parse(j.href)
		if err != nil {
			t.Fatal(err)
		}
		v, err := u.With(j.setter, j.value)
		var got *string
		if err == nil || j.setter != "href" {
			h := v.Href()
			got = &h
		}
		switch lag := nodeLags(u, j.setter, j.value); {
		case (got == nil) == (want == nil) && (got == nil || *got == *want):
			agree++
		case lag != "":
			lags[lag]++
		default:
			t.Errorf("%s set %s to %q: relurl %s, Node %s", j.href, j.setter, j.value, quoted(got), quoted(want))
		}
		// The standard's idempotence: the result parses to itself.
		if got != nil {
			if w, err := Parse(v.Href()); err != nil || w != v {
				t.Errorf("%s set %s to %q: %q parses to %+v, %v, not to itself", j.href, j.setter, j.value, v.Href(), w, err)
			}
		}
	}
	t.Logf("setters: %d / %d agree with Node %s's URL; the others are where it lags the standard:", agree, len(jobs), nodeoracle.Version(node))
	for lag, n := range lags {
		t.Logf("  %d: %s", n, lag)
	}
}

// nodeLags says where Node 20's URL (ada 2.9.2) is known to part from the
// standard as setters_tests.json and toascii.json have it now, which
// relurl follows (TestSetters); "" elsewhere.
func nodeLags(u URL, setter, value string) string {
	v := withoutTabs(value)
	switch {
	case setter == "port" && value != "" && (v == "" || !ascii.IsDigit(v[0])) && !u.cannotHaveCredentialsOrPort():
		return `a port that does not start with a digit keeps the port ("randomstring" keeps 8080, "\n\n\t\t" 3000); Node removes it`
	case setter == "pathname" && strings.Contains(v, "^") && !u.opaque:
		return `the path percent-encode set has "^" (the "a:/" case); Node leaves it`
	case (setter == "host" || setter == "hostname") && strings.HasPrefix(v, "xn--a") && !u.opaque:
		return `"xn--a" is a valid host (toascii.json); Node refuses it`
	case (setter == "host" || setter == "hostname") && u.scheme == notSpecial && !u.opaque &&
		(strings.Contains(v, ":") || v == "" || strings.ContainsAny(v[:1], "/?#")):
		return `a non-special URL takes the empty host and a port from the host setters ("non-spec:/.//p" with "", "example.com:8080stuff2"); Node does not`
	case setter == "pathname" && u.scheme == notSpecial && !u.opaque && (v == ".." || strings.EqualFold(v, "%2e%2e")):
		return `".." leaves a non-special URL the empty segment, "/" ("foo://path/to" with "/.."); Node an empty path`
	}
	return ""
}

// quoted shows a result: its href quoted, or that the setter threw.
func quoted(s *string) string {
	if s == nil {
		return "(throws)"
	}
	b, _ := json.Marshal(*s)
	return string(b)
}
