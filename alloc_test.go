package relurl

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/relurl/relurl/rfc1808"
)

// The hot path promises: Split and AppendResolve into a buffer with room
// allocate nothing; Resolve allocates its result string at most.
func TestAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts are not meaningful here")
	}
	tests := append(readExamples(t), resolveTests...)
	buf := make([]byte, 0, 1024)
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, func() { sink = len(rfc1808.Split(tt.ref).Path()) }); n != 0 {
			t.Errorf("rfc1808.Split(%q) allocates %v times", tt.ref, n)
		}
		if n := testing.AllocsPerRun(100, func() { buf = rfc1808.AppendResolve(buf[:0], tt.base, tt.ref) }); n != 0 {
			t.Errorf("rfc1808.AppendResolve(%q, %q) allocates %v times", tt.base, tt.ref, n)
		}
		if n := testing.AllocsPerRun(100, func() { sinkString = rfc1808.Resolve(tt.base, tt.ref) }); n > 1 {
			t.Errorf("rfc1808.Resolve(%q, %q) allocates %v times", tt.base, tt.ref, n)
		}
		r3986 := Resolver{Spec: RFC3986}
		if n := testing.AllocsPerRun(100, func() { buf = must(r3986.AppendResolve(buf[:0], tt.base, tt.ref)) }); n != 0 {
			t.Errorf("RFC 3986 AppendResolve(%q, %q) allocates %v times", tt.base, tt.ref, n)
		}
		if n := testing.AllocsPerRun(100, func() { sinkString = resolved(r3986, tt.base, tt.ref) }); n > 1 {
			t.Errorf("RFC 3986 Resolve(%q, %q) allocates %v times", tt.base, tt.ref, n)
		}
		// Under the URL Standard, for references that parse: a failure is
		// an error value, which is allocated.
		web, err := (Resolver{Spec: WHATWG}).Base(tt.base)
		if _, rerr := web.AppendResolve(nil, tt.ref); err == nil && rerr == nil {
			if n := testing.AllocsPerRun(100, func() { buf, _ = web.AppendResolve(buf[:0], tt.ref) }); n != 0 {
				t.Errorf("WHATWG Base(%q).AppendResolve(%q) allocates %v times", tt.base, tt.ref, n)
			}
			r := Resolver{Spec: WHATWG}
			if n := testing.AllocsPerRun(100, func() { buf, _ = r.AppendResolve(buf[:0], tt.base, tt.ref) }); n != 0 {
				t.Errorf("WHATWG AppendResolve(%q, %q) allocates %v times", tt.base, tt.ref, n)
			}
			// With a document's query encoding, the base a string: it is
			// parsed into the buffer's free space, as without one. (A
			// reference's query goes through x/text's encoder, which
			// allocates.)
			r.QueryEncoding = charmap.Windows1252
			if !strings.Contains(tt.ref, "?") {
				if n := testing.AllocsPerRun(100, func() { buf, _ = r.AppendResolve(buf[:0], tt.base, tt.ref) }); n != 0 {
					t.Errorf("WHATWG AppendResolve(%q, %q) in windows-1252 allocates %v times", tt.base, tt.ref, n)
				}
			}
		}
		u := rfc1808.Split(tt.base)
		if n := testing.AllocsPerRun(100, func() { sink = len(u.Resolve(tt.ref).Path()) }); n > 1 {
			t.Errorf("rfc1808.Split(%q).Resolve(%q) allocates %v times", tt.base, tt.ref, n)
		}
	}
}
