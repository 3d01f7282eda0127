package corpus

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Stats count what a run read and skipped.
type Stats struct {
	Documents int   // documents read, WARC records among them
	Records   int   // WARC records read
	Links     int   // links handed out
	Bytes     int64 // bytes of documents read
	Failed    int   // documents that failed
	// Unreadable and Cut sum the documents' (Doc.Unreadable, Doc.Cut):
	// records and parts whose links are missing, or some of them.
	Unreadable, Cut int
	Skipped         map[string]int // what gave no links, by kind: a file's extension (".md", or "no extension": a file of a directory that does not count), a WARC record's type, "payload" (an HTTP response that is not HTML), "symbolic link" (not followed)
}

// Add counts a document that Run is done with.
func (s *Stats) Add(d *Doc) {
	s.Links += d.Links // those before a failure too
	s.Bytes += d.Bytes
	s.Unreadable += d.Unreadable
	s.Cut += d.Cut
	switch {
	case d.Err != nil:
		s.Failed++
		return
	case d.Warning != nil, d.Skipped && d.Unreadable > 0:
		return // counted as lost, not as giving no links
	}
	if d.Skipped {
		if s.Skipped == nil {
			s.Skipped = map[string]int{}
		}
		kind := d.kind
		if kind == "" {
			kind = fileKind(d.Name)
		}
		if d.Record != nil {
			kind = d.Record.Type()
			if kind == "response" || kind == "resource" {
				kind = "payload"
			}
		} else if d.resp != nil {
			kind = "payload" // a fetched page that is not HTML
		}
		s.Skipped[kind]++
		return
	}
	s.Documents++
	if d.Record != nil {
		s.Records++
	}
}

// fileKind is the kind of file a name says: ".md", or "no extension".
func fileKind(name string) string {
	if ext := strings.ToLower(filepath.Ext(name)); ext != "" && !strings.ContainsAny(ext, " \t") {
		return ext
	}
	return "no extension"
}

// count returns "1 document", "2 documents": n and the noun, plural but
// for one.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// String sums the stats up, as the links command reports them.
func (s *Stats) String() string {
	var b strings.Builder
	b.WriteString(count(s.Documents, "document"))
	switch {
	case s.Records == 1 && s.Documents == 1:
		b.WriteString(" (a WARC record)")
	case s.Records > 0:
		fmt.Fprintf(&b, " (%d of them WARC records)", s.Records)
	}
	fmt.Fprintf(&b, ", %s, %.1f MB", count(s.Links, "link"), float64(s.Bytes)/1e6)
	if s.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", s.Failed)
	}
	if s.Unreadable+s.Cut > 0 {
		fmt.Fprintf(&b, "; lost: %d unreadable, %d read in part", s.Unreadable, s.Cut)
	}
	if len(s.Skipped) > 0 {
		kinds := make([]string, 0, len(s.Skipped))
		for k := range s.Skipped {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for i, k := range kinds {
			kinds[i] = fmt.Sprintf("%s %d", k, s.Skipped[k])
		}
		fmt.Fprintf(&b, "; skipped, giving no links: %s", strings.Join(kinds, ", "))
	}
	return b.String()
}
