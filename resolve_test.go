package relurl

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
	"github.com/relurl/relurl/rfc1808"
)

// rfcBase is the base of every example in RFC 1808, Section 5.
const rfcBase = conformance.Base1808

type resolveTest struct {
	base, ref, want string
}

// readExamples reads the 39 examples of Sections 5.1 and 5.2.
func readExamples(t testing.TB) []resolveTest {
	var tests []resolveTest
	for _, e := range conformance.RFCExamples(t, "rfc1808-examples.tsv", 39) {
		tests = append(tests, resolveTest{rfcBase, e.Ref, e.Want})
	}
	return tests
}

func TestResolveSection5Examples(t *testing.T) {
	checkResolve(t, readExamples(t))
}

// Cases of our own for each step of Section 4, and the decisions documented
// on URL.AppendResolve, each pinned by a row.
var resolveTests = []resolveTest{
	// Step 1: an empty base leaves the reference as it is, relative or not.
	{"", "g", "g"},
	{"", "../g", "../g"},
	{"", "", ""},
	{"", "HTTP://A/./b", "HTTP://A/./b"},

	// Step 2a: the zero-length reference only.
	{"http://a/b?q#f", "", "http://a/b?q#f"},
	{"http://a/b?q#f", "#", "http://a/b?q#"},

	// Step 2b: any scheme, returned byte for byte, even the base's own.
	{rfcBase, "HTTP:g", "HTTP:g"},
	{rfcBase, "http:/g", "http:/g"},
	{rfcBase, "ftp://x/./y/../z", "ftp://x/./y/../z"},
	{rfcBase, "mailto:a@b", "mailto:a@b"},
	{rfcBase, "9p:x", "9p:x"},
	{rfcBase, "a+b.c-d:e", "a+b.c-d:e"},
	{rfcBase, "x:", "x:"},
	{rfcBase, ":g", "http://a/b/c/:g"}, // a colon first is no scheme

	// Step 2c: the base's scheme, as written.
	{"HTTP://A/b", "c", "HTTP://A/c"},

	// Step 3: a non-empty net_loc ends it; an empty one inherits the base's.
	{rfcBase, "//g/./h?x", "http://g/./h?x"},
	{rfcBase, "//g;x?y", "http://g;x?y"},
	{rfcBase, "///g", "http://a/g"},
	{rfcBase, "//", "http://a/b/c/d;p?q"},
	{rfcBase, "//#s", "http://a/b/c/d;p?q#s"},
	{"file:/x/y", "//", "file:/x/y"},
	{"file:/x/y", "///z", "file:/z"},

	// Step 4: a path preceded by "/" is kept as written.
	{rfcBase, "/", "http://a/"},
	{rfcBase, "/g/../h", "http://a/g/../h"},
	{rfcBase, "/;x", "http://a/;x"},
	{"foo:bar/baz", "/g", "foo:/g"},

	// Step 5: empty path; params and query inherited unless non-empty.
	{rfcBase, "?", "http://a/b/c/d;p?q"},
	{rfcBase, ";", "http://a/b/c/d;p?q"},
	{rfcBase, ";?", "http://a/b/c/d;p?q"},
	{rfcBase, "#", "http://a/b/c/d;p?q#"},
	{rfcBase, ";?y", "http://a/b/c/d;p?y"},
	{rfcBase, ";x?", "http://a/b/c/d;x?"},
	{rfcBase, ";x?#", "http://a/b/c/d;x?#"},
	{rfcBase, "?#s", "http://a/b/c/d;p?q#s"},
	{"http://a/b", ";x", "http://a/b;x"},
	{"http://a/b", "?y", "http://a/b?y"},
	{"http://a/b", "?", "http://a/b"},
	{"http://a", "?y", "http://a?y"},
	{"http://a", "#s", "http://a#s"},
	{"http://a/b/c;p", "?y", "http://a/b/c;p?y"},

	// Step 6: merge; the base's params and query never carry over.
	{rfcBase, "g;x", "http://a/b/c/g;x"},
	{"http://a/b/c/d;p/q?r/s", "g", "http://a/b/c/g"},
	{"http://a/b/c/d?q/r", "g", "http://a/b/c/g"},
	{"http://a/b/c/", "g", "http://a/b/c/g"},
	{"http://a/", "g", "http://a/g"},

	// 6a alone: every "./" that is a whole segment.
	{rfcBase, "./././g", "http://a/b/c/g"},
	{rfcBase, "g/./h/./", "http://a/b/c/g/h/"},
	{"http://a/b/./c/d", "g", "http://a/b/c/g"},
	{rfcBase, "g/.h/h./", "http://a/b/c/g/.h/h./"},

	// 6b alone: a trailing ".".
	{rfcBase, "g/.", "http://a/b/c/g/"},
	{rfcBase, "g/..x/.", "http://a/b/c/g/..x/"},

	// 6c alone: "<segment>/../", leftmost first, repeatedly.
	{rfcBase, "g/h/../../i", "http://a/b/c/i"},
	{rfcBase, "g/../h/../i", "http://a/b/c/i"},
	{rfcBase, "../../../../", "http://a/../../"},
	{"http://a/x/../y/z", "g", "http://a/y/g"},
	{"http://a/../x/y", "../../g", "http://a/../../g"}, // ".." never cancels ".."

	// 6d alone: one trailing "<segment>/..".
	{rfcBase, "g/..", "http://a/b/c/"},
	{rfcBase, "../../..", "http://a/.."},
	{"http://a/../b", "..", "http://a/../.."},

	// 6a to 6d together.
	{rfcBase, "./g/./../h/.", "http://a/b/c/h/"},
	{rfcBase, ".././.././g/./..", "http://a/"},
	{rfcBase, "g/./h/../../..", "http://a/b/"},

	// Segments that only look like dots are plain segments.
	{rfcBase, "...", "http://a/b/c/..."},
	{rfcBase, ".../..", "http://a/b/c/"},
	{rfcBase, ".a/../a.", "http://a/b/c/a."},
	{rfcBase, "%2e%2e/g", "http://a/b/c/%2e%2e/g"},
	{rfcBase, "%2E/g", "http://a/b/c/%2E/g"},

	// Empty segments are segments.
	{"http://a/b//c", "../g", "http://a/b/g"},
	{"http://a/b//c", "./g", "http://a/b//g"},
	{rfcBase, "g//../h", "http://a/b/c/g/h"},
	{"http://a//x", "../g", "http://a/g"},
	{"http://a/b/c", "..//g", "http://a//g"},

	// Params and queries with "/", ".", ";" and "?" in them are opaque.
	{rfcBase, "g;x/../y", "http://a/b/c/g;x/../y"},
	{rfcBase, "g;./x;y", "http://a/b/c/g;./x;y"},
	{rfcBase, "g?../x;y?z", "http://a/b/c/g?../x;y?z"},
	{rfcBase, "../g;?/..", "http://a/b/g;?/.."},
	{"http://a/b/c/d;p/../q?x/y", "../g", "http://a/b/g"},

	// A base with a net_loc and an empty path gets a "/".
	{"http://a", "g", "http://a/g"},
	{"http://a", ".", "http://a/"},
	{"http://a", "..", "http://a/.."},
	{"http://a", "../g", "http://a/../g"},
	{"http://a?q#f", "g", "http://a?q/g"}, // net_loc runs to the next "/" (2.4.3)
	{"http://a;p", "g", "http://a;p/g"},   // the ";" is inside the net_loc
	{"//a", "g", "//a/g"},

	// A base without a net_loc.
	{"foo:/a/b", "g", "foo:/a/g"},
	{"foo:a/b", "g", "foo:a/g"},
	{"foo:a/b", "../../g", "foo:../g"},
	{"foo:", "g", "foo:g"},
	{"foo:", "?y", "foo:?y"},
	{"mailto:x@y", "z", "mailto:z"},

	// A base without a scheme: used as it is, the result has none.
	{"a/b", "c", "a/c"},
	{"/a/b", "../c", "/c"},
	{"//h/a/b", "c", "//h/a/c"},
	{"a/b?q", "?y", "a/b?y"},
	{"#f", "g", "g"},

	// A base without a path: its net_loc takes any "?" or ";" (2.4.3).
	{"http://a?q", "?y", "http://a?q?y"},
	{"http://a?q", "", "http://a?q"},
	{"http://a;p", "?y", "http://a;p?y"},

	// Case and escapes are kept.
	{"HTTP://A/B/C", "D/%41", "HTTP://A/B/D/%41"},
}

