// Package markdown finds the links of Markdown documents, and the anchors
// of their headings, as the renderers people publish with make them:
// GitHub (GitHub Flavored Markdown, cmark-gfm), MkDocs (Python-Markdown)
// and mdBook (pulldown-cmark). It finds what github.com/yuin/goldmark, a
// CommonMark 0.31 parser with GitHub's extensions, finds, and hands out
// each link with the bytes of its destination in the source, so that a
// link checker can say where it is and a rewriter can change it in place.
//
// Parse reads a document:
//
//	doc := markdown.Parse(src, markdown.GitHub)
//	for _, l := range doc.Links {
//		fmt.Println(l.Kind, l.Dest, string(src[l.Span.Start:l.Span.End]))
//	}
//
// Scan reads it too, but hands out its links as it finds them, keeping
// none: for documents of millions of links, and for speed.
//
// A scanner of its own reads a document: its block structure, line by
// line, and the inlines of only what can hold a link, in time linear in
// the document whatever its lines or nesting. What the scanner does not
// decide alone (a lazy continuation line goldmark reads its own way, a
// tab goldmark pads, a footnote), it leaves to goldmark, for the whole
// document; goldmark reads it within the bounds MaxLine, MaxParagraph and
// MaxSize, and Document.Read and Unread say what it left out. The two
// find the same links, headings and HTML on every input (TestScanner,
// FuzzScanner).
//
// A link is an inline link or image ([text](dest), ![alt](dest)), a
// reference definition ([label]: dest), which its uses ([text][label])
// share and which is handed out once, with the count of its uses, or an
// autolink (<https://example.com/>, and GitHub's extended autolinks,
// www.example.com and https://example.com in text). Code spans and code
// blocks hold no links. Raw HTML, inline or in blocks, holds links as HTML
// does: Document.HTML says where it is, and Shadow gives a document of the
// same length in which only that HTML is left, for an HTML link extractor
// whose offsets are then the Markdown source's.
//
// Dest is the URL the renderer writes in the href or src: backslash
// escapes and character references decoded, then percent-encoded where
// CommonMark's renderers encode (a space is %20), as cmark and goldmark
// render it. A link resolves as the browser resolves that href against the
// page's URL.
//
// Anchors returns the ids a rendered page has for fragments: its headings'
// slugs, by the dialect's rule (Slug), and the ids and <a name>s of its
// raw HTML; TextLinks finds the URLs of plain text, by GitHub's rules for
// where an autolink ends.
package markdown

