package links

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/htmltree"
	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/microsyntax"
	"github.com/relurl/relurl/rfc1808"
)

// document is the state of one HTML document as it is read: the tree
// builder (package htmltree) tells it, as a Sink, which elements the
// document has and where, and it keeps what links depend on.
type document struct {
	x     *Extractor
	outer Base // the base from outside: the document's URL, as HTML calls it
	// based says that x.base is established; links are handed out as they
	// are found unless an <a> whose text is read is open (anchor >= 0),
	// or the fast path reads the document (hold): it may yet hand it
	// over.
	based  bool
	hold   bool
	anchor int // the index in x.extras of the open <a> whose text is read; -1 if none
	part   string
	h      *Handler
	err    error // what stopped the handler, or a handler's error
	z      *htmltok.Tokenizer

	// The element of the start tag being inserted (Element, then Insert).
	fresh     htmltree.Node
	freshNS   htmltree.Namespace
	freshName string

	templates  int           // open <template> elements: what is inside is inert
	anchorNode htmltree.Node // the <a> whose text is read
	// body is the <body> element, and bodyHas the attributes of those a
	// later <body> tag could give it links by that it has (a second tag
	// adds those it lacks: x<body background=bg.png>).
	body      htmltree.Node
	bodyHas   struct{ background, style bool }
	rawNode   htmltree.Node   // an open <script> or <style>, whose text is no anchor's
	styleNode htmltree.Node   // an open <style> whose CSS counts
	tables    []htmltree.Node // the open <table> elements, outermost first
	// A <base> found inside a table waits for the table's end: a <base>
	// foster-parented before the table until then comes first in tree
	// order, and is the document's.
	tentative struct {
		node   htmltree.Node
		within []htmltree.Node // the tables it is inside
		href   []byte
		site   Site
		line   int
		col    int
	}

	// With Extractor.Positions, the line and column (1-based, in bytes
	// of the document decoded to UTF-8) where the tag being read starts.
	line, col int
	// srcdocs are the documents of the <iframe srcdoc> elements, read
	// once this document's links are out.
	srcdocs []srcdoc
	// docBase is outer made ready for resolving, once a link needs it (an
	// empty form action submits to the document's URL).
	docBase      relurl.Base
	docBaseState int8 // 0 not made, 1 absolute, -1 not absolute
}

// tagLinks are the link attributes of one start tag, gathered before any
// is handed out: a rel or a type may come after them.
type tagLinks struct {
	n      int
	kinds  [4]byte
	values [4][]byte
	spans  [4]htmltok.Span // where each value is, for Extractor.Sites
	quotes [4]byte
}

func (t *tagLinks) add(kind byte, a *htmltok.Attr) {
	if t.n < len(t.kinds) {
		t.kinds[t.n], t.values[t.n], t.spans[t.n], t.quotes[t.n] = kind, a.Value, a.ValueSpan, a.Quote
		t.n++
	}
}

// queueing reports whether links wait rather than being handed out.
func (d *document) queueing() bool { return d.hold || !d.based || d.anchor >= 0 }

// build reads the document to its end through the tree builder and returns
// the error that ended the reading, if not the end of the input.
func (d *document) build(z *htmltok.Tokenizer) error {
	d.z = z
	b := &d.x.tree
	b.Reset(z, d)
	for b.Step() {
		if d.err != nil {
			return d.err
		}
	}
	if d.err != nil {
		return d.err
	}
	if err := b.Err(); err != nil {
		return err
	}
	if d.tentative.node != htmltree.None {
		return d.settleBase()
	}
	return nil
}

// fail keeps the first error a link's handling gave.
func (d *document) fail(err error) {
	if err != nil && d.err == nil {
		d.err = err
	}
}

