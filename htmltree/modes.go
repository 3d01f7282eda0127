package htmltree

import (
	"bytes"
	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/internal/bytestr"
)

// A mode is an insertion mode (13.2.4.1).
type mode uint8

const (
	initial mode = iota
	beforeHTML
	beforeHead
	inHead
	afterHead
	inBody
	text
	inTable
	inTableText
	inCaption
	inColumnGroup
	inTableBody
	inRow
	inCell
	inTemplate
	afterBody
	inFrameset
	afterFrameset
	afterAfterBody
	afterAfterFrameset
)

var modes [afterAfterFrameset + 1]func(*Builder, *token) bool

func init() {
	modes = [...]func(*Builder, *token) bool{
		initial: (*Builder).initialMode, beforeHTML: (*Builder).beforeHTMLMode,
		beforeHead: (*Builder).beforeHeadMode, inHead: (*Builder).inHeadMode,
		afterHead: (*Builder).afterHeadMode, inBody: (*Builder).inBodyMode,
		text: (*Builder).textMode, inTable: (*Builder).inTableMode,
		inTableText: (*Builder).inTableTextMode, inCaption: (*Builder).inCaptionMode,
		inColumnGroup: (*Builder).inColumnGroupMode, inTableBody: (*Builder).inTableBodyMode,
		inRow: (*Builder).inRowMode, inCell: (*Builder).inCellMode,
		inTemplate: (*Builder).inTemplateMode, afterBody: (*Builder).afterBodyMode,
		inFrameset: (*Builder).inFramesetMode, afterFrameset: (*Builder).afterFramesetMode,
		afterAfterBody: (*Builder).afterAfterBodyMode, afterAfterFrameset: (*Builder).afterAfterFramesetMode,
	}
}

const (
	startTag = htmltok.StartTagToken
	endTag   = htmltok.EndTagToken
	textTok  = htmltok.TextToken
	comment  = htmltok.CommentToken
	doctype  = htmltok.DoctypeToken
	eof      = htmltok.ErrorToken
)

// process is the tree construction dispatcher (13.2.6): each token goes to
// the rules of the insertion mode or to those for foreign content, until it
// is not to be reprocessed.
func (b *Builder) process(t *token) {
	for {
		var again bool
		if b.foreignRules(t) {
			again = b.foreignContent(t)
		} else {
			again = modes[b.mode](b, t)
		}
		if !again {
			return
		}
	}
}

// foreignRules reports whether t goes to the rules for parsing tokens in
// foreign content.
func (b *Builder) foreignRules(t *token) bool {
	if len(b.stack) == 0 || t.kind == eof {
		return false
	}
	c := b.current()
	if c.ns == HTML {
		return false
	}
	if c.mathMLTextPoint() {
		if t.kind == startTag && t.name != "mglyph" && t.name != "malignmark" || t.kind == textTok {
			return false
		}
	}
	if c.ns == MathML && c.name == "annotation-xml" && t.kind == startTag && t.name == "svg" {
		return false
	}
	if c.htmlIntegrationPoint() && (t.kind == startTag || t.kind == textTok) {
		return false
	}
	return true
}

func (e *elem) mathMLTextPoint() bool {
	if e.ns != MathML {
		return false
	}
	switch e.name {
	case "mi", "mo", "mn", "ms", "mtext":
		return true
	}
	return false
}

func (e *elem) htmlIntegrationPoint() bool {
	switch e.ns {
	case MathML:
		return e.htmlPoint
	case SVG:
		return e.name == "foreignObject" || e.name == "desc" || e.name == "title"
	}
	return false
}

// 13.2.6.4.1 The "initial" insertion mode.
func (b *Builder) initialMode(t *token) bool {
	switch t.kind {
	case textTok:
		t.text = t.text[leadingWhitespace(t.text):]
		if len(t.text) == 0 {
			return false
		}
	case comment:
		b.insertComment(t.text, Document)
		return false
	case doctype:
		b.sink.Doctype()
		b.quirks = quirksDoctype(b.z)
		b.mode = beforeHTML
		return false
	}
	b.quirks = true
	b.mode = beforeHTML
	return true
}

