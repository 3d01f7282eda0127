package htmltree

import (
	"fmt"
	"hash/maphash"
	"io"
	"slices"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/internal/bytestr"
)

// A Namespace is an element's namespace.
type Namespace uint8

const (
	HTML Namespace = iota
	SVG
	MathML
)

func (ns Namespace) String() string {
	switch ns {
	case SVG:
		return "svg"
	case MathML:
		return "math"
	}
	return "html"
}

// A Node names a node of the tree: the Document, or an element, or a
// template's contents, numbered as the Builder makes them. Text and
// comments are not named: nothing is ever inserted into them.
type Node int

// None is no node; Document is the document, the root of the tree.
const (
	None     Node = 0
	Document Node = 1
)

// An Origin says where a new element's attributes come from.
type Origin uint8

const (
	// FromToken: the tokenizer's current start tag.
	FromToken Origin = iota
	// Implied: none; the tree builder made the element without a tag
	// (an <html>, <head>, <body>, <tbody>, <tr>, <colgroup> or <p> the
	// document left out).
	Implied
	// Cloned: those of another element, Element's from argument (the
	// adoption agency and the reconstruction of formatting elements
	// clone the elements of a tag).
	Cloned
)

// A Sink is told the tree builder's decisions, in order. Every Node it is
// given is first announced by Element (or Contents), and before is None or
// a child of parent. Inserting a node that has a parent moves it, as in the
// DOM.
type Sink interface {
	// Element announces a new element n, not yet in the tree: its
	// namespace, its local name (SVG's in its camel case) and where its
	// attributes come from. With Cloned, from is the element cloned.
	Element(n Node, ns Namespace, name string, how Origin, from Node)
	// Contents announces contents, the template contents of the <template>
	// element t: what the template holds is inserted into it, and it is in
	// no tree.
	Contents(t, contents Node)
	// Insert inserts the element n into parent, before the child before,
	// or last when before is None.
	Insert(parent, n, before Node)
	// Text inserts text into parent, as Insert does. Text may come in
	// pieces; two pieces inserted one after the other are one text node.
	Text(parent Node, text []byte, before Node)
	// Comment inserts a comment into parent, as Insert does.
	Comment(parent Node, data []byte, before Node)
	// Doctype appends the DOCTYPE: the tokenizer's current token.
	Doctype()
	// Remove takes n out of its parent (a <frameset> replaces the
	// <body>).
	Remove(n Node)
	// MoveChildren moves all of from's children, in order, to the end
	// of to.
	MoveChildren(from, to Node)
	// AddAttributes gives n the attributes of the tokenizer's current
	// start tag that it does not have (a second <html> or <body> tag).
	AddAttributes(n Node)
	// Pop says that the element n, of namespace ns and local name name,
	// left the stack of open elements: the tree builder closed it, or
	// the adoption agency took it off the stack. Every element inserted
	// is popped once, by the end of the input.
	Pop(n Node, ns Namespace, name string)
}

// NopSink is a Sink that does nothing with what it is told, as io.Discard
// is a Writer. A Sink that listens to a few of the calls embeds it and
// defines those: one that reads the <meta> elements of a head defines
// Element and Pop.
type NopSink struct{}

func (NopSink) Element(Node, Namespace, string, Origin, Node) {}
func (NopSink) Contents(Node, Node)                           {}
func (NopSink) Insert(Node, Node, Node)                       {}
func (NopSink) Text(Node, []byte, Node)                       {}
func (NopSink) Comment(Node, []byte, Node)                    {}
func (NopSink) Doctype()                                      {}
func (NopSink) Remove(Node)                                   {}
func (NopSink) MoveChildren(Node, Node)                       {}
func (NopSink) AddAttributes(Node)                            {}
func (NopSink) Pop(Node, Namespace, string)                   {}

