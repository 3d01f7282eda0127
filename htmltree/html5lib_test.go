package htmltree

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/htmltok"
)

// treeDir holds html5lib-tests' tree-construction suite, vendored in the
// module's testdata with its licence and provenance (its README.md).
const treeDir = "../testdata/html5lib-tests/tree-construction"

// treeCase is one test of the suite.
type treeCase struct {
	file     string
	line     int
	data     string
	fragment string // the context element of a fragment case
	scripted string // "on", "off" or "" (both)
	want     string
}

// readTreeCases reads every .dat file of the suite.
func readTreeCases(t testing.TB) []treeCase {
	files, err := filepath.Glob(filepath.Join(treeDir, "*.dat"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tree-construction tests in %s (%v)", treeDir, err)
	}
	var cases []treeCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		var c *treeCase
		section := ""
		var data, doc []string
		flush := func() {
			if c == nil {
				return
			}
			c.data = strings.Join(data, "\n")
			// The dump's lines end at the next test's #data; the blank
			// line between tests is not the tree's (a text node's data
			// may hold blank lines, so only the last is dropped).
			for len(doc) > 0 && doc[len(doc)-1] == "" {
				doc = doc[:len(doc)-1]
			}
			c.want = strings.Join(doc, "\n") + "\n"
			cases = append(cases, *c)
		}
		for i, l := range lines {
			if strings.HasPrefix(l, "#") && (section != "document" || l == "#data") {
				switch l {
				case "#data":
					flush()
					c = &treeCase{file: filepath.Base(f), line: i + 1}
					data, doc = nil, nil
				case "#script-on":
					c.scripted = "on"
				case "#script-off":
					c.scripted = "off"
				}
				section = strings.TrimPrefix(l, "#")
				continue
			}
			switch section {
			case "data":
				data = append(data, l)
			case "document-fragment":
				c.fragment = l
			case "document":
				doc = append(doc, l)
			}
		}
		flush()
	}
	return cases
}

// parseDump parses data with the Builder and a dom, and dumps the tree.
func parseDump(data string) (string, error) {
	z := htmltok.NewBytes([]byte(data))
	d := newDOM(z)
	err := New(z, d).Run()
	if bad := d.unpopped(); err == nil && len(bad) > 0 {
		err = fmt.Errorf("the Sink's Pop was not called once for each element: %v", bad)
	}
	return d.dump(), err
}

// notTheParsers are the document cases whose expected tree holds what
// the DOM does after the parser, not the tree builder: when an <option> is
// inserted into a <select> whose <button> holds a <selectedcontent>, the
// option's contents are cloned into it (HTML's "selectedcontent" update
// steps). Links in those clones are the option's, found there.
var notTheParsers = map[string]bool{
	"<select><button><selectedcontent></button><option>X":                   true,
	"<select><button><selectedcontent></button><option>x<i>i<b>ib</i>b":     true,
	"<select><button><selectedcontent></button><option>X<option>Y":          true,
	"<select><button><selectedcontent></button><option>X<option selected>Y": true,
}

// TestTreeConstruction holds the Builder to html5lib-tests' tree
// construction suite: every document case, parsed with scripting on, gives
// the expected tree. Fragment cases (innerHTML's algorithm, which documents
// do not use) and cases only for scripting off are counted apart.
func TestTreeConstruction(t *testing.T) {
	cases := readTreeCases(t)
	passed, known, fragments, scriptOff := 0, 0, 0, 0
	var failed []string
	for _, c := range cases {
		switch {
		case c.fragment != "":
			fragments++
			continue
		case c.scripted == "off":
			scriptOff++
			continue
		}
		got, err := parseDump(c.data)
		if err != nil {
			t.Errorf("%s:%d: %v", c.file, c.line, err)
			continue
		}
		if notTheParsers[c.data] {
			if got == c.want {
				t.Errorf("%s:%d: %q now gives the expected tree: take it off notTheParsers", c.file, c.line, c.data)
			}
			known++
			continue
		}
		if got != c.want {
			failed = append(failed, c.file)
			if len(failed) <= *showFailures {
				t.Errorf("%s:%d: %q\ngot:\n%s\nwant:\n%s", c.file, c.line, c.data, got, c.want)
			}
			continue
		}
		passed++
	}
	t.Logf("tree construction: %d of %d document cases pass, %d differ only by the DOM's <selectedcontent> clones; %d fragment cases and %d scripting-off cases not run",
		passed, len(cases)-fragments-scriptOff, known, fragments, scriptOff)
	if len(failed) > 0 {
		byFile := map[string]int{}
		for _, f := range failed {
			byFile[f]++
		}
		t.Errorf("%d cases fail: %v", len(failed), byFile)
	}
}

var showFailures = flag.Int("failures", 5, "how many failing tree-construction cases to show")

// TestMaxDepth: a document nested deeper than MaxDepth ends there with a
// *DepthError naming the tag's byte offset, its open elements popped, and
// no memory spent on the rest.
func TestMaxDepth(t *testing.T) {
	doc := strings.Repeat("<div>", MaxDepth+10) + "<a href=x>"
	z := htmltok.NewBytes([]byte(doc))
	d := newDOM(z)
	err := New(z, d).Run()
	var de *DepthError
	// html, head popped, body: the div that goes past is the
	// (MaxDepth-1)th, whose tag starts at 5*(MaxDepth-2).
	if !errors.As(err, &de) || de.Offset != int64(5*(MaxDepth-2)) {
		t.Fatalf("Run() = %v, want a DepthError at byte offset %d", err, 5*(MaxDepth-2))
	}
	if bad := d.unpopped(); len(bad) > 0 {
		t.Errorf("elements left unpopped: %d", len(bad))
	}
	if !strings.Contains(err.Error(), "byte offset") {
		t.Errorf("the error does not say where: %v", err)
	}
}
