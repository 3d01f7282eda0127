package rfc3986

import (
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
)

// Cases of our own: defined-but-empty components, dot segments, bases
// without authority or path.
func TestResolve(t *testing.T) {
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
	for _, tt := range tests {
		checkResolve(t, tt.base, tt.ref, tt.want)
	}
}

// net/url implements RFC 3986 too; on the examples of Section 5.4 it
// agrees, bar "//" and the empty reference, where it drops what it cannot
// tell from absent .
func TestResolveMatchesNetURL(t *testing.T) {
	base, _ := url.Parse(conformance.Base3986)
	for _, tt := range conformance.RFCExamples(t, "rfc3986-examples.tsv", 42) {
		ref, err := url.Parse(tt.Ref)
		if err != nil {
			continue
		}
		if want, got := base.ResolveReference(ref).String(), Resolve(conformance.Base3986, tt.Ref); got != want {
			t.Errorf("%q: relurl RFC 3986 %q, net/url %q", tt.Ref, got, want)
		}
	}
}

// Validate: Appendix A's URI-reference, each error at the
// first byte that breaks it.
func TestValidate(t *testing.T) {
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
		err := Validate(tt.in)
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
}

// The 42 examples of Section 5.4, through every entry point.
func TestResolveExamples(t *testing.T) {
	for _, tt := range conformance.RFCExamples(t, "rfc3986-examples.tsv", 42) {
		checkResolve(t, conformance.Base3986, tt.Ref, tt.Want)
	}
	// 5.4.2: "http:g" for backward compatibility, by the non-strict variant.
	base := Split(conformance.Base3986)
	for _, ref := range []string{"http:g", "HTTP:g"} {
		if got := base.ResolveNonStrict(ref).String(); got != "http://a/b/c/g" {
			t.Errorf("ResolveNonStrict(%q) = %q (schemes compare without case)", ref, got)
		}
		if got := string(base.AppendResolveNonStrict(nil, ref)); got != "http://a/b/c/g" {
			t.Errorf("AppendResolveNonStrict(%q) = %q", ref, got)
		}
	}
	if got := base.ResolveNonStrict("ftp:g").String(); got != "ftp:g" {
		t.Errorf(`ResolveNonStrict("ftp:g") = %q: another scheme is kept`, got)
	}
}

// checkResolve runs every strict entry point on one case, so that a row
// pins all of them.
func checkResolve(t *testing.T, base, ref, want string) {
	t.Helper()
	if got := Resolve(base, ref); got != want {
		t.Errorf("Resolve(%q, %q) = %q, want %q", base, ref, got, want)
	}
	if got := string(AppendResolve([]byte("prefix:"), base, ref)); got != "prefix:"+want {
		t.Errorf("AppendResolve(%q, %q) = %q", base, ref, got)
	}
	if got := Split(base).Resolve(ref); got != Split(want) {
		t.Errorf("Split(%q).Resolve(%q) = %q, want %q", base, ref, got, want)
	}
	if got := string(Split(base).AppendResolve(nil, ref)); got != want {
		t.Errorf("Split(%q).AppendResolve(%q) = %q, want %q", base, ref, got, want)
	}
}

// Appendix B's split, each component with whether it is defined.
func TestSplit(t *testing.T) {
	type parts struct{ scheme, authority, path, query, fragment string }
	show := func(u URI) parts {
		p := parts{"-", "-", u.Path(), "-", "-"}
		if u.HasScheme() {
			p.scheme = u.Scheme()
		}
		if u.HasAuthority() {
			p.authority = u.Authority()
		}
		if u.HasQuery() {
			p.query = u.Query()
		}
		if u.HasFragment() {
			p.fragment = u.Fragment()
		}
		return p
	}
	tests := []struct {
		in   string
		want parts
	}{
		{"", parts{"-", "-", "", "-", "-"}},
		{"http://a/b/c/d;p?q#f", parts{"http", "a", "/b/c/d;p", "q", "f"}},
		{"http://a?q", parts{"http", "a", "", "q", "-"}},
		{"//", parts{"-", "", "", "-", "-"}},
		{"?#", parts{"-", "-", "", "", ""}},
		{"./this:that", parts{"-", "-", "./this:that", "-", "-"}},
		{"this:that", parts{"this", "-", "that", "-", "-"}},
		{"a/b:c", parts{"-", "-", "a/b:c", "-", "-"}},
		{"mailto:a@b?subject=x#y#z", parts{"mailto", "-", "a@b", "subject=x", "y#z"}},
		{"HTTP://A:80", parts{"HTTP", "A:80", "", "-", "-"}},
	}
	for _, tt := range tests {
		u := Split(tt.in)
		if got := show(u); got != tt.want {
			t.Errorf("Split(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if u.String() != tt.in {
			t.Errorf("Split(%q).String() = %q", tt.in, u.String())
		}
		// Appendix B's regular expression agrees.
		m := appendixB.FindStringSubmatch(tt.in)
		re := parts{"-", "-", m[5], "-", "-"}
		if m[1] != "" {
			re.scheme = m[2]
		}
		if m[3] != "" {
			re.authority = m[4]
		}
		if m[6] != "" {
			re.query = m[7]
		}
		if m[8] != "" {
			re.fragment = m[9]
		}
		if re != tt.want {
			t.Errorf("Appendix B splits %q as %+v", tt.in, re)
		}
	}
}

// appendixB is the regular expression of Appendix B, with "." matching
// line breaks too.
var appendixB = regexp.MustCompile(`(?s)^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`)

// A URI is written and read back as text.
func TestURIText(t *testing.T) {
	in := struct{ U URI }{Split("http://a/b?q#f")}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"U":"http://a/b?q#f"}` {
		t.Fatalf("json.Marshal = %s, %v", b, err)
	}
	var out struct{ U URI }
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Errorf("json.Unmarshal(%s) = %v, %v", b, out, err)
	}
	if got, err := in.U.AppendText([]byte("x ")); string(got) != "x http://a/b?q#f" || err != nil {
		t.Errorf("AppendText = %q, %v", got, err)
	}
}

// Splitting and resolving into a buffer with room allocate nothing.
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are not meaningful here")
	}
	buf := make([]byte, 0, 256)
	for _, tt := range conformance.RFCExamples(t, "rfc3986-examples.tsv", 42) {
		if n := testing.AllocsPerRun(100, func() { buf = AppendResolve(buf[:0], conformance.Base3986, tt.Ref) }); n != 0 {
			t.Errorf("AppendResolve(%q) allocates %v times", tt.Ref, n)
		}
	}
}
