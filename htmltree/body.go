package htmltree

import (
	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/internal/bytestr"
)

// 13.2.6.4.7 The "in body" insertion mode.
func (b *Builder) inBodyMode(t *token) bool {
	switch t.kind {
	case textTok:
		text := withoutNUL(t.text)
		if len(text) == 0 {
			return false
		}
		b.reconstructFormatting()
		b.insertText(text)
		if leadingWhitespace(text) != len(text) {
			b.framesetOK = false
		}
		return false
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		return b.bodyStartTag(t)
	case endTag:
		return b.bodyEndTag(t)
	case eof:
		if len(b.templateModes) > 0 {
			return b.inTemplateMode(t)
		}
		return false
	}
	return false
}

func (b *Builder) bodyStartTag(t *token) bool {
	switch t.name {
	case "html":
		if b.has("template") {
			return false
		}
		b.sink.AddAttributes(b.stack[0].n)
		return false
	case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
		return b.inHeadMode(t)
	case "body":
		if len(b.stack) < 2 || !b.stack[1].is("body") || b.has("template") {
			return false
		}
		b.framesetOK = false
		b.sink.AddAttributes(b.stack[1].n)
		return false
	case "frameset":
		if len(b.stack) < 2 || !b.stack[1].is("body") || !b.framesetOK {
			return false
		}
		body := b.stack[1]
		b.sink.Remove(body.n)
		b.popTo(1)
		b.insertHTML(t)
		b.mode = inFrameset
		return false
	case "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
		"dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav",
		"ol", "p", "search", "section", "summary", "ul":
		b.closeP()
		b.insertHTML(t)
		return false
	case "h1", "h2", "h3", "h4", "h5", "h6":
		b.closeP()
		if b.current().is("h1", "h2", "h3", "h4", "h5", "h6") {
			b.pop()
		}
		b.insertHTML(t)
		return false
	case "pre", "listing":
		b.closeP()
		b.insertHTML(t)
		b.ignoreLF = true
		b.framesetOK = false
		return false
	case "form":
		templ := b.has("template")
		if b.form != None && !templ {
			return false
		}
		b.closeP()
		e := b.insertHTML(t)
		if !templ {
			b.form = e.n
		}
		return false
	case "li", "dd", "dt":
		b.framesetOK = false
		for i := len(b.stack) - 1; i >= 0; i-- {
			e := &b.stack[i]
			if t.name == "li" && e.is("li") || t.name != "li" && e.is("dd", "dt") {
				b.generateImpliedEndTags(e.name)
				b.popUntil(e.name)
				break
			}
			if e.special() && !e.is("address", "div", "p") {
				break
			}
		}
		b.closeP()
		b.insertHTML(t)
		return false
	case "plaintext":
		b.closeP()
		b.insertHTML(t)
		b.z.SetState(htmltok.PLAINTEXT)
		return false
	case "button":
		if b.inScope(defaultScope, "button") >= 0 {
			b.generateImpliedEndTags("")
			b.popUntil("button")
		}
		b.reconstructFormatting()
		b.insertHTML(t)
		b.framesetOK = false
		return false
	case "a":
		for i := len(b.formatting) - 1; i >= 0; i-- {
			f := &b.formatting[i]
			if f.n == None {
				break
			}
			if f.is("a") {
				n := f.n
				b.adoptionAgency("a")
				if fi := b.formattingIndex(n); fi >= 0 {
					b.formatting = append(b.formatting[:fi], b.formatting[fi+1:]...)
				}
				if si := b.indexOf(n); si >= 0 {
					b.remove(si)
				}
				break
			}
		}
		b.reconstructFormatting()
		b.pushFormatting(b.insertHTML(t))
		return false
	case "b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u":
		b.reconstructFormatting()
		b.pushFormatting(b.insertHTML(t))
		return false
	case "nobr":
		b.reconstructFormatting()
		if b.inScope(defaultScope, "nobr") >= 0 {
			if !b.adoptionAgency("nobr") {
				b.anyOtherEndTag("nobr")
			}
			b.reconstructFormatting()
		}
		b.pushFormatting(b.insertHTML(t))
		return false
	case "applet", "marquee", "object":
		b.reconstructFormatting()
		b.insertHTML(t)
		b.pushMarker()
		b.framesetOK = false
		return false
	case "table":
		if !b.quirks {
			b.closeP()
		}
		b.insertHTML(t)
		b.framesetOK = false
		b.mode = inTable
		return false
	case "area", "br", "embed", "img", "keygen", "wbr":
		b.reconstructFormatting()
		b.insertVoid(t)
		b.framesetOK = false
		return false
	case "input":
		if b.inScope(defaultScope, "select") >= 0 {
			b.popUntil("select")
		}
		b.reconstructFormatting()
		b.insertVoid(t)
		if a, ok := b.z.Attr("type"); !ok || !equalFold(bytestr.Transient(a.Value), "hidden") {
			b.framesetOK = false
		}
		return false
	case "param", "source", "track":
		b.insertVoid(t)
		return false
	case "hr":
		b.closeP()
		if b.inScope(defaultScope, "select") >= 0 {
			b.generateImpliedEndTags("")
		}
		b.insertVoid(t)
		b.framesetOK = false
		return false
	case "image":
		t.name, t.slot = "img", 0 // "Don't ask."
		return true
	case "textarea":
		b.insertHTML(t)
		b.z.SetState(htmltok.RCDATA)
		b.ignoreLF = true
		b.original = b.mode
		b.framesetOK = false
		b.mode = text
		return false
	case "xmp":
		b.closeP()
		b.reconstructFormatting()
		b.framesetOK = false
		b.rawText(t, htmltok.RAWTEXT)
		return false
	case "iframe":
		b.framesetOK = false
		b.rawText(t, htmltok.RAWTEXT)
		return false
	case "noembed", "noscript":
		b.rawText(t, htmltok.RAWTEXT)
		return false
	case "select":
		// A <select> holds any content (the customizable select); a
		// <select> in one closes it.
		if b.inScope(defaultScope, "select") >= 0 {
			b.popUntil("select")
			return false
		}
		b.reconstructFormatting()
		b.insertHTML(t)
		b.framesetOK = false
		return false
	case "option", "optgroup":
		if b.inScope(defaultScope, "select") >= 0 {
			except := "" // an <optgroup> closes an open one; an <option> stays in it
			if t.name == "option" {
				except = "optgroup"
			}
			b.generateImpliedEndTags(except)
		} else if b.currentIs("option") {
			b.pop()
		}
		b.reconstructFormatting()
		b.insertHTML(t)
		return false
	case "rb", "rtc":
		if b.inScope(defaultScope, "ruby") >= 0 {
			b.generateImpliedEndTags("")
		}
		b.insertHTML(t)
		return false
	case "rp", "rt":
		if b.inScope(defaultScope, "ruby") >= 0 {
			b.generateImpliedEndTags("rtc")
		}
		b.insertHTML(t)
		return false
	case "math", "svg":
		b.reconstructFormatting()
		ns := MathML
		if t.name == "svg" {
			ns = SVG
		}
		b.insertElement(t, ns)
		if t.selfClosing {
			b.pop()
		}
		return false
	case "caption", "col", "colgroup", "frame", "head", "tbody", "td", "tfoot", "th", "thead", "tr":
		return false
	}
	b.reconstructFormatting()
	b.insertHTML(t)
	return false
}

