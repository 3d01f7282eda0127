package linkcheck

import (
	"bufio"
	"cmp"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/textsafe"
	"github.com/relurl/relurl/links"
)

// The reports of a run, for people (FormatText), programs (FormatJSON)
// and CI systems (FormatMarkdown, FormatGitHub, FormatJUnit), written as
// the reports come: a site of millions of links is reported in the memory
// of its broken links.

// A Format is the form of a report.
type Format int

const (
	// FormatText is for people: each broken target once, with its error
	// and the first links to it (page, line and column), the most linked
	// first.
	FormatText Format = iota
	// FormatJSON is one JSON object a line for each link, whatever its
	// state.
	FormatJSON
	// FormatMarkdown is a table of the broken targets, for a CI job's
	// summary.
	FormatMarkdown
	// FormatGitHub is GitHub Actions' workflow commands: an ::error at
	// each broken link's file, line and column.
	FormatGitHub
	// FormatJUnit is JUnit XML: a test suite for each document, a test
	// case for each link.
	FormatJUnit
)

// ReportOptions say what a text report shows.
type ReportOptions struct {
	// Explain shows, for each broken link shown, why it resolved where it
	// did: its base and the layer that set it, then the steps of Spec.
	Explain bool
	Spec    relurl.Spec
	// Shown is how many links to each broken target a text or Markdown
	// report lists; 0 means 5. JSON, GitHub and JUnit list every link.
	Shown int
}

