package relurl

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/grammar"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/rfc3986"
)

// addSeeds adds the examples of Section 5 and the rows of the test tables
// to f's seed corpus; testdata/fuzz holds what fuzzing found beyond them.
func addSeeds(f *testing.F, add func(base, ref string)) {
	for _, tt := range append(readExamples(f), resolveTests...) {
		add(tt.base, tt.ref)
	}
}

// FuzzResolve: resolution never panics, agrees with the literal Section 4,
// keeps a valid absolute reference as it is, and gives a result with a
// scheme whenever the base has one.
func FuzzResolve(f *testing.F) {
	addSeeds(f, func(base, ref string) { f.Add(base, ref) })
	f.Fuzz(func(t *testing.T, base, ref string) {
		got := rfc1808.Resolve(base, ref)
		if want := (Resolver{}).Explain(base, ref).Result; got != want {
			t.Fatalf("rfc1808.Resolve(%q, %q) = %q, literal Section 4 gives %q", base, ref, got, want)
		}
		if form, err := rfc1808.Validate(ref); err == nil && form.IsAbs() && got != ref {
			t.Fatalf("rfc1808.Resolve(%q, %q) = %q, changed an absolute reference", base, ref, got)
		}
		if rfc1808.Split(base).HasScheme() && !rfc1808.Split(got).HasScheme() {
			t.Fatalf("rfc1808.Resolve(%q, %q) = %q has no scheme; the base has one", base, ref, got)
		}
		if n := len(base) + len(ref) + 1; len(got) > n {
			t.Fatalf("rfc1808.Resolve(%q, %q) = %q is longer than the promised %d bytes", base, ref, got, n)
		}
	})
}

// FuzzResolve3986: the fast RFC 3986 resolver agrees with the literal one
// (Explain, which splits with Appendix B's regular expression), strict and
// not; an absolute reference without dot segments resolves to itself; and
// the path remove_dot_segments makes has no dot segment (where the
// reference's path is empty, the base's is kept as it is).
func FuzzResolve3986(f *testing.F) {
	for _, tt := range examples3986(f) {
		f.Add(base3986, tt.Ref)
	}
	addSeeds(f, func(base, ref string) { f.Add(base, ref) })
	f.Fuzz(func(t *testing.T, base, ref string) {
		for _, r := range []Resolver{{Spec: RFC3986}, {Spec: RFC3986, NonStrict: true}} {
			got := resolved(r, base, ref)
			trace := r.Explain(base, ref)
			if want := trace.Result; got != want {
				t.Fatalf("%+v.Resolve(%q, %q) = %q, literal 5.2 gives %q", r, base, ref, got, want)
			}
			if n := len(base) + len(ref) + 1; len(got) > n {
				t.Fatalf("%+v.Resolve(%q, %q) = %q is longer than %d bytes", r, base, ref, got, n)
			}
			// The path remove_dot_segments made is the last one the trace
			// records. (The result reparsed may split otherwise: "0:./0"
			// has a scheme, where the path "0:./0" was made.)
			for i := len(trace.Steps) - 1; i >= 0; i-- {
				if s := trace.Steps[i]; strings.HasPrefix(s.Step, "5.2.4") {
					if grammar.FirstDotSegment([]byte(s.Path)) >= 0 {
						t.Fatalf("%+v.Resolve(%q, %q) = %q keeps a dot segment in %q", r, base, ref, got, s.Path)
					}
					break
				}
			}
			rr := rfc3986.Split(ref)
			if !r.NonStrict && rr.HasScheme() && grammar.FirstDotSegment([]byte(rr.Path())) < 0 && got != ref {
				t.Fatalf("%+v.Resolve(%q, %q) = %q changed an absolute reference", r, base, ref, got)
			}
		}
	})
}

// FuzzRelative: Relative's answer resolves back to the target, in both
// modes; and whenever the target reaches itself, Relative finds an answer
// no longer than it.
func FuzzRelative(f *testing.F) {
	for _, tt := range readExamples(f) {
		f.Add(rfcBase, tt.want, false)
		f.Add(base3986, tt.want, true)
	}
	f.Add("http://a", "http://a/b//c/./d;p?q#f", false)
	f.Fuzz(func(t *testing.T, base, target string, use3986 bool) {
		r := Resolver{}
		if use3986 {
			r.Spec = RFC3986
		}
		ref, ok := r.Relative(base, target)
		reachesItself := resolved(r, base, target) == target
		switch {
		case ok && resolved(r, base, ref) != target:
			t.Fatalf("RFC %d Relative(%q, %q) = %q, which resolves to %q", r.Spec, base, target, ref, resolved(r, base, ref))
		case !ok && (ref != target || reachesItself):
			t.Fatalf("RFC %d Relative(%q, %q) = %q, false", r.Spec, base, target, ref)
		case reachesItself && len(ref) > len(target):
			t.Fatalf("RFC %d Relative(%q, %q) = %q, longer than the target", r.Spec, base, target, ref)
		}
		// RelativePath: a relative path that resolves back, or the
		// target and false; never longer a path than Relative's when
		// Relative's is one.
		path, ok := r.RelativePath(base, target)
		sp := rfc1808.Split(path)
		switch {
		case ok && (sp.HasScheme() || sp.HasNetLoc() || strings.HasPrefix(path, "/")):
			t.Fatalf("RFC %d RelativePath(%q, %q) = %q, not a relative path", r.Spec, base, target, path)
		case ok && resolved(r, base, path) != target:
			t.Fatalf("RFC %d RelativePath(%q, %q) = %q, which resolves to %q", r.Spec, base, target, path, resolved(r, base, path))
		case !ok && path != target:
			t.Fatalf("RFC %d RelativePath(%q, %q) = %q, false", r.Spec, base, target, path)
		case ok && !rfc1808.Split(ref).HasScheme() && !rfc1808.Split(ref).HasNetLoc() && !strings.HasPrefix(ref, "/") && len(path) > len(ref):
			t.Fatalf("RFC %d RelativePath(%q, %q) = %q, longer than Relative's %q", r.Spec, base, target, path, ref)
		}
	})
}