// closeP closes a <p> in button scope, as many start tags do.
func (b *Builder) closeP() {
	if b.inScope(buttonScope, "p") >= 0 {
		b.generateImpliedEndTags("p")
		b.popUntil("p")
	}
}

func (b *Builder) bodyEndTag(t *token) bool {
	switch t.name {
	case "template":
		return b.inHeadMode(t)
	case "body", "html":
		if b.inScope(defaultScope, "body") < 0 {
			return false
		}
		b.mode = afterBody
		return t.name == "html"
	case "address", "article", "aside", "blockquote", "button", "center", "details", "dialog", "dir",
		"div", "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main",
		"menu", "nav", "ol", "pre", "search", "section", "select", "summary", "ul":
		if b.inScope(defaultScope, t.name) < 0 {
			return false
		}
		b.generateImpliedEndTags("")
		b.popUntil(t.name)
		return false
	case "form":
		if b.has("template") {
			if b.inScope(defaultScope, "form") < 0 {
				return false
			}
			b.generateImpliedEndTags("")
			b.popUntil("form")
			return false
		}
		n := b.form
		b.form = None
		if n == None || !b.inScopeNode(n) {
			return false
		}
		b.generateImpliedEndTags("")
		b.remove(b.indexOf(n))
		return false
	case "p":
		if b.inScope(buttonScope, "p") < 0 {
			b.insertImplied("p")
		}
		b.generateImpliedEndTags("p")
		b.popUntil("p")
		return false
	case "li":
		if b.inScope(listItemScope, "li") < 0 {
			return false
		}
		b.generateImpliedEndTags("li")
		b.popUntil("li")
		return false
	case "dd", "dt":
		if b.inScope(defaultScope, t.name) < 0 {
			return false
		}
		b.generateImpliedEndTags(t.name)
		b.popUntil(t.name)
		return false
	case "h1", "h2", "h3", "h4", "h5", "h6":
		if b.inScope(defaultScope, "h1", "h2", "h3", "h4", "h5", "h6") < 0 {
			return false
		}
		b.generateImpliedEndTags("")
		b.popUntil("h1", "h2", "h3", "h4", "h5", "h6")
		return false
	case "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u":
		if b.adoptionAgency(t.name) {
			return false
		}
	case "applet", "marquee", "object":
		if b.inScope(defaultScope, t.name) < 0 {
			return false
		}
		b.generateImpliedEndTags("")
		b.popUntil(t.name)
		b.clearToMarker()
		return false
	case "br":
		*t = token{kind: startTag, name: "br"}
		return true
	}
	b.anyOtherEndTag(t.name)
	return false
}

// anyOtherEndTag is the in body rule for "any other end tag".
func (b *Builder) anyOtherEndTag(name string) {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := &b.stack[i]
		if e.is(name) {
			b.generateImpliedEndTags(name)
			b.popTo(i)
			return
		}
		if e.special() {
			return
		}
	}
}
