package whatwg

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
)

// FuzzParseWeb: parsing never panics, and is idempotent: the href parses
// again to itself. The validating parser and the tracing one give the same
// URL, and Parser.AppendResolve the same bytes after what dst held. The
// seeds are web-platform-tests' inputs.
func FuzzParseWeb(f *testing.F) {
	for _, c := range conformance.WPTCases[struct{ Input string }](f, "urltestdata.json") {
		f.Add(c.Input)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		checked, _, cerr := Check(s, nil)
		if (err == nil) != (cerr == nil) || checked != u {
			t.Fatalf("Parse(%q) = %q, %v; Check gives %q, %v", s, u.Href(), err, checked.Href(), cerr)
		}
		if err != nil {
			return
		}
		again, err := Parse(u.Href())
		if err != nil || again != u {
			t.Fatalf("Parse(%q) = %q, which parses to %q, %v", s, u.Href(), again.Href(), err)
		}
		if got := u.Protocol() + strings.TrimPrefix(u.Href(), u.Protocol()); got != u.Href() || !strings.HasSuffix(u.Href(), u.Hash()) {
			t.Fatalf("Parse(%q): components %q %q do not fit the href %q", s, u.Protocol(), u.Hash(), u.Href())
		}
		if got, _ := (Parser{}).AppendResolve([]byte("x"), s, nil); string(got) != "x"+u.Href() {
			t.Fatalf("Parser.AppendResolve(%q) = %q after \"x\", want %q", s, got, u.Href())
		}
		if traced, err := (Parser{Trace: func(string) {}}).Parse(s, nil); err != nil || traced != u {
			t.Fatalf("the tracing parser gives %q, %v for %q, want %q", traced.Href(), err, s, u.Href())
		}
	})
}
