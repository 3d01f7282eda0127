package linkcheck

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"iter"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/relurl/relurl/internal/textsafe"
)

// The reports for CI systems: GitHub Actions' workflow commands, and
// JUnit XML.

// writeGitHub writes an ::error workflow command for each broken link, at
// its file (relative to the current directory, the checkout a workflow
// runs in), line and column, which GitHub shows on the line of the file;
// a link of a page with no file names its page in the message instead.
func writeGitHub(w *bufio.Writer, reports iter.Seq[Report], wd string) error {
	for r := range reports {
		if r.State != Broken && r.State != Unchecked {
			continue
		}
		msg := fmt.Sprintf("%s: %s", textsafe.String(r.Ref), textsafe.String(reportWhy(r)))
		if r.URL != "" && r.URL != r.Ref {
			msg = fmt.Sprintf("%s (%s): %s", textsafe.String(r.Ref), textsafe.String(r.URL), textsafe.String(reportWhy(r)))
		}
		props := "title=" + ghProperty("broken link")
		if file := repoPath(r.File, wd); file != "" {
			props = fmt.Sprintf("file=%s,line=%d,col=%d,%s", ghProperty(file), r.Line, r.Column, props)
		} else {
			msg = fmt.Sprintf("%s %d:%d: %s", textsafe.String(r.Source), r.Line, r.Column, msg)
		}
		if _, err := fmt.Fprintf(w, "::error %s::%s\n", props, ghMessage(msg)); err != nil {
			return err
		}
	}
	return nil
}

// reportWhy is why a link is broken: its error, else its HTTP status.
func reportWhy(r Report) string {
	if r.Err != nil {
		return r.Err.Error()
	}
	return strconv.Itoa(r.Status) + " " + http.StatusText(r.Status)
}

// repoPath is a local file's path relative to the current directory wd
// (os.Getwd's, looked up once for a report), with slashes, if it is below
// it; the path as named otherwise.
func repoPath(file, wd string) string {
	if file == "" || file == "-" {
		return ""
	}
	if filepath.IsAbs(file) && wd != "" {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
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
// test suite for each document, a test case for each link. The totals
// come first, in <testsuites>, so the reports are counted first; then
// each document's cases are written as a suite, a document at a time.

type junitSuite struct {
	XMLName xml.Name `xml:"testsuite"`
	Name    string   `xml:"name,attr"`
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

// count counts a report's case.
func (c *junitCounts) count(r Report) {
	c.Tests++
	switch r.State {
	case Broken:
		c.Failures++
	case Unchecked:
		c.Errors++
	case Skipped, Excluded:
		c.Skipped++
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

// writeJUnit writes the reports as JUnit XML: a broken link is a failure,
// one not checked (-max-time) an error, a skipped or excluded one skipped.
func writeJUnit(w *bufio.Writer, reports iter.Seq[Report], wd string) error {
	var all junitCounts
	for r := range reports {
		all.count(r)
	}
	w.WriteString(xml.Header)
	fmt.Fprintf(w, "<testsuites name=\"relurl check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		all.Tests, all.Failures, all.Errors, all.Skipped)
	var suite junitSuite
	flush := func() error {
		if len(suite.Cases) == 0 {
			return nil
		}
		b, _ := xml.MarshalIndent(suite, "  ", "  ") // cannot fail: strings and numbers
		w.Write(b)
		_, err := w.WriteString("\n")
		suite = junitSuite{Cases: suite.Cases[:0]}
		return err
	}
	for r := range reports {
		if r.Source != suite.Name || len(suite.Cases) == 0 {
			if err := flush(); err != nil {
				return err
			}
			suite.Name = r.Source
		}
		c := junitCase{
			Name:      fmt.Sprintf("%d:%d %s", r.Line, r.Column, written(r.Link)),
			ClassName: r.Source,
			File:      repoPath(r.File, wd),
			Line:      r.Line,
			Time:      strconv.FormatFloat(r.Elapsed.Seconds(), 'f', 3, 64),
		}
		why := &junitMessage{Message: reportWhy(r), Text: r.URL}
		switch r.State {
		case Broken:
			why.Type = "broken"
			c.Failure = why
		case Unchecked:
			why.Type = "unchecked"
			c.Error = why
		case Skipped, Excluded:
			c.Skipped = &junitMessage{Message: errText(r.Err)}
		}
		suite.count(r)
		suite.Cases = append(suite.Cases, c)
	}
	if err := flush(); err != nil {
		return err
	}
	_, err := w.WriteString("</testsuites>\n")
	return err
}