import (
	"bytes"
	"iter"
	"regexp"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A Dialect is the renderer a Markdown document is written for: what it
// parses as Markdown, and how it names its headings' anchors.
type Dialect int

const (
	// GitHub is GitHub Flavored Markdown, as github.com renders README
	// files and docs (cmark-gfm): tables, strikethrough, task lists,
	// footnotes and extended autolinks; a heading's anchor is its text as
	// github-slugger makes it.
	GitHub Dialect = iota
	// MkDocs is Python-Markdown with its toc extension, as MkDocs renders
	// a site: a heading's anchor is its text made ASCII, lower case, and
	// "_1", "_2" for repeats.
	MkDocs
	// MdBook is mdBook's (pulldown-cmark): tables, footnotes,
	// strikethrough, task lists, and heading attributes ({#id}); a
	// heading's anchor is its text in lower case, letters, digits, "-"
	// and "_" kept, white space made "-".
	MdBook
)

func (d Dialect) String() string {
	switch d {
	case MkDocs:
		return "mkdocs"
	case MdBook:
		return "mdbook"
	}
	return "github"
}

// ParseDialect returns the Dialect named s: github, mkdocs or mdbook.
func ParseDialect(s string) (Dialect, bool) {
	for _, d := range []Dialect{GitHub, MkDocs, MdBook} {
		if d.String() == s {
			return d, true
		}
	}
	return GitHub, false
}

// A Kind is a kind of Markdown link.
type Kind int

const (
	Inline     Kind = iota + 1 // [text](dest)
	Image                      // ![alt](dest)
	Definition                 // [label]: dest
	Autolink                   // <scheme:...>, or GitHub's www.example.com and https://example.com in text
)

func (k Kind) String() string {
	return [...]string{"", "link", "image", "definition", "autolink"}[k]
}

// A Span is the bytes [Start, End) of a document.
type Span struct{ Start, End int }

// A Link is one link of a Markdown document.
type Link struct {
	Kind Kind
	// Span is where the destination is written: between its angle
	// brackets when Angle is set; an autolink's text. An empty
	// destination has an empty Span where it is: after the "(" of
	// [text]() or inside the brackets of [text](<>) and [label]: <>.
	// Where that place could not be told (a "]" in raw HTML of the link's
	// text), Unplaced is set and Span is empty at the link's start.
	Span     Span
	Unplaced bool
	// Angle says the destination is written in angle brackets, <dest>.
	Angle bool
	// Dest is the URL the renderer writes in the href or src.
	Dest string
	// Label is a definition's label, as written; Uses counts the links
	// and images that use it ([text][label], [label][], [label]), and
	// ImageUses the images among them.
	Label     string
	Uses      int
	ImageUses int
	// Extended says an autolink is one of GitHub's extended autolinks,
	// written without angle brackets (www.example.com): its Dest may have
	// a scheme its text has not.
	Extended bool
}

// A Heading is a heading of a Markdown document.
type Heading struct {
	Level int
	// Text is what the heading shows, as a rendered page's text content
	// holds it: its Markdown's text, escapes and references decoded, code
	// spans' text, links' text, no image's alt text, no HTML tags.
	Text string
	// ID is the id the document gives it itself ({#id}, mdBook), "" for
	// none.
	ID    string
	Start int // where it is written
}

// A Document is a Markdown document, parsed.
type Document struct {
	Links    []Link // in the order of their Span
	HTML     []Span // the raw HTML, inline and in blocks, in order
	Headings []Heading
	// Read is how many bytes of the source were read: all of them, or
	// the lines of the first MaxSize bytes.
	Read int
	// Unread are the lines longer than MaxLine and the paragraphs of more
	// than MaxParagraph lines, which were not read.
	Unread []Span
	src    []byte
	shadow []byte // Shadow's, made once
}

// Parse parses the Markdown document src, written for dialect d.
func Parse(src []byte, d Dialect) *Document {
	doc, links := Scan(src, d)
	if doc.Links == nil {
		doc.Links = slices.Collect(links)
	}
	return doc
}

// Scan parses src as Parse does, but for its links, which it hands out
// as it finds them, in the order of Document.Links, as links is ranged
// over (once): the Document has no Links, and the memory of a document of
// millions of links is that of one (but for one that goldmark parses,
// within its bounds). The Document is whole before the first link: its
// HTML, its headings, its definitions' counts of uses.
func Scan(src []byte, d Dialect) (doc *Document, links iter.Seq[Link]) {
	if s, why := scan(src, d); why == "" {
		return s.doc, s.links
	}
	doc = parse(src, d, parsers[d]())
	all := doc.Links
	doc.Links = nil
	return doc, slices.Values(all)
}

// MaxLine is the longest line goldmark reads, for Parse (in a document
// the scanner leaves to it) and TextLinks: a longer one is read as a
// blank line, and named in Document.Unread. goldmark takes time
// that grows with the square of a line's length on some lines (a link
// destination left open, "[a](b" a hundred thousand times; containers
// nested on one line, ">>>>..."): a 250 KB line took 7.5 s. Lines of
// Markdown that people write are shorter than a few thousand bytes.
const MaxLine = 16 << 10

// MaxParagraph is the most lines of a paragraph goldmark reads for Parse:
// a longer one is left out, and named in Document.Unread. goldmark reads the reference
// definitions of a paragraph in time that grows with the square of their
// number (a hundred thousand took 7.5 s); people write a few dozen.
const MaxParagraph = 10000

// MaxSize is the most of a document goldmark reads for Parse: the lines
// of its first MaxSize bytes (Document.Read says how many). goldmark holds a document
// whole, in about a hundred times its size (a tree node for each link,
// each piece of text); Markdown that people write is far shorter.
const MaxSize = 4 << 20

// longParagraphs is the parser.Context key of the paragraphs of more than
// MaxParagraph lines.
var longParagraphs = parser.NewContextKey()

// longParagraphTransformer leaves out a paragraph of more than
// MaxParagraph lines, before goldmark reads its reference definitions.
type longParagraphTransformer struct{}

func (longParagraphTransformer) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := p.Lines()
	if lines.Len() <= MaxParagraph {
		return
	}
	if line, _ := reader.PeekLine(); setextUnderline.Match(line) {
		return // a setext heading takes the paragraph's lines
	}
	long, _ := pc.Get(longParagraphs).([]Span)
	pc.Set(longParagraphs, append(long, Span{lines.At(0).Start, lines.At(lines.Len() - 1).Stop}))
	lines.Clear()
}

