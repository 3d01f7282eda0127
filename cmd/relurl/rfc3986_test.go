package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The commands of RFC 3986 mode, relative references and traces, run as a
// user runs them.
func TestRFC3986Commands(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	tests := []cliTest{
		{"resolve -rfc 3986", "", []string{"resolve", "-rfc", "3986", base, ";x", "../../../g", "http:g", "?"},
			"http://a/b/c/;x\nhttp://a/g\nhttp:g\nhttp://a/b/c/d;p?\n", "", 0},
		{"resolve -rfc 3986 -nonstrict", "", []string{"resolve", "-rfc", "3986", "-nonstrict", base, "http:g"}, "http://a/b/c/g\n", "", 0},
		{"resolve -rfc 3986 -pairs", base + "\t/./g\n", []string{"resolve", "-rfc", "3986", "-pairs"}, "http://a/g\n", "", 0},
		{"resolve -rfc 1808", "", []string{"resolve", "-rfc", "1808", base, "/./g"}, "http://a/./g\n", "", 0},
		{"bad -rfc", "", []string{"resolve", "-rfc", "2396", base, "g"}, "", "relurl resolve: invalid value \"2396\" for flag -rfc: want 1808, 3986 or whatwg (or rfc1808, rfc3986, url)\n…", 2},
		{"-spec rfc3986, the long name", "", []string{"resolve", "-spec", "rfc3986", base, ";x"}, "http://a/b/c/;x\n", "", 0},
		{"-spec URL, the URL Standard's short name", "", []string{"resolve", "-spec", "URL", base, "http:g"}, "http://a/b/c/g\n", "", 0},

		{"compare", "", []string{"compare", base, ";x", "g"},
			"ref\trfc1808\trfc3986\twhatwg\tnet/url\tmark\n;x\thttp://a/b/c/d;x\thttp://a/b/c/;x\thttp://a/b/c/;x\thttp://a/b/c/;x\trfc1808\ng\thttp://a/b/c/g\thttp://a/b/c/g\thttp://a/b/c/g\thttp://a/b/c/g\tsame\n", "", 0},
		{"compare -diff -markdown from stdin", "g\n/../g\n", []string{"compare", "-diff", "-markdown", "-base", base},
			"| reference | RFC 1808 | RFC 3986 | WHATWG | net/url | |\n| --- | --- | --- | --- | --- | --- |\n| `/../g` | `http://a/../g` | `http://a/g` | `http://a/g` | `http://a/g` | rfc1808 |\n", "", 0},
		{"compare, net/url cannot parse", "", []string{"compare", "http://a/b", "%zz"},
			"ref\trfc1808\trfc3986\twhatwg\tnet/url\tmark\n%zz\thttp://a/%zz\thttp://a/%zz\thttp://a/%zz\terror: parse \"%zz\": invalid URL escape \"%zz\"\tnet/url\n", "", 0},

		{"relative", "", []string{"relative", base, "http://a/b/g", "http://a/b/c/d;p?y", "http://a/b/c/this:that", "http://a/b/c/d;x"},
			"../g\n?y\n./this:that\n;x\n", "", 0},
		{"relative -rfc 3986", "", []string{"relative", "-rfc", "3986", base, "http://a/b/c/;x"}, ";x\n", "", 0},
		{"relative, unreachable", "", []string{"relative", "-rfc", "3986", base, "http://a/../g", "http://a/g"},
			"http://a/../g\n/g\n", "relurl relative: no reference resolves against http://a/b/c/d;p?q to http://a/../g under RFC 3986\n", 1},
		{"relative, no target", "", []string{"relative", base}, "", "relurl relative: missing REF after BASE…", 2},

		{"explain", "", []string{"explain", "http://a/b/c/d;p?q#f", "../../../g"}, "RFC 1808; split by Section 2.4:\n…", "", 0},
		{"explain, wrong arguments", "", []string{"explain", base}, "", "relurl explain: want BASE and REF…", 2},
	}
	runCLITests(t, tests)
}

func TestExplainOutput(t *testing.T) {
	r := relurlRun(t, nil, "explain", "http://a/b/c/d;p?q#f", "../../../g")
	check(t, r, "*", "", 0)
	for _, want := range []string{
		`reference  path "../../../g"`,
		`6:        the last segment of the base's path "b/c/d" is removed and the reference's path "../../../g" appended: "b/c/../../../g"`,
		`6c:       "c/../" removed: "b/c/../../../g" becomes "b/../../g"`,
		`6c:       "b/../" removed: "b/../../g" becomes "../g"`,
		"result:   http://a/../g\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain output lacks %q:\n%s", want, r.stdout)
		}
	}

	r = relurlRun(t, nil, "explain", "-json", "-rfc", "3986", "http://a/b/c/d;p?q", "../../../g")
	check(t, r, "*", "", 0)
	var trace struct {
		Spec   string
		Base   []struct{ Name, Value string }
		Steps  []struct{ Step, Text, Path string }
		Result string
	}
	if err := json.Unmarshal([]byte(r.stdout), &trace); err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, s := range trace.Steps {
		steps = append(steps, s.Step)
	}
	want := "5.2.2 5.2.3 5.2.4 E 5.2.4 E 5.2.4 C 5.2.4 C 5.2.4 C 5.2.4 E 5.3"
	if trace.Spec != "3986" || trace.Result != "http://a/g" || strings.Join(steps, " ") != want || trace.Base[1].Name != "authority" {
		t.Errorf("trace: spec %q, result %q, steps %q, base %v", trace.Spec, trace.Result, steps, trace.Base)
	}
}

func TestLinksRFC3986(t *testing.T) {
	doc := `<base href="http://a/b/c/d;p?q"><a href="../../../g">x</a><a href=";x">y</a>`
	check(t, relurlRun(t, in(doc), "links", "-rfc", "3986", "-"), "http://a/g\nhttp://a/b/c/;x\n", "", 0)
	check(t, relurlRun(t, in(doc), "links", "-spec", "1808", "-"), "http://a/../g\nhttp://a/b/c/d;x\n", "", 0)
	// The default of the document commands is the URL Standard's.
	check(t, relurlRun(t, in(doc), "links", "-"), "http://a/g\nhttp://a/b/c/;x\n", "", 0)
}

// docs/standards.md's table of where RFC 1808, RFC 3986 and net/url differ is the
// output of the command it gives; this keeps the two the same.
func TestREADMECompareTable(t *testing.T) {
	refs, err := os.ReadFile("../../testdata/compare-refs.txt")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../docs/standards.md")
	if err != nil {
		t.Fatal(err)
	}
	r := relurlRun(t, strings.NewReader(string(refs)), "compare", "-diff", "-markdown", "-base", "http://a/b/c/d;p?q#f")
	check(t, r, "*", "", 0)
	if !strings.Contains(string(readme), r.stdout) {
		t.Errorf("docs/standards.md lacks the table the command prints now:\n%s", r.stdout)
	}
}
