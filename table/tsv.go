package table

// This file is the rows relurl links prints as text: the links of a
// document chosen and shaped (-no-fragment, -unique, -scope), and the
// tab-separated columns of -fields.

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/textsafe"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/whatwg"
)

// TSVColumns are the columns AppendTSV writes (relurl links -fields), as
// -json names them, and host, domain and surt, which -json leaves to its
// reader.
var TSVColumns = []string{
	"source", "url", "ref", "base", "base_from", "element", "attribute", "part", "rel", "text",
	"host", "domain", "surt", "status", "error",
	"warc_filename", "warc_record_offset", "warc_record_length", "warc_record_id", "warc_date",
}

// A Filter chooses and shapes the links of each document: the edges of a
// link graph. The zero Filter keeps every link as it is.
type Filter struct {
	NoFragment bool   // drop each URL's #fragment
	Unique     bool   // keep each URL once per document
	Scope      string // "" (all), "internal" (to the document's own site) or "external"
}

// Validate reports a Scope that is none of the three.
func (f *Filter) Validate() error {
	switch f.Scope {
	case "", "internal", "external":
		return nil
	}
	return fmt.Errorf("scope %q: want internal or external", f.Scope)
}

// Doc returns the filter of the links of doc.
func (f *Filter) Doc(doc *corpus.Doc) *DocFilter { return &DocFilter{opt: f, doc: doc} }

// A DocFilter is a Filter applied to the links of one document, in
// their order; it also writes them as TSV. One goroutine uses it.
type DocFilter struct {
	opt  *Filter
	doc  *corpus.Doc
	seen map[string]bool // with -unique, the URLs printed
	// the registrable domain (else the host) of the document's URL, for
	// -scope, once asked
	site    string
	siteSet bool
	// the link being handed out (counted by url), and its URL parsed by
	// the URL Standard for Scope and the host, domain and surt fields,
	// once whatever asks
	link, webLink int
	web           whatwg.URL
	webOK         bool
	source        []byte // the document's source, control bytes escaped, once asked
}

// EscapedSource returns the document's source as a TSV column: its
// control bytes percent-encoded.
func (d *DocFilter) EscapedSource() []byte {
	if d.doc == nil {
		return nil
	}
	if d.source == nil {
		d.source = textsafe.EscapeControls([]byte(d.doc.Source), 0)
	}
	return d.source
}

// parsed returns u, the current link's URL, parsed by the URL Standard,
// and whether it parses.
func (d *DocFilter) parsed(u []byte) (whatwg.URL, bool) {
	if d.webLink != d.link {
		w, err := whatwg.Parse(bytestr.Transient(u))
		d.web, d.webOK, d.webLink = w, err == nil, d.link
	}
	return d.web, d.webOK
}

// URL returns the URL of l as the filter shapes it, and whether the
// filter keeps l at all. Call it once for each link, in order.
func (d *DocFilter) URL(l *links.Link) ([]byte, bool) {
	d.link++
	u := l.URL
	if u == nil {
		// Unresolved or refused: no edge to compare, and none in a scope.
		return nil, d.opt.Scope == ""
	}
	if d.opt.NoFragment {
		if i := bytes.IndexByte(u, '#'); i >= 0 {
			u = u[:i]
		}
	}
	if d.opt.Scope != "" && (site(d.parsed(u)) == d.docSite()) != (d.opt.Scope == "internal") {
		return nil, false
	}
	if d.opt.Unique {
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

// docSite returns the site of the document's URL (its retrieval URL, else
// its base), for Scope.
func (d *DocFilter) docSite() string {
	if !d.siteSet {
		d.siteSet = true
		w, err := whatwg.Parse(d.doc.URL)
		d.site = site(w, err == nil)
		if d.site == "" {
			d.site = "\x00" // no site: every link is external
		}
	}
	return d.site
}

// site returns the registrable domain of the URL w, else its host ("" if
// it has none): two URLs of one site are links within it, so -scope
// internal takes www.example.org and blog.example.org as one.
func site(w whatwg.URL, ok bool) string {
	if !ok {
		return ""
	}
	if d := w.RegistrableDomain(); d != "" {
		return d
	}
	return w.Hostname()
}

// AppendTSV appends the TSV line of columns of l, whose URL URL returned,
// each value's control bytes (tabs and newlines too) percent-encoded.
func (d *DocFilter) AppendTSV(dst []byte, fields []string, l *links.Link, url []byte) []byte {
	doc := d.doc
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, '\t')
		}
		start := len(dst)
		switch f {
		case "source":
			dst = append(dst, doc.Source...)
		case "url":
			dst = append(dst, url...)
		case "ref":
			dst = append(dst, l.Ref...)
		case "base":
			if l.Base.From != links.FromNone {
				dst = append(dst, l.Base.URL...)
			}
		case "base_from":
			dst = append(dst, l.Base.From.String()...)
		case "element":
			dst = append(dst, l.Element...)
		case "attribute":
			dst = append(dst, l.Attribute...)
		case "part":
			dst = append(dst, l.Part...)
		case "rel":
			dst = append(dst, l.Rel...)
		case "text":
			dst = append(dst, l.Text...)
		case "host", "domain", "surt":
			if w, ok := d.parsed(url); ok {
				switch f {
				case "host":
					dst = append(dst, w.Host()...)
				case "domain":
					dst = append(dst, w.RegistrableDomain()...)
				case "surt":
					dst = w.AppendSURT(dst)
				}
			}
		case "status":
			if doc.Status != 0 {
				dst = strconv.AppendInt(dst, int64(doc.Status), 10)
			}
		case "error":
			if l.Err != nil {
				dst = append(dst, l.Err.Error()...)
			}
		}
		if rec := doc.Record; rec != nil {
			switch f {
			case "warc_filename":
				dst = append(dst, doc.Name...)
			case "warc_record_offset":
				dst = strconv.AppendInt(dst, rec.Offset, 10)
			case "warc_record_length":
				dst = strconv.AppendInt(dst, rec.Length, 10)
			case "warc_record_id":
				dst = append(dst, rec.Header.Get("WARC-Record-ID")...)
			case "warc_date":
				dst = append(dst, rec.Header.Get("WARC-Date")...)
			}
		}
		dst = textsafe.EscapeControls(dst, start)
	}
	return append(dst, '\n')
}