// blankLongLines returns src with each line longer than MaxLine made
// spaces (a copy, when there is one), and where those lines are.
func blankLongLines(src []byte) ([]byte, []Span) {
	var long []Span
	for at := 0; at < len(src); {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		if end-at > MaxLine {
			long = append(long, Span{at, end})
		}
		at = end + 1
	}
	if long == nil {
		return src, nil
	}
	out := bytes.Clone(src)
	for _, s := range long {
		for i := s.Start; i < s.End; i += copy(out[i:s.End], manySpaces) {
		}
	}
	return out, long
}

// parsers are goldmark's parsers of each Dialect, made once: a parser
// keeps no state between documents.
var parsers = [...]func() parser.Parser{
	GitHub: sync.OnceValue(func() parser.Parser { return newParser(GitHub) }),
	MkDocs: sync.OnceValue(func() parser.Parser { return newParser(MkDocs) }),
	MdBook: sync.OnceValue(func() parser.Parser { return newParser(MdBook) }),
}

// parse parses src with parser p, of dialect d.
func parse(original []byte, d Dialect, p parser.Parser) *Document {
	read := len(original)
	if read > MaxSize {
		read = bytes.LastIndexByte(original[:MaxSize], '\n') + 1
		original = original[:read]
	}
	src, unread := blankLongLines(original)
	doc := &Document{src: src, Unread: unread, Read: read}
	defer func() { doc.src = original }() // src is original's bytes, but for the blanked lines
	pc := parser.NewContext()
	root := p.Parse(text.NewReader(src), parser.WithContext(pc))
	if long, ok := pc.Get(longParagraphs).([]Span); ok {
		doc.Unread = append(doc.Unread, long...)
		slices.SortFunc(doc.Unread, func(a, b Span) int { return a.Start - b.Start })
	}
	uses, imageUses := map[string]int{}, map[string]int{}
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			doc.link(Inline, n.Destination, n.Reference, uses, n)
		case *ast.Image:
			doc.link(Image, n.Destination, n.Reference, uses, n)
			if n.Reference != nil {
				doc.link(Image, nil, n.Reference, imageUses, n)
			}
		case *ast.LinkReferenceDefinition:
			l := Link{Kind: Definition, Label: string(n.Label), Dest: href(n.Destination)}
			l.Span, l.Angle, l.Unplaced = doc.spanOf(n.Destination, n.Pos(), Definition)
			doc.Links = append(doc.Links, l)
		case *ast.AutoLink:
			if l, ok := doc.autolink(n); ok {
				doc.Links = append(doc.Links, l)
			}
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				s := n.Segments.At(i)
				doc.HTML = append(doc.HTML, Span{s.Start, s.Stop})
			}
		case *ast.HTMLBlock:
			for i := range n.Lines().Len() {
				s := n.Lines().At(i)
				doc.HTML = append(doc.HTML, Span{s.Start, s.Stop})
			}
			if n.HasClosure() {
				s := n.ClosureLine
				doc.HTML = append(doc.HTML, Span{s.Start, s.Stop})
			}
		case *ast.Heading:
			h := Heading{Level: n.Level, Text: string(headingText(n, src, d == MdBook)), Start: -1}
			if n.Lines().Len() > 0 {
				h.Start = n.Lines().At(0).Start
			}
			if id, ok := n.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					h.ID = string(b)
				}
			}
			doc.Headings = append(doc.Headings, h)
		}
		return ast.WalkContinue, nil
	})
	for i := range doc.Links {
		if l := &doc.Links[i]; l.Kind == Definition {
			label := string(util.ToLinkReference([]byte(l.Label)))
			l.Uses, l.ImageUses = uses[label], imageUses[label]
		}
	}
	return doc
}

// autolink returns the link of an autolink goldmark found.
func (doc *Document) autolink(n *ast.AutoLink) (Link, bool) {
	label := n.Label(doc.src)
	return doc.autolinkAt(doc.offset(label), label, n.AutoLinkType == ast.AutoLinkEmail, n.Protocol)
}

