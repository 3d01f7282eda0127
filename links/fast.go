package links

import (
	"bytes"
	"errors"
	"io"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/htmltree"
	"github.com/relurl/relurl/internal/bytestr"
)

// This file is the fast path of an HTML document: the tokenizer alone,
// with a simulation of the little of the tree that links depend on, as a
// browser's preload scanner (Chromium's HTMLTreeBuilderSimulator) and
// Cloudflare's lol-html do. The tree builder (package htmltree) decides
// every element's place; links need less:
//
//   - which elements exist: the tree builder drops a <frame> outside a
//     frameset, a <head> in the body, a second <form>, the tags of a table
//     outside one, and merges a later <body>'s attributes into the body;
//   - each element's namespace, and so the tokenizer's state after it:
//     inside <svg> a <style> is CSS but no raw text, an <a> is SVG's, and
//     the tags that break out of foreign content (a <p>, a <div>, a
//     <table>) end it;
//   - the raw text of <style> and <script>, whose CSS counts and whose
//     text is no anchor's;
//   - the first <base> in tree order, which is the first in document order
//     unless a table moves one (foster parenting);
//   - the open tables, which a <base> inside waits for.
//
// None of that needs the stack of open elements, the list of active
// formatting elements or the scopes: the tables, their cells, the foreign
// elements and the element whose raw text is being read are enough. The
// fast path keeps those, and hands the document to the tree builder, from
// its first byte, when it meets what it cannot decide alone: a <template>,
// a <frameset>, <math>, a <select>, a start tag inside an HTML integration
// point of SVG (its <foreignObject>, <desc> or <title>), an end tag in SVG
// that ends no SVG element, a <base> inside a table, NUL in SVG's text, or
// nesting that could reach htmltree.MaxDepth. With Options.Text, an
// anchor's text is what the tree puts inside the <a>: the fast path reads
// it while the <a> holds phrasing content closed in order, and hands over
// at any other tag until the <a>'s end tag closes it.
//
// Until the document ends, the fast path hands out nothing: its links wait
// (as links before a <base> do) and what it would tell the Handler is
// kept, so that a document handed over is read once, whole, by the tree
// builder. TestFastPath and FuzzFastPath hold the two to the same links,
// field by field, on every input.

// errHandover says the fast path cannot decide a document alone.
var errHandover = errors.New("links: the fast path hands the document to the tree builder")

// fastMode is the insertion mode of the fast path: the tree builder's,
// before the body; from the body on, the tables say the rest.
type fastMode uint8

const (
	fastInitial fastMode = iota
	fastBeforeHTML
	fastBeforeHead
	fastInHead
	fastAfterHead
	fastInBody
)

// A fastTable is an open <table>: its node, which of its cells or its
// caption is open (in which a <table> nests), and the depth of the rough
// stack when it, and that cell, opened.
type fastTable struct {
	node         htmltree.Node
	open         cellKind
	depth, cells int
}

// cellKind says what of a table is open.
type cellKind uint8

const (
	noCell    cellKind = iota
	inCell             // a <td> or <th>
	inCaption          // a <caption>
)

// A nameStack is a stack of element names in one buffer, without a
// string for each.
type nameStack struct {
	names []byte
	ends  []int
}

func (n *nameStack) len() int { return len(n.ends) }

func (n *nameStack) push(name string) {
	n.names = append(n.names, name...)
	n.ends = append(n.ends, len(n.names))
}

// at returns the i-th name, valid until the next push.
func (n *nameStack) at(i int) string {
	start := 0
	if i > 0 {
		start = n.ends[i-1]
	}
	return bytestr.Transient(n.names[start:n.ends[i]])
}

// topIs reports whether the last name is name: a test of a few bytes, as
// names are, for each end tag of a page (written out here: through at and
// string comparison, BenchmarkLinks takes 2% longer).
func (n *nameStack) topIs(name string) bool {
	k := len(n.ends) - 1
	if k < 0 {
		return false
	}
	start := 0
	if k > 0 {
		start = n.ends[k-1]
	}
	top := n.names[start:n.ends[k]]
	if len(top) != len(name) {
		return false
	}
	for i := range len(top) {
		if top[i] != name[i] {
			return false
		}
	}
	return true
}