// 13.2.6.4.2 The "before html" insertion mode.
func (b *Builder) beforeHTMLMode(t *token) bool {
	switch t.kind {
	case doctype:
		return false
	case comment:
		b.insertComment(t.text, Document)
		return false
	case textTok:
		t.text = t.text[leadingWhitespace(t.text):]
		if len(t.text) == 0 {
			return false
		}
	case startTag:
		if t.name == "html" {
			b.insertHTML(t)
			b.mode = beforeHead
			return false
		}
	case endTag:
		switch t.name {
		case "head", "body", "html", "br":
		default:
			return false
		}
	}
	b.insertImplied("html")
	b.mode = beforeHead
	return true
}

// 13.2.6.4.3 The "before head" insertion mode.
func (b *Builder) beforeHeadMode(t *token) bool {
	switch t.kind {
	case textTok:
		t.text = t.text[leadingWhitespace(t.text):]
		if len(t.text) == 0 {
			return false
		}
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "head":
			b.head = b.insertHTML(t).n
			b.mode = inHead
			return false
		}
	case endTag:
		switch t.name {
		case "head", "body", "html", "br":
		default:
			return false
		}
	}
	b.head = b.insertImplied("head").n
	b.mode = inHead
	return true
}

// insertWhitespace inserts t's leading whitespace and reports whether
// anything is left of it.
func (b *Builder) insertWhitespace(t *token) bool {
	n := leadingWhitespace(t.text)
	b.insertText(t.text[:n])
	t.text = t.text[n:]
	return len(t.text) > 0
}

// 13.2.6.4.4 The "in head" insertion mode.
func (b *Builder) inHeadMode(t *token) bool {
	switch t.kind {
	case textTok:
		if !b.insertWhitespace(t) {
			return false
		}
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "base", "basefont", "bgsound", "link", "meta":
			b.insertVoid(t)
			return false
		case "title":
			b.rawText(t, htmltok.RCDATA)
			return false
		case "noscript", "noframes", "style":
			b.rawText(t, htmltok.RAWTEXT)
			return false
		case "script":
			b.rawText(t, htmltok.ScriptData)
			return false
		case "template":
			b.insertHTML(t)
			b.pushMarker()
			b.framesetOK = false
			b.mode = inTemplate
			b.templateModes = append(b.templateModes, inTemplate)
			return false
		case "head":
			return false
		}
	case endTag:
		switch t.name {
		case "head":
			b.pop()
			b.mode = afterHead
			return false
		case "body", "html", "br":
		case "template":
			b.endTemplate()
			return false
		default:
			return false
		}
	}
	b.pop() // the head
	b.mode = afterHead
	return true
}

// endTemplate is a </template> in head.
func (b *Builder) endTemplate() {
	if !b.has("template") {
		return
	}
	b.generateAllImpliedEndTags()
	b.popUntil("template")
	b.clearToMarker()
	b.templateModes = b.templateModes[:len(b.templateModes)-1]
	b.resetInsertionMode()
}

// 13.2.6.4.6 The "after head" insertion mode.
func (b *Builder) afterHeadMode(t *token) bool {
	switch t.kind {
	case textTok:
		if !b.insertWhitespace(t) {
			return false
		}
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "body":
			b.insertHTML(t)
			b.framesetOK = false
			b.mode = inBody
			return false
		case "frameset":
			b.insertHTML(t)
			b.mode = inFrameset
			return false
		case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
			// The head is pushed back for the element, and removed after.
			head := b.head
			b.push(len(b.stack), elem{n: head, name: "head", slot: slotOf("head"), parent: b.stack[0].n})
			again := b.inHeadMode(t)
			for i := len(b.stack) - 1; i >= 0; i-- {
				if b.stack[i].n == head {
					b.count(&b.stack[i], -1)
					b.stack = append(b.stack[:i], b.stack[i+1:]...)
					break
				}
			}
			return again
		case "head":
			return false
		}
	case endTag:
		switch t.name {
		case "template":
			return b.inHeadMode(t)
		case "body", "html", "br":
		default:
			return false
		}
	}
	b.insertImplied("body")
	b.mode = inBody
	return true
}

// 13.2.6.4.8 The "text" insertion mode.
func (b *Builder) textMode(t *token) bool {
	switch t.kind {
	case textTok:
		b.insertText(t.text)
		return false
	case eof:
		b.pop()
		b.mode = b.original
		return true
	case endTag:
		b.pop()
		b.mode = b.original
	}
	return false
}