// Element notes the element of the start tag at hand; Insert reads it.
// The clones the tree builder makes (of formatting elements, by the
// adoption agency) hold the links of a tag already read, and are not read
// again.
func (d *document) Element(n htmltree.Node, ns htmltree.Namespace, name string, how htmltree.Origin, _ htmltree.Node) {
	if how == htmltree.FromToken {
		d.fresh, d.freshNS, d.freshName = n, ns, name
	}
	if ns == htmltree.HTML && name == "body" {
		d.body = n
		d.bodyHas.background, d.bodyHas.style = false, false
		if how == htmltree.FromToken {
			_, d.bodyHas.background = d.z.Attr("background")
			_, d.bodyHas.style = d.z.Attr("style")
		}
	}
}

// Insert reads the links of a new element, now that it is in the tree.
func (d *document) Insert(parent, n, before htmltree.Node) {
	if n != d.fresh || d.err != nil {
		return
	}
	d.fresh = htmltree.None
	z := d.z
	inert := d.templates > 0
	switch {
	case d.freshNS == htmltree.MathML:
	case d.freshName == "script":
		d.rawNode = n
	case d.freshName == "style":
		// HTML's <style> and SVG's: both are CSS.
		d.rawNode = n
		if d.x.want[styleTextKind] && (!inert || d.x.Template) {
			d.styleNode = n
		}
	case d.freshNS != htmltree.HTML:
	case d.freshName == "template":
		d.templates++
	case d.freshName == "table":
		d.tables = append(d.tables, n)
	}
	if z.AttrCount() == 0 || inert && !d.x.Template {
		return
	}
	if d.x.Positions {
		d.line, d.col = z.Position(z.Span().Start)
	}
	if d.freshNS == htmltree.HTML && d.freshName == "iframe" {
		if a, ok := z.Attr("srcdoc"); ok {
			s := srcdoc{doc: bytes.Clone(a.Value), line: d.line, col: d.col}
			if d.x.Sites {
				s.site = Site{Value: a.ValueSpan, Tag: z.Span(), Quote: a.Quote}
			}
			d.srcdocs = append(d.srcdocs, s)
		}
	}
	if d.freshNS == htmltree.HTML && d.freshName == "base" {
		if !inert {
			d.fail(d.baseElement(z, n, before))
		}
		return
	}
	d.fail(d.startTag(z, d.freshNS, n))
}

// Pop ends what an element held open: an anchor's text, a table a base
// waits for.
func (d *document) Pop(n htmltree.Node, ns htmltree.Namespace, name string) {
	if n == d.anchorNode {
		d.anchorNode = htmltree.None
		d.fail(d.closeAnchor())
	}
	switch {
	case n == d.rawNode:
		d.rawNode, d.styleNode = htmltree.None, htmltree.None
	case ns != htmltree.HTML:
	case name == "template":
		d.templates--
	case name == "table":
		if k := len(d.tables) - 1; k >= 0 && d.tables[k] == n {
			d.tables = d.tables[:k]
		}
		if d.tentative.node != htmltree.None {
			if i := slices.Index(d.tentative.within, n); i >= 0 {
				d.tentative.within = d.tentative.within[:i]
				if i == 0 {
					d.fail(d.settleBase())
				}
			}
		}
	}
}

// Text reads the CSS of a <style>, and the text of an <a>.
func (d *document) Text(parent htmltree.Node, text []byte, _ htmltree.Node) {
	switch {
	case d.err != nil:
	case parent == d.styleNode && d.styleNode != htmltree.None:
		x := d.x
		x.rel = x.rel[:0]
		ex := -1
		if x.Positions {
			d.line, d.col = d.z.Position(d.z.Span().Start)
			ex = d.newExtra(false)
		}
		x.site = Site{Value: d.z.TextSpan(), Tag: d.z.TextSpan(), Style: true}
		d.fail(d.keep(styleTextKind, text, ex))
	case d.anchor >= 0 && parent != d.rawNode:
		d.x.text = appendText(d.x.text, text)
	}
}

func (d *document) Contents(_, _ htmltree.Node)                        {}
func (d *document) Comment(_ htmltree.Node, _ []byte, _ htmltree.Node) {}
func (d *document) Doctype()                                           {}
func (d *document) Remove(htmltree.Node)                               {}
func (d *document) MoveChildren(_, _ htmltree.Node)                    {}

