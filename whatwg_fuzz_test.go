package relurl

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
	"github.com/relurl/relurl/whatwg"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// addWebSeeds adds web-platform-tests' whatwg.URL cases
// and this package's own cases, to a fuzz target's seed corpus.
func addWebSeeds(f *testing.F, add func(input, base string)) {
	cases, _ := conformance.WPT[struct{ Input, Base *string }]("urltestdata.json")
	for _, c := range cases {
		base := ""
		if c.Base != nil {
			base = *c.Base
		}
		add(*c.Input, base)
	}
	for _, tt := range resolveTests {
		add(tt.ref, tt.base)
	}
}

// FuzzResolveWeb: resolving against a base parsed once gives what parsing
// with that base gives, through every entry point, as Explain's tracing
// parser does too; and the result is idempotent.
func FuzzResolveWeb(f *testing.F) {
	addWebSeeds(f, func(input, base string) {
		if base != "" {
			f.Add(base, input)
		}
	})
	f.Fuzz(func(t *testing.T, base, ref string) {
		b, err := whatwg.Parse(base)
		if err != nil {
			// An empty base is no base at all (new URL(ref)), as
			// Resolver.Resolve documents: only another base must fail.
			if _, err := (Resolver{Spec: WHATWG}).Resolve(base, ref); err == nil && base != "" {
				t.Fatalf("Resolve(%q, %q) succeeds on a base that does not parse", base, ref)
			}
			return
		}
		u, err := b.Parse(ref)
		r := Resolver{Spec: WHATWG}
		got, rerr := r.Resolve(base, ref)
		prepared, _ := r.Base(base)
		appended, aerr := prepared.AppendResolve([]byte("x"), ref)
		trace := r.Explain(base, ref)
		if (err == nil) != (rerr == nil) || (err == nil) != (aerr == nil) || (err == nil) != (trace.Error == "") {
			t.Fatalf("%q against %q: Parse %v, Resolve %v, AppendResolve %v, Explain %q disagree", ref, base, err, rerr, aerr, trace.Error)
		}
		if err != nil {
			if string(appended) != "x" {
				t.Fatalf("%q against %q: a failed AppendResolve changed dst to %q", ref, base, appended)
			}
			return
		}
		if got != u.Href() || string(appended) != "x"+u.Href() || trace.Result != u.Href() {
			t.Fatalf("%q against %q: Parse %q, Resolve %q, AppendResolve %q, Explain %q", ref, base, u.Href(), got, appended, trace.Result)
		}
		if again, err := whatwg.Parse(u.Href()); err != nil || again != u {
			t.Fatalf("%q against %q gives %q, which parses to %q, %v", ref, base, u.Href(), again.Href(), err)
		}
		// In a legacy encoding, only the query can differ.
		for _, enc := range []encoding.Encoding{charmap.Windows1252, japanese.ISO2022JP, simplifiedchinese.GB18030} {
			legacy, err := Resolver{Spec: WHATWG, QueryEncoding: enc}.Resolve(base, ref)
			head := u.Href()[:Resolver{Spec: WHATWG}.sections(u.Href()).end[secPath]]
			if err != nil || !strings.HasPrefix(legacy, head) || u.Hash() != "" && !strings.HasSuffix(legacy, u.Hash()) {
				t.Fatalf("%q against %q in %v gives %q, %v; in UTF-8 %q", ref, base, enc, legacy, err, u.Href())
			}
		}
	})
}

// FuzzRelativeWeb: under the URL Standard, Relative's answer parses back
// against the base to exactly the target; and whenever a target parses to
// itself against the base, Relative finds a reference no longer than it.
func FuzzRelativeWeb(f *testing.F) {
	addWebSeeds(f, func(input, base string) {
		if u, err := whatwg.Parse(input); err == nil && base != "" {
			f.Add(base, u.Href())
		}
	})
	f.Fuzz(func(t *testing.T, base, target string) {
		r := Resolver{Spec: WHATWG}
		ref, ok := r.Relative(base, target)
		back, err := r.Resolve(base, ref)
		self, serr := r.Resolve(base, target)
		reachesItself := serr == nil && self == target
		switch {
		case ok && (err != nil || back != target):
			t.Fatalf("Relative(%q, %q) = %q, which resolves to %q, %v", base, target, ref, back, err)
		case !ok && (ref != target || reachesItself):
			t.Fatalf("Relative(%q, %q) = %q, false", base, target, ref)
		case reachesItself && len(ref) > len(target):
			t.Fatalf("Relative(%q, %q) = %q, longer than the target", base, target, ref)
		}
	})
}
