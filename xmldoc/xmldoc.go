// Package xmldoc finds the links of the XML documents that publish links:
// sitemaps (sitemaps.org), RSS 2.0 and RSS 1.0 feeds, and Atom feeds (RFC
// 4287). It reads them with encoding/xml, as a stream, so that a sitemap
// of fifty thousand URLs takes the memory of one, and resolves each
// element's base by XML Base: an xml:base attribute is resolved against
// its parent element's base, by RFC 3986's resolution, and the base of the
// root is the document's URL (XML Base, Section 4.2; RFC 3986, Section
// 5.1).
//
//	for l, err := range xmldoc.Links(r, "https://example.org/feed.xml") {
//		if err != nil { ... }
//		fmt.Println(l.Element, l.Ref, "against", l.Base)
//	}
//
// What is a link, by the root element:
//
//   - urlset (a sitemap): each <url>'s <loc>, Element "url";
//     sitemapindex: each <sitemap>'s <loc>, Element "sitemap";
//   - rss (RSS 2.0) and RDF (RSS 1.0): the <link> of the channel and of
//     each item, Element "link"; <enclosure url>; a <guid> that is a
//     permalink (isPermaLink not "false"); the <url> of an <image>; and
//     the HTML of each <description> and <content:encoded>, escaped in the
//     XML, whose links are HTML's (Link.HTML);
//   - feed (Atom): every <link href>, <content src>, <icon> and <logo>,
//     and an <author>'s or <contributor>'s <uri>; the HTML of <content>,
//     <summary>, <title>, <subtitle> and <rights> of type "html"
//     (Link.HTML), and the href and src of the elements of one of type
//     "xhtml", whose Element is the XHTML element's name.
//
// Any other root gives no links. A document that is not well-formed XML
// gives the links before the error, then the error, with its line.
package xmldoc

import (
	"bufio"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/relurl/relurl/internal/capped"
	"github.com/relurl/relurl/rfc3986"
	"github.com/relurl/relurl/webencoding"
)

// A Link is one link of an XML document.
type Link struct {
	// Element and Attribute say where the link is: "url" and "loc" for a
	// sitemap's URL (a <loc> in a <url>), "sitemap" and "loc" for an
	// index's, "link" and "href" for Atom's <link href>, "link" and ""
	// for RSS's <link> text, and so on.
	Element, Attribute string
	// Ref is the link as written, white space around it trimmed.
	Ref string
	// Base is the base it resolves against: the document's URL, or the
	// xml:base in scope, resolved.
	Base string
	// Line and Column are where the element that holds it starts,
	// 1-based; Offset its first byte.
	Line, Column int
	Offset       int64
	// HTML, when set, is HTML the document holds (an RSS description,
	// Atom content of type html), unescaped: its links are HTML's, and
	// Ref is empty.
	HTML string
	// Span is where the link is in the document's bytes (inflated, for
	// a gzip-compressed one), for a tool that rewrites it: for a link
	// that is an element's text, or HTML, all of that text as written,
	// white space and entities included; for an attribute's, the start
	// tag that holds it. It is zero where the text is broken by an
	// element, a comment or a processing instruction.
	Span [2]int64
}

// kind is what the root element says a document is.
type kind int

const (
	other kind = iota
	sitemap
	rss
	atom
)

// Links returns the links of the XML document r, whose URL is docURL (the
// base of its root), in document order. A document that starts as gzip
// does (a sitemap.xml.gz) is decompressed. An error ends the links.
func Links(r io.Reader, docURL string) iter.Seq2[Link, error] {
	return func(yield func(Link, error) bool) {
		br := bufio.NewReader(r)
		var inflated *capped.Reader
		if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
			gz, err := gzip.NewReader(br)
			if err != nil {
				yield(Link{}, err)
				return
			}
			inflated = capped.New(gz, MaxInflated)
			r = inflated
		} else {
			r = br
		}
		p := &reader{d: xml.NewDecoder(r), yield: yield, inflated: inflated}
		p.d.Strict = true
		p.d.CharsetReader = charsetReader
		p.stack = []element{{base: docURL}}
		p.read()
	}
}

// element is an element open, its base and what it is.
type element struct {
	name  xml.Name
	base  string
	line  int
	col   int
	off   int64
	text  []byte // of a link element, as it is read
	start int64  // where its content starts
	mixed bool   // its content is not text alone
	link  bool   // its text is a link (a <loc>, an RSS <link>, ...)
	html  bool   // its text is HTML
	xhtml bool   // Atom content of type xhtml: its elements' href and src are links
}

type reader struct {
	d     *xml.Decoder
	yield func(Link, error) bool
	kind  kind
	stack []element
	done  bool
	// inflated is the bound on a gzip-compressed document's bytes.
	inflated *capped.Reader
}

func (p *reader) emit(l Link) bool {
	if !p.done && !p.yield(l, nil) {
		p.done = true
	}
	return !p.done
}

func (p *reader) read() {
	for !p.done {
		line, col := p.d.InputPos()
		off := p.d.InputOffset()
		tok, err := p.d.Token()
		if err != nil && p.inflated != nil && p.inflated.Over {
			p.yield(Link{}, fmt.Errorf("line %d: it inflates to more than %d bytes, the sitemaps protocol's bound on a document (MaxInflated): the rest is not read", line, MaxInflated))
			return
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			p.yield(Link{}, err)
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(p.stack) > MaxDepth {
				p.yield(Link{}, fmt.Errorf("line %d: elements nested more than %d deep: the rest is not read", line, MaxDepth))
				return
			}
			p.stack[len(p.stack)-1].mixed = true
			if err := p.start(t, line, col, off); err != nil {
				p.yield(Link{}, err)
				return
			}
		case xml.CharData:
			if top := &p.stack[len(p.stack)-1]; (top.link || top.html) && len(top.text) < 64<<20 {
				top.text = append(top.text, t...)
			}
		case xml.EndElement:
			p.end(off)
		default: // a comment, a processing instruction, a directive
			p.stack[len(p.stack)-1].mixed = true
		}
	}
}