// truncate keeps the first k names.
func (n *nameStack) truncate(k int) {
	if k < len(n.ends) {
		n.ends = n.ends[:k]
		n.names = n.names[:0]
		if k > 0 {
			n.names = n.names[:n.ends[k-1]]
		}
	}
}

func (n *nameStack) reset() { n.names, n.ends = n.names[:0], n.ends[:0] }

// fastPath is the state of the fast path, kept by the Extractor between
// documents for its memory.
type fastPath struct {
	d    *document
	z    *htmltok.Tokenizer
	mode fastMode
	next htmltree.Node
	body htmltree.Node
	raw  htmltree.Node // the open element whose text is raw (RCDATA, RAWTEXT, script data, PLAINTEXT)
	form bool          // the form element pointer is set
	// svg and svgNodes are the open elements of SVG, outermost first:
	// their names in lower case, as end tags name them.
	svg      nameStack
	svgNodes []htmltree.Node
	tables   []fastTable
	rough    nameStack // the open HTML elements as end tags close them, an upper bound of the stack of open elements
	formats  int       // formatting elements opened and not closed by their end tag: a bound of those the tree builder may reopen
	// With Options.Text, anchor is the open <a> and the HTML elements
	// open inside it, the <a> first: what the text of each is read
	// inside, until the <a>'s end tag closes it as the current node.
	anchor      nameStack
	anchorNodes []htmltree.Node
}

// A fastEvent is what a document read by the fast path would tell its
// Handler before its links, kept until it is known not to be handed over.
type fastEvent struct {
	part string
	base *Base
	warn error
}

// fastBuild reads the document at z by the fast path, as build reads it by
// the tree builder. It returns errHandover, having told nothing to the
// Handler, when the tree builder must read it.
func (d *document) fastBuild(z *htmltok.Tokenizer) error {
	x := d.x
	s := &x.fast
	*s = fastPath{d: d, z: z, next: htmltree.Document, svg: s.svg, svgNodes: s.svgNodes[:0], tables: s.tables[:0], rough: s.rough,
		anchor: s.anchor, anchorNodes: s.anchorNodes[:0]}
	s.svg.reset()
	s.rough.reset()
	s.anchor.reset()
	d.z = z
	z.SetStateByName(false)
	for {
		k := z.Next()
		if s.plain() {
			if took, err := s.plainTag(k); took {
				if err != nil {
					return err
				}
				continue // nothing told, the tokenizer's settings as they were
			}
		}
		if err := s.token(k); err != nil {
			return err
		}
		if d.err != nil {
			return d.err
		}
		if k == htmltok.ErrorToken {
			break
		}
		inSVG := s.svg.len() > 0
		z.SetForeign(inSVG)
		// The text of the body is nothing to links but in SVG (its
		// <style>) and an <a> whose text is read.
		z.SkipDataText(!inSVG && s.mode == fastInBody && d.anchor < 0)
	}
	if err := z.Err(); err != io.EOF {
		return err
	}
	return nil // no <base> waits: one inside a table is handed over
}

// plain reports whether the fast path is in the body, outside raw text,
// SVG and an anchor's text: where most of a page's tags are, and where
// plainTag takes those of elements no rule names.
func (s *fastPath) plain() bool {
	return s.mode == fastInBody && s.raw == htmltree.None && s.svg.len() == 0 && s.anchor.len() == 0
}

// plainTag reads a token in the plain state as token would, if it is the
// start tag of an element of the body that no rule of startTag names and
// that holds no link (a <span class>, a <code>, an <li>), or the end tag
// of such an element: all they change is the rough stack. It reports
// false, having changed nothing, for any other token. token reads the same
// tags alike, through every mode's rules; this is the body's most common
// case without them, with one look-up of the name (tagFlagsOf): four
// tags in five of BenchmarkLinks' pages are read here.
func (s *fastPath) plainTag(k htmltok.Kind) (bool, error) {
	if k != htmltok.StartTagToken && k != htmltok.EndTagToken {
		return false, nil
	}
	name := bytestr.Transient(s.z.Name())
	f := tagFlagsOf(name)
	if f&ruledTag != 0 {
		return false, nil
	}
	if k == htmltok.EndTagToken {
		s.closeRough(name, f)
		return true, nil
	}
	if !s.quiet(f) {
		return false, nil
	}
	s.next++
	if f&voidTag != 0 {
		return true, nil
	}
	return true, s.openRough(name, f)
}

