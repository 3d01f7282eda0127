package htmltree

// The fast path of the "in body" insertion mode: most tags of a page are
// neither named in its rules nor in foreign content ("any other start
// tag", "any other end tag": <span>, <abbr>, <kbd>), and are handled
// without the dispatch of the general path. bodyStartNames and
// bodyEndNames are the names the rules do name; TestBodyNames holds them
// to the cases of bodyStartTag and bodyEndTag.

var (
	bodyStartNames = set(
		"a", "address", "applet", "area", "article", "aside", "b", "base", "basefont", "bgsound", "big",
		"blockquote", "body", "br", "button", "caption", "center", "code", "col", "colgroup", "dd",
		"details", "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure",
		"font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
		"header", "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "keygen", "li", "link",
		"listing", "main", "marquee", "math", "menu", "meta", "nav", "nobr", "noembed", "noframes",
		"noscript", "object", "ol", "optgroup", "option", "p", "param", "plaintext", "pre", "rb", "rp",
		"rt", "rtc", "s", "script", "search", "section", "select", "small", "source", "strike", "strong",
		"style", "summary", "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead",
		"title", "tr", "track", "tt", "u", "ul", "wbr", "xmp")
	bodyEndNames = set(
		"a", "address", "applet", "article", "aside", "b", "big", "blockquote", "body", "br", "button",
		"center", "code", "dd", "details", "dialog", "dir", "div", "dl", "dt", "em", "fieldset",
		"figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
		"hgroup", "html", "i", "li", "listing", "main", "marquee", "menu", "nav", "nobr", "object", "ol",
		"p", "pre", "s", "search", "section", "select", "small", "strike", "strong", "summary",
		"template", "tt", "u", "ul")
	// tableEnd marks the end tags "in cell" and "in caption" name.
	tableEnd = func() (t [atomSize + 1]bool) {
		for _, n := range []string{"body", "caption", "col", "colgroup", "html", "table", "tbody", "td", "tfoot", "th", "thead", "tr"} {
			t[slotOf(n)] = true
		}
		return
	}()
	// bodyStartOther and bodyEndOther are true for a slot whose tag is
	// "any other" in body.
	bodyStartOther, bodyEndOther = func() (start, end [atomSize + 1]bool) {
		start[0], end[0] = true, true // a name not in atomTable
		for i, n := range atomTable {
			start[i+1], end[i+1] = n != "" && !bodyStartNames[n], n != "" && !bodyEndNames[n]
		}
		return
	}()
)
