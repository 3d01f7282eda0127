package htmltree

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/htmltok"
)

// foreignContent is 13.2.6.5, "The rules for parsing tokens in foreign
// content". It reports whether t is to be processed again.
func (b *Builder) foreignContent(t *token) bool {
	switch t.kind {
	case textTok:
		text := t.text
		for _, c := range text {
			if c != 0 && !isWhitespace(c) {
				b.framesetOK = false
				break
			}
		}
		if bytes.IndexByte(text, 0) >= 0 {
			text = bytes.ReplaceAll(text, []byte{0}, []byte(string(utf8.RuneError)))
		}
		b.insertText(text)
		return false
	case comment:
		b.insertComment(t.text, None)
		return false
	case doctype:
		return false
	case startTag:
		if BreaksOut(t.name, b.z) {
			return b.breakOut(t)
		}
		ns := b.current().ns
		name := t.name
		if ns == SVG {
			name = svgName(name)
		}
		b.insertElement(&token{kind: startTag, name: name, real: t.real}, ns)
		if t.selfClosing {
			b.pop()
		}
		return false
	case endTag:
		if t.name == "br" || t.name == "p" {
			return b.breakOut(t)
		}
		if c := b.current(); c.ns == SVG && c.name == "script" && t.name == "script" {
			b.pop()
			return false
		}
		for i := len(b.stack) - 1; i > 0; i-- {
			e := &b.stack[i]
			if i < len(b.stack)-1 && e.ns == HTML {
				return modes[b.mode](b, t)
			}
			if equalFold(e.name, t.name) {
				b.popTo(i)
				return false
			}
		}
	}
	return false
}

// breakOut pops the foreign elements that an HTML tag ends, and has the
// insertion mode's rules process it.
func (b *Builder) breakOut(t *token) bool {
	for {
		c := b.current()
		if c.ns == HTML || c.mathMLTextPoint() || c.htmlIntegrationPoint() {
			break
		}
		b.pop()
	}
	return modes[b.mode](b, t)
}

// BreaksOut reports whether the start tag at z, whose name is name, ends
// foreign content (13.2.6.5, "The rules for parsing tokens in foreign
// content"): inside <svg> or <math>, a <p>, a <div>, a <table> and the
// others of the standard's list, and a <font> with a color, face or size
// attribute, close the foreign elements up to the nearest integration
// point or HTML element. A scanner that follows the tree without building
// it, as package links's fast path does, asks it.
func BreaksOut(name string, z *htmltok.Tokenizer) bool {
	switch name {
	case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
		"embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu",
		"meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup",
		"table", "tt", "u", "ul", "var":
		return true
	case "font":
		for _, attr := range [...]string{"color", "face", "size"} {
			if _, ok := z.Attr(attr); ok {
				return true
			}
		}
	}
	return false
}

// svgName is an SVG element's name in its case (13.2.6.5, the table of
// "adjust SVG tag name").
func svgName(name string) string {
	if n, ok := svgNames[name]; ok {
		return n
	}
	return name
}

var svgNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range strings.Fields(`altGlyph altGlyphDef altGlyphItem animateColor animateMotion
		animateTransform clipPath feBlend feColorMatrix feComponentTransfer feComposite
		feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood
		feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology
		feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence foreignObject
		glyphRef linearGradient radialGradient textPath`) {
		m[strings.ToLower(n)] = n
	}
	return m
}()

// atom returns a tag's name as a string, without allocating for the names
// the tree builder looks for. It is called for every tag, so the names are
// found by a small open-addressed table of their own, not a map.
// Its second result is the name's slot: its index in atomTable plus one,
// or 0 for a name not there.
func atom(name []byte) (string, int) {
	if len(name) == 0 {
		return "", 0
	}
	for h := atomHash(name); ; h = (h + 1) & (atomSize - 1) {
		s := atomTable[h]
		if s == "" {
			return string(name), 0
		}
		if s == string(name) {
			return s, h + 1
		}
	}
}

// slotOf is atom's slot for a name given as a string.
func slotOf(name string) int {
	if name == "" {
		return 0
	}
	for h := atomHashString(name); ; h = (h + 1) & (atomSize - 1) {
		switch atomTable[h] {
		case "":
			return 0
		case name:
			return h + 1
		}
	}
}

func atomHashString(name string) int {
	n := len(name)
	return (n*0x9e5 ^ int(name[0])*0x3b ^ int(name[n-1])*0x1f1 ^ int(name[n/2])*0x71) & (atomSize - 1)
}

func atomHash(name []byte) int {
	n := len(name)
	return (n*0x9e5 ^ int(name[0])*0x3b ^ int(name[n-1])*0x1f1 ^ int(name[n/2])*0x71) & (atomSize - 1)
}

const atomSize = 1024