// autolinkAt returns the link of the autolink whose text, label, is at
// start (-1 where it is not in the source): an e-mail address, or a URL
// whose protocol, if not nil, its text leaves out. An extended autolink
// ends where GitHub's renderer ends it.
func (doc *Document) autolinkAt(start int, label []byte, email bool, protocol []byte) (Link, bool) {
	if start < 0 {
		return Link{}, false
	}
	l := Link{Kind: Autolink, Extended: start == 0 || doc.src[start-1] != '<'}
	if l.Extended {
		label = label[:autolinkEnd(label)]
	}
	if len(label) == 0 {
		return Link{}, false
	}
	l.Span = Span{start, start + len(label)}
	dest := label
	switch {
	case email && !bytes.HasPrefix(label, []byte("mailto:")):
		dest = append([]byte("mailto:"), label...)
	case protocol != nil:
		dest = append(append(bytes.Clone(protocol), "://"...), label...)
	}
	l.Dest = string(util.URLEscape(dest, false))
	return l, true
}

// autolinkEnd returns where an extended autolink whose text, as far as
// white space or "<", is label ends, as cmark-gfm (GitHub's renderer)
// ends it: without its trailing punctuation (?!.,:*_~'"), without a ")"
// that closes no "(" of it, and without a trailing ";", or "&name;" that
// looks like a character reference.
func autolinkEnd(label []byte) int {
	end := len(label)
	for end > 0 {
		switch c := label[end-1]; {
		case bytes.IndexByte([]byte("?!.,:*_~'\""), c) >= 0:
			end--
		case c == ';':
			i := end - 2
			for i > 0 && (label[i] >= 'a' && label[i] <= 'z' || label[i] >= 'A' && label[i] <= 'Z') {
				i--
			}
			if i < end-2 && label[i] == '&' {
				end = i
			} else {
				end--
			}
		case c == ')':
			if bytes.Count(label[:end], []byte(")")) <= bytes.Count(label[:end], []byte("(")) {
				return end
			}
			end--
		default:
			return end
		}
	}
	return end
}

// link adds an inline link or image, or counts a use of a definition.
func (doc *Document) link(k Kind, dest []byte, ref *ast.ReferenceLink, uses map[string]int, n ast.Node) {
	if ref != nil {
		label := ref.Value
		if len(label) == 0 { // [text][] and [text]: the text is the label
			//lint:ignore SA1019 CommonMark matches a collapsed or shortcut reference by its link text as written, children and all, which is what Text gives; its replacements (Lines, Value) are each one kind of node's.
			label = n.Text(doc.src)
		}
		uses[string(util.ToLinkReference(label))]++
		return
	}
	l := Link{Kind: k, Dest: href(dest)}
	l.Span, l.Angle, l.Unplaced = doc.spanOf(dest, n.Pos(), k)
	doc.Links = append(doc.Links, l)
}

// href is what a renderer writes in an href for the destination dest as
// written: escapes and references decoded, percent-encoded as cmark does.
func href(dest []byte) string {
	// Escapes and references start with "\\" or "&": without them there
	// is nothing to decode.
	decode := bytes.IndexByte(dest, '\\') >= 0 || bytes.IndexByte(dest, '&') >= 0
	return string(util.URLEscape(dest, decode))
}

// emptyDest finds where the empty destination of a link of kind k that
// starts at near is written: between the parentheses of [text]() (after
// the "(", so that a title after it stays one), or inside the angle
// brackets of [text](<>) and [label]: <>, where a rewrite puts a target,
// as href="" gets one. Where the source does not read so, the link is
// unplaced, its span empty at near, and it is not to be rewritten.
func (doc *Document) emptyDest(near int, k Kind) (span Span, angle, unplaced bool) {
	nowhere := Span{max(near, 0), max(near, 0)}
	src := doc.src
	p := near
	if k == Image && p < len(src) && src[p] == '!' {
		p++
	}
	if p < 0 || p >= len(src) || src[p] != '[' {
		return nowhere, false, true
	}
	// The "]" that closes the text or label: brackets nest in a link's
	// text, and an escaped one or one in a code span does not count.
	depth := 0
	for p < len(src) {
		switch c := src[p]; c {
		case '\\':
			p++
		case '`':
			n := 0
			for p+n < len(src) && src[p+n] == '`' {
				n++
			}
			run := src[p : p+n]
			if end := bytes.Index(src[p+n:], run); end >= 0 {
				p += n + end + n - 1
			} else {
				p += n - 1
			}
		case '[':
			depth++
		case ']':
			depth--
		}
		p++
		if depth == 0 {
			break
		}
	}
	if depth != 0 {
		return nowhere, false, true
	}
	open := byte('(')
	if k == Definition {
		open = ':'
	}
	if p >= len(src) || src[p] != open {
		return nowhere, false, true
	}
	p++
	after := p
	newlines := 0
	for p < len(src) && (src[p] == ' ' || src[p] == '\t' || src[p] == '\n' || src[p] == '\r') {
		if src[p] == '\n' {
			newlines++
		}
		p++
	}
	if newlines <= 1 && p+1 < len(src) && src[p] == '<' && src[p+1] == '>' {
		return Span{p + 1, p + 1}, true, false
	}
	if k == Definition {
		return nowhere, false, true // an empty destination there is "<>"
	}
	return Span{after, after}, false, false
}

