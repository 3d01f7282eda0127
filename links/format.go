package links

import (
	"bytes"
	"path/filepath"
	"strings"
)

// A Format is a kind of document an Extractor reads, each by a reader of
// its own.
type Format int

const (
	// FormatHTML is HTML or XHTML, read as a browser reads it: by
	// relurl's tokenizer and tree builder, after decoding by the HTML
	// standard's encoding sniffing (see the package doc), its base its
	// first <base href> in tree order, else the base from outside.
	// <iframe srcdoc> documents are read as documents of their own, part
	// "srcdoc", unless Handler.Srcdoc takes them.
	FormatHTML Format = iota + 1
	// FormatMessage is a MIME message: an e-mail (.eml) or a web archive
	// saved as one file (MHTML, .mht). Its header and those of its parts
	// set bases (Base, Content-Base, and Content-Location, which MHTML
	// gives every part), a part's over its enclosing entity's (Section
	// 3.2). Bodies in quoted-printable and base64 are decoded; HTML parts
	// (text/html, application/xhtml+xml) give links, multipart/* and
	// message/* parts are walked, each part's path (Link.Part) numbering
	// it within its parent from 1 ("2.1" is the first part of the
	// second). A part that cannot be read is a Loss, and the parts after
	// it are read; a message with no HTML part is a warning.
	FormatMessage
	// FormatMarkdown is Markdown, written for the renderer
	// Options.Dialect. It declares no base of its own (the renderers drop
	// a <base> in its HTML, and so does Markdown here). Its links are
	// package markdown's, resolved as the browser resolves the href the
	// renderer writes: an inline link or an autolink is Element "a",
	// Attribute "href"; an image "img", "src"; a reference definition,
	// handed out once whatever its uses (Link.Uses counts them), "a" (or
	// "img" when only images use it), Attribute "definition". The links
	// of its raw HTML are HTML's, and all come in the order they are
	// written. Line and Column are the Markdown source's; with Sites, a
	// link's Site is its destination's bytes there (Quote '<' when it is
	// written in angle brackets, Markdown its kind). Handler.IDs is told
	// the ids a page rendered from it has.
	FormatMarkdown
	// FormatText is plain text, whose URLs are its links: found where
	// GitHub finds its extended autolinks (http, https and ftp URLs and
	// www. names, without the punctuation that ends a sentence), resolved
	// against the base as absolute links are. Element "text", Attribute
	// "".
	FormatText
	// FormatXML is a sitemap or a feed (package xmldoc: a sitemap's URLs,
	// RSS's and Atom's links, the links of the HTML they hold), each
	// resolved against the base its element has by XML Base: an xml:base
	// in scope (FromXMLBase), else the document's. Element and Attribute
	// are the XML element's and attribute's; a link of the HTML a feed
	// holds has its HTML element and attribute, and the line and column
	// of the XML element that holds it. A sitemap compressed with gzip is
	// read as it is.
	FormatXML
	// FormatRedirect is an HTTP redirect (a 3xx response), whose one link
	// is its Doc.Header's Location, resolved against Doc.Base, the URL
	// redirected: Element "http" (RedirectElement), Attribute "location".
	// The body is not read. A redirect is an edge of the link graph.
	FormatRedirect
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
	case FormatRedirect:
		return "redirect"
	}
	return "unknown"
}

// ParseFormat returns the Format named s, as String names it: "html",
// "message", "markdown", "text", "xml" or "redirect".
func ParseFormat(s string) (Format, bool) {
	for f := FormatHTML; f <= FormatRedirect; f++ {
		if f.String() == s {
			return f, true
		}
	}
	return 0, false
}

// FormatOf tells what the document named name is, whose first bytes (512
// are enough) are prefix. By its extension: .html, .htm, .xhtml; .eml,
// .mht, .mhtml, .mime; .md, .markdown; .txt; .xml, .rss, .atom, and
// .xml.gz; the extensions of formats that are text but not HTML
// (reStructured Text, JSON, CSS, source code, ...), whose "<" is no tag,
// are 0. Otherwise (and for a name of "") by its first bytes:
//
//   - HTML begins with markup, "<" after any byte order mark and white
//     space, as the HTML standard's sniffing expects, or holds a tag ("<"
//     then a letter, "!", "/" or "?") among its first bytes; a UTF-16 byte
//     order mark, and 512 bytes of white space, are taken for HTML too;
//     an XML declaration followed by a sitemap's or a feed's root element
//     is FormatXML;
//   - a message begins with header fields, "Name: value" lines (RFC 5322,
//     Section 2.2), one of which a mail or MHTML message has: From, To,
//     Subject, Date, MIME-Version, Content-Type, Received, ...
//
// Anything else (nothing, binary data, plain text, /etc/passwd) is 0,
// since its links would be nothing but a guess.
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
	return sniff(prefix)
}

// sniff is FormatOf by the first bytes alone.
func sniff(prefix []byte) Format {
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
