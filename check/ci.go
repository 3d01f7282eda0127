package check

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/relurl/relurl/internal/textsafe"
)

// The reports for CI systems: GitHub Actions' workflow commands, and
// JUnit XML.

// GitHub is an ::error workflow command for each broken link, at
// its file (relative to the current directory, the checkout a workflow
// runs in), line and column, which GitHub shows on the line of the file;
// a link of a page with no file names its page in the message instead.
func GitHub(reports []Report) []byte {
	var out []byte
	for _, r := range reports {
		if r.State != Broken && r.State != Unchecked {
			continue
		}
		msg := fmt.Sprintf("%s: %s", textsafe.String(r.Ref), textsafe.String(reportWhy(r)))
		if r.URL != "" && r.URL != r.Ref {
			msg = fmt.Sprintf("%s (%s): %s", textsafe.String(r.Ref), textsafe.String(r.URL), textsafe.String(reportWhy(r)))
		}
		props := "title=" + ghProperty("broken link")
		if file := repoPath(r.File); file != "" {
			props = fmt.Sprintf("file=%s,line=%d,col=%d,%s", ghProperty(file), r.Line, r.Column, props)
		} else {
			msg = fmt.Sprintf("%s %d:%d: %s", textsafe.String(r.Source), r.Line, r.Column, msg)
		}
		out = fmt.Appendf(out, "::error %s::%s\n", props, ghMessage(msg))
	}
	return out
}

// reportWhy is why a link is broken: its error, else its HTTP status.
func reportWhy(r Report) string {
	if r.Err != "" {
		return r.Err
	}
	return strconv.Itoa(r.Status) + " " + http.StatusText(r.Status)
}

// repoPath is a local file's path relative to the current directory, with
// slashes, if it is below it; the path as named otherwise.
func repoPath(file string) string {
	if file == "" || file == "-" {
		return ""
	}
	if filepath.IsAbs(file) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
				file = rel
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// ghMessage and ghProperty escape a workflow command's message and the
// values of its properties, as GitHub's toolkit does.
func ghMessage(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// JUnit XML, as JUnit's Ant task wrote it and CI systems read it: a
// test suite for each document, a test case for each link.
type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr"`
	junitCounts
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name string `xml:"name,attr"`
	junitCounts
	Cases []junitCase `xml:"testcase"`
}

// junitCounts are the counts of a suite, and of them all.
type junitCounts struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Skipped  int `xml:"skipped,attr"`
}

// count counts a case in c, and in all.
func (c *junitCounts) count(all *junitCounts, tests, failures, errors, skipped int) {
	for _, k := range []*junitCounts{c, all} {
		k.Tests += tests
		k.Failures += failures
		k.Errors += errors
		k.Skipped += skipped
	}
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure"`
	Error     *junitMessage `xml:"error"`
	Skipped   *junitMessage `xml:"skipped"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit writes the reports as JUnit XML: a broken link is a failure,
// one not checked (-max-time) an error, a skipped or excluded one skipped.
func JUnit(reports []Report) []byte {
	all := junitSuites{Name: "relurl check"}
	for _, r := range reports {
		if n := len(all.Suites); n == 0 || all.Suites[n-1].Name != r.Source {
			all.Suites = append(all.Suites, junitSuite{Name: r.Source})
		}
		s := &all.Suites[len(all.Suites)-1]
		c := junitCase{
			Name:      fmt.Sprintf("%d:%d <%s %s=%q>", r.Line, r.Column, r.Element, r.Attribute, r.Ref),
			ClassName: r.Source,
			File:      repoPath(r.File),
			Line:      r.Line,
			Time:      strconv.FormatFloat(r.Elapsed.Seconds(), 'f', 3, 64),
		}
		why := &junitMessage{Message: reportWhy(r), Text: r.URL}
		switch r.State {
		case Broken:
			why.Type = "broken"
			c.Failure = why
			s.count(&all.junitCounts, 1, 1, 0, 0)
		case Unchecked:
			why.Type = "unchecked"
			c.Error = why
			s.count(&all.junitCounts, 1, 0, 1, 0)
		case Skipped, Excluded:
			c.Skipped = &junitMessage{Message: r.Err}
			s.count(&all.junitCounts, 1, 0, 0, 1)
		default:
			s.count(&all.junitCounts, 1, 0, 0, 0)
		}
		s.Cases = append(s.Cases, c)
	}
	b, _ := xml.MarshalIndent(all, "", "  ") // cannot fail: strings and numbers
	return append(append([]byte(xml.Header), b...), '\n')
}
