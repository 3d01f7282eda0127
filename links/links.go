// Package links extracts the links of HTML documents and MIME entities
// (mail, MHTML web archives) and resolves them against each document's base
// URL, established by the layers of RFC 1808, Section 3 (package base).
//
// An Extractor reads an HTML document with the golang.org/x/net/html
// tokenizer, in one pass: it finds the first <base href> (in the head, where
// RFC 1808's Appendix puts it, or anywhere, as browsers take it) and keeps
// each link attribute's value, then resolves them all against the base,
// since a BASE element governs the links before it as well as after. For a MIME entity it
// walks the tree of parts, decoding quoted-printable and base64 bodies, and
// gives each HTML part the base of its innermost layer: its own BASE, else
// its headers', else its enclosing entity's, recursively, else the URL the
// whole was retrieved by.
//
// Links reach the caller through a callback, as byte slices that stay valid
// only during the call: extraction and resolution make no allocation per
// link.
//
// Which elements and attributes hold links is the table Elements; an
// Extractor may be limited to some of them.
package links

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"

	"golang.org/x/net/html"

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

// linkElements is Elements by the first letter of the name, for
// linkElementOf: the tokenizer asks at every start tag, and most tags
// (p, div, span, …) are rejected by one look-up.
var linkElements = func() (t [256][]linkElement) {
	for _, name := range ElementNames() {
		t[name[0]] = append(t[name[0]], linkElement{name, Elements[name]})
	}
	return t
}()

type linkElement struct {
	name  string
	attrs []string
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
	URL       []byte     // the resolved URL, valid during the callback; nil when it is relative and there is no absolute base
	Ref       []byte     // the attribute's value, or one srcset candidate, without surrounding white space; valid during the callback
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
	// once its base is established.
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

// Extractor extracts links. Its zero value extracts every link of Elements
// with the default limits. An Extractor keeps buffers between documents, so
// it is not safe for concurrent use; use one per goroutine.
type Extractor struct {
	// Only, if not nil, limits extraction to these elements (names from
	// Elements). The BASE element is always read.
	Only map[string]bool
	// MaxDepth limits the nesting of MIME parts; 0 means DefaultMaxDepth.
	MaxDepth int
	// Resolver resolves the links: by RFC 1808 unless it says otherwise.
	Resolver relurl.Resolver
	// ContentLocation makes the top-level entity's Content-Location header
	// set its base. Parts inside a MIME entity always honour theirs; over
	// HTTP, RFC 7231 says it does not, so fetchers leave this false.
	ContentLocation bool

	refs []byte    // the link values of the current document, back to back
	raw  []rawRef  // where each is, and what holds it
	buf  []byte    // the resolved URL being handed out
	link Link      // the link being handed out
	base base.Base // its base
}

// DefaultMaxDepth is the deepest nesting of MIME parts read by default.
const DefaultMaxDepth = 32

type rawRef struct {
	start, end         int
	element, attribute string
}

// HTML extracts the links of the HTML document r, whose base, unless it
// declares its own with <base href>, is outer. It returns the base it used.
// Malformed HTML is read as the tokenizer of golang.org/x/net/html reads it,
// which follows the HTML standard's rules for recovery. A read error stops
// the extraction, but the links found until then are still handed out
// before it is returned.
func (x *Extractor) HTML(r io.Reader, outer base.Base, h *Handler) (base.Base, error) {
	return x.html(r, outer, "", h)
}

func (x *Extractor) html(r io.Reader, outer base.Base, part string, h *Handler) (base.Base, error) {
	// The values are kept back to back in one buffer, reused from one
	// document to the next: no allocation per link or per document.
	x.refs, x.raw = x.refs[:0], x.raw[:0]
	baseHref, haveBase, readErr := x.tokenize(html.NewTokenizer(r))
	b := outer
	if haveBase {
		b = outer.Embedded(string(baseHref), base.HTMLBase)
		if b.Note != "" {
			h.warn(partError(part, errors.New(b.Note)))
		}
	}
	if h.Base != nil {
		h.Base(part, b)
	}
	if err := x.emit(b, part, h); err != nil {
		return b, err
	}
	return b, readErr
}

// tokenize reads the document to its end, keeping its links, and returns
// the href of its first BASE element that has one, and the error that ended
// the reading, if not the end of the input.
func (x *Extractor) tokenize(z *html.Tokenizer) (baseHref []byte, haveBase bool, err error) {
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return baseHref, haveBase, err
			}
			return baseHref, haveBase, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if !hasAttr {
				continue
			}
			if string(name) == "base" {
				if !haveBase {
					baseHref, haveBase = x.baseHref(z)
				}
				continue
			}
			if el, ok := linkElementOf(name); ok && (x.Only == nil || x.Only[el.name]) {
				x.keepLinks(z, el)
			}
		}
	}
}

// baseHref returns the href of the BASE element at z, if it has one.
func (x *Extractor) baseHref(z *html.Tokenizer) ([]byte, bool) {
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if string(key) == "href" {
			return bytes.Clone(trimSpace(val)), true
		}
	}
	return nil, false
}

// keepLinks keeps the link attributes of the tag at z. It stops reading
// attributes once it has seen all those the element can have: each call of
// TagAttr copies the attribute, and that is most of the cost of extraction
// beyond tokenizing.
func (x *Extractor) keepLinks(z *html.Tokenizer, el linkElement) {
	left := len(el.attrs)
	for more := true; more && left > 0; {
		var key, val []byte
		key, val, more = z.TagAttr()
		for _, a := range el.attrs {
			switch {
			case string(key) != a:
				continue
			case a == "srcset":
				for _, c := range SrcsetURLs(val) {
					x.keep(c, el.name, a)
				}
			default:
				x.keep(trimSpace(val), el.name, a)
			}
			left-- // a repeated attribute counts once too many: harmless, HTML keeps the first anyway
		}
	}
}

func (x *Extractor) keep(ref []byte, element, attribute string) {
	start := len(x.refs)
	x.refs = append(x.refs, ref...)
	x.raw = append(x.raw, rawRef{start, len(x.refs), element, attribute})
}

// emit resolves the kept links against b and hands them to h.
func (x *Extractor) emit(b base.Base, part string, h *Handler) error {
	absolute := relurl.Split(b.URL).HasScheme()
	// The link and its base live in x, so that handing out a pointer to
	// them to an unknown function makes no allocation.
	x.base = b
	x.link = Link{Base: &x.base, Part: part}
	link := &x.link
	for _, r := range x.raw {
		ref := x.refs[r.start:r.end]
		link.Ref, link.Element, link.Attribute = ref, r.element, r.attribute
		// The base is split again for each link: some 20 ns, about 1% of
		// extracting a link, and not worth a split-once form for each RFC.
		x.buf = x.Resolver.AppendResolve(x.buf[:0], b.URL, bytestr.Transient(ref))
		link.URL = x.buf
		if !absolute && !relurl.Split(bytestr.Transient(ref)).HasScheme() {
			// Without an absolute base (Section 3.4, or a relative
			// BASE with nothing outside it), a relative link stays
			// relative: it is not resolved.
			link.URL = nil
		}
		if err := h.Link(link); err != nil {
			return err
		}
	}
	return nil
}

// trimSpace removes the ASCII white space that HTML allows around a URL in
// an attribute.
func trimSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\n\f\r")
}

// partError names the part in err, when there is one.
func partError(part string, err error) error {
	if part == "" {
		return err
	}
	return fmt.Errorf("part %s: %w", part, err)
}
