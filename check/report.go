package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/textsafe"
)

// The reports of a run, for people (Text), for programs (JSON) and for a
// CI job's summary (Markdown).

// Text is the report for people: the broken links grouped by page, each
// with its line and column, and with explain why it resolved where it
// did: its base, the base's layer and the standard's steps (spec's).
func Text(reports []Report, spec relurl.Spec, explain bool) []byte {
	var out []byte
	source := ""
	for _, r := range reports {
		if r.State != Broken {
			continue
		}
		if r.Source != source {
			source = r.Source
			out = fmt.Appendf(out, "%s\n", textsafe.String(source))
		}
		target := r.URL
		if target == "" {
			target = "(unresolved)"
		}
		why := r.Err
		if why == "" && r.Status != 0 {
			why = strconv.Itoa(r.Status)
		}
		out = fmt.Appendf(out, "  %d:%d <%s %s=%q> %s: %s\n", r.Line, r.Column, r.Element, r.Attribute, r.Ref, textsafe.String(target), textsafe.String(why))
		if len(r.Redirects) > 1 {
			out = fmt.Appendf(out, "    redirected: %s\n", textsafe.String(strings.Join(r.Redirects, " -> ")))
		}
		if explain {
			out = appendExplanation(out, r, spec)
		}
	}
	return out
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
func baseLayer(from string) string {
	switch from {
	case "html-base":
		return "the document's <base href> (3.1)"
	case "retrieval":
		return "the URL the document was retrieved by (3.3)"
	case "encapsulating":
		return "the enclosing MIME entity (3.2)"
	}
	return from + " (3.1)"
}

// JSON is one JSON object a line for each link: the Link's fields, its
// state, status, error, redirects, time and whether it came from the
// Cache.
func JSON(reports []Report) []byte {
	type linkJ struct {
		Link
		State     string   `json:"state"`
		Status    int      `json:"status,omitempty"`
		Err       string   `json:"error,omitempty"`
		Redirects []string `json:"redirects,omitempty"`
		Elapsed   float64  `json:"elapsed_ms"`
		Cached    bool     `json:"cached,omitempty"`
	}
	var out []byte
	for _, r := range reports {
		out = jsonline.Append(out, linkJ{Link: r.Link, State: r.State.String(), Status: r.Status,
			Err: r.Err, Redirects: r.Redirects, Elapsed: float64(r.Elapsed.Microseconds()) / 1000, Cached: r.Cached})
	}
	return out
}

// Markdown is a table of the broken links, for a CI job's summary.
func Markdown(reports []Report) []byte {
	broken := 0
	out := []byte("| page | line | link | resolved to | why |\n| --- | --- | --- | --- | --- |\n")
	cell := func(s string) string {
		return strings.NewReplacer("|", "\\|", "\n", " ", "`", "'").Replace(textsafe.String(s))
	}
	for _, r := range reports {
		if r.State != Broken {
			continue
		}
		broken++
		out = fmt.Appendf(out, "| %s | %d:%d | `%s` | %s | %s |\n", cell(r.Source), r.Line, r.Column, cell(r.Ref), cell(r.URL), cell(reportWhy(r)))
	}
	if broken == 0 {
		return []byte("No broken links.\n")
	}
	return append([]byte(fmt.Sprintf("**%s**\n\n", corpus.Count(broken, "broken link"))), out...)
}
