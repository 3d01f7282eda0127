package links

import (
	"bytes"
	"path/filepath"
	"strings"
)

// A Format is a kind of document an Extractor reads.
type Format int

const (
	FormatHTML     Format = iota + 1 // HTML or XHTML: Extractor.HTML
	FormatMessage                    // a MIME message, e-mail or MHTML: Extractor.Message
	FormatMarkdown                   // Markdown: Extractor.Markdown
	FormatText                       // plain text, whose URLs are its links: Extractor.PlainText
	FormatXML                        // a sitemap or a feed (RSS, Atom): Extractor.XML
)

func (f Format) String() string {
	switch f {
	case FormatHTML:
		return "html"
	case FormatMessage:
		return "message"
	case FormatMarkdown:
		return "markdown"
	case FormatText:
		return "text"
	case FormatXML:
		return "xml"
	}
	return "unknown"
}

// ParseFormat returns the Format named s, as String names it.
func ParseFormat(s string) (Format, bool) {
	for f := FormatHTML; f <= FormatXML; f++ {
		if f.String() == s {
			return f, true
		}
	}
	return 0, false
}

// FormatOf tells what the document named name is, whose first bytes (512
// are enough) are prefix: by its extension (.html, .htm, .xhtml; .eml,
// .mht, .mhtml, .mime; .md, .markdown; .txt; .xml, .rss, .atom, and
// .xml.gz), else by Sniff; 0 when neither can tell, and for the
// extensions of other formats that are text but not HTML (reStructured
// Text, JSON, CSS, source code, ...), whose "<" is no tag.
func FormatOf(name string, prefix []byte) Format {
	lower := strings.ToLower(name)
	switch strings.ToLower(filepath.Ext(name)) {
	case ".eml", ".mht", ".mhtml", ".mime":
		return FormatMessage
	case ".html", ".htm", ".xhtml":
		return FormatHTML
	case ".md", ".markdown", ".mdown", ".mkd", ".mkdn":
		return FormatMarkdown
	case ".txt", ".text":
		return FormatText
	case ".xml", ".rss", ".atom":
		return FormatXML
	case ".gz":
		if strings.HasSuffix(lower, ".xml.gz") {
			return FormatXML // a sitemap, gzip-compressed
		}
		return 0
	case ".rst", ".adoc", ".asciidoc", ".org", ".svg", ".json", ".csv", ".tsv", ".css", ".js", ".mjs", ".ts", ".go", ".py", ".c", ".h":
		return 0
	}
	return Sniff(prefix)
}

// Sniff tells HTML and a MIME message by their first bytes (512 of them),
// and returns 0 for anything else (nothing, binary data, plain text,
// /etc/passwd), whose links would be nothing but a guess:
//
//   - HTML begins with markup, "<" after any byte order mark and white
//     space, as the HTML standard's sniffing expects, or holds a tag ("<"
//     then a letter, "!", "/" or "?") among its first bytes; a UTF-16 byte
//     order mark, and 512 bytes of white space, are taken for HTML too;
//   - a message begins with header fields, "Name: value" lines (RFC 5322,
//     Section 2.2), one of which a mail or MHTML message has: From, To,
//     Subject, Date, MIME-Version, Content-Type, Received, ...
func Sniff(prefix []byte) Format {
	p := bytes.TrimLeft(bytes.TrimPrefix(prefix, []byte("\ufeff")), " \t\r\n\f")
	switch {
	case bytes.HasPrefix(prefix, []byte{0xff, 0xfe}) || bytes.HasPrefix(prefix, []byte{0xfe, 0xff}):
		return FormatHTML // UTF-16, by its byte order mark: HTML is the format that has it
	case len(p) == 0 && len(prefix) >= 512:
		return FormatHTML // white space alone as far as sniffing looks: HTML may follow
	case len(p) == 0:
		return 0
	case bytes.HasPrefix(p, []byte("<?xml")):
		return sniffXML(p)
	case p[0] == '<':
		return FormatHTML
	case isHeader(p):
		return FormatMessage // before the test for binary: a part may be UTF-16
	case bytes.IndexByte(p, 0) >= 0:
		return 0
	}
	for i := bytes.IndexByte(p, '<'); i >= 0 && i+1 < len(p); {
		if c := p[i+1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '!' || c == '/' || c == '?' {
			return FormatHTML
		}
		j := bytes.IndexByte(p[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return 0
}

// messageFields are header fields that mail and MHTML messages have, and
// other "name: value" text does not.
var messageFields = map[string]bool{
	"from": true, "to": true, "cc": true, "subject": true, "date": true, "message-id": true,
	"mime-version": true, "content-type": true, "content-transfer-encoding": true,
	"content-location": true, "content-base": true, "base": true, "received": true,
	"return-path": true, "reply-to": true, "sender": true, "delivered-to": true,
	"snapshot-content-location": true,
}

// isHeader reports whether p begins with header fields, one of which is a
// message's, before a blank line or the end of p.
func isHeader(p []byte) bool {
	known := false
	for len(p) > 0 {
		line, rest, _ := bytes.Cut(p, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' { // a folded field goes on
			p = rest
			continue
		}
		name, _, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(name) == 0 {
			return len(rest) == 0 && known // a line cut by the end of p
		}
		for _, c := range name {
			if c <= ' ' || c > '~' {
				return false
			}
		}
		known = known || messageFields[strings.ToLower(string(name))]
		p = rest
	}
	return known
}

// sniffXML tells an XHTML document from other XML by its root element:
// html, with a prefix or not, is HTML; urlset and sitemapindex (a
// sitemap), rss, RDF and feed (a feed) are FormatXML; others (SVG, say)
// are none. One not found among the first bytes may be any, and is taken
// for HTML, as before XML was told apart.
func sniffXML(p []byte) Format {
	for {
		i := bytes.IndexByte(p, '<')
		if i < 0 || i+1 >= len(p) {
			return FormatHTML
		}
		p = p[i+1:]
		switch {
		case p[0] == '?' || p[0] == '!':
			// The declaration, a comment, a DOCTYPE: skipped.
			continue
		}
		end := bytes.IndexAny(p, " \t\r\n/>")
		if end < 0 {
			return FormatHTML
		}
		name := p[:end]
		if j := bytes.IndexByte(name, ':'); j >= 0 {
			name = name[j+1:]
		}
		switch string(name) {
		case "urlset", "sitemapindex", "rss", "RDF", "feed":
			return FormatXML
		}
		if strings.EqualFold(string(name), "html") {
			return FormatHTML
		}
		return 0
	}
}