// A Builder runs the tree construction stage over the tokens of a
// tokenizer. It is made by New and used once.
type Builder struct {
	z    *htmltok.Tokenizer
	sink Sink
	next Node

	mode, original mode
	templateModes  []mode
	stack          []elem
	// open counts the HTML elements on the stack by their name's slot,
	// so that a search of the stack for a name that is not there (a <p>
	// before each block) ends at once.
	open           [atomSize + 1]int32
	formatting     []formatting
	head, form     Node
	framesetOK     bool
	quirks         bool
	fosterParent   bool
	ignoreLF       bool // the next text's leading "\n" is dropped (after <pre>, <listing>, <textarea>)
	pendingTable   []byte
	pendingNonWS   bool
	tok            token
	documentClosed bool
	err            error // a *DepthError
}

// elem is an element of the stack of open elements.
type elem struct {
	n        Node
	name     string
	slot     int // the name's slot (atom)
	ns       Namespace
	parent   Node // where it is in the tree, for foster parenting
	contents Node // a template's contents
	// htmlPoint marks an HTML integration point that is so by its
	// attribute (annotation-xml with encoding text/html or
	// application/xhtml+xml).
	htmlPoint bool
}

// formatting is an entry of the list of active formatting elements: an
// element, or a marker (n == None).
type formatting struct {
	elem
	attrs uint64 // a hash of the tag's attributes, for the Noah's Ark clause
}

// token is the token being processed: the tokenizer's, or one the tree
// builder acts as if it had seen (an end tag it implies, <br> for </br>).
type token struct {
	kind        htmltok.Kind
	name        string
	slot        int // the name's slot (atom), 0 when unknown or not looked up
	text        []byte
	selfClosing bool
	real        bool // a start tag is the tokenizer's current token, with its attributes
}

// New returns a Builder that reads z's tokens and tells sink what the tree
// is. It takes the tokenizer's states over.
func New(z *htmltok.Tokenizer, sink Sink) *Builder {
	b := &Builder{}
	b.Reset(z, sink)
	return b
}

// Reset makes b a new Builder, as New does, with its memory kept.
func (b *Builder) Reset(z *htmltok.Tokenizer, sink Sink) {
	z.SetStateByName(false)
	*b = Builder{z: z, sink: sink, next: Document, framesetOK: true,
		stack: b.stack[:0], formatting: b.formatting[:0], templateModes: b.templateModes[:0],
		pendingTable: b.pendingTable[:0]}
}

// Run reads the tokens to the end of the input and builds the tree. It
// returns the tokenizer's error if it is not io.EOF; the tree then ends
// where the input did.
func (b *Builder) Run() error {
	for b.Step() {
	}
	return b.Err()
}

// MaxDepth bounds the stack of open elements, and so the Builder's memory:
// a document that nests elements deeper ends there, with a *DepthError.
// Browsers nest no deeper than 512 in the tree they build (Chromium
// attaches deeper elements higher up); no document worth reading goes near
// this bound.
const MaxDepth = 10000

// A DepthError is a document whose elements nest deeper than MaxDepth.
type DepthError struct {
	Offset int64 // the byte offset of the tag that went past the bound
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("htmltree: elements nested deeper than %d, at byte offset %d: the rest of the document is not read", MaxDepth, e.Offset)
}

// Err returns what ended the tokens early: a *DepthError, or the
// tokenizer's error if it is not io.EOF; nil at the end of the input.
func (b *Builder) Err() error {
	if b.err != nil {
		return b.err
	}
	if err := b.z.Err(); err != io.EOF {
		return err
	}
	return nil
}

// Step reads one token and processes it. It reports false at the end of
// the input, once the end has been processed (the elements still open are
// popped then).
func (b *Builder) Step() bool {
	if b.documentClosed {
		return false
	}
	z := b.z
	k := z.Next()
	t := &b.tok
	*t = token{kind: k}
	switch k {
	case htmltok.ErrorToken:
		b.process(t)
		b.close()
		return false
	case htmltok.StartTagToken:
		t.name, t.slot = atom(z.Name())
		t.selfClosing = z.SelfClosing()
		t.real = true
	case htmltok.EndTagToken:
		// Most end tags end the current node: its name is at hand.
		if name := z.Name(); len(b.stack) > 0 && string(name) == b.current().name {
			t.name, t.slot = b.current().name, b.current().slot
		} else {
			t.name, t.slot = atom(name)
		}
	case htmltok.TextToken, htmltok.CommentToken:
		t.text = z.Text()
	}
	// After <pre>, <listing> and <textarea>, a line feed that comes
	// next is dropped.
	if b.ignoreLF {
		b.ignoreLF = false
		if k == htmltok.TextToken && len(t.text) > 0 && t.text[0] == '\n' {
			if t.text = t.text[1:]; len(t.text) == 0 {
				return true
			}
		}
	}
	if !b.fast(t) {
		b.process(t)
	}
	if len(b.stack) > MaxDepth {
		b.err = &DepthError{Offset: z.Span().Start}
		b.close()
		return false
	}
	z.SetForeign(len(b.stack) > 0 && b.current().ns != HTML)
	return true
}

