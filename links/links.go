// Package links extracts the links of HTML documents and MIME entities
// (mail, MHTML web archives) and resolves them against each document's base
// URL, established by the layers of RFC 1808, Section 3 (package base).
//
// An Extractor reads an HTML document with the golang.org/x/net/html
// tokenizer, in one pass, after decoding it to UTF-8 by the HTML standard's
// encoding sniffing (a byte order mark, the charset of the Content-Type,
// then <meta charset>). Its base is the href of its first BASE element, in
// the head, where RFC 1808's Appendix puts it, or anywhere, as browsers take
// it; since a BASE element governs the links before it as well as after, the
// links found before it wait, compactly, and all are handed out as soon as
// the base is known (at the end of the document when it has none).
//
// The document is read as a browser's tree builder would see it, as far as
// a tokenizer can tell: a <base> inside <svg>, <math> or <template> is not
// the document's, links inside <template> are inert and skipped (unless
// Template is set), <image> is <img>, and a <form> inside another is
// dropped. Two differences remain, since following them needs the whole
// tree builder: a <frame> counts wherever it is, not only in a <frameset>,
// and the contents of <noscript> are read as markup, as by a browser with
// scripting off.
//
// A link's value is cleaned as the URL parser of the HTML standard cleans
// it before any URL rule applies: leading and trailing C0 controls and
// spaces are removed, and so is every ASCII tab and newline; Link.Ref keeps
// the value as written. srcset attributes are parsed by the HTML standard's
// algorithm, which drops candidates with invalid descriptors.
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
// Which elements and attributes hold links is the table Elements; an
// Extractor may be limited to some of them.
package links

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/bytestr"
)

// Elements lists, for each element whose attributes hold links, those
// attributes: HTML's own URL attributes, as the links command documents.
// srcset holds a list of image candidates, each a link.
var Elements = map[string][]string{
	"a":          {"href"},
	"area":       {"href"},
	"link":       {"href"},
	"img":        {"src", "srcset"},
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
}

// linkAttr is one (element, attribute) pair of Elements; a link waiting
// for its base records it as its index in linkAttrs, one byte.
type linkAttr struct{ element, attribute string }

var (
	linkAttrs []linkAttr
	// linkElements is Elements by the first letter of the name, for
	// linkElementOf: the tokenizer asks at every start tag, and most tags
	// (p, div, span, …) are rejected by one look-up.
	linkElements [256][]linkElement
)

type linkElement struct {
	name  string
	attrs []string
	kinds []byte // the index in linkAttrs of each attribute
}

// heldKind marks, in pending, a value kept in held.
const heldKind = 0x80

// locationKind is the link of an HTTP redirect, its Location header: not
// an element of HTML, so not in Elements.
var locationKind byte

// RedirectElement is the Element of the link an HTTP redirect gives (its
// Location header, Attribute "location"): a name beside those of Elements
// for Extractor.Only.
const RedirectElement = "http"

func init() {
	for _, name := range ElementNames() {
		el := linkElement{name: name, attrs: Elements[name]}
		for _, a := range el.attrs {
			el.kinds = append(el.kinds, byte(len(linkAttrs)))
			linkAttrs = append(linkAttrs, linkAttr{name, a})
		}
		linkElements[name[0]] = append(linkElements[name[0]], el)
	}
	locationKind = byte(len(linkAttrs))
	linkAttrs = append(linkAttrs, linkAttr{RedirectElement, "location"})
	if len(linkAttrs) > heldKind {
		panic("links: too many link attributes for a byte")
	}
}

// linkElementOf returns the entry of linkElements for a tag name.
func linkElementOf(name []byte) (linkElement, bool) {
	if len(name) == 0 {
		return linkElement{}, false
	}
	for _, el := range linkElements[name[0]] {
		if el.name == string(name) {
			return el, true
		}
	}
	return linkElement{}, false
}