// openRough pushes an element of the body that has an end onto the rough
// stack, and counts it if it is a formatting element.
func (s *fastPath) openRough(name string, f tagFlags) error {
	s.rough.push(name)
	if f&formattingTag != 0 {
		s.formats++
	}
	return s.deep()
}

// closeRough pops the rough stack's top if it is name, the end tag's.
func (s *fastPath) closeRough(name string, f tagFlags) {
	if s.rough.topIs(name) {
		s.rough.truncate(s.rough.len() - 1)
		if f&formattingTag != 0 {
			s.formats--
		}
	}
}

// token processes one token, again in the mode it leads to when that mode
// is to process it too.
func (s *fastPath) token(k htmltok.Kind) error {
	if s.raw != htmltree.None {
		return s.rawText(k)
	}
	if s.svg.len() > 0 && k != htmltok.ErrorToken {
		return s.foreign(k)
	}
	for {
		again, err := s.inMode(k)
		if err != nil || !again {
			return err
		}
	}
}

// rawText is the text of a raw text element, and its end.
func (s *fastPath) rawText(k htmltok.Kind) error {
	switch k {
	case htmltok.TextToken:
		if s.raw == s.d.styleNode || s.d.anchor >= 0 {
			s.d.Text(s.raw, s.z.Text(), htmltree.None)
		}
		return nil
	case htmltok.EndTagToken, htmltok.ErrorToken:
		s.d.Pop(s.raw, htmltree.HTML, "")
		s.raw = htmltree.None
		if k == htmltok.ErrorToken {
			return s.end()
		}
	}
	return nil
}

// foreign is the rules for parsing tokens in foreign content, for SVG.
func (s *fastPath) foreign(k htmltok.Kind) error {
	top := s.svg.len() - 1
	topName := s.svg.at(top)
	point := topName == "foreignobject" || topName == "desc" || topName == "title"
	z := s.z
	switch k {
	case htmltok.TextToken:
		if point && s.d.anchor < 0 {
			return nil // HTML's text, in the element: nothing links read
		}
		text := z.Text()
		if bytes.IndexByte(text, 0) >= 0 {
			return errHandover // NUL, which HTML's rules drop and SVG's replace
		}
		s.d.Text(s.svgNodes[top], text, htmltree.None)
		return nil
	case htmltok.StartTagToken:
		if point {
			return errHandover // an element of HTML inside SVG: the tree builder knows its place
		}
		name := bytestr.Transient(z.Name())
		if htmltree.BreaksOut(name, z) {
			s.popSVG(0)
			for {
				again, err := s.inMode(k)
				if err != nil || !again {
					return err
				}
			}
		}
		n := s.element(name, htmltree.SVG, htmltree.FromToken)
		if z.SelfClosing() {
			s.d.Pop(n, htmltree.SVG, "")
		} else {
			s.svg.push(name)
			s.svgNodes = append(s.svgNodes, n)
		}
		return s.deep()
	case htmltok.EndTagToken:
		name := bytestr.Transient(z.Name())
		for i := s.svg.len() - 1; i >= 0; i-- {
			if s.svg.at(i) == name {
				s.popSVG(i)
				return nil
			}
		}
		return errHandover // an end tag for HTML's rules, which may close the SVG
	}
	return nil
}

// popSVG pops the elements of SVG from the i-th on.
func (s *fastPath) popSVG(i int) {
	for j := s.svg.len() - 1; j >= i; j-- {
		s.d.Pop(s.svgNodes[j], htmltree.SVG, s.svg.at(j))
	}
	s.svg.truncate(i)
	s.svgNodes = s.svgNodes[:i]
}

