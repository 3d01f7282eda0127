// Package conformance reads the conformance data that the tests of several
// packages hold themselves to, all of it in the module's testdata:
// web-platform-tests' JSON files (testdata/wpt, with their licence and
// provenance) and the RFCs' examples of resolution in the module's testdata
// (rfc1808-examples.tsv, the 39 of RFC 1808's Section 5;
// rfc3986-examples.tsv, the 42 of RFC 3986's Section 5.4).
package conformance

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WPT reads the objects of the wpt JSON list name, skipping its comment
// strings.
func WPT[T any](name string) ([]T, error) {
	dir, err := Root()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "wpt", name))
	if err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	var cases []T
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue // a comment
		}
		var c T
		if err := json.Unmarshal(r, &c); err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// WPTCases is WPT for a test: it fails the test when the file cannot be
// read, which only a broken checkout can cause.
func WPTCases[T any](t testing.TB, name string) []T {
	t.Helper()
	cases, err := WPT[T](name)
	if err != nil {
		t.Fatalf("conformance data testdata/wpt/%s: %v", name, err)
	}
	return cases
}

// The base URL of every example: RFC 1808's, and RFC 3986's.
const (
	Base1808 = "http://a/b/c/d;p?q#f"
	Base3986 = "http://a/b/c/d;p?q"
)

// An Example is one row: the section that gives it, the reference, and
// what it resolves to against the RFC's base.
type Example struct{ Section, Ref, Want string }

// RFCExamples reads the examples of the file name in the module's testdata, or
// fails the test; want is how many the file must hold.
func RFCExamples(t testing.TB, name string, want int) []Example {
	t.Helper()
	dir, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var examples []Example
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("%s: bad example line %q", name, line)
		}
		examples = append(examples, Example{fields[0], fields[1], fields[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(examples) != want {
		t.Fatalf("%s: %d examples, want %d", name, len(examples), want)
	}
	return examples
}

// Root returns the module's root: the nearest directory above the working
// directory (a package's, when go test runs) that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
