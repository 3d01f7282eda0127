package relurl

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// RFC 3986, Section 5.4: the examples, with the base of them all.
const base3986 = "http://a/b/c/d;p?q"

var rfc3986Examples = []struct{ ref, want string }{
	// 5.4.1, normal examples
	{"g:h", "g:h"},
	{"g", "http://a/b/c/g"},
	{"./g", "http://a/b/c/g"},
	{"g/", "http://a/b/c/g/"},
	{"/g", "http://a/g"},
	{"//g", "http://g"},
	{"?y", "http://a/b/c/d;p?y"},
	{"g?y", "http://a/b/c/g?y"},
	{"#s", "http://a/b/c/d;p?q#s"},
	{"g#s", "http://a/b/c/g#s"},
	{"g?y#s", "http://a/b/c/g?y#s"},
	{";x", "http://a/b/c/;x"},
	{"g;x", "http://a/b/c/g;x"},
	{"g;x?y#s", "http://a/b/c/g;x?y#s"},
	{"", "http://a/b/c/d;p?q"},
	{".", "http://a/b/c/"},
	{"./", "http://a/b/c/"},
	{"..", "http://a/b/"},
	{"../", "http://a/b/"},
	{"../g", "http://a/b/g"},
	{"../..", "http://a/"},
	{"../../", "http://a/"},
	{"../../g", "http://a/g"},
	// 5.4.2, abnormal examples
	{"../../../g", "http://a/g"},
	{"../../../../g", "http://a/g"},
	{"/./g", "http://a/g"},
	{"/../g", "http://a/g"},
	{"g.", "http://a/b/c/g."},
	{".g", "http://a/b/c/.g"},
	{"g..", "http://a/b/c/g.."},
	{"..g", "http://a/b/c/..g"},
	{"./../g", "http://a/b/g"},
	{"./g/.", "http://a/b/c/g/"},
	{"g/./h", "http://a/b/c/g/h"},
	{"g/../h", "http://a/b/c/h"},
	{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
	{"g;x=1/../y", "http://a/b/c/y"},
	{"g?y/./x", "http://a/b/c/g?y/./x"},
	{"g?y/../x", "http://a/b/c/g?y/../x"},
	{"g#s/./x", "http://a/b/c/g#s/./x"},
	{"g#s/../x", "http://a/b/c/g#s/../x"},
	{"http:g", "http:g"}, // strict
}

func TestResolve3986Examples(t *testing.T) {
	if len(rfc3986Examples) != 42 {
		t.Fatalf("%d examples, want the 42 of Section 5.4", len(rfc3986Examples))
	}
	strict := Resolver{Spec: RFC3986}
	for _, tt := range rfc3986Examples {
		if got := resolved(strict, base3986, tt.ref); got != tt.want {
			t.Errorf("RFC 3986 Resolve(%q) = %q, want %q", tt.ref, got, tt.want)
		}
		if got := strict.Explain(base3986, tt.ref).Result; got != tt.want {
			t.Errorf("RFC 3986 Explain(%q).Result = %q, want %q", tt.ref, got, tt.want)
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

// Cases of our own: defined-but-empty components, dot segments, bases
// without authority or path.
func TestResolve3986(t *testing.T) {
	tests := []struct{ base, ref, want string }{
		{"http://a/b?q#f", "?", "http://a/b?"}, // a defined, empty query
		{"http://a/b?q#f", "#", "http://a/b?q#"},
		{"http://a/b?q#f", "//", "http://"}, // an empty authority, defined
		{"http://a/b", "///g", "http:///g"},
		{"http://a", "g", "http://a/g"},
		{"http://a", "..", "http://a/"},
		{"http://a?q", "?y", "http://a?y"}, // "?" ends the authority
		{"foo:a/b", "../../g", "foo:/g"},   // remove_dot_segments on a rootless path
		{"foo:a/b", "c", "foo:a/c"},
		{"foo:", "g", "foo:g"},
		{"", "a/./b/../c", "a/c"},
		{"http://a/b/c", "g:./x/../y", "g:/y"}, // 5.2.4 as written: a rootless path can gain a "/"
		{"http://a/b/c", "g:/../y", "g:/y"},
		{"http://a/b/c", "..//g", "http://a//g"},
		{"http://a/b/c", "./.", "http://a/b/"},
		{"http://a/b/c", ".../g", "http://a/b/.../g"},
		{"http://a/b/./c/../d", "?y", "http://a/b/./c/../d?y"}, // the base's path is not touched
		{"http://a/b/c", "%2e%2e/g", "http://a/b/%2e%2e/g"},
	}
	r := Resolver{Spec: RFC3986}
	for _, tt := range tests {
		if got := resolved(r, tt.base, tt.ref); got != tt.want {
			t.Errorf("RFC 3986 Resolve(%q, %q) = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
		if got := r.Explain(tt.base, tt.ref).Result; got != tt.want {
			t.Errorf("RFC 3986 Explain(%q, %q).Result = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
	}
}

// net/url implements RFC 3986 too; on the examples of Section 5.4 it
// agrees, bar "//" and the empty reference, where it drops what it cannot
// tell from absent (see TestNetURLDifferences3986).
func TestResolve3986MatchesNetURL(t *testing.T) {
	base, _ := url.Parse(base3986)
	r := Resolver{Spec: RFC3986}
	for _, tt := range rfc3986Examples {
		ref, err := url.Parse(tt.ref)
		if err != nil {
			continue
		}
		if want, got := base.ResolveReference(ref).String(), resolved(r, base3986, tt.ref); got != want {
			t.Errorf("%q: relurl RFC 3986 %q, net/url %q", tt.ref, got, want)
		}
	}
}

// Validate under RFC 3986: Appendix A's URI-reference, each error at the
// first byte that breaks it.
func TestValidate3986(t *testing.T) {
	tests := []struct {
		in     string
		offset int // -1: valid
		rule   string
	}{
		{"http://a/b/c/d;p?q", -1, ""},
		{"http://user:pw@[::1]:8080/~user/a,b;c?q=/?#f/?", -1, ""},
		{"https://docs.python.org/3/library/os.html#os.walk", -1, ""},
		{"//host/path", -1, ""},
		{"./this:that", -1, ""},
		{"", -1, ""},
		{"#", -1, ""},
		{"mailto:x@y", -1, ""},
		{"http://[v1.fe80::a+en1]/", -1, ""},
		{"http://%41.example/", -1, ""},
		{"this:that", -1, ""}, // a scheme "this"
		{"1this:that", 0, "scheme"},
		{"a/b:c", -1, ""},
		{"http://a/b c", 10, "path"},
		{"http://a/b%zz", 10, "pct-encoded"},
		{"http://a/b?q#f#g", 14, "fragment"},
		{"http://a:8x/", 10, "port"},
		{"http://[::1/", 7, "IP-literal"},
		{"http://[fe80::1%25en0]/", 8, "IP-literal"},
		{"http://[::1]x/", 12, "authority"},
		{"http://a b/", 8, "host"},
		{"http://u[@a/", 8, "userinfo"},
		{"ht_tp://a/", 2, "scheme"},
		{"http://a/é", 9, "path"},
		{"http://a/{x}", 9, "path"},
	}
	for _, tt := range tests {
		err := Resolver{Spec: RFC3986}.Validate(tt.in)
		var serr *SyntaxError
		switch {
		case tt.offset < 0 && err != nil:
			t.Errorf("Validate(%q) = %v, want valid", tt.in, err)
		case tt.offset >= 0 && !errors.As(err, &serr):
			t.Errorf("Validate(%q) = %v, want an error at offset %d", tt.in, err, tt.offset)
		case tt.offset >= 0 && (serr.Offset != tt.offset || !strings.HasPrefix(serr.Rule, tt.rule)):
			t.Errorf("Validate(%q): %v, want offset %d in %s", tt.in, serr, tt.offset, tt.rule)
		}
	}
	// RFC 1808 rejects "~"; RFC 3986 allows it.
	if err := (Resolver{}).Validate("http://a/~u"); err == nil {
		t.Error(`RFC 1808 accepts "~"`)
	}
}