// 13.2.6.4.9 The "in table" insertion mode.
func (b *Builder) inTableMode(t *token) bool {
	switch t.kind {
	case textTok:
		if b.current().is("table", "tbody", "template", "tfoot", "thead", "tr") {
			b.pendingTable = b.pendingTable[:0]
			b.pendingNonWS = false
			b.original = b.mode
			b.mode = inTableText
			return true
		}
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		switch t.name {
		case "caption":
			b.clearToTableContext()
			b.pushMarker()
			b.insertHTML(t)
			b.mode = inCaption
			return false
		case "colgroup":
			b.clearToTableContext()
			b.insertHTML(t)
			b.mode = inColumnGroup
			return false
		case "col":
			b.clearToTableContext()
			b.insertImplied("colgroup")
			b.mode = inColumnGroup
			return true
		case "tbody", "tfoot", "thead":
			b.clearToTableContext()
			b.insertHTML(t)
			b.mode = inTableBody
			return false
		case "td", "th", "tr":
			b.clearToTableContext()
			b.insertImplied("tbody")
			b.mode = inTableBody
			return true
		case "table":
			if b.inScope(tableScope, "table") < 0 {
				return false
			}
			b.popUntil("table")
			b.resetInsertionMode()
			return true
		case "style", "script", "template":
			return b.inHeadMode(t)
		case "input":
			if a, ok := b.z.Attr("type"); ok && equalFold(bytestr.Transient(a.Value), "hidden") {
				b.insertVoid(t)
				return false
			}
		case "form":
			if b.has("template") || b.form != None {
				return false
			}
			b.form = b.insertHTML(t).n
			b.pop()
			return false
		}
	case endTag:
		switch t.name {
		case "table":
			if b.inScope(tableScope, "table") < 0 {
				return false
			}
			b.popUntil("table")
			b.resetInsertionMode()
			return false
		case "body", "caption", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr":
			return false
		case "template":
			return b.inHeadMode(t)
		}
	case eof:
		return b.inBodyMode(t)
	}
	// Anything else: as in body, with foster parenting.
	b.fosterParent = true
	again := b.inBodyMode(t)
	b.fosterParent = false
	return again
}

// clearToTableContext is "clear the stack back to a table context".
func (b *Builder) clearToTableContext() {
	for !b.current().is("table", "template", "html") {
		b.pop()
	}
}

// 13.2.6.4.10 The "in table text" insertion mode.
func (b *Builder) inTableTextMode(t *token) bool {
	if t.kind == textTok {
		for _, c := range t.text {
			if c == 0 {
				continue
			}
			if !isWhitespace(c) {
				b.pendingNonWS = true
			}
			b.pendingTable = append(b.pendingTable, c)
		}
		return false
	}
	if len(b.pendingTable) > 0 {
		pending := &token{kind: textTok, text: b.pendingTable}
		if b.pendingNonWS {
			b.fosterParent = true
			b.inBodyMode(pending)
			b.fosterParent = false
		} else {
			b.insertText(pending.text)
		}
		b.pendingTable = b.pendingTable[:0]
	}
	b.mode = b.original
	return true
}

// 13.2.6.4.11 The "in caption" insertion mode.
func (b *Builder) inCaptionMode(t *token) bool {
	switch t.kind {
	case startTag:
		switch t.name {
		case "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr":
			if !b.closeCaption() {
				return false
			}
			return true
		}
	case endTag:
		switch t.name {
		case "caption":
			b.closeCaption()
			return false
		case "table":
			return b.closeCaption()
		case "body", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr":
			return false
		}
	}
	return b.inBodyMode(t)
}

// closeCaption closes the caption and reports whether there was one.
func (b *Builder) closeCaption() bool {
	if b.inScope(tableScope, "caption") < 0 {
		return false
	}
	b.generateImpliedEndTags("")
	b.popUntil("caption")
	b.clearToMarker()
	b.mode = inTable
	return true
}