// WriteReport writes reports to w in format f, and returns their Summary,
// summed up as they are written: reports is ranged over once (twice for
// JUnit, whose totals come first), and each page's links come together
// (the order of Checker.Check).
func WriteReport(w io.Writer, f Format, reports iter.Seq[Report], o ReportOptions) (Summary, error) {
	if o.Shown <= 0 {
		o.Shown = 5
	}
	var sum summer
	counted := false
	all := reports
	reports = func(yield func(Report) bool) {
		count := !counted
		counted = true
		for r := range all {
			if count {
				sum.add(r)
			}
			if !yield(r) {
				return
			}
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	wd, _ := os.Getwd()
	var err error
	switch f {
	case FormatJSON:
		err = writeJSON(bw, reports)
	case FormatGitHub:
		err = writeGitHub(bw, reports, wd)
	case FormatJUnit:
		err = writeJUnit(bw, reports, wd)
	case FormatMarkdown:
		writeMarkdown(bw, brokenTargets(reports, o.Shown), wd)
	default:
		writeText(bw, brokenTargets(reports, o.Shown), o, wd)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return sum.summary(), err
}

// A brokenTarget is a broken URL (its fragment included: the target of a
// missing fragment is the fragment) and the links to it.
type brokenTarget struct {
	first  Report   // the first link to it, whose error is the target's
	shown  []Report // the first links, Shown of them
	links  int
	pages  int    // the documents the links are in
	last   string // the source of the last link: the reports come a document at a time
	number int    // of the first link among all: the order of equal counts
}

// brokenTargets groups the broken links by target, the targets with the
// most links first.
func brokenTargets(reports iter.Seq[Report], shown int) []*brokenTarget {
	groups := map[string]*brokenTarget{}
	var order []*brokenTarget
	n := 0
	for r := range reports {
		n++
		if r.State != Broken {
			continue
		}
		key := r.URL
		if key == "" {
			key = "\x00" + r.Ref // unresolved: one group for each reference
		}
		r.Link = r.Link.own()
		g := groups[key]
		if g == nil {
			g = &brokenTarget{first: r, number: n}
			groups[key] = g
			order = append(order, g)
		}
		g.links++
		if g.pages == 0 || r.Source != g.last {
			g.pages, g.last = g.pages+1, r.Source
		}
		if len(g.shown) < shown {
			g.shown = append(g.shown, r)
		}
	}
	slices.SortStableFunc(order, func(a, b *brokenTarget) int { return cmp.Or(b.links-a.links, a.number-b.number) })
	return order
}

// written is how link l is written in its document, in short: its element
// and attribute, <a href="x">, or its Markdown: […](x), ![…](x), an
// autolink's URL, or a reference definition, […]: x, with the number of
// links that use it.
func written(l Link) string {
	ref := textsafe.String(l.Ref)
	switch l.Markdown {
	case "link":
		return "[…](" + ref + ")"
	case "image":
		return "![…](" + ref + ")"
	case "autolink":
		return ref
	case "definition":
		if l.Uses == 1 {
			return "[…]: " + ref + " (1 link uses it)"
		}
		return fmt.Sprintf("[…]: %s (%d links use it)", ref, l.Uses)
	}
	return fmt.Sprintf("<%s %s=%q>", l.Element, l.Attribute, l.Ref)
}

// writeText writes each broken target, its error and redirects, and the
// first links to it: where each is (a local file's path, else its page's
// URL, then line:column), its element and reference as written.
func writeText(w *bufio.Writer, targets []*brokenTarget, o ReportOptions, wd string) {
	for _, g := range targets {
		r := g.first
		target := textsafe.String(r.URL)
		if r.URL == "" {
			target = fmt.Sprintf("%q (unresolved)", textsafe.String(r.Ref))
		}
		fmt.Fprintf(w, "%s: %s\n", target, textsafe.String(reportWhy(r)))
		if len(r.Redirects) > 1 {
			fmt.Fprintf(w, "    redirected: %s\n", textsafe.String(strings.Join(r.Redirects, " -> ")))
		}
		for _, l := range g.shown {
			fmt.Fprintf(w, "  %s:%d:%d %s\n", textsafe.String(where(l.Link, wd)), l.Line, l.Column, written(l.Link))
			if o.Explain {
				w.Write(appendExplanation(nil, l, o.Spec))
			}
		}
		if more := g.links - len(g.shown); more > 0 {
			noun := "links"
			if more == 1 {
				noun = "link"
			}
			fmt.Fprintf(w, "  … and %d more %s, on %s in all (-json lists every one)\n", more, noun, plural(g.pages, "page"))
		}
	}
}

// where names the document a link is in: its file, as a path from the
// current directory wd where it is below it, else its source.
func where(l Link, wd string) string {
	if f := repoPath(l.File, wd); f != "" {
		return f
	}
	return l.Source
}

// appendExplanation says why a link resolved where it did: its base and
// the layer that set it, then the standard's steps.
func appendExplanation(out []byte, r Report, spec relurl.Spec) []byte {
	if r.Base == "" {
		return fmt.Appendf(out, "    base: none (%s): a relative reference cannot resolve\n", r.BaseFrom)
	}
	out = fmt.Appendf(out, "    base: %s, from %s\n", textsafe.String(r.Base), baseLayer(r.BaseFrom))
	trace := relurl.Resolver{Spec: spec}.Explain(r.Base, r.Ref)
	for line := range strings.Lines(trace.String()) {
		out = fmt.Appendf(out, "    %s", textsafe.String(strings.TrimSuffix(line, "\n"))+"\n")
	}
	return out
}

// baseLayer names a base's layer of RFC 1808, Section 3, for people.
func baseLayer(from links.BaseFrom) string {
	switch from {
	case links.FromHTMLBase:
		return "the document's <base href> (3.1)"
	case links.FromRetrieval:
		return "the URL the document was retrieved by (3.3)"
	case links.FromEncapsulating:
		return "the enclosing MIME entity (3.2)"
	}
	return from.String() + " (3.1)"
}

// writeJSON writes one JSON object a line for each link: the Link's
// fields, its state, status, error, redirects, time and whether it came
// from the Cache.
func writeJSON(w *bufio.Writer, reports iter.Seq[Report]) error {
	type linkJ struct {
		Link
		State     string   `json:"state"`
		Status    int      `json:"status,omitempty"`
		Err       string   `json:"error,omitempty"`
		Redirects []string `json:"redirects,omitempty"`
		Elapsed   float64  `json:"elapsed_ms"`
		Cached    bool     `json:"cached,omitempty"`
	}
	var line []byte
	for r := range reports {
		line = jsonline.Append(line[:0], linkJ{Link: r.Link, State: r.State.String(), Status: r.Status,
			Err: errText(r.Err), Redirects: r.Redirects, Elapsed: float64(r.Elapsed.Microseconds()) / 1000, Cached: r.Cached})
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// errText is err's text, "" for nil: a Result's Err as reports and the
// cache write it.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// writeMarkdown writes a table of the broken targets, for a CI job's
// summary.
func writeMarkdown(w *bufio.Writer, targets []*brokenTarget, wd string) {
	if len(targets) == 0 {
		w.WriteString("No broken links.\n")
		return
	}
	links := 0
	for _, g := range targets {
		links += g.links
	}
	fmt.Fprintf(w, "**%s, %s**\n\n", plural(links, "broken link"), plural(len(targets), "target"))
	w.WriteString("| target | why | links | where |\n| --- | --- | --- | --- |\n")
	cell := func(s string) string {
		return strings.NewReplacer("|", "\\|", "\n", " ", "`", "'").Replace(textsafe.String(s))
	}
	for _, g := range targets {
		target := cell(g.first.URL)
		if g.first.URL == "" {
			target = "`" + cell(g.first.Ref) + "` (unresolved)"
		}
		var at []string
		for _, l := range g.shown {
			at = append(at, fmt.Sprintf("%s:%d:%d", cell(where(l.Link, wd)), l.Line, l.Column))
		}
		if more := g.links - len(g.shown); more > 0 {
			at = append(at, fmt.Sprintf("and %d more", more))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s |\n", target, cell(reportWhy(g.first)), g.links, strings.Join(at, "<br>"))
	}
}

// A Summary sums a run's reports up, each number in one unit: links,
// targets or documents.
type Summary struct {
	Links         int                // links in all
	ByState       [Unchecked + 1]int // links by their State
	Targets       int                // distinct targets of the links, URLs with their fragments (an unresolved link has none)
	BrokenTargets int                // distinct targets of the broken links
	Documents     int                // distinct documents the links are in
	Unresolved    int                // relative links with no base to resolve against
}

// Summarize sums reports up.
func Summarize(reports iter.Seq[Report]) Summary {
	var s summer
	for r := range reports {
		s.add(r)
	}
	return s.summary()
}

// A summer sums reports up one at a time. Distinct URLs are told by their
// 64-bit hashes, as an idSet tells ids: a run of millions of links keeps
// 8 bytes for each target, and two URLs that share a hash are 1 in 2^64
// apart. Reports come a document at a time, so a document is looked up
// only where the source changes.
type summer struct {
	Summary
	targets, broken map[uint64]struct{}
	docs            map[string]struct{}
	last            string
}

func (s *summer) add(r Report) {
	if s.targets == nil {
		s.targets, s.broken, s.docs = map[uint64]struct{}{}, map[uint64]struct{}{}, map[string]struct{}{}
	}
	s.Links++
	s.ByState[r.State]++
	if r.URL != "" {
		h := maphash.String(idSeed, r.URL)
		s.targets[h] = struct{}{}
		if r.State == Broken {
			s.broken[h] = struct{}{}
		}
	}
	if len(s.docs) == 0 || r.Source != s.last {
		s.docs[r.Source] = struct{}{}
		s.last = r.Source
	}
	if r.URL == "" && r.BaseFrom == links.FromNone {
		s.Unresolved++
	}
}

func (s *summer) summary() Summary {
	c := s.Summary
	c.Targets, c.BrokenTargets, c.Documents = len(s.targets), len(s.broken), len(s.docs)
	return c
}

// plural returns "1 link", "2 links": n and the noun, plural but for one.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