func TestResolve(t *testing.T) {
	checkResolve(t, resolveTests)
}

// checkResolve runs every entry point on each test, and the literal
// implementation in slow_test.go, so that a row pins all of them.
func checkResolve(t *testing.T, tests []resolveTest) {
	t.Helper()
	for _, tt := range tests {
		if got := rfc1808.Resolve(tt.base, tt.ref); got != tt.want {
			t.Errorf("rfc1808.Resolve(%q, %q) = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
		if got := string(rfc1808.AppendResolve([]byte("prefix:"), tt.base, tt.ref)); got != "prefix:"+tt.want {
			t.Errorf("rfc1808.AppendResolve(%q, %q) = %q, want %q", tt.base, tt.ref, got, "prefix:"+tt.want)
		}
		if got := rfc1808.Split(tt.base).Resolve(tt.ref); got != rfc1808.Split(tt.want) {
			t.Errorf("rfc1808.Split(%q).Resolve(%q) = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
		if got := (Resolver{}).Explain(tt.base, tt.ref).Result; got != tt.want {
			t.Errorf("Explain(%q, %q).Result = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
	}
}

// TestResolveAgainstLiteral checks the one-pass resolver against the
// literal reading of Section 4 on references built from the pieces most
// likely to disagree: dots, slashes, empty segments, delimiters.
func TestResolveAgainstLiteral(t *testing.T) {
	pieces := []string{"", "/", "//", ".", "..", "...", "./", "../", "g", "h/", ".g", "g.", ";", ";x", "?", "?y", "#", "#s", ":", "x:", "%2e"}
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		var b strings.Builder
		for range rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	bases := []string{rfcBase, "http://a", "http://a/", "foo:", "foo:a/b/..", "/x/./y", "a//b/", ""}
	for range 200_000 {
		base, ref := gen(), gen()
		if rng.IntN(2) == 0 {
			base = bases[rng.IntN(len(bases))]
		}
		want := Resolver{}.Explain(base, ref).Result
		if got := rfc1808.Resolve(base, ref); got != want {
			t.Fatalf("rfc1808.Resolve(%q, %q) = %q, literal Section 4 gives %q", base, ref, got, want)
		}
	}
}

// resolved is r.Resolve for a test that knows it cannot fail.
func resolved(r Resolver, base, ref string) string {
	s, err := r.Resolve(base, ref)
	if err != nil && r.Spec != WHATWG {
		panic(err)
	}
	return s
}

// must is the result of an AppendResolve that cannot fail.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