// AddAttributes reads the links of a later <body> tag's attributes that
// the body lacks, which the tree builder adds to it: a browser fetches
// the background of "x<body background=bg.png>". A tag that repeats an
// attribute the body has, beside one it lacks, is not read.
func (d *document) AddAttributes(n htmltree.Node) {
	if n != d.body || n == htmltree.None || d.err != nil {
		return
	}
	z := d.z
	_, background := z.Attr("background")
	_, style := z.Attr("style")
	if !background && !style || background && d.bodyHas.background || style && d.bodyHas.style {
		return
	}
	d.bodyHas.background = d.bodyHas.background || background
	d.bodyHas.style = d.bodyHas.style || style
	if d.x.Positions {
		d.line, d.col = z.Position(z.Span().Start)
	}
	d.freshName = "body"
	d.fail(d.startTag(z, htmltree.HTML, n))
}

// startTag hands out, or keeps until they can be, the links of the start
// tag at z. It reads the names of the tag's attributes, and decodes only
// the values it wants: an element's link attributes, in the order they are
// written, and the rel, type, http-equiv and style that decide them.
func (d *document) startTag(z *htmltok.Tokenizer, ns htmltree.Namespace, n htmltree.Node) error {
	x := d.x
	var el linkElement
	var isLink bool
	var name string
	switch ns {
	case htmltree.SVG:
		name = bytestr.Transient(z.Name()) // in lower case, as svgElements has it
		el, isLink = svgLinkElementOf(name)
	case htmltree.HTML:
		name = d.freshName // <image> is <img>
		el, isLink = linkElementOf(name)
	default:
		name = bytestr.Transient(z.Name()) // MathML has no links
	}
	css := x.want[styleAttrKind]
	var need uint8 // bit i: el.attrs[i] is looked for
	if isLink {
		for i := range el.attrs {
			if x.want[el.kinds[i]] {
				need |= 1 << i
			}
		}
	}
	if need == 0 && !css {
		return nil
	}
	rel := need != 0 && (el.name == "a" || el.name == "area" || el.name == "link")
	// The links of input, button and meta depend on their other attributes.
	cond := need != 0 && (el.name == "input" || el.name == "button" || el.name == "meta")
	t := &x.tag
	t.n = 0
	x.rel = x.rel[:0]
	var typ, equiv []byte
	typed, hasEquiv := false, false
	for i := range z.AttrCount() {
		if need == 0 && !rel && !cond && !css {
			break // nothing more is looked for
		}
		name := z.AttrName(i)
		if need == 0 && !rel && !cond && len(name) != len("style") {
			continue // only a style is looked for
		}
		switch k := bytestr.Transient(name); {
		case css && k == "style":
			css = false
			if a := z.AttrAt(i); containsFold(a.Value, "url(") || containsFold(a.Value, "image-set(") {
				t.add(styleAttrKind, &a)
			}
		case rel && k == "rel":
			rel = false
			x.rel = appendTokens(x.rel, z.AttrAt(i).Value)
		case cond && k == "type" && !typed:
			typ, typed = z.AttrAt(i).Value, true
		case cond && k == "http-equiv" && !hasEquiv:
			equiv, hasEquiv = z.AttrAt(i).Value, true
		default:
			for j, a := range el.attrs {
				if need&(1<<j) != 0 && k == a {
					need &^= 1 << j // HTML keeps an attribute's first value
					a := z.AttrAt(i)
					t.add(el.kinds[j], &a)
					break
				}
			}
		}
	}
	if cond {
		t.keepIf(el.name, typ, typed, equiv)
	}
	if ns == htmltree.SVG && isLink && t.has(el.kinds[0]) && t.has(el.kinds[1]) {
		t.drop(el.kinds[1]) // an href overrides an xlink:href
	}
	if t.n == 0 {
		return nil
	}
	return d.keepTag(z, name, el, n)
}