// close ends the document: the elements still open are popped.
func (b *Builder) close() {
	for len(b.stack) > 0 {
		b.pop()
	}
	b.documentClosed = true
}

// fast processes t, and reports true, if it is text or a tag that the
// "in body" insertion mode does not name, in HTML content: what most of a
// page is. It does what process does with it, without the dispatch.
//
// In a table's cell or caption, what those modes do not name is processed
// by the rules of "in body" too: the names they do are either named by
// "in body" as well or, for end tags, in tableEnd.
func (b *Builder) fast(t *token) bool {
	if b.mode != inBody && b.mode != inCell && b.mode != inCaption || b.fosterParent || len(b.stack) == 0 || b.current().ns != HTML {
		return false
	}
	switch t.kind {
	case htmltok.TextToken:
		b.inBodyMode(t)
	case htmltok.StartTagToken:
		if !bodyStartOther[t.slot] {
			return false
		}
		b.reconstructFormatting()
		b.insertHTML(t)
	case htmltok.EndTagToken:
		if !bodyEndOther[t.slot] || b.mode != inBody && tableEnd[t.slot] {
			return false
		}
		b.anyOtherEndTag(t.name)
	default:
		return false
	}
	return true
}

// newNode numbers a new node.
func (b *Builder) newNode() Node {
	b.next++
	return b.next
}

func (b *Builder) current() *elem { return &b.stack[len(b.stack)-1] }

// currentIs reports whether the current node is the HTML element name.
func (b *Builder) currentIs(name string) bool {
	if len(b.stack) == 0 {
		return false
	}
	c := b.current()
	return c.ns == HTML && c.name == name
}

// is reports whether e is one of the HTML elements names.
func (e *elem) is(names ...string) bool {
	if e.ns != HTML {
		return false
	}
	for _, n := range names {
		if e.name == n {
			return true
		}
	}
	return false
}

// place is where a node goes: into parent, before before (or last).
type place struct{ parent, before Node }

// appropriatePlace is "the appropriate place for inserting a node"
// (13.2.6.1), with target the current node unless override is given.
func (b *Builder) appropriatePlace(override *elem) place {
	target := override
	if target == nil {
		if len(b.stack) == 0 {
			return place{parent: Document} // the <html> element
		}
		target = b.current()
	}
	if b.fosterParent && target.is("table", "tbody", "tfoot", "thead", "tr") {
		lastTemplate, lastTable := -1, -1
		for i := len(b.stack) - 1; i >= 0; i-- {
			e := &b.stack[i]
			if e.ns != HTML {
				continue
			}
			if e.name == "template" && lastTemplate < 0 {
				lastTemplate = i
			}
			if e.name == "table" && lastTable < 0 {
				lastTable = i
			}
		}
		switch {
		case lastTemplate >= 0 && (lastTable < 0 || lastTemplate > lastTable):
			return place{parent: b.stack[lastTemplate].contents}
		case lastTable < 0:
			return place{parent: b.stack[0].n}
		case b.stack[lastTable].parent != None:
			return place{parent: b.stack[lastTable].parent, before: b.stack[lastTable].n}
		default:
			target = &b.stack[lastTable-1]
		}
	}
	if target.is("template") {
		return place{parent: target.contents}
	}
	return place{parent: target.n}
}

// createElement is "create an element for the token": it announces it.
func (b *Builder) createElement(name string, slot int, ns Namespace, how Origin, from Node) elem {
	var e elem
	b.create(&e, name, slot, ns, how, from)
	return e
}

