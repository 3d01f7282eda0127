// Package links extracts the links of documents (HTML, MIME messages such
// as mail and MHTML web archives, Markdown, plain text, sitemaps and feeds)
// and resolves them against each document's base URL, established by the
// layers of RFC 1808, Section 3 (Base), as a browser resolves them, by the
// WHATWG URL Standard, unless Options.Resolver names another standard.
//
// There is one way in: a Doc says what a document is (its Format) and what
// is known of it from outside (the URL it was retrieved by, the header it
// came with), and Extractor.Extract hands its links to a Handler, or
// Extractor.Links yields them to a range loop:
//
//	var x links.Extractor
//	doc := links.Doc{Format: links.FormatHTML, Base: links.Retrieved("https://example.org/docs/")}
//	for l, err := range x.Links(page, doc) {
//		...  // l.URL, l.Element, l.Attribute, l.Base.From
//	}
//
// An Extractor reads an HTML document in one pass, through relurl's own
// tokenizer and tree builder (packages htmltok and htmltree), or for most
// documents through the tokenizer and a simulation of the little of the
// tree that links depend on, which gives the same links and hands the
// document to the tree builder where it cannot decide alone; after decoding
// it to UTF-8 by the HTML standard's encoding sniffing (a byte order mark,
// the charset of the Content-Type, then <meta charset>), with the Encoding
// Standard's tables (package webencoding). Its base is the document's
// frozen base URL, as the HTML standard defines it: the href of its first
// BASE element in tree order that has one, in the head, where RFC 1808's
// Appendix puts it, or anywhere, as browsers take it; and the document's
// own URL (the base from outside, outer) when that href fails to parse or
// names a data: or javascript: URL. Since a BASE element governs the links
// before it as well as after, the links found before it wait, compactly,
// and all are handed out as soon as the base is known (at the end of the
// document when it has none, and at the end of its table for a BASE inside
// one, which one foster-parented before the table would come before).
//
// The document is read as a browser's tree builder builds it, since the
// Extractor is the tree builder's Sink: the elements that exist, in their
// namespace, are those the tree builder inserts. A <base> in SVG or MathML
// is not the document's, but one in an HTML integration point is; links
// inside <template> are inert and skipped (unless Template is set); an <a>
// inside <math> is MathML's, not a link, and one inside <mi> is HTML's;
// script and textarea are raw text wherever the tree builder says so; a
// <frame> exists only in a <frameset>; <image> is <img>, and a <form>
// inside another is dropped. A link is handed out once, as it is written:
// the copies of an element the tree builder makes (the adoption agency's
// clones) are not read again.
//
// A link's value is cleaned as the URL parser of the HTML standard cleans
// it before any URL rule applies: leading and trailing C0 controls and
// spaces are removed, and so is every ASCII tab and newline; Link.Ref keeps
// the value as written. srcset and imagesrcset attributes are parsed by the
// HTML standard's algorithm, which drops candidates with invalid
// descriptors; ping holds URLs separated by spaces; a <meta
// http-equiv=refresh> gives the URL of its content by the standard's
// "shared declarative refresh steps"; CSS, in <style> elements and style
// attributes, gives each url() and @import, read with the CSS tokenizer of
// github.com/tdewolff/parse. An empty form action (and formaction) submits
// to the document's URL, not to its <base>, as HTML says.
//
// For a MIME entity it walks the tree of parts, decoding quoted-printable
// and base64 bodies, and gives each HTML part the base of its innermost
// layer: its own BASE, else its headers', else its enclosing entity's,
// recursively, else the URL the whole was retrieved by.
//
// Links reach the caller through a callback, as byte slices that stay valid
// only during the call: extraction and resolution make no allocation per
// link, and the memory a document takes is bounded by its size, whatever
// the number of its links.
//
// Which elements and attributes hold links, Elements yields, with CSS
// (CSSElement) and redirects (RedirectElement) beside them; an Extractor may
// be limited to some of them (Only).
package links

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/htmltree"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/markdown"
)