// keepTag hands out, or keeps, the links startTag found in the start tag
// of el at z: their values in x.tag, with an extra record for an anchor's
// text, rel tokens or positions.
func (d *document) keepTag(z *htmltok.Tokenizer, name string, el linkElement, n htmltree.Node) error {
	x := d.x
	t := &x.tag
	ex := -1
	anchor := el.name == "a" && x.Text && d.linksOf(el)
	if len(x.rel) > 0 || anchor || x.Positions {
		ex = d.newExtra(anchor)
	}
	if anchor {
		if d.anchor >= 0 {
			// An <a> still open that the tree did not end: its text
			// stays empty, and the texts keep the order of the <a>s.
			x.extras.text(nil)
		}
		// Its links, and those inside it, wait for its text.
		d.anchor, d.anchorNode = ex, n
		x.text = x.text[:0]
	}
	for i := range t.n {
		v := t.values[i]
		if x.Sites {
			x.site = Site{Value: t.spans[i], Quote: t.quotes[i], Tag: z.Span()}
		}
		if t.kinds[i] == styleAttrKind {
			// The element's name goes with its style, ahead of a NUL,
			// which the tokenizer never leaves in a name.
			x.scratch = append(append(append(x.scratch[:0], name...), 0), v...)
			v = x.scratch
		}
		if err := d.keep(t.kinds[i], v, ex); err != nil {
			return err
		}
	}
	return nil
}

// linksOf reports whether the tag just gathered has links of el's.
func (d *document) linksOf(el linkElement) bool {
	t := &d.x.tag
	for i := range t.n {
		if t.kinds[i] != styleAttrKind {
			return true
		}
	}
	return false
}

// has reports whether the tag has a link of kind k.
func (t *tagLinks) has(k byte) bool {
	return slices.Contains(t.kinds[:t.n], k)
}

// drop drops the link of kind k from the tag's.
func (t *tagLinks) drop(k byte) {
	n := 0
	for i := range t.n {
		if t.kinds[i] != k {
			t.move(n, i)
			n++
		}
	}
	t.n = n
}

// keepIf drops the links of an input, button or meta that its type or
// http-equiv says it does not have: an input's src is fetched only for
// type=image, and formaction is used only by a submit button (an input of
// type submit or image, a button of type submit, the default); a meta's
// content is a URL only in a refresh.
func (t *tagLinks) keepIf(element string, typ []byte, typed bool, equiv []byte) {
	n := 0
	for i := range t.n {
		la := linkAttrs[t.kinds[i]]
		keep := true
		switch {
		case element == "meta":
			keep = equalFold(equiv, "refresh")
		case element == "input" && la.attribute == "src":
			keep = equalFold(typ, "image")
		case element == "input":
			keep = equalFold(typ, "submit") || equalFold(typ, "image")
		case element == "button":
			keep = !typed || !equalFold(typ, "button") && !equalFold(typ, "reset")
		}
		if keep {
			t.move(n, i)
			n++
		}
	}
	t.n = n
}

// move moves the tag's link i to n, its span and quote with it.
func (t *tagLinks) move(n, i int) {
	t.kinds[n], t.values[n], t.spans[n], t.quotes[n] = t.kinds[i], t.values[i], t.spans[i], t.quotes[i]
}

// baseElement establishes the document's frozen base URL from the BASE
// element n at z, inserted before the node before (or last), if it is the
// document's first with an href in tree order. The tree builder leaves out
// those inside <template> and gives those inside <svg> and <math> their
// namespace, which is not HTML's. A <base> inside a table waits for the
// table's end: one foster-parented before the table until then comes
// first. As HTML's "set the frozen base URL" says, an href that fails to
// parse, or gives a data: or javascript: URL, leaves the document its own
// URL, and later BASE elements do not count.
func (d *document) baseElement(z *htmltok.Tokenizer, n, before htmltree.Node) error {
	if d.x.ignoreBase {
		return nil
	}
	a, ok := z.Attr("href")
	if !ok {
		return nil
	}
	site := Site{Value: a.ValueSpan, Quote: a.Quote, Tag: z.Span()}
	t := &d.tentative
	if d.based || t.node != htmltree.None && (before == htmltree.None || !slices.Contains(t.within, before)) {
		// After the one that counts, in tree order: a link still, to
		// whoever rewrites the document (and drops every <base>).
		return d.keepUnusedBase(a.Value, site)
	}
	if t.node != htmltree.None {
		// Foster-parented before the one that waits, which it replaces.
		line, col := d.line, d.col
		d.line, d.col = t.line, t.col
		err := d.keepUnusedBase(t.href, t.site)
		d.line, d.col = line, col
		if err != nil {
			return err
		}
	}
	within := d.tables
	if i := slices.Index(d.tables, before); before != htmltree.None && i >= 0 {
		within = d.tables[:i]
	}
	t.node = n
	t.within = append(t.within[:0], within...)
	t.href = append(t.href[:0], a.Value...)
	t.site = site
	t.line, t.col = d.line, d.col
	if len(within) > 0 {
		return nil
	}
	return d.settleBase()
}