// ElementNames returns the names in Elements, sorted.
func ElementNames() []string {
	names := make([]string, 0, len(Elements))
	for name := range Elements {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// A Link is one link found in a document.
type Link struct {
	URL       []byte     // the resolved URL, valid during the callback; nil when it is relative and there is no absolute base, or when Err is set
	Err       error      // under the WHATWG URL Standard, why the URL parser refused the link, as a browser would; nil otherwise
	Ref       []byte     // the attribute's value as written, or one srcset candidate; valid during the callback
	Element   string     // "a", "img", …
	Attribute string     // "href", "src", "srcset", …
	Base      *base.Base // the base the document established
	Part      string     // the MIME part path, such as "1.2"; "" for the whole document
}

// Handler receives what an Extractor finds. Link is required; Base and
// Warn may be nil.
type Handler struct {
	// Link is called for each link, in document order. An error stops the
	// extraction and is returned.
	Link func(*Link) error
	// Base is called for each document or HTML part, with its part path,
	// once its base is established, before its first link.
	Base func(part string, b base.Base)
	// Warn is called for problems that did not stop the extraction: a
	// relative base, a part that could not be decoded, a truncated input.
	Warn func(error)
}

func (h *Handler) warn(err error) {
	if h.Warn != nil {
		h.Warn(err)
	}
}

// ReadError reports that reading a document's input failed (a connection
// closed early, a timeout, a disk error): not a fault of its content. The
// links found before it have been handed out.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return e.Err.Error() }
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

// Extractor extracts links. Its zero value extracts every link of Elements
// with the default limits. An Extractor keeps buffers between documents, so
// it is not safe for concurrent use; use one per goroutine.
type Extractor struct {
	// Only, if not nil, limits extraction to these elements (names from
	// Elements, and RedirectElement for redirects). The BASE element is
	// always read.
	Only map[string]bool
	// MaxDepth limits the nesting of MIME parts; 0 means DefaultMaxDepth.
	MaxDepth int
	// Resolver resolves the links: by RFC 1808 unless it says otherwise.
	Resolver relurl.Resolver
	// ContentLocation makes the top-level entity's Content-Location header
	// set its base. Parts inside a MIME entity always honour theirs; over
	// HTTP, RFC 7231 says it does not, so fetchers leave this false.
	ContentLocation bool
	// MaxSize bounds the bytes of an HTTP payload read after its content
	// coding (gzip, deflate) is removed; 0 means no bound. A payload that
	// decodes to more is read to the bound, with a warning.
	MaxSize int64
	// Template makes the links inside <template> elements count. A browser
	// keeps a template's contents out of the document, so by default they
	// are skipped.
	Template bool

	pending []byte    // links waiting for the base: for each, its value's length (uvarint), its linkAttrs index, its value
	held    [][]byte  // waiting values too large to copy into pending
	clean   []byte    // a value cleaned for the URL parser
	buf     []byte    // the resolved URL being handed out
	link    Link      // the link being handed out
	base    base.Base // its base
	// absolute says whether base has a scheme: links resolve against it,
	// made ready once in resolveBase
	absolute    bool
	resolveBase relurl.BaseURL
	// resolver is Resolver with the document's encoding for queries (URL
	// Standard only): queryEncoding, nil for UTF-8.
	resolver      relurl.Resolver
	queryEncoding encoding.Encoding
	src           *source       // the input of the current Entity or Message
	htmlParts     int           // the HTML documents and parts read by the current Entity
	br            *bufio.Reader // reads the first bytes of each document, for its encoding
	stop          error         // the error a Handler returned to stop the extraction
}

// DefaultMaxDepth is the deepest nesting of MIME parts read by default.
const DefaultMaxDepth = 32

// HTML extracts the links of the HTML document r, whose base, unless it
// declares its own with <base href>, is outer. It returns the base it used.
// Malformed HTML is read as the tokenizer of golang.org/x/net/html reads it,
// which follows the HTML standard's rules for recovery. The document's
// encoding is sniffed from its byte order mark or <meta charset>. A read
// error stops the extraction, but the links found until then are still
// handed out before it is returned, as a *ReadError.
func (x *Extractor) HTML(r io.Reader, outer base.Base, h *Handler) (base.Base, error) {
	b, err := x.html(r, "", outer, "", h)
	return b, unwrapHandler(err)
}

// html extracts the links of one document or part, whose Content-Type
// (for its charset) is contentType.
func (x *Extractor) html(r io.Reader, contentType string, outer base.Base, part string, h *Handler) (base.Base, error) {
	r = x.decodeHTML(r, contentType)
	d := document{x: x, outer: outer, part: part, h: h}
	x.pending = x.pending[:0]
	readErr := d.tokenize(html.NewTokenizer(r))
	if !d.based {
		if err := d.establish(outer); err != nil {
			return x.base, err
		}
	}
	if readErr != nil {
		readErr = &ReadError{readErr}
	}
	return x.base, readErr
}

// decodeHTML returns r decoded to UTF-8 by the HTML standard's encoding
// sniffing (charset.DetermineEncoding on the first 1024 bytes): a byte
// order mark, then the charset of contentType, then a <meta> declaring one.
// UTF-8 documents are read as they are, so their bytes, valid or not, reach
// the URLs unchanged; so are documents whose first 1024 bytes are ASCII and
// declare nothing, where the standard leaves the choice to the user agent
// (windows-1252 is its fallback for them; relurl takes UTF-8).
func (x *Extractor) decodeHTML(r io.Reader, contentType string) io.Reader {
	if x.br == nil {
		x.br = bufio.NewReaderSize(nil, 4096)
	}
	br := x.br
	br.Reset(r)
	prefix, _ := br.Peek(1024)
	enc, name, certain := charset.DetermineEncoding(prefix, contentType)
	x.queryEncoding = nil
	if name == "utf-8" || (!certain && name == "windows-1252" && isASCII(prefix) && !declared(prefix, contentType)) {
		return br
	}
	// Under the URL Standard, a query is encoded in the document's
	// encoding, but UTF-8 stands for UTF-16 and the replacement encoding
	// ("getting an output encoding"). htmlindex gives the encoder that
	// reports what it cannot encode, which appendEncodedIn needs.
	if q, err := htmlindex.Get(name); err == nil && name != "utf-16le" && name != "utf-16be" && name != "replacement" {
		x.queryEncoding = q
	}
	return transform.NewReader(br, enc.NewDecoder())
}

// declared reports whether an ASCII prefix that DetermineEncoding finds to
// be windows-1252 says so in a <meta>, rather than leaving it to the
// fallback: with a UTF-8 character after it (within the 1024 bytes looked
// at, and not last, which DetermineEncoding drops as maybe cut), the
// fallback would say UTF-8, a declaration still windows-1252.
func declared(prefix []byte, contentType string) bool {
	probe := append(bytes.Clone(prefix[:min(len(prefix), 1020)]), "\u00e9x"...)
	_, name, _ := charset.DetermineEncoding(probe, contentType)
	return name == "windows-1252"
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// document is the state of one HTML document as it is read.
type document struct {
	x        *Extractor
	outer    base.Base
	based    bool // x.base is established: links are handed out as they are found
	part     string
	h        *Handler
	template int  // open <template> elements
	foreign  int  // open <svg> and <math> elements
	inForm   bool // a <form> is open: another is dropped
}

// tokenize reads the document to its end and returns the error that ended
// the reading, if not the end of the input.
func (d *document) tokenize(z *html.Tokenizer) error {
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return err
			}
			return nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if !d.open(name, tt == html.SelfClosingTagToken) || !hasAttr {
				continue
			}
			if string(name) == "base" {
				if err := d.baseElement(z); err != nil {
					return err
				}
				continue
			}
			if string(name) == "image" && d.foreign == 0 {
				name = []byte("img") // the tree builder's rename
			}
			x := d.x
			if el, ok := linkElementOf(name); ok && (x.Only == nil || x.Only[el.name]) && (d.template == 0 || x.Template) {
				if err := d.keepLinks(z, el); err != nil {
					return err
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			d.close(name)
		}
	}
}

// breakout lists the start tags that end foreign content (<svg>, <math>):
// the tree builder closes them and inserts an HTML element.
var breakout = map[string]bool{
	"b": true, "big": true, "blockquote": true, "body": true, "br": true, "center": true, "code": true,
	"dd": true, "div": true, "dl": true, "dt": true, "em": true, "embed": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "head": true, "hr": true, "i": true, "img": true,
	"li": true, "listing": true, "menu": true, "meta": true, "nobr": true, "ol": true, "p": true,
	"pre": true, "ruby": true, "s": true, "small": true, "span": true, "strong": true, "strike": true,
	"sub": true, "sup": true, "table": true, "tt": true, "u": true, "ul": true, "var": true,
}

// open follows a start tag's effect on the elements that matter, and
// reports whether the tag's attributes count: false for a <form> the tree
// builder drops.
func (d *document) open(name []byte, selfClosing bool) bool {
	if d.foreign > 0 && breakout[string(name)] {
		d.foreign = 0
	}
	switch string(name) {
	case "template":
		d.template++
	case "svg", "math":
		if !selfClosing {
			d.foreign++
		}
	case "form":
		if d.template > 0 {
			return true // a template's form does not set the form pointer
		}
		if d.inForm {
			return false
		}
		d.inForm = true
	}
	return true
}

// close follows an end tag.
func (d *document) close(name []byte) {
	switch string(name) {
	case "template":
		if d.template > 0 {
			d.template--
		}
	case "svg", "math":
		if d.foreign > 0 {
			d.foreign--
		}
	case "form":
		if d.template == 0 {
			d.inForm = false
		}
	}
}

// baseElement establishes the base from the BASE element at z, if it is
// the document's first with an href: not inside <template>, <svg> or
// <math>, where it is not the document's.
func (d *document) baseElement(z *html.Tokenizer) error {
	if d.based || d.template > 0 || d.foreign > 0 {
		return nil
	}
	href, ok := d.x.baseHref(z)
	if !ok {
		return nil
	}
	var b base.Base
	if d.x.Resolver.Spec == relurl.WHATWG {
		var err error
		if b, err = d.outer.EmbeddedWeb(string(href), base.HTMLBase); err != nil {
			// HTML keeps the document's fallback base URL when the BASE
			// element's href does not parse.
			d.h.warn(partError(d.part, err))
			return nil
		}
	} else {
		b = d.outer.Embedded(string(href), base.HTMLBase)
	}
	if b.Note != "" {
		d.h.warn(partError(d.part, errors.New(b.Note)))
	}
	return d.establish(b)
}

// establish sets the document's base, tells the handler, and hands out the
// links that waited for it.
func (d *document) establish(b base.Base) error {
	d.based = true
	d.x.htmlParts++
	if d.h.Base != nil {
		d.h.Base(d.part, b)
	}
	x := d.x
	x.base, x.absolute = b, relurl.Split(b.URL).HasScheme()
	x.resolver = x.Resolver
	x.resolver.QueryEncoding = x.queryEncoding
	if x.absolute {
		var err error
		x.resolveBase, err = x.resolver.Base(b.URL)
		x.absolute = err == nil
	}
	x.link = Link{Base: &x.base, Part: d.part}
	for p := x.pending; len(p) > 0; {
		n, w := binary.Uvarint(p)
		kind := p[w]
		value := p[w+1 : w+1+int(n)]
		p = p[w+1+int(n):]
		if kind&heldKind != 0 {
			kind &^= heldKind
			i, w := binary.Uvarint(p)
			value, p = x.held[i], p[w:]
		}
		if err := d.emit(value, kind); err != nil {
			return err
		}
	}
	clear(x.held)
	x.pending, x.held = x.pending[:0], x.held[:0]
	return nil
}

// baseHref returns the href of the BASE element at z, cleaned as a link's
// value is, if it has one.
func (x *Extractor) baseHref(z *html.Tokenizer) ([]byte, bool) {
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if string(key) == "href" {
			return bytes.Clone(x.cleanURL(val)), true
		}
	}
	return nil, false
}

// keepLinks hands out, or keeps until the base is known, the link
// attributes of the tag at z. It stops reading attributes once it has seen
// all those the element can have: each call of TagAttr copies the
// attribute, and that is most of the cost of extraction beyond tokenizing.
func (d *document) keepLinks(z *html.Tokenizer, el linkElement) error {
	left := len(el.attrs)
	for more := true; more && left > 0; {
		var key, val []byte
		key, val, more = z.TagAttr()
		for i, a := range el.attrs {
			if string(key) != a {
				continue
			}
			left-- // a repeated attribute counts once too many: harmless, HTML keeps the first anyway
			if d.based {
				if err := d.emit(val, el.kinds[i]); err != nil {
					return err
				}
				continue
			}
			d.x.wait(z, val, el.kinds[i])
		}
	}
	return nil
}

// heldSize is the length from which a waiting value that TagAttr copied is
// kept where it is rather than copied again: a document of a few huge
// values (one srcset of millions of candidates) then takes its size about
// twice, in the tokenizer and in the value, rather than three times.
const heldSize = 64 << 10

// wait keeps a link attribute's value until the document's base is known.
// Waiting costs the value's bytes and two or three more.
func (x *Extractor) wait(z *html.Tokenizer, val []byte, kind byte) {
	if len(val) >= heldSize && !overlaps(val, z.Raw()) {
		// TagAttr gave a copy of its own, not a view of the tokenizer's
		// buffer: it stays valid after Next, and can wait as it is.
		x.pending = binary.AppendUvarint(x.pending, 0)
		x.pending = append(x.pending, kind|heldKind)
		x.pending = binary.AppendUvarint(x.pending, uint64(len(x.held)))
		x.held = append(x.held, val)
		return
	}
	x.pending = binary.AppendUvarint(x.pending, uint64(len(val)))
	x.pending = append(x.pending, kind)
	x.pending = append(x.pending, val...)
}

// overlaps reports whether a and b share memory.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(len(b)) && b0 < a0+uintptr(len(a))
}

