package links

import (
	"bytes"
	"path/filepath"
	"strings"
)

// A Format is a kind of document an Extractor reads.
type Format int

const (
	FormatHTML    Format = iota + 1 // HTML or XHTML: Extractor.HTML
	FormatMessage                   // a MIME message, e-mail or MHTML: Extractor.Message
)

func (f Format) String() string {
	switch f {
	case FormatHTML:
		return "html"
	case FormatMessage:
		return "message"
	}
	return "unknown"
}

// FormatOf tells what the document named name is, whose first bytes (512
// are enough) are prefix: by its extension (.html, .htm, .xhtml; .eml,
// .mht, .mhtml, .mime), else by Sniff.
func FormatOf(name string, prefix []byte) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".eml", ".mht", ".mhtml", ".mime":
		return FormatMessage
	case ".html", ".htm", ".xhtml":
		return FormatHTML
	}
	return Sniff(prefix)
}

// Sniff tells a MIME message from HTML by its first bytes, as the two
// formats begin: a message with a header field, a field name (printable
// ASCII but ":") and then ":" on its first line (RFC 5322, Section 2.2);
// HTML with markup, "<" after any byte order mark and white space, as the
// HTML standard's sniffing expects. Anything else is taken for HTML, which
// finds the links of whatever markup it holds.
func Sniff(prefix []byte) Format {
	p := bytes.TrimPrefix(prefix, []byte("\ufeff"))
	if len(p) > 0 && p[0] == '<' {
		return FormatHTML
	}
	for i, c := range p {
		switch {
		case c == ':' && i > 0:
			return FormatMessage
		case c <= ' ' || c > '~' || c == ':':
			return FormatHTML
		}
	}
	return FormatHTML
}