// create fills e, which is zero, as createElement's result: in place, for
// the path every element takes, where copying it cost more than the rest.
func (b *Builder) create(e *elem, name string, slot int, ns Namespace, how Origin, from Node) {
	if slot == 0 {
		slot = slotOf(name)
	}
	e.n, e.name, e.slot, e.ns = b.newNode(), name, slot, ns
	b.sink.Element(e.n, ns, name, how, from)
	if ns == HTML && name == "template" {
		e.contents = b.newNode()
		b.sink.Contents(e.n, e.contents)
	}
	if ns == MathML && name == "annotation-xml" && how == FromToken {
		if a, ok := b.z.Attr("encoding"); ok {
			enc := bytestr.Transient(a.Value)
			e.htmlPoint = equalFold(enc, "text/html") || equalFold(enc, "application/xhtml+xml")
		}
	}
}

// insertElement is "insert a foreign element" (and "insert an HTML
// element"): the element of the token t, in ns, at the appropriate place,
// pushed onto the stack.
func (b *Builder) insertElement(t *token, ns Namespace) *elem {
	how := Implied
	if t.real {
		how = FromToken
	}
	p := b.appropriatePlace(nil)
	b.stack = append(b.stack, elem{})
	e := &b.stack[len(b.stack)-1]
	b.create(e, t.name, t.slot, ns, how, None)
	e.parent = p.parent
	b.count(e, 1)
	b.sink.Insert(p.parent, e.n, p.before)
	return e
}

// insertHTML inserts an HTML element for t.
func (b *Builder) insertHTML(t *token) *elem { return b.insertElement(t, HTML) }

// insertImplied inserts an HTML element name with no attributes.
func (b *Builder) insertImplied(name string) *elem {
	return b.insertHTML(&token{kind: htmltok.StartTagToken, name: name})
}

// insertVoid inserts an HTML element for t and pops it at once.
func (b *Builder) insertVoid(t *token) {
	b.insertHTML(t)
	b.pop()
}

// pop pops the current node.
func (b *Builder) pop() { b.remove(len(b.stack) - 1) }

// remove takes the stack's element i off the stack.
func (b *Builder) remove(i int) {
	e := b.stack[i]
	b.stack = append(b.stack[:i], b.stack[i+1:]...)
	b.count(&e, -1)
	b.sink.Pop(e.n, e.ns, e.name)
}

// push puts e on the stack at i (at its top when i is len(b.stack)).
func (b *Builder) push(i int, e elem) {
	b.stack = slices.Insert(b.stack, i, e)
	b.count(&e, 1)
}

// count adds d to the count of open elements named as e is.
func (b *Builder) count(e *elem, d int32) {
	if e.ns == HTML && e.slot > 0 {
		b.open[e.slot] += d
	}
}

// opened reports whether an HTML element of one of names may be on the
// stack: false means none is.
func (b *Builder) opened(names []string) bool {
	for _, n := range names {
		if s := slotOf(n); s == 0 || b.open[s] > 0 {
			return true
		}
	}
	return false
}

// popUntil pops elements until the HTML element name has been popped.
func (b *Builder) popUntil(names ...string) {
	for len(b.stack) > 0 {
		done := b.current().is(names...)
		b.pop()
		if done {
			return
		}
	}
}

// popTo pops the elements above and including the stack's element i.
func (b *Builder) popTo(i int) {
	for len(b.stack) > i {
		b.pop()
	}
}

// insertText is "insert a character", for a run of them.
func (b *Builder) insertText(text []byte) {
	if len(text) == 0 {
		return
	}
	p := b.appropriatePlace(nil)
	if p.parent == Document {
		return // the DOM does not let a document hold text
	}
	b.sink.Text(p.parent, text, p.before)
}

// insertComment is "insert a comment", into parent if it is given.
func (b *Builder) insertComment(data []byte, parent Node) {
	p := place{parent: parent}
	if parent == None {
		p = b.appropriatePlace(nil)
	}
	b.sink.Comment(p.parent, data, p.before)
}

// rawText is the generic raw text and RCDATA element parsing algorithm.
func (b *Builder) rawText(t *token, s htmltok.State) {
	b.insertHTML(t)
	b.z.SetState(s)
	b.original = b.mode
	b.mode = text
}