// emit resolves the value of one link attribute, each candidate of a
// srcset, against the established base and hands the links to the handler.
func (d *document) emit(value []byte, kind byte) error {
	x := d.x
	la := linkAttrs[kind]
	x.link.Element, x.link.Attribute = la.element, la.attribute
	if la.attribute == "srcset" {
		var err error
		parseSrcset(value, func(candidate []byte) bool {
			err = d.emitOne(candidate)
			return err == nil
		})
		return err
	}
	return d.emitOne(value)
}

func (d *document) emitOne(ref []byte) error {
	x := d.x
	link := &x.link
	link.Ref = ref
	clean := bytestr.Transient(x.cleanURL(ref))
	link.URL, link.Err = nil, nil
	var err error
	switch {
	case x.absolute:
		x.buf, err = x.resolveBase.AppendResolve(x.buf[:0], clean)
		link.URL = x.buf
	case relurl.Split(clean).HasScheme():
		// An absolute link, in a document without an absolute base: it
		// is resolved against none, which every standard allows.
		x.buf, err = x.resolver.AppendResolve(x.buf[:0], "", clean)
		link.URL = x.buf
	}
	// Otherwise, without an absolute base (Section 3.4, or a relative BASE
	// with nothing outside it), a relative link stays relative: it is not
	// resolved.
	if err != nil {
		link.URL, link.Err = nil, err
	}
	if err := d.h.Link(link); err != nil {
		x.stop = err
		return handlerError{err}
	}
	return nil
}

// cleanURL returns the value v as the URL Standard's basic URL parser
// first cleans its input, which is what HTML hands it: leading and trailing
// C0 controls and spaces removed, then every ASCII tab and newline. An
// attribute's newline never reaches a URL, so a document cannot split one
// link into two lines of output. The result is v, or x.clean.
func (x *Extractor) cleanURL(v []byte) []byte {
	start, end := 0, len(v)
	for start < end && v[start] <= ' ' {
		start++
	}
	for end > start && v[end-1] <= ' ' {
		end--
	}
	v = v[start:end]
	for i, c := range v {
		if c == '\t' || c == '\n' || c == '\r' {
			x.clean = append(x.clean[:0], v[:i]...)
			for _, c := range v[i:] {
				if c != '\t' && c != '\n' && c != '\r' {
					x.clean = append(x.clean, c)
				}
			}
			return x.clean
		}
	}
	return v
}

// partError names the part in err, when there is one.
func partError(part string, err error) error {
	if part == "" {
		return err
	}
	return fmt.Errorf("part %s: %w", part, err)
}