var atomTable = func() (t [atomSize]string) {
	for _, n := range strings.Fields(`a abbr address applet area article aside audio b base basefont
		bdi bdo bgsound big blockquote body br button canvas caption center cite code col colgroup
		data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure
		font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image
		img input ins kbd keygen label legend li link listing main map mark marquee math menu meta
		meter nav nobr noembed noframes noscript object ol optgroup option output p param picture
		plaintext pre progress q rb rp rt rtc ruby s samp script search section select slot small
		source span strike strong style sub summary sup svg table tbody td template textarea tfoot
		th thead time title tr track tt u ul var video wbr xmp mi mo mn ms mtext mglyph malignmark
		annotation-xml desc foreignobject use g path rect circle line polyline polygon text tspan
		defs symbol lineargradient radialgradient stop clippath mask pattern image filter marker
		selectedcontent`) {
		h := atomHash([]byte(n))
		for t[h] != "" && t[h] != n {
			h = (h + 1) & (len(t) - 1)
		}
		t[h] = n
	}
	return t
}()

// quirksDoctype reports whether the DOCTYPE token at z puts the document
// in quirks mode (13.2.6.4.1). Limited-quirks mode changes nothing the
// tree builder does.
func quirksDoctype(z *htmltok.Tokenizer) bool {
	name, public, system, force := z.Doctype()
	if force || string(name) != "html" {
		return true
	}
	pub := strings.ToLower(string(public))
	sys := strings.ToLower(string(system))
	switch pub {
	case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html":
		return true
	}
	if sys == "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd" {
		return true
	}
	for _, p := range quirksPublicPrefixes {
		if strings.HasPrefix(pub, p) {
			return true
		}
	}
	if system == nil && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") ||
		strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//")) {
		return true
	}
	return false
}

// quirksPublicPrefixes are the public identifiers' prefixes that mean
// quirks mode, in lower case.
var quirksPublicPrefixes = strings.Split(strings.ToLower(`+//Silmaril//dtd html Pro v0r11 19970101//
-//AS//DTD HTML 3.0 asWedit + extensions//
-//AdvaSoft Ltd//DTD HTML 3.0 asWedit + extensions//
-//IETF//DTD HTML 2.0 Level 1//
-//IETF//DTD HTML 2.0 Level 2//
-//IETF//DTD HTML 2.0 Strict Level 1//
-//IETF//DTD HTML 2.0 Strict Level 2//
-//IETF//DTD HTML 2.0 Strict//
-//IETF//DTD HTML 2.0//
-//IETF//DTD HTML 2.1E//
-//IETF//DTD HTML 3.0//
-//IETF//DTD HTML 3.2 Final//
-//IETF//DTD HTML 3.2//
-//IETF//DTD HTML 3//
-//IETF//DTD HTML Level 0//
-//IETF//DTD HTML Level 1//
-//IETF//DTD HTML Level 2//
-//IETF//DTD HTML Level 3//
-//IETF//DTD HTML Strict Level 0//
-//IETF//DTD HTML Strict Level 1//
-//IETF//DTD HTML Strict Level 2//
-//IETF//DTD HTML Strict Level 3//
-//IETF//DTD HTML Strict//
-//IETF//DTD HTML//
-//Metrius//DTD Metrius Presentational//
-//Microsoft//DTD Internet Explorer 2.0 HTML Strict//
-//Microsoft//DTD Internet Explorer 2.0 HTML//
-//Microsoft//DTD Internet Explorer 2.0 Tables//
-//Microsoft//DTD Internet Explorer 3.0 HTML Strict//
-//Microsoft//DTD Internet Explorer 3.0 HTML//
-//Microsoft//DTD Internet Explorer 3.0 Tables//
-//Netscape Comm. Corp.//DTD HTML//
-//Netscape Comm. Corp.//DTD Strict HTML//
-//O'Reilly and Associates//DTD HTML 2.0//
-//O'Reilly and Associates//DTD HTML Extended 1.0//
-//O'Reilly and Associates//DTD HTML Extended Relaxed 1.0//
-//SQ//DTD HTML 2.0 HoTMetaL + extensions//
-//SoftQuad Software//DTD HoTMetaL PRO 6.0::19990601::extensions to HTML 4.0//
-//SoftQuad//DTD HoTMetaL PRO 4.0::19971010::extensions to HTML 4.0//
-//Spyglass//DTD HTML 2.0 Extended//
-//Sun Microsystems Corp.//DTD HotJava HTML//
-//Sun Microsystems Corp.//DTD HotJava Strict HTML//
-//W3C//DTD HTML 3 1995-03-24//
-//W3C//DTD HTML 3.2 Draft//
-//W3C//DTD HTML 3.2 Final//
-//W3C//DTD HTML 3.2//
-//W3C//DTD HTML 3.2S Draft//
-//W3C//DTD HTML 4.0 Frameset//
-//W3C//DTD HTML 4.0 Transitional//
-//W3C//DTD HTML Experimental 19960712//
-//W3C//DTD HTML Experimental 970421//
-//W3C//DTD W3 HTML//
-//W3O//DTD W3 HTML 3.0//
-//WebTechs//DTD Mozilla HTML 2.0//
-//WebTechs//DTD Mozilla HTML//`), "\n")