// inMode processes a token of HTML content by the insertion mode, and
// reports whether it is to be processed again, in the mode it changed to.
func (s *fastPath) inMode(k htmltok.Kind) (bool, error) {
	z := s.z
	switch k {
	case htmltok.CommentToken:
		return false, nil
	case htmltok.DoctypeToken:
		if s.mode == fastInitial {
			s.mode = fastBeforeHTML
		}
		return false, nil
	case htmltok.ErrorToken:
		return false, s.end() // what is missing is implied, and holds nothing links read
	case htmltok.TextToken:
		if s.mode == fastInBody {
			if s.d.anchor < 0 {
				return false, nil
			}
			text := z.Text()
			if bytes.IndexByte(text, 0) >= 0 {
				return false, errHandover // NUL, which the tree builder drops
			}
			s.d.Text(s.anchorNodes[len(s.anchorNodes)-1], text, htmltree.None)
			return false, nil
		}
		if len(bytes.TrimLeft(z.Text(), "\t\n\f\r ")) == 0 {
			return false, nil // white space, which no mode before the body makes anything of
		}
		return s.implied(), nil
	}
	name := bytestr.Transient(z.Name())
	if k == htmltok.EndTagToken {
		return s.endTag(name)
	}
	return s.startTag(name)
}

// implied moves to the next mode by the element it implies ("anything
// else"), and reports true: the token is processed again.
func (s *fastPath) implied() bool {
	switch s.mode {
	case fastInitial:
		s.mode = fastBeforeHTML
	case fastBeforeHTML:
		s.element("html", htmltree.HTML, htmltree.Implied)
		s.mode = fastBeforeHead
	case fastBeforeHead:
		s.element("head", htmltree.HTML, htmltree.Implied)
		s.mode = fastInHead
	case fastInHead:
		s.mode = fastAfterHead // the head is popped
	case fastAfterHead:
		s.body = s.element("body", htmltree.HTML, htmltree.Implied)
		s.mode = fastInBody
	}
	return true
}

func (s *fastPath) startTag(name string) (bool, error) {
	z := s.z
	switch name {
	case "template", "frameset", "math", "select":
		return false, errHandover
	case "html":
		if s.mode == fastBeforeHTML {
			s.element(name, htmltree.HTML, htmltree.FromToken)
			s.mode = fastBeforeHead
			return false, nil
		}
		if s.mode >= fastBeforeHead {
			return false, nil // its attributes are added to <html>'s, which holds no link
		}
	case "head":
		if s.mode == fastBeforeHead {
			s.element(name, htmltree.HTML, htmltree.FromToken)
			s.mode = fastInHead
			return false, nil
		}
		if s.mode > fastBeforeHead {
			return false, nil
		}
	case "body":
		if s.mode == fastAfterHead {
			s.body = s.element(name, htmltree.HTML, htmltree.FromToken)
			s.mode = fastInBody
			return false, nil
		}
		if s.mode == fastInBody {
			s.d.AddAttributes(s.body) // a later <body>'s attributes, added to the body's
			return false, nil
		}
	case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "title":
		// The elements of the head, in the head, after it (where they are
		// put back into it), and in the body.
		if s.mode >= fastInHead {
			return false, s.headElement(name)
		}
	case "noscript":
		if s.mode == fastInHead {
			return false, s.headElement(name)
		}
	}
	if s.mode < fastInBody {
		return s.implied(), nil
	}
	if s.anchor.len() > 0 && !inAnchor(name) {
		return false, errHandover // it may close the <a>, or move its text
	}
	switch name {
	case "frame":
		return false, nil // only a frameset has frames
	case "noscript":
		return false, s.rawElement(name, htmltok.RAWTEXT)
	case "textarea":
		return false, s.rawElement(name, htmltok.RCDATA)
	case "xmp", "iframe", "noembed":
		return false, s.rawElement(name, htmltok.RAWTEXT)
	case "plaintext":
		return false, s.rawElement(name, htmltok.PLAINTEXT)
	case "svg":
		n := s.element(name, htmltree.SVG, htmltree.FromToken)
		if z.SelfClosing() {
			s.d.Pop(n, htmltree.SVG, "svg")
			return false, nil
		}
		s.svg.push("svg")
		s.svgNodes = append(s.svgNodes, n)
		return false, s.deep()
	case "form":
		if s.form {
			return false, nil // a form inside a form is dropped
		}
		s.form = true
	case "image":
		name = "img" // "Don't ask."
	case "table":
		if t := len(s.tables) - 1; t >= 0 && s.tables[t].open == noCell {
			s.closeTable() // a table directly in a table ends it
		}
		n := s.element(name, htmltree.HTML, htmltree.FromToken)
		s.tables = append(s.tables, fastTable{node: n, depth: s.rough.len()})
		s.rough.push("table")
		return false, s.deep()
	case "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr":
		t := len(s.tables) - 1
		if t < 0 {
			return false, nil // the tags of a table, outside one
		}
		// Each ends the open cell or caption, and is the table's.
		tb := &s.tables[t]
		s.rough.truncate(tb.depth + 1)
		switch name {
		case "td", "th":
			tb.open = inCell
		case "caption":
			tb.open = inCaption
		default:
			tb.open = noCell
		}
		tb.cells = s.rough.len()
	}
	f := tagFlagsOf(name)
	var n htmltree.Node
	if s.quiet(f) {
		s.next++ // nothing to announce: the element holds no link
		n = s.next
	} else {
		n = s.element(name, htmltree.HTML, htmltree.FromToken)
	}
	if f&voidTag != 0 {
		return false, nil
	}
	if s.d.x.Text && (s.anchor.len() > 0 || name == "a") {
		s.anchor.push(name)
		s.anchorNodes = append(s.anchorNodes, n)
	}
	return false, s.openRough(name, f)
}

