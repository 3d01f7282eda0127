package links

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/internal/bytestr"
)

// document is the state of one HTML document as it is read.
type document struct {
	x     *Extractor
	outer base.Base // the base from outside: the document's URL, as HTML calls it
	// based says that x.base is established; links are handed out as they
	// are found unless an <a> whose text is read is open (anchor >= 0).
	based    bool
	anchor   int // the index in x.extras of the open <a> whose text is read; -1 if none
	part     string
	h        *Handler
	template int  // open <template> elements
	foreign  int  // open <svg> and <math> elements
	math     int  // open <math> elements, counted in foreign too
	frameset int  // open <frameset> elements
	inForm   bool // a <form> is open: another is dropped
	inStyle  bool // the text that follows is a <style>'s CSS, whose links count
	rawText  bool // inside <script> or <style>: text that is not an anchor's
	// With Extractor.Positions, the line and column (1-based, in bytes
	// of the document decoded to UTF-8) where the token being read starts,
	// and where the next one will.
	line, col, nextLine, nextCol int
	// docBase is outer made ready for resolving, once a link needs it (an
	// empty form action submits to the document's URL).
	docBase      relurl.BaseURL
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
func (d *document) queueing() bool { return !d.based || d.anchor >= 0 }

// tokenize reads the document to its end and returns the error that ended
// the reading, if not the end of the input.
func (d *document) tokenize(z *htmltok.Tokenizer) error {
	for {
		tt := z.Next()
		if d.x.Positions {
			d.line, d.col = z.Position(z.Span().Start)
		}
		switch tt {
		case htmltok.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return err
			}
			return d.closeAnchor()
		case htmltok.StartTagToken:
			name := z.Name()
			if string(name) == "a" {
				// A new <a> closes the one open, as the tree builder's
				// adoption agency does.
				if err := d.closeAnchor(); err != nil {
					return err
				}
			}
			counts := d.open(name, z.SelfClosing())
			// The tree builder tells the tokenizer whether this tag, and
			// what follows, is foreign content.
			z.SetForeign(d.foreign > 0)
			if !counts || z.AttrCount() == 0 {
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
			if err := d.startTag(z, name); err != nil {
				return err
			}
		case htmltok.EndTagToken:
			name := z.Name()
			if string(name) == "a" {
				if err := d.closeAnchor(); err != nil {
					return err
				}
			}
			d.close(name)
			z.SetForeign(d.foreign > 0)
		case htmltok.TextToken:
			switch {
			case d.inStyle:
				d.x.rel = d.x.rel[:0]
				ex := -1
				if d.x.Positions {
					ex = d.newExtra()
				}
				d.x.site = Site{Value: z.TextSpan(), Tag: z.TextSpan(), Style: true}
				if err := d.keep(styleTextKind, z.Text(), ex); err != nil {
					return err
				}
			case d.anchor >= 0 && !d.rawText:
				d.x.text = appendText(d.x.text, z.Text())
			}
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
		d.foreign, d.math = 0, 0
	}
	switch string(name) {
	case "template":
		d.template++
	case "svg", "math":
		if !selfClosing {
			d.foreign++
			if string(name) == "math" {
				d.math++
			}
		}
	case "frameset":
		d.frameset++
	case "script":
		d.rawText = !selfClosing
	case "style":
		d.rawText = !selfClosing
		d.inStyle = !selfClosing && d.x.want[styleTextKind] && (d.template == 0 || d.x.Template)
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
		if string(name) == "math" && d.math > 0 {
			d.math--
		}
	case "frameset":
		if d.frameset > 0 {
			d.frameset--
		}
	case "script", "style":
		d.rawText, d.inStyle = false, false
	case "form":
		if d.template == 0 {
			d.inForm = false
		}
	}
}

// startTag hands out, or keeps until they can be, the links of the start
// tag at z. It reads the names of the tag's attributes, and decodes only
// the values it wants: an element's link attributes, in the order they are
// written, and the rel, type, http-equiv and style that decide them.
func (d *document) startTag(z *htmltok.Tokenizer, name []byte) error {
	x := d.x
	if d.template > 0 && !x.Template {
		return nil
	}
	svg := d.foreign > 0 && d.math == 0
	var el linkElement
	var isLink bool
	if svg {
		el, isLink = svgLinkElementOf(name)
	} else {
		el, isLink = linkElementOf(name)
	}
	// MathML has no links, and the tree builder drops a <frame> outside a
	// <frameset>.
	isLink = isLink && d.math == 0 && (el.name != "frame" || d.frameset > 0)
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
	if svg && isLink && t.has(el.kinds[0]) && t.has(el.kinds[1]) {
		t.drop(el.kinds[1]) // an href overrides an xlink:href
	}
	if t.n == 0 {
		return nil
	}
	return d.keepTag(z, name, el)
}

// keepTag hands out, or keeps, the links startTag found in the start tag
// of el at z: their values in x.tag, with an extra record for an anchor's
// text, rel tokens or positions.
func (d *document) keepTag(z *htmltok.Tokenizer, name []byte, el linkElement) error {
	x := d.x
	t := &x.tag
	ex := -1
	anchor := el.name == "a" && x.Text && d.linksOf(el)
	if len(x.rel) > 0 || anchor || x.Positions {
		ex = d.newExtra()
	}
	if anchor {
		// Its links, and those inside it, wait for its text.
		d.anchor = ex
		x.text = x.text[:0]
	}
	for i := range t.n {
		v := t.values[i]
		x.site = Site{Value: t.spans[i], Quote: t.quotes[i], Tag: z.Span()}
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
// element at z, if it is the document's first with an href: not inside
// <template>, <svg> or <math>, where it is not the document's. As HTML's
// "set the frozen base URL" says, an href that fails to parse, or gives a
// data: or javascript: URL, leaves the document its own URL, and later
// BASE elements do not count.
func (d *document) baseElement(z *htmltok.Tokenizer) error {
	if d.based || d.template > 0 || d.foreign > 0 || d.x.ignoreBase {
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
			d.h.warn(partError(d.part, fmt.Errorf("%w; ignored, as HTML says: the document's URL is its base", err)))
			return d.establish(d.outer)
		}
	} else {
		b = d.outer.Embedded(string(href), base.HTMLBase)
	}
	if s := strings.ToLower(relurl.Split(b.URL).Scheme()); s == "data" || s == "javascript" {
		d.h.warn(partError(d.part, errors.New("<base href> of a "+s+": URL ignored, as HTML says: the document's URL is its base")))
		return d.establish(d.outer)
	}
	if b.Note != "" {
		d.h.warn(partError(d.part, errors.New(b.Note)))
	}
	if err := d.establish(b); err != nil || !d.x.Sites {
		return err
	}
	// The href that set the base is a link too, to whoever rewrites links.
	a, _ := z.Attr("href")
	d.x.site = Site{Value: a.ValueSpan, Quote: a.Quote, Tag: z.Span()}
	d.x.rel = d.x.rel[:0]
	return d.keep(baseKind, a.Value, -1)
}

// baseHref returns the href of the BASE element at z, cleaned as a link's
// value is, if it has one.
func (x *Extractor) baseHref(z *htmltok.Tokenizer) ([]byte, bool) {
	if a, ok := z.Attr("href"); ok {
		return bytes.Clone(x.cleanURL(a.Value)), true
	}
	return nil, false
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
		cssURLs(css, &x.cssBuf, func(ref []byte, token [2]int) bool {
			if x.link.Element == "" {
				x.link.Element = string(name)
			}
			return eachCSS(ref, token)
		})
		return err
	case kind == styleTextKind:
		x.link.Site.Decoded = value
		cssURLs(value, &x.cssBuf, eachCSS)
		return err
	}
	x.link.Site.Decoded = value
	switch {
	case la.attribute == "srcset" || la.attribute == "imagesrcset":
		parseSrcset(value, each)
	case la.attribute == "ping":
		for _, f := range bytes.Fields(value) {
			if !each(f) {
				break
			}
		}
	case la.element == "meta":
		if u, ok := refreshURL(value); ok {
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
func (d *document) hand(cleanRef []byte, rb *relurl.BaseURL, absolute bool) error {
	x := d.x
	link := &x.link
	clean := bytestr.Transient(cleanRef)
	link.URL, link.Err = nil, nil
	var err error
	switch {
	case absolute:
		x.buf, err = rb.AppendResolve(x.buf[:0], clean)
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

// documentBase returns the document's own URL (outer) made ready for
// resolving, and whether it is absolute.
func (d *document) documentBase() (*relurl.BaseURL, bool) {
	if d.docBaseState == 0 {
		d.docBaseState = -1
		if relurl.Split(d.outer.URL).HasScheme() {
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
