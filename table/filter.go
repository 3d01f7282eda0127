package table

import (
	"bytes"
	"fmt"

	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/whatwg"
)

// A Scope chooses a document's links by where they lead: to the
// document's own site or to others. A site is a registrable domain
// (www.example.org and blog.example.org are one site), else a host.
type Scope int

const (
	ScopeAll      Scope = iota // every link
	ScopeInternal              // links to the document's own site
	ScopeExternal              // links to other sites, and from a document with no site
)

// ParseScope parses "" (ScopeAll), "internal" or "external".
func ParseScope(s string) (Scope, error) {
	switch s {
	case "":
		return ScopeAll, nil
	case "internal":
		return ScopeInternal, nil
	case "external":
		return ScopeExternal, nil
	}
	return ScopeAll, fmt.Errorf("scope %q: want internal or external", s)
}

// String returns the name ParseScope parses, "" for ScopeAll.
func (s Scope) String() string {
	switch s {
	case ScopeInternal:
		return "internal"
	case ScopeExternal:
		return "external"
	}
	return ""
}

// A Filter chooses and shapes the links of each document: the edges of a
// link graph. The zero Filter keeps every link as it is.
type Filter struct {
	NoFragment bool // drop each URL's #fragment
	Unique     bool // keep each URL once per document
	Scope      Scope
}

// Doc returns the filter of the links of one document, whose URL (its
// retrieval URL, else its base) is docURL; Scope compares sites with it.
func (f Filter) Doc(docURL string) *DocFilter { return &DocFilter{Filter: f, docURL: docURL} }

// A DocFilter is a Filter applied to the links of one document, in their
// order. One goroutine uses it.
type DocFilter struct {
	Filter
	docURL string
	seen   map[string]bool // with Unique, the URLs kept
	// the registrable domain (else the host) of docURL, once asked
	site    string
	siteSet bool
}

// URL returns the URL of l as the filter shapes it, and whether the
// filter keeps l at all. An unresolved link (a nil URL) is kept, as nil,
// only by ScopeAll. Call it once for each link, in order. The URL is l's
// bytes, valid as long as l.URL is.
func (d *DocFilter) URL(l *links.Link) ([]byte, bool) {
	u := l.URL
	if u == nil {
		// Unresolved or refused: no edge to compare, and none in a scope.
		return nil, d.Scope == ScopeAll
	}
	if d.NoFragment {
		if i := bytes.IndexByte(u, '#'); i >= 0 {
			u = u[:i]
		}
	}
	if d.Scope != ScopeAll && (siteOf(bytestr.Transient(u)) == d.docSite()) != (d.Scope == ScopeInternal) {
		return nil, false
	}
	if d.Unique {
		if d.seen[bytestr.Transient(u)] {
			return nil, false
		}
		if d.seen == nil {
			d.seen = map[string]bool{}
		}
		d.seen[string(u)] = true
	}
	return u, true
}

// docSite returns the site of the document's URL.
func (d *DocFilter) docSite() string {
	if !d.siteSet {
		d.siteSet = true
		if d.site = siteOf(d.docURL); d.site == "" {
			d.site = "\x00" // no site: every link is external
		}
	}
	return d.site
}

// siteOf returns the registrable domain of the URL u, else its host ("" if
// it has none, or does not parse by the URL Standard).
func siteOf(u string) string {
	w, err := whatwg.Parse(u)
	if err != nil {
		return ""
	}
	if d := w.RegistrableDomain(); d != "" {
		return d
	}
	return w.Hostname()
}