// quiet reports whether the start tag at z, of an element of the body that
// none of the rules above names, holds no link: it has no attributes, or
// it is no element with link attributes and has no style attribute whose
// CSS is read. Most tags of a page are such (<span class>, <code>, <li>,
// <p>), and the Sink is then not told of them: for an element of the body
// with no link, Element and Insert do nothing.
func (s *fastPath) quiet(f tagFlags) bool {
	z := s.z
	if z.AttrCount() == 0 {
		return true
	}
	if f&linkTag != 0 {
		return false
	}
	if !s.d.x.want[styleAttrKind] {
		return true
	}
	for i := range z.AttrCount() {
		if n := z.AttrName(i); len(n) == len("style") && n[0] == 's' && string(n) == "style" {
			return false // not "class", the attribute most tags have
		}
	}
	return true
}

// headElement inserts an element of the head.
func (s *fastPath) headElement(name string) error {
	switch name {
	case "title":
		return s.rawElement(name, htmltok.RCDATA)
	case "noscript", "noframes", "style":
		return s.rawElement(name, htmltok.RAWTEXT)
	case "script":
		return s.rawElement(name, htmltok.ScriptData)
	case "base":
		if len(s.tables) > 0 {
			return errHandover // its place in tree order is the table's to say
		}
	}
	s.element(name, htmltree.HTML, htmltree.FromToken)
	return nil
}

// rawElement inserts an element whose text the tokenizer reads in state.
func (s *fastPath) rawElement(name string, state htmltok.State) error {
	s.raw = s.element(name, htmltree.HTML, htmltree.FromToken)
	s.z.SetState(state)
	return nil
}

func (s *fastPath) endTag(name string) (bool, error) {
	if s.mode < fastInBody {
		switch name {
		case "template":
			return false, errHandover
		case "head":
			if s.mode == fastInHead {
				s.mode = fastAfterHead
				return false, nil
			}
			if s.mode == fastAfterHead {
				return false, nil
			}
		case "body", "html", "br":
		default:
			return false, nil
		}
		return s.implied(), nil
	}
	if k := s.anchor.len() - 1; k >= 0 && name != "body" && name != "html" {
		// Inside an <a>, only the current node's end tag is read here:
		// the others may close the <a> or be the adoption agency's.
		if s.anchor.at(k) != name {
			return false, errHandover
		}
		s.d.Pop(s.anchorNodes[k], htmltree.HTML, name)
		s.anchor.truncate(k)
		s.anchorNodes = s.anchorNodes[:k]
	}
	switch name {
	case "template":
		return false, errHandover
	case "form":
		s.form = false
	case "table":
		if len(s.tables) > 0 {
			s.closeTable()
		}
		return false, nil
	case "td", "th", "tr", "tbody", "thead", "tfoot", "caption":
		t := len(s.tables) - 1
		if t < 0 {
			return false, nil
		}
		// A cell ends at these but </caption>; a caption at </caption>
		// alone (the others, in a caption, are ignored).
		tb := &s.tables[t]
		if tb.open == inCell && name != "caption" || tb.open == inCaption && name == "caption" {
			s.rough.truncate(tb.cells)
			tb.open = noCell
		}
		return false, nil
	}
	s.closeRough(name, tagFlagsOf(name))
	return false, nil
}