// keepUnusedBase hands out, with Extractor.Sites, the href of a <base> that
// does not set the base.
func (d *document) keepUnusedBase(href []byte, site Site) error {
	if !d.x.Sites {
		return nil
	}
	d.x.site = site
	d.x.rel = d.x.rel[:0]
	return d.keep(baseKind, href, d.positionExtra())
}

// positionExtra returns, with Extractor.Positions, the extra that keeps
// the position of a link that waits (a <base>'s href, handed out while
// the links wait), else -1.
func (d *document) positionExtra() int {
	if d.x.Positions && d.queueing() {
		return d.newExtra(false)
	}
	return -1
}

// settleBase establishes the base of the <base> that waits.
func (d *document) settleBase() error {
	t := &d.tentative
	t.node = htmltree.None
	href := d.x.cleanURL(t.href)
	b, err := d.outer.embedded(string(href), FromHTMLBase, d.x.resolverOf())
	s := strings.ToLower(rfc1808.Split(b.URL).Scheme())
	switch {
	case err != nil:
		d.h.warn(partError(d.part, fmt.Errorf("%w; ignored, as HTML says: the document's URL is its base", err)))
		b = d.outer
	case s == "data" || s == "javascript":
		d.h.warn(partError(d.part, errors.New("<base href> of a "+s+": URL ignored, as HTML says: the document's URL is its base")))
		b = d.outer
	case b.Note != "":
		d.h.warn(partError(d.part, errors.New(b.Note)))
	}
	if err = d.establish(b); err != nil || !d.x.Sites {
		return err
	}
	// The href is a link too, to whoever rewrites links, whether it set
	// the base or was ignored: -drop-base drops every <base>, and an
	// iframe srcdoc's, ignored against one base, may count against the
	// next.
	d.x.site = t.site
	d.x.rel = d.x.rel[:0]
	line, col := d.line, d.col
	d.line, d.col = t.line, t.col
	err = d.keep(baseKind, t.href, d.positionExtra())
	d.line, d.col = line, col
	return err
}

// emit resolves the value of one link attribute against the established
// base and hands its links to the handler: each candidate of a srcset, each
// URL of a ping, the URL of a refresh, each url() of CSS.
func (d *document) emit(value []byte, kind byte) error {
	x := d.x
	la := linkAttrs[kind]
	x.link.Element, x.link.Attribute = la.element, la.attribute
	var err error
	decoded := value
	// each hands out ref, which for all but CSS is a slice of decoded.
	if x.Sites {
		x.link.Site = x.site
	}
	each := func(ref []byte) bool {
		if x.Sites {
			start := offsetIn(decoded, ref)
			x.link.Site.Ref, x.link.Site.CSS = [2]int{start, start + len(ref)}, false
		}
		err = d.emitOne(ref, kind)
		return err == nil
	}
	eachCSS := func(ref []byte, token [2]int) bool {
		x.link.Site.Ref, x.link.Site.CSS = token, true
		err = d.emitOne(ref, kind)
		return err == nil
	}
	switch {
	case kind == styleAttrKind:
		name, css, _ := bytes.Cut(value, []byte{0})
		decoded = css
		x.link.Element = ""
		x.link.Site.Decoded = css
		microsyntax.CSS(css[:len(css):len(css)], &x.cssBuf, func(ref []byte, token [2]int) bool { // the tokenizer's bytes follow: copied
			if x.link.Element == "" {
				x.link.Element = string(name)
			}
			return eachCSS(ref, token)
		})
		return err
	case kind == styleTextKind:
		x.link.Site.Decoded = value
		microsyntax.CSS(value[:len(value):len(value)], &x.cssBuf, eachCSS) // copied, as above
		return err
	}
	x.link.Site.Decoded = value
	switch {
	case la.attribute == "srcset" || la.attribute == "imagesrcset":
		microsyntax.Srcset(value, each)
	case la.attribute == "ping":
		for _, f := range bytes.Fields(value) {
			if !each(f) {
				break
			}
		}
	case la.element == "meta":
		if u, ok := microsyntax.Refresh(value); ok {
			each(u)
		}
	default:
		each(value)
	}
	return err
}