// 13.2.6.4.12 The "in column group" insertion mode.
func (b *Builder) inColumnGroupMode(t *token) bool {
	switch t.kind {
	case textTok:
		if !b.insertWhitespace(t) {
			return false
		}
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "col":
			b.insertVoid(t)
			return false
		case "template":
			return b.inHeadMode(t)
		}
	case endTag:
		switch t.name {
		case "colgroup":
			if b.currentIs("colgroup") {
				b.pop()
				b.mode = inTable
			}
			return false
		case "col":
			return false
		case "template":
			return b.inHeadMode(t)
		}
	case eof:
		return b.inBodyMode(t)
	}
	if !b.currentIs("colgroup") {
		return false
	}
	b.pop()
	b.mode = inTable
	return true
}

// 13.2.6.4.13 The "in table body" insertion mode.
func (b *Builder) inTableBodyMode(t *token) bool {
	switch t.kind {
	case startTag:
		switch t.name {
		case "tr":
			b.clearToTableBodyContext()
			b.insertHTML(t)
			b.mode = inRow
			return false
		case "th", "td":
			b.clearToTableBodyContext()
			b.insertImplied("tr")
			b.mode = inRow
			return true
		case "caption", "col", "colgroup", "tbody", "tfoot", "thead":
			return b.closeTableBody()
		}
	case endTag:
		switch t.name {
		case "tbody", "tfoot", "thead":
			if b.inScope(tableScope, t.name) < 0 {
				return false
			}
			b.clearToTableBodyContext()
			b.pop()
			b.mode = inTable
			return false
		case "table":
			return b.closeTableBody()
		case "body", "caption", "col", "colgroup", "html", "td", "th", "tr":
			return false
		}
	}
	return b.inTableMode(t)
}

func (b *Builder) closeTableBody() bool {
	if b.inScope(tableScope, "tbody", "thead", "tfoot") < 0 {
		return false
	}
	b.clearToTableBodyContext()
	b.pop()
	b.mode = inTable
	return true
}

func (b *Builder) clearToTableBodyContext() {
	for !b.current().is("tbody", "tfoot", "thead", "template", "html") {
		b.pop()
	}
}

// 13.2.6.4.14 The "in row" insertion mode.
func (b *Builder) inRowMode(t *token) bool {
	switch t.kind {
	case startTag:
		switch t.name {
		case "th", "td":
			b.clearToRowContext()
			b.insertHTML(t)
			b.mode = inCell
			b.pushMarker()
			return false
		case "caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr":
			return b.closeRow()
		}
	case endTag:
		switch t.name {
		case "tr":
			b.closeRow()
			return false
		case "table":
			return b.closeRow()
		case "tbody", "tfoot", "thead":
			if b.inScope(tableScope, t.name) < 0 {
				return false
			}
			return b.closeRow()
		case "body", "caption", "col", "colgroup", "html", "td", "th":
			return false
		}
	}
	return b.inTableMode(t)
}

func (b *Builder) closeRow() bool {
	if b.inScope(tableScope, "tr") < 0 {
		return false
	}
	b.clearToRowContext()
	b.pop()
	b.mode = inTableBody
	return true
}

func (b *Builder) clearToRowContext() {
	for !b.current().is("tr", "template", "html") {
		b.pop()
	}
}

// 13.2.6.4.15 The "in cell" insertion mode.
func (b *Builder) inCellMode(t *token) bool {
	switch t.kind {
	case startTag:
		switch t.name {
		case "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr":
			if b.inScope(tableScope, "td", "th") < 0 {
				return false
			}
			b.closeCell()
			return true
		}
	case endTag:
		switch t.name {
		case "td", "th":
			if b.inScope(tableScope, t.name) < 0 {
				return false
			}
			b.generateImpliedEndTags("")
			b.popUntil(t.name)
			b.clearToMarker()
			b.mode = inRow
			return false
		case "body", "caption", "col", "colgroup", "html":
			return false
		case "table", "tbody", "tfoot", "thead", "tr":
			if b.inScope(tableScope, t.name) < 0 {
				return false
			}
			b.closeCell()
			return true
		}
	}
	return b.inBodyMode(t)
}

func (b *Builder) closeCell() {
	b.generateImpliedEndTags("")
	b.popUntil("td", "th")
	b.clearToMarker()
	b.mode = inRow
}

