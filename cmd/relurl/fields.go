package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/links"
)

// linkFields are the columns -fields may name, as -json names them, and
// host, domain and surt, which -json leaves to its reader.
var linkFields = []string{
	"source", "url", "ref", "base", "base_from", "element", "attribute", "part", "rel", "text",
	"host", "domain", "surt", "status", "error",
	"warc_filename", "warc_record_offset", "warc_record_length", "warc_record_id", "warc_date",
}

// parseFields parses the value of -fields: column names, comma-separated.
func parseFields(list string) ([]string, error) {
	var fields []string
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(linkFields, f) {
			return nil, fmt.Errorf("%q is not one of %s", f, strings.Join(linkFields, ","))
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// edgeOptions are the flags that choose and shape the links printed:
// -no-fragment, -unique and -scope.
type edgeOptions struct {
	noFragment bool
	unique     bool
	scope      string // "", "internal" or "external"
}

// docEdges applies edgeOptions to the links of one document.
type docEdges struct {
	opt  *edgeOptions
	doc  *corpus.Doc
	seen map[string]bool // with -unique, the URLs printed
	// the registrable domain (else the host) of the document's URL, for
	// -scope, once asked
	site    string
	siteSet bool
	// the link being handed out (counted by url), and its URL parsed by
	// the URL Standard for -scope and the host, domain and surt fields,
	// once whatever asks
	link, webLink int
	web           relurl.WebURL
	webOK         bool
	source        []byte // the document's source, control bytes escaped, once asked
}

// escapedSource returns the document's source as -tsv prints it.
func (d *docEdges) escapedSource() []byte {
	if d.source == nil {
		d.source = escapeControls([]byte(d.doc.Source), 0)
	}
	return d.source
}

// parsed returns u, the current link's URL, parsed by the URL Standard,
// and whether it parses.
func (d *docEdges) parsed(u []byte) (relurl.WebURL, bool) {
	if d.webLink != d.link {
		w, err := relurl.ParseWeb(bytestr.Transient(u))
		d.web, d.webOK, d.webLink = w, err == nil, d.link
	}
	return d.web, d.webOK
}

// url returns the URL of l to print, and whether to print it at all.
func (d *docEdges) url(l *links.Link) ([]byte, bool) {
	d.link++
	u := l.URL
	if u == nil {
		// Unresolved or refused: no edge to compare, and none in a scope.
		return nil, d.opt.scope == ""
	}
	if d.opt.noFragment {
		if i := bytes.IndexByte(u, '#'); i >= 0 {
			u = u[:i]
		}
	}
	if d.opt.scope != "" && (site(d.parsed(u)) == d.docSite()) != (d.opt.scope == "internal") {
		return nil, false
	}
	if d.opt.unique {
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
// its base), for -scope.
func (d *docEdges) docSite() string {
	if !d.siteSet {
		d.siteSet = true
		w, err := relurl.ParseWeb(d.doc.URL)
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
func site(w relurl.WebURL, ok bool) string {
	if !ok {
		return ""
	}
	if d := w.RegistrableDomain(); d != "" {
		return d
	}
	return w.Hostname()
}

// appendFields appends the TSV line of a link's fields, each value's
// control bytes (tabs and newlines too) percent-encoded.
func (d *docEdges) appendFields(dst []byte, fields []string, l *links.Link, url []byte) []byte {
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
			if l.Base.From != base.None {
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
		dst = escapeControls(dst, start)
	}
	return append(dst, '\n')
}