// elements lists, for each element whose attributes hold links, those
// attributes: HTML's own URL attributes, as the links command documents.
// srcset and imagesrcset hold lists of image candidates, ping a list of
// URLs, each a link. Some count only as the element's other attributes say:
// an input's src only for type=image, its formaction only for type=submit
// or image, a button's formaction only for a submit button, a meta's
// content only for http-equiv=refresh.
var elements = map[string][]string{
	"a":          {"href", "ping"},
	"area":       {"href", "ping"},
	"link":       {"href", "imagesrcset"},
	"img":        {"src", "srcset"},
	"input":      {"src", "formaction"},
	"button":     {"formaction"},
	"meta":       {"content"},
	"script":     {"src"},
	"iframe":     {"src"},
	"frame":      {"src"},
	"embed":      {"src"},
	"source":     {"src", "srcset"},
	"audio":      {"src"},
	"video":      {"src", "poster"},
	"track":      {"src"},
	"form":       {"action"},
	"blockquote": {"cite"},
	"q":          {"cite"},
	"del":        {"cite"},
	"ins":        {"cite"},
	"object":     {"data"},
	// The background attribute, obsolete but fetched by browsers as the
	// element's background image (HTML's rendering section, "Tables"
	// and "The page").
	"body":  {"background"},
	"table": {"background"},
	"thead": {"background"},
	"tbody": {"background"},
	"tfoot": {"background"},
	"tr":    {"background"},
	"td":    {"background"},
	"th":    {"background"},
}

// svgElements lists the links of SVG's elements, which inside <svg> take
// the place of HTML's: there an <a> or an <image> links by its href or,
// as SVG 1.1 wrote it, its xlink:href, which an href beside it overrides
// (SVG 2, "The 'href' attribute"). An <svg> element's other references
// (a <use>, a gradient, a filter) point inside a document, mostly at a
// fragment of the same one, and are not links to rewrite or check.
var svgElements = map[string][]string{
	"a":     {"href", "xlink:href"},
	"image": {"href", "xlink:href"},
}

// CSSElement is the name that selects, in Only, the links of CSS:
// the url() and @import of a <style> element (Element "style", Attribute
// "") and of the style attribute of any element (Element its name,
// Attribute "style").
const CSSElement = "style"

// RedirectElement is the Element of the link an HTTP redirect gives (its
// Location header, Attribute "location"): a name beside those of Elements
// for Only.
const RedirectElement = "http"

// linkAttr is one (element, attribute) pair of Elements; a link waiting
// for its base records it as its index in linkAttrs, one byte.
type linkAttr struct{ element, attribute string }

var (
	linkAttrs []linkAttr
	// linkElements is Elements by the first letter of the name, for
	// linkElementOf: the tokenizer asks at every start tag, and most tags
	// (p, div, span, …) are rejected by one look-up.
	linkElements [256][]linkElement
	// svgLinkElements is svgElements, for svgLinkElementOf.
	svgLinkElements []linkElement
	// The kinds beside Elements': a redirect's Location, a <style>'s text,
	// a style attribute (whose element is written before its value), and
	// with Extractor.Sites the href of each <base>.
	locationKind, styleTextKind, styleAttrKind, baseKind byte
)

type linkElement struct {
	name  string
	attrs []string
	kinds []byte // the index in linkAttrs of each attribute
}

// In pending, a link's kind byte is its index in linkAttrs, with two
// flags: heldKind, its value is kept in held; extraKind, its rel and text
// are in extras.
const (
	heldKind  = 0x80
	extraKind = 0x40
	kindMask  = 0x3f
)

func init() {
	kindOf := func(la linkAttr) byte {
		if k := slices.Index(linkAttrs, la); k >= 0 {
			return byte(k) // SVG's <a href> is HTML's, for Only
		}
		linkAttrs = append(linkAttrs, la)
		return byte(len(linkAttrs) - 1)
	}
	for _, name := range slices.Sorted(maps.Keys(elements)) {
		el := linkElement{name: name, attrs: elements[name]}
		for _, a := range el.attrs {
			el.kinds = append(el.kinds, kindOf(linkAttr{name, a}))
		}
		linkElements[name[0]] = append(linkElements[name[0]], el)
	}
	for _, name := range slices.Sorted(maps.Keys(svgElements)) {
		el := linkElement{name: name, attrs: svgElements[name]}
		for _, a := range el.attrs {
			el.kinds = append(el.kinds, kindOf(linkAttr{name, a}))
		}
		svgLinkElements = append(svgLinkElements, el)
	}
	for _, k := range []struct {
		kind *byte
		la   linkAttr
	}{
		{&locationKind, linkAttr{RedirectElement, "location"}},
		{&styleTextKind, linkAttr{CSSElement, ""}},
		{&styleAttrKind, linkAttr{"", "style"}},
		{&baseKind, linkAttr{"base", "href"}},
	} {
		*k.kind = byte(len(linkAttrs))
		linkAttrs = append(linkAttrs, k.la)
	}
	if len(linkAttrs) > kindMask {
		panic("links: too many link attributes for a byte")
	}
}

