package markdown

import (
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// textParser reads plain text as paragraphs whose only syntax is GitHub's
// extended autolinks: nothing else of Markdown (no emphasis, no code, no
// HTML) stands between a URL and the text around it.
var textParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(util.Prioritized(parser.NewParagraphParser(), 100)),
		parser.WithInlineParsers(
			util.Prioritized(extension.NewLinkifyParser(linkifyOptions()...), 100),
			util.Prioritized(parser.NewAutoLinkParser(), 200)),
	)
})

// TextLinks returns the URLs of plain text (a list of URLs, a changelog, a
// README in text), each an Autolink: http, https and ftp URLs and www.
// names, Extended, ended where GitHub ends an extended autolink (at white
// space or "<", without trailing punctuation, a ")" kept only when it
// closes a "(" of the URL, no trailing ";"); and URLs in angle brackets,
// <scheme:...>, as RFC 3986's Appendix C has plain text delimit them. An
// e-mail address is no URL.
//
// Unread are the lines longer than MaxLine, which it does not read.
func TextLinks(original []byte) (links []Link, unread []Span) {
	src, unread := blankLongLines(original)
	doc := &Document{src: src}
	root := textParser().Parse(text.NewReader(src))
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if a, ok := n.(*ast.AutoLink); ok && entering && a.AutoLinkType == ast.AutoLinkURL {
			if l, ok := doc.autolink(a); ok {
				doc.Links = append(doc.Links, l)
			}
		}
		return ast.WalkContinue, nil
	})
	return doc.Links, unread
}