// end pops what is open at the end of the input.
func (s *fastPath) end() error {
	if s.raw != htmltree.None {
		s.d.Pop(s.raw, htmltree.HTML, "")
		s.raw = htmltree.None
	}
	s.popSVG(0)
	for k := len(s.anchorNodes) - 1; k >= 0; k-- {
		s.d.Pop(s.anchorNodes[k], htmltree.HTML, s.anchor.at(k))
	}
	s.anchor.reset()
	s.anchorNodes = s.anchorNodes[:0]
	for len(s.tables) > 0 {
		s.closeTable()
	}
	return nil
}

// closeTable pops the innermost open table, and what is open inside it.
func (s *fastPath) closeTable() {
	t := len(s.tables) - 1
	s.d.Pop(s.tables[t].node, htmltree.HTML, "table")
	s.rough.truncate(s.tables[t].depth)
	s.tables = s.tables[:t]
}

// element announces an element, inserted where the tree builder would
// insert it (which links do not ask), and returns its node.
func (s *fastPath) element(name string, ns htmltree.Namespace, how htmltree.Origin) htmltree.Node {
	s.next++
	n := s.next
	s.d.Element(n, ns, name, how, htmltree.None)
	s.d.Insert(htmltree.None, n, htmltree.None)
	return n
}

// deep hands over a document whose elements could nest as deep as
// htmltree.MaxDepth, where the tree builder stops: the rough stack, the
// formatting elements it may reopen and the rows and bodies it implies
// bound the stack of open elements.
func (s *fastPath) deep() error {
	if s.rough.len()+s.formats+s.svg.len()+2*len(s.tables)+8 >= htmltree.MaxDepth {
		return errHandover
	}
	return nil
}

// inAnchor reports whether a start tag of this name, inside an <a>, is
// inserted there and closes nothing: phrasing content, which "in body"
// inserts as it comes. The others (blocks, which close a <p> the <a> may
// be in; list items; tables; another <a>; a <textarea>, whose first line
// feed is dropped) hand the document over while an anchor's text is read.
func inAnchor(name string) bool {
	switch name {
	case "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
		"dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav",
		"ol", "p", "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
		"listing", "form", "li", "dd", "dt", "plaintext", "button", "a", "nobr", "applet", "marquee",
		"object", "table", "hr", "textarea", "xmp", "select", "option", "optgroup", "rb", "rtc", "rp",
		"rt", "math", "frameset", "template", "caption", "col", "colgroup", "tbody", "td", "tfoot",
		"th", "thead", "tr":
		return false
	}
	return true
}

// tagFlags say what the fast path's rules make of a tag name.
type tagFlags uint8

const (
	ruledTag      tagFlags = 1 << iota // a rule of startTag or endTag names it: plainTag leaves it to them
	voidTag                            // the tree builder pops it at once: it has no end
	formattingTag                      // a formatting element, which the tree builder may reopen after its end
	linkTag                            // an element of Elements, with link attributes
)

// tagFlagsOf returns the flags of a tag name: one switch, which Go
// compiles to a search by length and by words, about 20 instructions a
// name (a hash table of the names took 100, counted by callgrind over
// BenchmarkLinks' pages). The ruled names are those
// the cases of startTag and endTag name, and "a", whose text Options.Text
// reads. TestTagFlags holds the flags to void and formatting elements
// and to Elements, and the fast path with them to the tree builder on
// every name.
func tagFlagsOf(name string) tagFlags {
	switch name {
	case "template", "frameset", "math", "select", "html", "head", "noframes", "style", "title", "noscript",
		"textarea", "xmp", "noembed", "plaintext", "svg", "image", "caption", "colgroup":
		return ruledTag
	case "body", "script", "iframe", "frame", "form", "table", "tbody", "td", "tfoot", "th", "thead", "tr":
		return ruledTag | linkTag
	case "base", "basefont", "bgsound", "col":
		return ruledTag | voidTag
	case "link", "meta":
		return ruledTag | voidTag | linkTag
	case "a":
		return ruledTag | formattingTag | linkTag
	case "area", "embed", "img", "input", "source", "track":
		return voidTag | linkTag
	case "br", "hr", "keygen", "param", "wbr":
		return voidTag
	case "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u":
		return formattingTag
	case "audio", "blockquote", "button", "del", "ins", "object", "q", "video":
		return linkTag
	}
	return 0
}