// 13.2.6.4.18 The "in template" insertion mode.
func (b *Builder) inTemplateMode(t *token) bool {
	switch t.kind {
	case textTok, comment, doctype:
		return b.inBodyMode(t)
	case startTag:
		var next mode
		switch t.name {
		case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
			return b.inHeadMode(t)
		case "caption", "colgroup", "tbody", "tfoot", "thead":
			next = inTable
		case "col":
			next = inColumnGroup
		case "tr":
			next = inTableBody
		case "td", "th":
			next = inRow
		default:
			next = inBody
		}
		b.templateModes[len(b.templateModes)-1] = next
		b.mode = next
		return true
	case endTag:
		if t.name == "template" {
			return b.inHeadMode(t)
		}
		return false
	case eof:
		if !b.has("template") {
			return false
		}
		b.popUntil("template")
		b.clearToMarker()
		b.templateModes = b.templateModes[:len(b.templateModes)-1]
		b.resetInsertionMode()
		return true
	}
	return false
}

// 13.2.6.4.19 The "after body" insertion mode.
func (b *Builder) afterBodyMode(t *token) bool {
	switch t.kind {
	case textTok:
		if leadingWhitespace(t.text) == len(t.text) {
			return b.inBodyMode(t)
		}
	case comment:
		b.insertComment(t.text, b.stack[0].n)
		return false
	case doctype:
		return false
	case startTag:
		if t.name == "html" {
			return b.inBodyMode(t)
		}
	case endTag:
		if t.name == "html" {
			b.mode = afterAfterBody
			return false
		}
	case eof:
		return false
	}
	b.mode = inBody
	return true
}

// 13.2.6.4.20 The "in frameset" insertion mode.
func (b *Builder) inFramesetMode(t *token) bool {
	switch t.kind {
	case textTok:
		b.insertText(onlyWhitespace(t.text))
	case comment:
		b.insertComment(t.text, None)
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "frameset":
			b.insertHTML(t)
		case "frame":
			b.insertVoid(t)
		case "noframes":
			return b.inHeadMode(t)
		}
	case endTag:
		if t.name == "frameset" && !b.currentIs("html") {
			b.pop()
			if !b.currentIs("frameset") {
				b.mode = afterFrameset
			}
		}
	}
	return false
}

// 13.2.6.4.21 The "after frameset" insertion mode.
func (b *Builder) afterFramesetMode(t *token) bool {
	switch t.kind {
	case textTok:
		b.insertText(onlyWhitespace(t.text))
	case comment:
		b.insertComment(t.text, None)
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "noframes":
			return b.inHeadMode(t)
		}
	case endTag:
		if t.name == "html" {
			b.mode = afterAfterFrameset
		}
	}
	return false
}

// 13.2.6.4.22 The "after after body" insertion mode.
func (b *Builder) afterAfterBodyMode(t *token) bool {
	switch t.kind {
	case comment:
		b.insertComment(t.text, Document)
		return false
	case doctype:
		return b.inBodyMode(t)
	case textTok:
		if leadingWhitespace(t.text) == len(t.text) {
			return b.inBodyMode(t)
		}
	case startTag:
		if t.name == "html" {
			return b.inBodyMode(t)
		}
	case eof:
		return false
	}
	b.mode = inBody
	return true
}

// 13.2.6.4.23 The "after after frameset" insertion mode.
func (b *Builder) afterAfterFramesetMode(t *token) bool {
	switch t.kind {
	case comment:
		b.insertComment(t.text, Document)
	case doctype:
		return b.inBodyMode(t)
	case textTok:
		// Whitespace is processed as in body; other characters are
		// dropped.
		if ws := onlyWhitespace(t.text); len(ws) > 0 {
			return b.inBodyMode(&token{kind: textTok, text: ws})
		}
	case startTag:
		switch t.name {
		case "html":
			return b.inBodyMode(t)
		case "noframes":
			return b.inHeadMode(t)
		}
	}
	return false
}

// onlyWhitespace keeps the whitespace characters of text.
func onlyWhitespace(text []byte) []byte {
	n := leadingWhitespace(text)
	if n == len(text) {
		return text
	}
	out := make([]byte, 0, len(text))
	for _, c := range text {
		if isWhitespace(c) {
			out = append(out, c)
		}
	}
	return out
}

// withoutNUL drops text's U+0000 characters.
func withoutNUL(text []byte) []byte {
	i := bytes.IndexByte(text, 0)
	if i < 0 {
		return text
	}
	out := append([]byte(nil), text[:i]...)
	for _, c := range text[i:] {
		if c != 0 {
			out = append(out, c)
		}
	}
	return out
}