// Scopes (13.2.4.2): what ends the search of "has an element in scope".
type scope uint8

const (
	defaultScope scope = iota
	listItemScope
	buttonScope
	tableScope
)

// boundary reports whether e ends a search in scope s.
func (e *elem) boundary(s scope) bool {
	switch s {
	case tableScope:
		return e.is("html", "table", "template")
	}
	if e.ns != HTML {
		return e.foreignBoundary()
	}
	switch e.name {
	case "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "select":
		// A <select> bounds a scope since it holds any content: a </font>
		// inside it does not close a <font> outside.
		return true
	case "ol", "ul":
		return s == listItemScope
	case "button":
		return s == buttonScope
	}
	return false
}

// inScope is "has an element in scope": the index in the stack of the
// HTML element with one of names, or -1.
func (b *Builder) inScope(s scope, names ...string) int {
	if !b.opened(names) {
		return -1
	}
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := &b.stack[i]
		if e.is(names...) {
			return i
		}
		if e.boundary(s) {
			return -1
		}
	}
	return -1
}

// inScopeNode is "has an element in scope" for the element n.
func (b *Builder) inScopeNode(n Node) bool {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := &b.stack[i]
		if e.n == n {
			return true
		}
		if e.boundary(defaultScope) {
			return false
		}
	}
	return false
}

// indexOf is the stack index of n, or -1.
func (b *Builder) indexOf(n Node) int {
	for i := len(b.stack) - 1; i >= 0; i-- {
		if b.stack[i].n == n {
			return i
		}
	}
	return -1
}

// has reports whether an HTML element name is on the stack.
func (b *Builder) has(name string) bool {
	if !b.opened([]string{name}) {
		return false
	}
	for i := len(b.stack) - 1; i >= 0; i-- {
		if b.stack[i].is(name) {
			return true
		}
	}
	return false
}

// impliedEnd lists the elements "generate implied end tags" closes.
func impliedEnd(e *elem, thoroughly bool) bool {
	if e.ns != HTML {
		return false
	}
	switch e.name {
	case "dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc":
		return true
	case "caption", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr":
		return thoroughly
	}
	return false
}

// generateImpliedEndTags pops the elements that have implied end tags,
// except the HTML element except.
func (b *Builder) generateImpliedEndTags(except string) {
	for len(b.stack) > 0 {
		c := b.current()
		if !impliedEnd(c, false) || c.is(except) {
			return
		}
		b.pop()
	}
}

func (b *Builder) generateAllImpliedEndTags() {
	for len(b.stack) > 0 && impliedEnd(b.current(), true) {
		b.pop()
	}
}

// special reports whether e is in the special category (13.2.4.2).
func (e *elem) special() bool {
	if e.ns != HTML {
		return e.foreignBoundary()
	}
	return specialHTML[e.name]
}

// foreignBoundary reports whether e is one of the MathML and SVG elements
// that are special and bound every scope: the integration points, where
// HTML goes on inside foreign content.
func (e *elem) foreignBoundary() bool {
	switch e.ns {
	case MathML:
		switch e.name {
		case "mi", "mo", "mn", "ms", "mtext", "annotation-xml":
			return true
		}
	case SVG:
		switch e.name {
		case "foreignObject", "desc", "title":
			return true
		}
	}
	return false
}

var specialHTML = set("address", "applet", "area", "article", "aside", "base", "basefont", "bgsound",
	"blockquote", "body", "br", "button", "caption", "center", "col", "colgroup", "dd", "details",
	"dir", "div", "dl", "dt", "embed", "fieldset", "figcaption", "figure", "footer", "form", "frame",
	"frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe",
	"img", "input", "keygen", "li", "link", "listing", "main", "marquee", "menu", "meta", "nav",
	"noembed", "noframes", "noscript", "object", "ol", "p", "param", "plaintext", "pre", "script",
	"search", "section", "select", "source", "style", "summary", "table", "tbody", "td", "template",
	"textarea", "tfoot", "th", "thead", "title", "tr", "track", "ul", "wbr", "xmp")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// resetInsertionMode is "reset the insertion mode appropriately".
