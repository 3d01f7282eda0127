package whatwg

import (
	"bufio"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
)

// simpleCases are references against bases that take appendSimple's
// shortcut, and those that must not: each is held to the parser's whole
// way by TestSimple, and seeds FuzzSimple.
var simpleCases = []struct {
	base, ref string
	short     bool // appendSimple answers
}{
	{"https://docs.python.org/3.11/library/os.html", "os.path.html#module-os.path", true},
	{"https://docs.python.org/3.11/library/os.html", "sub/page.html?a=1&b=(2)#x:y?z#w", true},
	{"https://docs.python.org/3.11/library/os.html?q#f", "?r", true},
	{"https://docs.python.org/3.11/library/os.html?q#f", "#g", true},
	{"https://docs.python.org/3.11/library/os.html?q#f", "#", true},
	{"https://docs.python.org/3.11/library/os.html?q#f", "?", true},
	{"https://docs.python.org/3.11/library/os.html", "/3/index.html", true},
	{"https://docs.python.org/3.11/library/os.html", "/", true},
	{"http://a:8080/b/c", "d//e/", true},
	{"http://a/b/c", ".hidden/..x/x..", true},
	{"http://a/b/c", "%7e", false}, // "%" only after the path
	{"http://a/b/c", "d?%zz#%", true},
	{"http://a/b/c", "d'e[f]?a[b]^c{d}|e\\f#g\\h{i}", true}, // what the path, query and fragment sets leave
	{"http://a/b/c", "d|e", false},
	{"http://a/b/c", "d^e", false},
	{"file:///tmp/pages/os.html", "os.path.html", true},
	{"file:///C:/os.html", "os.path.html", false},
	{"file:///C:", "os.path.html", false},   // the drive letter stays
	{"file:///C:/dir/os.html", "/x", false}, // so it does here
	{"file:///C:/dir/os.html", "d:/x", false},
	{"http://a/b/c", "./d", true},
	{"http://a/b/c/d", "../../e?f#g", true},
	{"http://a/b/c/d", ".././../../../e", true},
	{"http://a/b/c/d", "../", true},
	{"http://a/b/c/d", "./?x", true},
	{"http://a/b/c/d", "./#x", true},
	{"http://a/b/c/d", "..//e", false},
	{"file:///tmp/a/b.html", "../c.html", true},
	{"file:///C:/a/b.html", "../c.html", false},
	{"file:///C:/a/b.html", "./c.html", false},
	{"http://a/b/c", "d/../e", false},
	{"http://a/b/c", "../..", false},
	{"http://a/b/c", "./.", false},
	{"http://a/b/c", "..", false},
	{"http://a/b/c", "d/.", false},
	{"http://a/b/c", "%2e%2E/d", false},
	{"http://a/b/c", "//host/d", false},
	{"http://a/b/c", "mailto:x", false},
	{"http://a/b/c", "d e", false},
	{"http://a/b/c", "d\\e", false},
	{"http://a/b/c", "d?'", false},
	{"http://a/b/c", "caf\u00e9", false},
	{"http://a/b/c", " d", false},
	{"http://a/b/c", "d\t", false},
	{"http://a/b/c", "", false},
	{"http://a/b/c", "{d}", false},
	{"mailto:x@y", "#z", false},
	{"foo://a/b/c", "d", false},
}

// checkSimple holds appendSimple to the parser's whole way for ref
// against base, when it answers, and reports whether it did.
func checkSimple(t *testing.T, base URL, ref string) bool {
	t.Helper()
	got, ok := appendSimple([]byte("x"), ref, &base)
	if !ok {
		return false
	}
	want, err := base.Parse(ref)
	if err != nil || string(got) != "x"+want.Href() {
		t.Errorf("%q against %q: the shortcut gives %q, the parser %q, %v", ref, base.Href(), got[1:], want.Href(), err)
	}
	return true
}

// TestSimple holds appendSimple to the parser on the cases above, on
// web-platform-tests' inputs against their bases, and on the 207,861
// links of ../shared/data's pages when they are there.
func TestSimple(t *testing.T) {
	for _, c := range simpleCases {
		if got := checkSimple(t, MustParse(c.base), c.ref); got != c.short {
			t.Errorf("%q against %q: shortcut %v, want %v", c.ref, c.base, got, c.short)
		}
	}
	for _, c := range conformance.WPTCases[struct{ Input, Base string }](t, "urltestdata.json") {
		if base, err := Parse(c.Base); err == nil {
			checkSimple(t, base, c.Input)
		}
	}
	f, err := os.Open("../../shared/data/doc-links.tsv.gz")
	if err != nil {
		t.Logf("no page links (%v); they come with the checkout's ../shared", err)
		return
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	links, short := 0, 0
	var base URL
	for s := bufio.NewScanner(zr); s.Scan(); {
		page, ref, _ := strings.Cut(s.Text(), "\t")
		if base.Href() != page {
			if base, err = Parse(page); err != nil {
				t.Fatal(err)
			}
		}
		links++
		if checkSimple(t, base, ref) {
			short++
		}
	}
	t.Logf("%d of %d links of the pages take the shortcut", short, links)
	if short < links*8/10 {
		t.Errorf("only %d of %d links take the shortcut", short, links)
	}
}

// FuzzSimple holds appendSimple to the parser's whole way on every base
// and reference it answers for. A base the parser refuses is replaced by
// one of simpleCases', so that every input tries a reference against a
// base the shortcut may take.
func FuzzSimple(f *testing.F) {
	for i, c := range simpleCases {
		f.Add(c.base, c.ref, uint8(i))
	}
	f.Fuzz(func(t *testing.T, base, ref string, which uint8) {
		b, err := Parse(base)
		if err != nil {
			b = MustParse(simpleCases[int(which)%len(simpleCases)].base)
		}
		checkSimple(t, b, ref)
	})
}