// spanOf returns where the destination dest of a link of kind k that
// starts at near, a slice of the source that goldmark hands out, is
// written, whether it is in angle brackets, and whether an empty one's
// place could not be told (emptyDest). A destination goldmark copied out
// of the source is at near.
func (doc *Document) spanOf(dest []byte, near int, k Kind) (span Span, angle, unplaced bool) {
	if len(dest) == 0 {
		return doc.emptyDest(near, k)
	}
	start := doc.offset(dest)
	if start < 0 {
		return Span{max(near, 0), max(near, 0)}, false, false
	}
	s := Span{start, start + len(dest)}
	angle = start > 0 && doc.src[start-1] == '<' && s.End < len(doc.src) && doc.src[s.End] == '>'
	return s, angle, false
}

// offset returns where the slice b is in the source, -1 if it is no slice
// of it (goldmark copies a line that a tab indents). Its pointer says so
// exactly, where searching for the bytes would find the first copy of a
// destination written twice.
func (doc *Document) offset(b []byte) int {
	if len(b) == 0 || len(doc.src) == 0 {
		return -1
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(doc.src)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if p < base || p+uintptr(len(b)) > base+uintptr(len(doc.src)) {
		return -1
	}
	return int(p - base)
}

// headingText returns what a heading shows: the text content of its
// rendered HTML. With smart, its runs of "-" outside code are dashes, as
// mdBook's smart punctuation (on by default since 0.5) makes them.
func headingText(n ast.Node, src []byte, smart bool) []byte {
	var b []byte
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Image:
			return ast.WalkSkipChildren, nil // its alt text is no text of the page
		case *ast.Text:
			v := c.Value(src)
			if !c.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			if _, code := c.Parent().(*ast.CodeSpan); smart && !code {
				v = smartDashes(v)
			}
			b = append(b, v...)
			if c.SoftLineBreak() {
				b = append(b, '\n')
			}
		case *ast.String:
			b = append(b, c.Value...)
		case *ast.AutoLink:
			b = append(b, c.Label(src)...)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b
}

// smartDashes makes each run of two "-" or more dashes, as CommonMark's
// smart punctuation does (pulldown-cmark's, mdBook's): "--" an en dash,
// "---" an em dash; a longer run all en dashes or all em dashes when it
// can, else em dashes first and as few en dashes as can be.
func smartDashes(v []byte) []byte {
	if !bytes.Contains(v, []byte("--")) {
		return v
	}
	var out []byte
	for i := 0; i < len(v); {
		if v[i] != '-' {
			out = append(out, v[i])
			i++
			continue
		}
		n := 0
		for i+n < len(v) && v[i+n] == '-' {
			n++
		}
		i += n
		if n == 1 {
			out = append(out, '-')
			continue
		}
		em, en := 0, 0
		switch {
		case n%3 == 0:
			em = n / 3
		case n%2 == 0:
			en = n / 2
		case n%3 == 2:
			em, en = (n-2)/3, 1
		default:
			em, en = (n-4)/3, 2
		}
		out = append(out, bytes.Repeat([]byte("\u2014"), em)...)
		out = append(out, bytes.Repeat([]byte("\u2013"), en)...)
	}
	return out
}

// Shadow returns a document as long as the source, with its raw HTML
// where it is and every other byte a space (line breaks kept): an HTML
// link extractor reads the links of the HTML with the source's offsets,
// lines and columns, and nothing of the Markdown around it. It is made
// once, and is the Document's: a caller must not change it.
func (doc *Document) Shadow() []byte {
	if doc.shadow != nil {
		return doc.shadow
	}
	out := make([]byte, len(doc.src))
	cr := bytes.IndexByte(doc.src, '\r') >= 0
	at := 0
	// blank makes out[at:end] spaces but for its line breaks.
	blank := func(end int) {
		for i := at; i < end; i += copy(out[i:end], manySpaces) {
		}
		for _, brk := range []byte("\n\r") {
			if brk == '\r' && !cr {
				break
			}
			for i := at; ; i++ {
				n := bytes.IndexByte(doc.src[i:end], brk)
				if n < 0 {
					break
				}
				i += n
				out[i] = brk
			}
		}
		at = end
	}
	for _, s := range doc.HTML {
		if s.Start < at {
			continue
		}
		blank(s.Start)
		copy(out[s.Start:s.End], doc.src[s.Start:s.End])
		at = s.End
	}
	blank(len(out))
	doc.shadow = out
	return out
}

var manySpaces = bytes.Repeat([]byte{' '}, 4096)

// GitHub's extended autolinks, as cmark-gfm finds them: after "http://",
// "https://" or "ftp://" a host of letters, digits, "-", "_" and ".", any
// one (127.0.0.1:8080, localhost); after "www." one with a period; then
// whatever follows up to white space or "<", of which autolinkEnd takes
// what cmark-gfm keeps. goldmark's own wants a top-level domain. They
// are compiled at their first use: a run that meets no extended autolink
// (a book for mdBook) does not pay for them.
var autolinkRegexps = sync.OnceValues(func() (url, www *regexp.Regexp) {
	return regexp.MustCompile(`^(?:http|https|ftp)://[\p{L}\p{N}_.\-]+[^\s<]*`), regexp.MustCompile(`^www\.[\p{L}\p{N}_.\-]+[^\s<]*`)
})

// autolinkLength returns the length of the extended autolink that line
// starts with, as autolinkRegexps's url (or with www, www) finds it: after
// "http://", "https://" or "ftp://" (or "www."), a letter, number, "_",
// "." or "-", then everything up to white space or "<"; 0 for none. The
// scanner's own, without the regexps, whose Unicode classes took a
// quarter of a millisecond of a run to compile (FuzzAutolinkLength holds
// it to them).
func autolinkLength(line []byte, www bool) int {
	n := 0
	for _, prefix := range []string{"http://", "https://", "ftp://", "www."} {
		if www == (prefix == "www.") && bytes.HasPrefix(line, []byte(prefix)) {
			n = len(prefix)
			break
		}
	}
	if n == 0 {
		return 0
	}
	if r, _ := utf8.DecodeRune(line[n:]); !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != '.' && r != '-' {
		return 0
	}
	for ; n < len(line); n++ {
		switch line[n] {
		case ' ', '\t', '\n', '\f', '\r', '<': // RE2's \s, and "<"
			return n
		}
	}
	return n
}

// linkifyOptions make goldmark's linkify extension and parser find
// GitHub's extended autolinks by autolinkRegexps.
func linkifyOptions() []extension.LinkifyOption {
	url, www := autolinkRegexps()
	return []extension.LinkifyOption{extension.WithLinkifyURLRegexp(url), extension.WithLinkifyWWWRegexp(www)}
}

// newParser returns goldmark's parser for a dialect. It parses every
// paragraph's inlines: emptying one that can hold no link, which once
// saved time here, leaves a list item with no child, and goldmark then
// closes its lists otherwise (the scanner, which reads most documents,
// skips those paragraphs itself).
func newParser(d Dialect) parser.Parser {
	var opts []goldmark.Option
	// The bound on paragraphs runs before goldmark's reference
	// definitions (priority 100).
	opts = append(opts, goldmark.WithParserOptions(parser.WithParagraphTransformers(util.Prioritized(longParagraphTransformer{}, 50))))
	switch d {
	case GitHub:
		opts = append(opts, goldmark.WithExtensions(extension.NewLinkify(linkifyOptions()...), extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote))
	case MdBook:
		opts = append(opts, goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote),
			goldmark.WithParserOptions(parser.WithHeadingAttribute()))
	case MkDocs:
		opts = append(opts, goldmark.WithExtensions(extension.Table))
	}
	return goldmark.New(opts...).Parser()
}

// mayLink reports whether text may hold a link: whether it holds "[" or
// "<", or with GitHub's extended autolinks (extended), "@", "://" or
// "www." (they start with "http://", "https://", "ftp://" or "www.", in
// lower case). Each is looked for with bytes.IndexByte, which reads many
// bytes at a time.
func mayLink(v []byte, extended bool) bool {
	return bytes.IndexByte(v, '[') >= 0 || bytes.IndexByte(v, '<') >= 0 ||
		extended && (bytes.IndexByte(v, '@') >= 0 || bytes.Contains(v, []byte("://")) || bytes.Contains(v, []byte("www.")))
}

// setextUnderline is a line that makes the paragraph above it a heading.
var setextUnderline = regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*\r?\n?$`)