func (b *Builder) resetInsertionMode() {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := &b.stack[i]
		last := i == 0
		if e.ns != HTML {
			if last {
				b.mode = inBody
				return
			}
			continue
		}
		switch e.name {
		case "td", "th":
			if !last {
				b.mode = inCell
				return
			}
		case "tr":
			b.mode = inRow
			return
		case "tbody", "thead", "tfoot":
			b.mode = inTableBody
			return
		case "caption":
			b.mode = inCaption
			return
		case "colgroup":
			b.mode = inColumnGroup
			return
		case "table":
			b.mode = inTable
			return
		case "template":
			b.mode = b.templateModes[len(b.templateModes)-1]
			return
		case "head":
			if !last {
				b.mode = inHead
				return
			}
		case "body":
			b.mode = inBody
			return
		case "frameset":
			b.mode = inFrameset
			return
		case "html":
			if b.head == None {
				b.mode = beforeHead
			} else {
				b.mode = afterHead
			}
			return
		}
		if last {
			b.mode = inBody
			return
		}
	}
}

// The list of active formatting elements (13.2.4.3).

func (b *Builder) pushMarker() { b.formatting = append(b.formatting, formatting{}) }

func (b *Builder) clearToMarker() {
	for len(b.formatting) > 0 {
		f := b.formatting[len(b.formatting)-1]
		b.formatting = b.formatting[:len(b.formatting)-1]
		if f.n == None {
			return
		}
	}
}

// pushFormatting pushes e, the element of the current start tag, with the
// Noah's Ark clause: no more than three entries after the last marker with
// the same name, namespace and attributes.
func (b *Builder) pushFormatting(e *elem) {
	h := b.attrHash()
	same, earliest := 0, -1
	for i := len(b.formatting) - 1; i >= 0; i-- {
		f := &b.formatting[i]
		if f.n == None {
			break
		}
		if f.name == e.name && f.ns == e.ns && f.attrs == h {
			same++
			earliest = i
		}
	}
	if same >= 3 {
		b.formatting = append(b.formatting[:earliest], b.formatting[earliest+1:]...)
	}
	b.formatting = append(b.formatting, formatting{elem: *e, attrs: h})
}

// attrHash hashes the current start tag's attributes as a set: two tags
// with the same names and values have the same hash, in any order. A
// duplicate attribute, which is not the element's, is left out.
func (b *Builder) attrHash() uint64 {
	z := b.z
	n := z.AttrCount()
	sum := uint64(n)
	for i := range n {
		if z.AttrDup(i) {
			sum--
			continue
		}
		h := maphash.Bytes(attrSeed, z.AttrName(i))*31 + maphash.Bytes(attrSeed, z.AttrAt(i).Value)
		sum += h
	}
	return sum
}

var attrSeed = maphash.MakeSeed()

// formattingIndex is the index in the list of the entry for n, or -1.
func (b *Builder) formattingIndex(n Node) int {
	for i := len(b.formatting) - 1; i >= 0; i-- {
		if b.formatting[i].n == n {
			return i
		}
	}
	return -1
}

// reconstructFormatting is "reconstruct the active formatting elements".
func (b *Builder) reconstructFormatting() {
	if len(b.formatting) == 0 {
		return
	}
	open := func(f *formatting) bool { return f.n == None || b.indexOf(f.n) >= 0 }
	i := len(b.formatting) - 1
	if open(&b.formatting[i]) {
		return
	}
	for i > 0 && !open(&b.formatting[i-1]) {
		i--
	}
	for ; i < len(b.formatting); i++ {
		f := &b.formatting[i]
		e := b.createElement(f.name, f.slot, f.ns, Cloned, f.n)
		p := b.appropriatePlace(nil)
		e.parent = p.parent
		b.sink.Insert(p.parent, e.n, p.before)
		b.push(len(b.stack), e)
		f.elem = e
	}
}

