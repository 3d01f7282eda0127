package table

// This file is the rows relurl links prints as text: the tab-separated
// columns of -fields.

import (
	"strconv"

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

// EscapedSource returns the document's source as a TSV column: its
// control bytes percent-encoded.
func (d *Rows) EscapedSource() []byte {
	if d.doc == nil {
		return nil
	}
	if d.source == nil {
		d.source = textsafe.EscapeControls([]byte(d.doc.Source), 0)
	}
	return d.source
}

// AppendTSV appends the TSV line of the columns fields (of TSVColumns) of
// l, whose URL is url (as a links.DocFilter shaped it), each value's
// control bytes (tabs and newlines too) percent-encoded.
func (d *Rows) AppendTSV(dst []byte, fields []string, l *links.Link, url []byte) []byte {
	doc := d.doc
	var web whatwg.URL // url parsed, for host, domain and surt, once asked
	parsed, webOK := false, false
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
			if !parsed {
				parsed = true
				w, err := whatwg.Parse(bytestr.Transient(url))
				web, webOK = w, err == nil
			}
			if webOK {
				switch f {
				case "host":
					dst = append(dst, web.Host()...)
				case "domain":
					dst = append(dst, web.RegistrableDomain()...)
				case "surt":
					dst = web.AppendSURT(dst)
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
				dst = append(dst, doc.Archive...)
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