// MaxDepth and MaxBase bound what a hostile document can make Links
// hold: elements nested deeper than MaxDepth, or an xml:base that makes a
// base longer than MaxBase bytes (nested bases add up), stop the reading
// with an error. Sitemaps and feeds nest a few elements deep, and their
// bases are URLs. MaxInflated bounds what a gzip-compressed document
// (sitemap.xml.gz) inflates to, whatever bounds its compressed bytes: the
// sitemaps protocol's bound on a sitemap, 50 MiB (52,428,800 bytes), since
// a few megabytes of gzip may inflate to gigabytes. Past it, the links
// read so far are handed out, then an error.
const (
	MaxDepth    = 512
	MaxBase     = 64 << 10
	MaxInflated = 50 << 20
)

// start opens an element: its base, and what it holds.
func (p *reader) start(t xml.StartElement, line, col int, off int64) error {
	parent := &p.stack[len(p.stack)-1]
	end := p.d.InputOffset() // of the start tag
	e := element{name: t.Name, base: parent.base, line: line, col: col, off: off, start: end, xhtml: parent.xhtml}
	if v, ok := attr(t, "http://www.w3.org/XML/1998/namespace", "base"); ok {
		b := rfc3986.Resolve(parent.base, strings.TrimSpace(v)) // XML Base, Section 4.2: by RFC 3986
		if len(b) > MaxBase {
			return fmt.Errorf("line %d: an xml:base that makes a base of %d bytes, more than %d: the rest is not read", line, len(b), MaxBase)
		}
		e.base = b
	}
	if len(p.stack) == 1 {
		switch t.Name.Local {
		case "urlset", "sitemapindex":
			p.kind = sitemap
		case "rss", "RDF":
			p.kind = rss
		case "feed":
			p.kind = atom
		}
	}
	in := func(names ...string) bool {
		for _, n := range names {
			if parent.name.Local == n {
				return true
			}
		}
		return false
	}
	attrLink := func(element, name string) {
		if v, ok := attr(t, "", name); ok {
			p.emit(Link{Element: element, Attribute: name, Ref: strings.TrimSpace(v), Base: e.base, Line: line, Column: col, Offset: off, Span: [2]int64{off, end}})
		}
	}
	name := t.Name.Local
	switch {
	case e.xhtml:
		attrLink(name, "href")
		attrLink(name, "src")
	case p.kind == sitemap:
		e.link = name == "loc" && in("url", "sitemap")
	case p.kind == rss:
		switch {
		case name == "link" && in("channel", "item"), name == "url" && in("image"):
			e.link = true
		case name == "guid":
			v, _ := attr(t, "", "isPermaLink")
			e.link = v != "false"
		case name == "enclosure":
			attrLink("enclosure", "url")
		case name == "description", name == "encoded" && t.Name.Space == "http://purl.org/rss/1.0/modules/content/":
			e.html = true
		}
	case p.kind == atom:
		typ, _ := attr(t, "", "type")
		switch {
		case name == "link":
			attrLink("link", "href")
		case name == "content" && hasAttr(t, "src"):
			attrLink("content", "src")
		case name == "icon", name == "logo", name == "uri" && in("author", "contributor"):
			e.link = true
		case name == "content" || name == "summary" || name == "title" || name == "subtitle" || name == "rights":
			e.html = typ == "html"
			e.xhtml = typ == "xhtml"
		}
	}
	p.stack = append(p.stack, e)
	return nil
}

// end closes an element, whose end tag starts at off, handing out the link
// or HTML of its text.
func (p *reader) end(off int64) {
	e := &p.stack[len(p.stack)-1]
	var span [2]int64
	if !e.mixed {
		span = [2]int64{e.start, max(off, e.start)}
	}
	switch {
	case e.link:
		p.emit(Link{Element: p.linkElement(e), Ref: strings.TrimSpace(string(e.text)), Base: e.base, Line: e.line, Column: e.col, Offset: e.off, Span: span})
	case e.html && len(e.text) > 0:
		p.emit(Link{Element: e.name.Local, HTML: string(e.text), Base: e.base, Line: e.line, Column: e.col, Offset: e.off, Span: span})
	}
	p.stack = p.stack[:len(p.stack)-1]
}

// linkElement names the element of a link of text: a sitemap's <loc> by
// what lists it, the others by their own name.
func (p *reader) linkElement(e *element) string {
	if p.kind == sitemap {
		return p.stack[len(p.stack)-2].name.Local
	}
	return e.name.Local
}

func attr(t xml.StartElement, space, local string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == local && (a.Name.Space == space || space == "" && a.Name.Space == "") {
			return a.Value, true
		}
	}
	return "", false
}

func hasAttr(t xml.StartElement, local string) bool {
	_, ok := attr(t, "", local)
	return ok
}

// charsetReader reads the encodings XML declarations name besides UTF-8
// (sitemaps must be UTF-8; some feeds are ISO-8859-1 or windows-1252), by
// the Encoding Standard's labels and tables, as a browser reads them.
func charsetReader(label string, r io.Reader) (io.Reader, error) {
	enc, _, err := webencoding.Get(label)
	if err != nil {
		return nil, fmt.Errorf("xmldoc: the encoding %q: %w", label, err)
	}
	return enc.NewDecoder().Reader(r), nil
}