// linkElementOf returns the entry of linkElements for a tag name.
func linkElementOf(name string) (linkElement, bool) {
	if len(name) == 0 {
		return linkElement{}, false
	}
	els := linkElements[name[0]]
	for i := range els {
		if els[i].name == name { // by index: an entry is 64 bytes
			return els[i], true
		}
	}
	return linkElement{}, false
}

// svgLinkElementOf returns the entry of svgElements for a tag name inside
// <svg>.
func svgLinkElementOf(name string) (linkElement, bool) {
	for _, el := range svgLinkElements {
		if el.name == name {
			return el, true
		}
	}
	return linkElement{}, false
}

// begin starts a document or part: nothing waits, and want follows Only.
func (x *Extractor) begin(outer Base, part string, h *Handler) *document {
	x.dropPending()
	x.site = Site{}
	x.selectKinds()
	return &document{x: x, outer: outer, part: part, h: h, anchor: -1}
}

// selectKinds sets want from Only.
func (x *Extractor) selectKinds() {
	for k, la := range linkAttrs {
		element := la.element
		if k == int(styleAttrKind) {
			element = CSSElement
		}
		x.want[k] = x.Only == nil || x.Only[element] || x.Only[element+"@"+la.attribute]
	}
}

// Elements yields, in order of name, each element whose attributes hold
// links, with those attributes: HTML's own URL attributes, as the links
// command documents, and SVG's (an <a> or <image> links by its href or
// xlink:href inside <svg>). srcset and imagesrcset hold lists of image
// candidates, ping a list of URLs, each a link. Some count only as the
// element's other attributes say: an input's src only for type=image, its
// formaction only for type=submit or image, a button's formaction only for
// a submit button, a meta's content only for http-equiv=refresh.
func Elements() iter.Seq2[string, []string] {
	return func(yield func(string, []string) bool) {
		names := slices.Collect(maps.Keys(elements))
		for name := range svgElements {
			if _, ok := elements[name]; !ok {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			if !yield(name, attrsOf(name)) {
				return
			}
		}
	}
}

// attrsOf returns the link attributes of the element name, HTML's and
// SVG's, in a slice of its own.
func attrsOf(name string) []string {
	attrs := slices.Clone(elements[name])
	for _, a := range svgElements[name] {
		if !slices.Contains(attrs, a) {
			attrs = append(attrs, a)
		}
	}
	return attrs
}

// Only limits an Extractor to some links: the names of elements (those of
// Elements, CSSElement for CSS, RedirectElement for redirects), or one
// attribute of an element, written "element@attribute" ("a@href" without
// "a@ping"). The BASE element is always read. A nil Only is every link.
type Only map[string]bool

// ParseOnly parses a comma-separated list of names for Only, such as
// "a@href,img,style", in any case; an empty list is every link. A name
// that is not an element of Elements, CSSElement or RedirectElement, or an
// attribute that holds no link of its element, is an error that says which
// names there are.
func ParseOnly(list string) (Only, error) {
	if list == "" {
		return nil, nil
	}
	only := Only{}
	for _, name := range strings.Split(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		element, attribute, one := strings.Cut(name, "@")
		attrs := attrsOf(element)
		switch {
		case len(attrs) == 0 && (one || element != CSSElement && element != RedirectElement):
			names := slices.Collect(maps.Keys(maps.Collect(Elements())))
			slices.Sort(names)
			return nil, fmt.Errorf("%q is not one of %s,%s,%s", element, strings.Join(names, ","), CSSElement, RedirectElement)
		case one && !slices.Contains(attrs, attribute):
			return nil, fmt.Errorf("%q: <%s> has no link attribute %q; it has %s", name, element, attribute, strings.Join(attrs, ", "))
		}
		only[name] = true
	}
	return only, nil
}

// A Link is one link found in a document. In a Handler's Link call its
// byte slices are the Extractor's, valid during the call and reused after
// it; Clone gives a Link to keep, and the Links iterator hands out only
// such.
type Link struct {
	URL       []byte // the resolved URL, valid during the callback; nil when it is relative and there is no absolute base, or when Err is set
	Err       error  // under the WHATWG URL Standard, why the URL parser refused the link, as a browser would; nil otherwise
	Ref       []byte // the attribute's value as written, or one srcset candidate; valid during the callback
	Element   string // "a", "img", …
	Attribute string // "href", "src", "srcset", …; "" for a <style>'s text
	Base      *Base  // the base the document established
	Part      string // the MIME part path, such as "1.2", "srcdoc" for an <iframe srcdoc>'s document (see FormatHTML); "" for the whole document
	// Rel holds the rel attribute of an a, area or link element: its
	// tokens, ASCII-lowercased, separated by single spaces ("nofollow",
	// "canonical alternate", "stylesheet"); valid during the callback.
	Rel []byte
	// Line and Column are where the element that holds the link starts
	// in the document, 1-based, counted in bytes of the document decoded
	// to UTF-8, when Extractor.Positions is set; 0 otherwise.
	Line, Column int
	// Text is an <a>'s text, its white space collapsed to single spaces
	// and trimmed, at most 256 bytes, when Extractor.Text is set;
	// valid during the callback.
	Text []byte
	// Site is where the link is written in its HTML document, when
	// Extractor.Sites is set.
	Site Site
	// Markdown is the kind of a Markdown link (FormatMarkdown), 0
	// for a link of HTML; Uses counts the links that use a Markdown
	// reference definition.
	Markdown markdown.Kind
	Uses     int
}

// A Site is where a link is written in its HTML document: the attribute
// value or <style> text that holds it, and where its reference is in that
// value. Package rewrite rewrites links in place with it.
//
// Offsets count the bytes of the document as the tokenizer read them:
// decoded to UTF-8, which for a UTF-8 document are its own bytes. A link
// of an <iframe srcdoc>'s document has its site in that document, the
// attribute's value decoded (Handler.Srcdoc gives the attribute's site).
type Site struct {
	// Value is the attribute's value in the document, without its quotes,
	// or the <style> element's text.
	Value htmltok.Span
	// Tag is the start tag that holds the attribute; for a <style>'s
	// text, the text too.
	Tag htmltok.Span
	// Quote is the attribute's quote, '"' or '\'', or 0 when it has none
	// or Value is a <style>'s text.
	Quote byte
	// Style says Value is a <style> element's text, in which nothing is
	// decoded but NUL and line breaks.
	Style bool
	// Decoded is the value as it was read: character references decoded,
	// NUL made U+FFFD, line breaks normalized. Valid during the callback.
	Decoded []byte
	// Ref is the bytes of the link's reference in Decoded: the whole value
	// for an href, one candidate of a srcset, the URL part of a refresh,
	// or, in CSS, the whole token that holds the URL (a url(...) or a
	// string).
	Ref [2]int
	// CSS says the link is in CSS: Ref is a CSS token.
	CSS bool
	// Markdown is the kind of a Markdown link, whose Value is its
	// destination as written, in angle brackets when Quote is '<'.
	Markdown markdown.Kind
}

// spanOf is a Markdown span as a Site's.
func spanOf(s markdown.Span) htmltok.Span {
	return htmltok.Span{Start: int64(s.Start), End: int64(s.End)}
}

// maxText is the longest Link.Text, in bytes: a longer anchor text is cut,
// at a character boundary. Link graphs for ranking want the words of an
// anchor, not its paragraphs.
const maxText = 256

// Handler receives what an Extractor finds. Link is required; Base and
// Warn may be nil.
type Handler struct {
	// Link is called for each link, in document order. An error stops the
	// extraction and is returned.
	Link func(*Link) error
	// Base is called for each document or HTML part, with its part path,
	// once its base is established, before its first link.
	Base func(part string, b Base)
	// Srcdoc, if set, is called for each <iframe srcdoc> of an HTML
	// document, after its links, in place of reading the document the
	// attribute holds: s is where the attribute is written (with
	// Extractor.Sites), its Decoded the document; fallback is the base it
	// falls back on, its container's as the base of an enclosing entity
	// (FromEncapsulating). Extract reads it as a FormatHTML Doc with Base
	// fallback and a Header of Content-Type "text/html; charset=utf-8",
	// as the browser does. An error stops the extraction and is returned.
	// Package rewrite rewrites a srcdoc's links with it.
	Srcdoc func(s Site, fallback Base) error
	// Warn is called for problems that did not stop the extraction: a
	// relative base, a part that could not be decoded, a truncated input.
	Warn func(error)
	// IDs, when set, is called once for a Markdown document, after its
	// links, with the ids a page rendered from it has, which fragments
	// name (markdown.Document.Anchors, by the Extractor's Dialect): a link
	// checker need not read the document again for them.
	IDs func(ids []string)
}

func (h *Handler) warn(err error) {
	if h.Warn != nil {
		h.Warn(err)
	}
}

// A Loss is a warning that some of the input gave no links, or not all of
// them: a MIME part or WARC record that could not be read (skipped whole),
// or one read only in part (Cut: at a size limit, or up to a fault in its
// content, such as a broken chunk or corrupt gzip). Handler.Warn receives
// it; its text is its Err's. Warnings that lose nothing (a relative base,
// a response that is not HTML) are plain errors. The links command exits
// with status 1 after any Loss.
type Loss struct {
	Err error
	Cut bool
}

func (e *Loss) Error() string {
	if e.Err == nil {
		return "links: some input gave no links"
	}
	return e.Err.Error()
}
func (e *Loss) Unwrap() error { return e.Err }

// ReadError reports that reading a document's input failed (a connection
// closed early, a timeout, a disk error): not a fault of its content. The
// links found before it have been handed out.
type ReadError struct{ Err error }

func (e *ReadError) Error() string {
	if e.Err == nil {
		return "links: reading the input failed"
	}
	return e.Err.Error()
}
func (e *ReadError) Unwrap() error { return e.Err }

// handlerError is an error returned by Handler.Link: it stops everything
// and is returned as it is.
type handlerError struct{ err error }

func (e handlerError) Error() string { return e.err.Error() }
func (e handlerError) Unwrap() error { return e.err }

// unwrapHandler returns the error a Handler returned as it was, and any
// other error unchanged.
func unwrapHandler(err error) error {
	var herr handlerError
	if errors.As(err, &herr) {
		return herr.err
	}
	return err
}

// Options say which links an Extractor extracts, and how. The zero
// Options extract every link of Elements with the default limits, resolved
// as browsers resolve them, by the WHATWG URL Standard, as relurl links
// does.
type Options struct {
	// Only, if not nil, limits extraction to some links (ParseOnly reads
	// a list of them).
	Only Only
	// MaxDepth limits the nesting of MIME parts, and of iframe srcdoc
	// documents; 0 means DefaultMaxDepth.
	MaxDepth int
	// Resolver resolves the links. Nil resolves as a browser does, by the
	// WHATWG URL Standard (relurl.WHATWG), as relurl's commands do; the
	// RFCs are a Resolver away (&relurl.Resolver{Spec: relurl.RFC1808}).
	Resolver *relurl.Resolver
	// ContentLocation makes the top-level entity's Content-Location header
	// set its base. Parts inside a MIME entity always honour theirs; over
	// HTTP, RFC 7231 says it does not, so fetchers leave this false.
	ContentLocation bool
	// Template makes the links inside <template> elements count. A browser
	// keeps a template's contents out of the document, so by default they
	// are skipped.
	Template bool
	// Positions makes each link carry the line and column of its element
	// (Link.Line, Link.Column), for a link checker's report.
	Positions bool
	// Text makes the links of each <a> carry its text (Link.Text). They
	// are then handed out at its end, with the links inside it after
	// them, in document order still.
	Text bool
	// Sites makes each link of HTML carry where it is written
	// (Link.Site), and hands out the href of each <base> of the document
	// as a link too (Element "base", Attribute "href", resolved against
	// the document's URL), for a tool that rewrites them: the one that
	// sets the base, and those after it in tree order, which would set it
	// if it were gone.
	Sites bool
	// Dialect is the renderer Markdown documents are written for: what
	// is Markdown in them.
	Dialect markdown.Dialect
}

// Extractor extracts links, by its Options. Its zero value extracts every
// link of Elements with the default limits. An Extractor keeps buffers
// between documents, so it is not safe for concurrent use; use one per
// goroutine, each with the same Options.
type Extractor struct {
	Options

	ignoreBase bool // a Markdown document's HTML: a <base> in it is not the document's

	pending []byte // links waiting for the base: for each, its value's length (uvarint), its linkAttrs index, its value
	// pendingFull are the pieces of pending filled before it, in order:
	// past pendingChunk, the links wait in pieces (see wait).
	pendingFull [][]byte
	// pendingTag is the start of the tag of the last link waiting, which
	// the next one's site is kept relative to.
	pendingTag int64
	held       [][]byte           // waiting values too large to copy into pending
	extras     extras             // the rel, text and position of waiting links
	want       [kindMask + 1]bool // Only, by kind
	rel        []byte             // the rel of the element being read
	text       []byte             // the text of the open <a>
	tag        tagLinks           // the link attributes of the tag being read
	site       Site               // with Sites, where the value being handed out is
	scratch    []byte             // a style attribute's value after its element's name
	cssBuf     []byte             // a CSS URL, its escapes decoded
	clean      []byte             // a value cleaned for the URL parser
	buf        []byte             // the resolved URL being handed out
	link       Link               // the link being handed out
	base       Base               // its base
	// absolute says whether base has a scheme: links resolve against it,
	// made ready once in resolveBase
	absolute    bool
	resolveBase relurl.Base
	// cssBase is resolveBase with UTF-8 for queries, for the URLs of CSS
	// in a document of another encoding; set only then.
	cssBase relurl.Base
	// resolver is Resolver with the document's encoding for queries (URL
	// Standard only): queryEncoding, nil for UTF-8.
	resolver      relurl.Resolver
	queryEncoding encoding.Encoding
	src           *source       // the input of the current entity (entityOf)
	htmlParts     int           // the HTML documents and parts read by the current entity
	br            *bufio.Reader // reads the first bytes of each document, for its encoding
	tok           *htmltok.Tokenizer
	tree          htmltree.Builder // the tree builder over tok
	srcdocDepth   int              // how deep in iframe srcdoc documents the current one is
	stop          error            // the error a Handler returned to stop the extraction

	fast    fastPath // the fast path's state (fast.go)
	replay  recorder // the bytes of the HTML document the fast path reads, for the tree builder should it hand over
	mdBytes []byte   // a Markdown document's bytes, kept from document to document (readText)
	// noFast reads every document by the tree builder, and handovers
	// counts the documents the fast path handed over: for the tests that
	// hold the two to the same links.
	noFast    bool
	handovers int
}

// DefaultMaxDepth is the deepest nesting of MIME parts (or of iframe
// srcdoc documents) read by default.
const DefaultMaxDepth = 32

// html extracts the links of one HTML document or part, whose
// Content-Type (for its charset) is contentType and whose base, unless it
// declares its own with <base href>, is outer; h.Base is told the base it
// uses. The document's encoding is sniffed from its byte order mark,
// contentType or <meta charset>. A read error stops the extraction, but
// the links found until then are still handed out before it is returned,
// as a *ReadError.
//
// A document in memory, r a *bytes.Buffer, is read where it is when it
// is in UTF-8: tokenized without a copy, and read again from there if the
// fast path hands it over.
func (x *Extractor) html(r io.Reader, contentType string, outer Base, part string, h *Handler) error {
	var d *document
	var readErr error
	if buf, ok := r.(*bytes.Buffer); !ok {
		d, readErr = x.readHTML(x.decodeHTML(r, contentType), nil, outer, part, h)
	} else if enc := x.sniff(buf.Bytes(), contentType); enc != nil {
		d, readErr = x.readHTML(transform.NewReader(buf, enc.NewDecoder()), nil, outer, part, h)
	} else {
		d, readErr = x.readHTML(nil, buf.Next(buf.Len()), outer, part, h)
	}
	if !d.based {
		if err := d.establish(outer); err != nil {
			return err
		}
	}
	var stopped handlerError
	if errors.As(readErr, &stopped) {
		return readErr // the Handler asked for no more: no srcdoc either
	}
	if readErr != nil {
		readErr = &ReadError{readErr}
	}
	if err := x.srcdocs(d.srcdocs, x.base, part, h); err != nil {
		return err
	}
	return readErr
}

// readHTML reads the HTML document r, or with r nil the one in memory,
// mem, by the fast path (fast.go), or by the tree builder when the fast
// path hands it over. It returns the document read and the error that
// ended the reading, as build does.
func (x *Extractor) readHTML(r io.Reader, mem []byte, outer Base, part string, h *Handler) (*document, error) {
	rec := &x.replay
	tokens := func(again bool) *htmltok.Tokenizer {
		switch {
		case r == nil:
			return x.tokenize(nil, mem)
		case x.noFast:
			return x.tokenize(r, nil)
		case again:
			return x.tokenize(rec.replay(), nil)
		}
		rec.reset(r)
		return x.tokenize(rec, nil)
	}
	if x.noFast {
		d := x.begin(outer, part, h)
		return d, d.build(tokens(false))
	}
	d := x.begin(outer, part, h)
	// Until the fast path is done, what it would tell h waits.
	var told []fastEvent
	d.h = &Handler{
		Base: func(part string, b Base) { told = append(told, fastEvent{part: part, base: &b}) },
		Warn: func(err error) { told = append(told, fastEvent{warn: err}) },
	}
	d.hold = true
	err := d.fastBuild(tokens(false))
	if err == errHandover || err == errRecorded {
		x.handovers++
		d = x.begin(outer, part, h)
		return d, d.build(tokens(true))
	}
	d.h, d.hold = h, false
	for _, e := range told {
		if e.base != nil {
			if h.Base != nil {
				h.Base(e.part, *e.base)
			}
		} else {
			h.warn(e.warn)
		}
	}
	if d.based {
		if ferr := d.flush(); ferr != nil {
			return d, ferr
		}
	}
	return d, err
}

// tokenize readies the Extractor's tokenizer, its buffers reused, for r;
// with r nil for mem, which it reads where it is.
func (x *Extractor) tokenize(r io.Reader, mem []byte) *htmltok.Tokenizer {
	if x.tok == nil {
		x.tok = htmltok.New(nil)
	}
	if r == nil {
		x.tok.ResetBytes(mem)
	} else {
		x.tok.Reset(r)
	}
	x.tok.SkipBOM()
	return x.tok
}

// A recorder keeps the bytes read from its reader, so that a document the
// fast path hands over is read again from its first byte. It keeps at
// most recordMax of them: past that, it fails with errRecorded, and the
// fast path hands the document over there, to be read by the tree
// builder as it streams in. A huge document (a page of millions of links,
// an archive's record of a gigabyte) then takes no more memory than the
// tree builder alone gives it.
type recorder struct {
	r    io.Reader
	buf  []byte
	full bool
}

// recordMax is the most of a document the fast path reads: more than all
// but a few pages (the largest of the 1,699 is 2.6 MB).
const recordMax = 4 << 20

// errRecorded says the recorder is full.
var errRecorded = errors.New("links: the document is longer than the fast path reads")

func (rc *recorder) reset(r io.Reader) {
	rc.r, rc.full = r, false
	if cap(rc.buf) > 2*recordMax {
		rc.buf = nil // the memory of a large document is not kept for the next
	}
	rc.buf = rc.buf[:0]
}

func (rc *recorder) Read(p []byte) (int, error) {
	if rc.full {
		return 0, errRecorded
	}
	n, err := rc.r.Read(p)
	rc.buf = append(rc.buf, p[:n]...)
	if err == nil && len(rc.buf) > recordMax {
		rc.full = true
		return n, errRecorded
	}
	return n, err
}

// replay returns the document whole: what was read, then the rest.
func (rc *recorder) replay() io.Reader {
	return io.MultiReader(bytes.NewReader(rc.buf), rc.r)
}

// A srcdoc is the document an <iframe srcdoc> holds, and where the iframe
// is (with Extractor.Positions) and its attribute (with Sites).
type srcdoc struct {
	doc       []byte
	line, col int
	site      Site
}

// srcdocs extracts the links of the documents that a document's <iframe
// srcdoc> elements hold, whose base is outer's: an iframe srcdoc document
// (about:srcdoc) falls back on its container's base URL. Each is its own
// document, in UTF-8, its part the document's part and "srcdoc" ("srcdoc",
// "srcdoc/srcdoc", "1.2/srcdoc"), its links' positions the iframe's. They
// nest up to the Extractor's MaxDepth. A Handler with Srcdoc is handed
// them instead.
func (x *Extractor) srcdocs(docs []srcdoc, outer Base, part string, h *Handler) error {
	if len(docs) == 0 {
		return nil
	}
	if h.Srcdoc != nil {
		for _, s := range docs {
			s.site.Decoded = s.doc
			if err := h.Srcdoc(s.site, outer.enclosed()); err != nil {
				x.stop = err
				return handlerError{err}
			}
		}
		return nil
	}
	if part == "" {
		part = "srcdoc"
	} else {
		part += "/srcdoc"
	}
	if x.srcdocDepth >= x.maxDepth() {
		h.warn(&Loss{Err: partError(part, fmt.Errorf("iframe srcdoc documents nested deeper than %d: %d not read", x.maxDepth(), len(docs)))})
		return nil
	}
	x.srcdocDepth++
	defer func() { x.srcdocDepth-- }()
	for _, s := range docs {
		inner := h
		if x.Positions {
			inner = &Handler{Base: h.Base, Warn: h.Warn, Link: func(l *Link) error {
				l.Line, l.Column = s.line, s.col
				return h.Link(l)
			}}
		}
		err := x.html(bytes.NewBuffer(s.doc), "text/html; charset=utf-8", outer.enclosed(), part, inner)
		var herr handlerError
		if errors.As(err, &herr) {
			return err
		}
		if err != nil {
			h.warn(&Loss{Err: partError(part, err), Cut: true})
		}
	}
	return nil
}

// maxDepth is MaxDepth, or its default.
func (x *Extractor) maxDepth() int {
	if x.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return x.MaxDepth
}

// decodeHTML returns r decoded to UTF-8 by the HTML standard's encoding
// sniffing (htmltree.Encoding on its first 256 KiB): a byte order mark,
// then the charset of contentType, then a <meta> declaring one. UTF-8
// documents are read as they are, so their bytes, valid or not, reach the
// URLs unchanged; so are documents whose first 1024 bytes are ASCII and
// declare nothing. It sets the encoding of the document's URLs' queries.
func (x *Extractor) decodeHTML(r io.Reader, contentType string) io.Reader {
	if x.br == nil {
		x.br = bufio.NewReaderSize(nil, headScan)
	}
	br := x.br
	br.Reset(r)
	head, _ := br.Peek(headScan)
	enc := x.sniff(head, contentType)
	if enc == nil {
		return br
	}
	return transform.NewReader(br, enc.NewDecoder())
}

// sniff returns the encoding of an HTML document that starts with head
// (htmltree.Encoding on its first 256 KiB), nil for UTF-8 and for what is
// read as it is, and sets the encoding of the document's URLs' queries.
func (x *Extractor) sniff(head []byte, contentType string) encoding.Encoding {
	enc, name := htmltree.Encoding(head[:min(len(head), headScan)], contentType)
	// Under the URL Standard, a query is encoded in the document's
	// encoding, but UTF-8 stands for UTF-16 and the replacement encoding
	// ("getting an output encoding").
	x.queryEncoding = nil
	if name != "utf-16le" && name != "utf-16be" && name != "replacement" {
		x.queryEncoding = enc
	}
	return enc
}

// headScan is how much of an HTML document htmltree.Encoding is given.
const headScan = 256 << 10

// partError names the part in err, when there is one.
func partError(part string, err error) error {
	if part == "" {
		return err
	}
	return fmt.Errorf("part %s: %w", part, err)
}