// adoptionAgency is the adoption agency algorithm for the end tag (or the
// <a> or <nobr> start tag) name. It reports false when the end tag is to
// be handled as "any other end tag".
func (b *Builder) adoptionAgency(name string) bool {
	if c := b.current(); c.is(name) && b.formattingIndex(c.n) < 0 {
		b.pop()
		return true
	}
	for outer := 0; outer < 8; outer++ {
		fi := -1
		for i := len(b.formatting) - 1; i >= 0; i-- {
			f := &b.formatting[i]
			if f.n == None {
				break
			}
			if f.is(name) {
				fi = i
				break
			}
		}
		if fi < 0 {
			return false
		}
		fe := b.formatting[fi]
		si := b.indexOf(fe.n)
		if si < 0 {
			b.formatting = append(b.formatting[:fi], b.formatting[fi+1:]...)
			return true
		}
		if !b.inScopeNode(fe.n) {
			return true
		}
		// The furthest block: the first special element below the
		// formatting element in the stack.
		fb := -1
		for i := si + 1; i < len(b.stack); i++ {
			if b.stack[i].special() {
				fb = i
				break
			}
		}
		if fb < 0 {
			b.popTo(si)
			b.formatting = append(b.formatting[:fi], b.formatting[fi+1:]...)
			return true
		}
		ancestor := b.stack[si-1]
		bookmark := fi
		node, last := fb, fb
		for inner := 1; ; inner++ {
			node--
			if node == si {
				break
			}
			ni := b.formattingIndex(b.stack[node].n)
			if inner > 3 && ni >= 0 {
				b.formatting = append(b.formatting[:ni], b.formatting[ni+1:]...)
				if ni < bookmark {
					bookmark--
				}
				ni = -1
			}
			if ni < 0 {
				b.remove(node)
				fb--
				last--
				continue
			}
			f := &b.formatting[ni]
			e := b.createElement(f.name, f.slot, f.ns, Cloned, f.n)
			f.elem = e
			old := b.stack[node]
			b.stack[node] = e
			b.count(&old, -1)
			b.count(&e, 1)
			b.sink.Pop(old.n, old.ns, old.name)
			if last == fb {
				bookmark = ni + 1
			}
			b.reparent(last, b.stack[node].n)
			last = node
		}
		lastElem := &b.stack[last]
		p := b.appropriatePlace(&ancestor)
		lastElem.parent = p.parent
		b.sink.Insert(p.parent, lastElem.n, p.before)
		e := b.createElement(fe.name, fe.slot, fe.ns, Cloned, fe.n)
		fbn := b.stack[fb].n
		b.sink.MoveChildren(fbn, e.n)
		for i := range b.stack {
			if b.stack[i].parent == fbn {
				b.stack[i].parent = e.n
			}
		}
		e.parent = fbn
		b.sink.Insert(fbn, e.n, None)
		nf := formatting{elem: e, attrs: fe.attrs}
		// Replace the formatting element's entry by the new one, at the
		// bookmark.
		b.formatting = append(b.formatting[:bookmark], append([]formatting{nf}, b.formatting[bookmark:]...)...)
		if old := b.formattingIndexExcept(fe.n, bookmark); old >= 0 {
			b.formatting = append(b.formatting[:old], b.formatting[old+1:]...)
		}
		b.remove(b.indexOf(fe.n))
		fb = b.indexOf(fbn)
		b.push(fb+1, e)
	}
	return true
}

// formattingIndexExcept is formattingIndex, skipping index skip.
func (b *Builder) formattingIndexExcept(n Node, skip int) int {
	for i := len(b.formatting) - 1; i >= 0; i-- {
		if i != skip && b.formatting[i].n == n {
			return i
		}
	}
	return -1
}

// reparent appends the stack's element i to the element parent.
func (b *Builder) reparent(i int, parent Node) {
	b.stack[i].parent = parent
	b.sink.Insert(parent, b.stack[i].n, None)
}

// isWhitespace reports whether c is ASCII whitespace as the tree builder
// has it: tab, line feed, form feed, carriage return, space.
func isWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// leadingWhitespace is the length of text's leading whitespace.
func leadingWhitespace(text []byte) int {
	i := 0
	for i < len(text) && isWhitespace(text[i]) {
		i++
	}
	return i
}

// equalFold reports whether s is lower, ASCII case-insensitively, as HTML
// compares names and keywords (no Unicode folding: "ſ" is no "s").
func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
