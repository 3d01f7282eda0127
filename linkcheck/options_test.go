package linkcheck

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/links"
)

func TestReadIgnoreFile(t *testing.T) {
	dir := t.TempDir()
	if res, err := ReadIgnoreFile(filepath.Join(dir, "none")); res != nil || err != nil {
		t.Errorf("a missing file: %v, %v; want none", res, err)
	}
	good := filepath.Join(dir, ".relurlignore")
	os.WriteFile(good, []byte("# comment\n\n^https://twitter\\.com/\n  localhost  \n"), 0o644)
	res, err := ReadIgnoreFile(good)
	if err != nil || len(res) != 2 || !res[0].MatchString("https://twitter.com/x") || res[1].String() != "localhost" {
		t.Errorf("%v, %v", res, err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("ok\n(unclosed\n"), 0o644)
	if _, err := ReadIgnoreFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+", line 2: ") {
		t.Errorf("a bad pattern: %v, want the file and line 2", err)
	}
}

func TestSortAndCount(t *testing.T) {
	rs := []Report{{Link: Link{Source: "b", Line: 1}}, {Link: Link{Source: "a", Line: 9, Column: 2}}, {Link: Link{Source: "a", Line: 9, Column: 1}}, {Link: Link{Source: "a", Line: 2}}}
	sortReports(rs)
	var order []string
	for _, l := range rs {
		order = append(order, l.Source+":"+strings.Repeat("|", l.Line)+strings.Repeat(".", l.Column))
	}
	if got := strings.Join(order, " "); got != "a:|| a:|||||||||. a:|||||||||.. b:|" {
		t.Errorf("order %s", got)
	}
	reports := []Report{
		{Link: Link{URL: "http://x/#a"}, Result: Result{State: OK}},
		{Link: Link{URL: "http://x/#b"}, Result: Result{State: Broken}},
		{Link: Link{URL: "", BaseFrom: links.FromNone}, Result: Result{State: Broken}},
		{Link: Link{URL: "mailto:a@b"}, Result: Result{State: Skipped}},
	}
	c := Summarize(slices.Values(reports))
	// Three targets, each URL as linked (a fragment makes a target of its
	// own), and one broken: the unresolved link has none.
	if c.Targets != 3 || c.BrokenTargets != 1 || c.Unresolved != 1 || c.ByState[Broken] != 2 || c.ByState[Skipped] != 1 || c.ByState[OK] != 1 {
		t.Errorf("%+v", c)
	}
}

// WriteReport sums the reports up as it writes them, in every format: the
// same Summary as Summarize's, though JUnit ranges over them twice.
func TestWriteReportSummary(t *testing.T) {
	reports := []Report{
		{Link: Link{Source: "a.md", URL: "file:///b.md#x", Ref: "b.md#x", Markdown: "link"}, Result: Result{State: Broken, Err: errors.New("no heading")}},
		{Link: Link{Source: "a.md", URL: "file:///b.md#x", Ref: "b.md#x", Markdown: "link"}, Result: Result{State: Broken, Err: errors.New("no heading")}},
		{Link: Link{Source: "a.md", URL: "https://x.example/"}, Result: Result{State: Excluded}},
		{Link: Link{Source: "b.md", URL: "", Ref: "c.md", BaseFrom: links.FromNone}, Result: Result{State: Broken, Err: errors.New("not resolved")}},
		{Link: Link{Source: "b.md", URL: "file:///b.md"}, Result: Result{State: OK}},
	}
	want := Summarize(slices.Values(reports))
	if want.Links != 5 || want.Documents != 2 || want.Targets != 3 || want.BrokenTargets != 1 || want.ByState[Broken] != 3 || want.Unresolved != 1 {
		t.Fatalf("Summarize: %+v", want)
	}
	for _, f := range []Format{FormatText, FormatJSON, FormatMarkdown, FormatGitHub, FormatJUnit} {
		var out strings.Builder
		got, err := WriteReport(&out, f, slices.Values(reports), ReportOptions{})
		if err != nil || got != want || out.Len() == 0 {
			t.Errorf("format %d: %+v, %v (%d bytes written); want %+v", f, got, err, out.Len(), want)
		}
	}
}