// offsetIn returns where sub, a slice of b, starts in b.
func offsetIn(b, sub []byte) int {
	if len(sub) == 0 {
		return len(b)
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

func (d *document) emitOne(ref []byte, kind byte) error {
	x := d.x
	link := &x.link
	link.Ref = ref
	link.Base = &x.base
	rb, absolute := &x.resolveBase, x.absolute
	clean := x.cleanURL(ref)
	if (kind == styleAttrKind || kind == styleTextKind) && x.queryEncoding != nil {
		// CSS parses its URLs with UTF-8 for their queries, whatever
		// the document's encoding (CSS Values, "URLs"; so does Chromium).
		rb = &x.cssBase
	}
	if kind == baseKind || len(clean) == 0 && (linkAttrs[kind].attribute == "action" || linkAttrs[kind].attribute == "formaction") {
		// A <base href> is resolved against the document's URL. So is an
		// empty form action, by HTML's form submission, whatever the
		// <base>.
		rb, absolute = d.documentBase()
		link.Base = &d.outer
	}
	return d.hand(clean, rb, absolute)
}

// resolveAndHand resolves clean against the document's base and hands
// out x.link with it.
func (d *document) resolveAndHand(clean []byte) error {
	return d.hand(clean, &d.x.resolveBase, d.x.absolute)
}

// hand resolves clean, a reference cleaned as the URL parser cleans its
// input, against rb (when absolute) and hands out x.link with it.
func (d *document) hand(cleanRef []byte, rb *relurl.Base, absolute bool) error {
	x := d.x
	link := &x.link
	clean := bytestr.Transient(cleanRef)
	link.URL, link.Err = nil, nil
	var err error
	switch {
	case absolute:
		x.buf, err = rb.AppendResolve(x.buf[:0], clean)
		link.URL = x.buf
	case rfc1808.Split(clean).HasScheme():
		// An absolute link, in a document without an absolute base: it
		// is resolved against none, which every standard allows; CSS's
		// with UTF-8 for its query, as cssBase would.
		r := x.resolver
		if rb == &x.cssBase {
			r.QueryEncoding = nil
		}
		x.buf, err = r.AppendResolve(x.buf[:0], "", clean)
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

// documentBase returns the document's own URL (outer) made ready for
// resolving, and whether it is absolute.
func (d *document) documentBase() (*relurl.Base, bool) {
	if d.docBaseState == 0 {
		d.docBaseState = -1
		if rfc1808.Split(d.outer.URL).HasScheme() {
			if b, err := d.x.resolver.Base(d.outer.URL); err == nil {
				d.docBase, d.docBaseState = b, 1
			}
		}
	}
	return &d.docBase, d.docBaseState == 1
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
	if !ascii.HasTabOrNewline(bytestr.Transient(v)) {
		return v // most values: a word at a time
	}
	x.clean = x.clean[:0]
	for _, c := range v {
		if c != '\t' && c != '\n' && c != '\r' {
			x.clean = append(x.clean, c)
		}
	}
	return x.clean
}
