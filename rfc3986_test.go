package relurl

import (
	"testing"

	"github.com/relurl/relurl/internal/conformance"
)

// examples3986 reads the 42 examples of RFC 3986, Section 5.4.
func examples3986(t testing.TB) []conformance.Example {
	return conformance.RFCExamples(t, "rfc3986-examples.tsv", 42)
}

// base3986 is the base of RFC 3986's examples.
const base3986 = conformance.Base3986

func TestResolve3986Examples(t *testing.T) {
	strict := Resolver{Spec: RFC3986}
	for _, tt := range examples3986(t) {
		if got := resolved(strict, base3986, tt.Ref); got != tt.Want {
			t.Errorf("RFC 3986 Resolve(%q) = %q, want %q", tt.Ref, got, tt.Want)
		}
		if got := strict.Explain(base3986, tt.Ref).Result; got != tt.Want {
			t.Errorf("RFC 3986 Explain(%q).Result = %q, want %q", tt.Ref, got, tt.Want)
		}
	}
	// 5.4.2: "http:g" for backward compatibility.
	nonStrict := Resolver{Spec: RFC3986, NonStrict: true}
	if got := resolved(nonStrict, base3986, "http:g"); got != "http://a/b/c/g" {
		t.Errorf("non-strict http:g = %q", got)
	}
	if got := resolved(nonStrict, base3986, "HTTP:g"); got != "http://a/b/c/g" {
		t.Errorf("non-strict HTTP:g = %q (schemes compare without case)", got)
	}
	if got := resolved(Resolver{NonStrict: true}, base3986, "http:g"); got != "http:g" {
		t.Errorf("NonStrict under RFC 1808 = %q, want no effect", got)
	}
}
