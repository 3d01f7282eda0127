package markdown

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// The scanner: how Parse and Scan read a document. It reads the block
// structure line by line (CommonMark's "A parsing strategy": open
// containers are matched, then new blocks started), then the inlines of
// only the paragraphs and headings that can hold a link, as goldmark's
// parser would: the same links, HTML, headings and anchors, which
// TestScanner and FuzzScanner hold it to. It keeps no tree: a stack of
// containers (block quotes and list items), the one open leaf block, the
// lines of its paragraphs and headings. So its time is linear in the
// document whatever its nesting or line length, and it reads a document
// whole, without goldmark's bounds (MaxLine, MaxParagraph, MaxSize).
//
// What it does not decide alone (a footnote, a definition over several
// lines, a carriage return, a setext heading's hard line break) it leaves
// to goldmark, for the whole document: scan says why (bail), and Parse
// parses with goldmark. Where goldmark departs from CommonMark and
// GitHub's renderer (depart), it reads as they do.

// fallback is what the scanner panics with to hand a document to
// goldmark; scan recovers it.
type fallback struct{ why string }

func bail(why string) { panic(fallback{why}) }

// scan reads src as goldmark would, but for the links of its inlines,
// which its links method hands out: the Document has its headings, its
// HTML, its definitions' uses. Or scan says why it does not (a construct
// it leaves to goldmark).
func scan(src []byte, d Dialect) (s *scanner, why string) {
	s = newScanner(src, d)
	defer func() {
		if r := recover(); r != nil {
			f, is := r.(fallback)
			if !is {
				panic(r)
			}
			s.release()
			s, why = nil, f.why
		}
	}()
	switch {
	case bytes.IndexByte(src, '\r') >= 0:
		return nil, "a carriage return"
	case bytes.IndexByte(src, 0) >= 0:
		return nil, "a NUL"
	case !utf8.Valid(src):
		return nil, "bytes that are not UTF-8"
	case d != MkDocs && bytes.Contains(src, []byte("[^")):
		return nil, "a footnote"
	}
	s.structure()
	s.prepare()
	return s, ""
}

// scanners keep their memory from document to document.
var scanners = sync.Pool{New: func() any {
	return &scanner{defs: map[string]bool{}, in: &inline{uses: map[string]int{}, images: map[string]int{}, none: map[string]int{}}}
}}

// newScanner returns a scanner for src, from the pool.
func newScanner(src []byte, d Dialect) *scanner {
	s := scanners.Get().(*scanner)
	in := s.in
	*s = scanner{src: src, d: d, doc: &Document{src: src, Read: len(src)}, in: in, defs: s.defs,
		stack: s.stack[:0], para: s.para[:0], blocks: s.blocks[:0], spans: s.spans[:0], defLinks: s.defLinks[:0],
		recorded: s.recorded[:0]}
	clear(s.defs)
	*in = inline{s: s, uses: in.uses, images: in.images, none: in.none,
		buf: in.buf[:0], starts: in.starts[:0], plain: in.plain[:0], delims: in.delims[:0],
		found: in.found[:0], openers: in.openers[:0]}
	clear(in.uses)
	clear(in.images)
	clear(in.none)
	return s
}

// release puts s back in the pool, unless a document made its memory
// large.
func (s *scanner) release() {
	if cap(s.spans) > 1<<16 || cap(s.blocks) > 1<<16 || cap(s.in.buf) > 1<<20 || cap(s.in.found) > 1<<12 || cap(s.stack) > 1<<12 {
		return
	}
	s.src, s.doc, s.yield, s.in.b, s.in.lines = nil, nil, nil, nil, nil
	scanners.Put(s)
}

// A container is an open block quote, or list item: its marker ('-',
// '+', '*', or '.' or ')' of an ordered one) and its content's column.
type container struct {
	marker  byte
	content int
	fresh   bool // an item that started blank, with nothing in it yet
	empty   bool // such an item, after a blank line: it holds nothing
}

// A leaf is the kind of the open leaf block.
type leaf int

const (
	noLeaf leaf = iota
	paragraphLeaf
	fencedLeaf
	indentedLeaf
	htmlLeaf
)

// A block is what the second pass reads, in document order: a paragraph
// or a heading whose inlines are parsed, or a definition, already whole.
type block struct {
	from, to int    // its lines (a paragraph's, or a heading's text): spans[from:to]
	heading  int    // a heading's level; 0 for a paragraph
	start    int    // where a heading's text starts, -1 for none
	def      int    // a definition: 1 + its index in defLinks
	task     bool   // a paragraph that is its list item's first block
	rec      [2]int // its links: recorded[rec[0]:rec[1]]
	may      int8   // mayLink of its text, once known: 1 true, -1 false
}

// mayLink is mayLink of b's text, src, found once for both passes. Only
// GitHub has extended autolinks.
func (s *scanner) mayLink(b *block, src []byte) bool {
	if b.may == 0 {
		b.may = -1
		if mayLink(src, s.d == GitHub) {
			b.may = 1
		}
	}
	return b.may > 0
}

// block adds a paragraph or heading of the lines.
func (s *scanner) block(lines []Span, heading, start int) {
	from := len(s.spans)
	s.spans = append(s.spans, lines...)
	s.blocks = append(s.blocks, block{from: from, to: len(s.spans), heading: heading, start: start})
}

type scanner struct {
	src []byte
	d   Dialect
	doc *Document

	stack  []container
	leaf   leaf
	blanks int // blank lines just before this one
	// paraTask says the open paragraph is its list item's first block;
	// taskLine, that this line is the first of an item that started
	// blank.
	paraTask, taskLine bool
	// departs says where the scanner read the document as CommonMark and
	// cmark-gfm do, and goldmark does not (depart): TestScanner holds it
	// to cmark-gfm there, not to goldmark.
	departs string
	// The last line that looked like a thematic break from breakFrom,
	// of breakChar, up to breakFails, where it turned out not to be one.
	breakFrom, breakFails int
	breakChar             byte
	// The open leaf's state: a fence's character and length; an HTML
	// block's kind (1 to 7); a paragraph's lines, left-trimmed.
	fenceChar byte
	fenceLen  int
	htmlKind  int
	para      []Span

	// yield takes each link, as it is found, in order; stopped says it
	// asked for no more.
	yield   func(Link) bool
	stopped bool
	in      *inline

	// The links the second pass keeps for the third, while recording.
	recording bool
	recorded  []Link

	blocks   []block
	spans    []Span          // the blocks' lines
	defLinks []Link          // the definitions' links
	defs     map[string]bool // the labels defined, as util.ToLinkReference makes them
}

// A cursor is a place in a line: its byte, and its column, which is past
// the byte's when a container took part of a tab.
type cursor struct{ pos, col int }

// indent returns the columns of white space at c, and the cursor after it.
func (s *scanner) indent(c cursor, end int) (int, cursor) {
	start := c.col
	for ; c.pos < end; c.pos++ {
		switch s.src[c.pos] {
		case ' ':
			c.col++
			continue
		case '\t':
			c.col += 4 - c.col%4
			continue
		}
		break
	}
	return c.col - start, c
}

// advance takes n columns of white space at c (indent said there are as
// many); partial says it ended inside a tab.
func (s *scanner) advance(c cursor, n int) (_ cursor, partial bool) {
	for n > 0 {
		if s.src[c.pos] == ' ' {
			c.pos++
			c.col++
			n--
			continue
		}
		w := 4 - c.col%4
		if w > n {
			c.col += n
			return c, true
		}
		c.pos++
		c.col += w
		n -= w
	}
	return c, false
}

// structure is the first pass: the block structure, line by line.
func (s *scanner) structure() {
	for at := 0; at < len(s.src); {
		end := bytes.IndexByte(s.src[at:], '\n')
		next := 0
		if end < 0 {
			end, next = len(s.src), len(s.src)
		} else {
			end += at
			next = end + 1
		}
		s.line(at, end)
		at = next
	}
	s.closeTo(0)
}

// blank reports whether b is white space.
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// match matches the line's open containers from c on: how many it
// continues, the cursor after them, and whether the last took part of a
// tab.
func (s *scanner) match(c cursor, end int) (n int, _ cursor, partial bool) {
	for ; n < len(s.stack); n++ {
		k := s.stack[n]
		if k.marker == 0 {
			ind, after := s.indent(c, end)
			if ind > 3 || after.pos >= end || s.src[after.pos] != '>' {
				break
			}
			c, partial = s.quoteMarker(after, end), false
			continue
		}
		ind, after := s.indent(c, end)
		if after.pos == end {
			if k.fresh {
				s.stack[n].empty = true // it ends at the next line that is not blank
			}
			continue // a blank line goes on with a list item
		}
		// Where goldmark's lists depart from CommonMark's, and from
		// GitHub's renderer, cmark-gfm, the scanner reads as they do.
		if k.empty {
			// An item that starts blank holds nothing after a blank line
			// (CommonMark's "at most one blank line"); goldmark closes
			// every list there, from the outermost.
			if _, _, ok := s.listItem(after, end, false); ok || slices.ContainsFunc(s.stack[:n], func(k container) bool { return k.marker != 0 }) {
				s.depart("an item that started blank, and a blank line")
			}
			break
		}
		if ind < k.content-c.col {
			if ind >= 4 {
				s.depart("a line indented four columns, short of its list item's content") // goldmark keeps it in the item
			}
			break
		}
		if k.fresh {
			if _, _, ok := s.listItem(after, end, false); ok {
				s.depart("a list in an item that started blank") // goldmark closes the item
			}
			s.stack[n].fresh = false
			s.taskLine = n == len(s.stack)-1
		}
		if s.blanks >= 2 {
			s.depart("a list item's line after two blank lines") // goldmark may read it as code, or close the item
		}
		c, partial = s.advance(c, k.content-c.col)
	}
	return n, c, partial
}

// quoteMarker returns the cursor after a block quote's ">" at c and the
// one space after it.
func (s *scanner) quoteMarker(c cursor, end int) cursor {
	c = cursor{c.pos + 1, c.col + 1}
	if c.pos < end && s.src[c.pos] == ' ' {
		c = cursor{c.pos + 1, c.col + 1}
	} else if c.pos < end && s.src[c.pos] == '\t' {
		// The space is a column of the tab; the rest of it is the
		// content's indent (goldmark pads it, as spaces of its own).
		s.depart("a tab after a quote's marker")
		if 4-c.col%4 == 1 {
			return cursor{c.pos + 1, c.col + 1}
		}
		return cursor{c.pos, c.col + 1}
	}
	return c
}

// line reads the line src[start:end].
func (s *scanner) line(start, end int) {
	s.taskLine = false
	matched, c, partial := s.match(cursor{start, 0}, end)
	isBlank := blank(s.src[c.pos:end])
	if blank(s.src[start:end]) {
		s.blanks++
	} else {
		defer func() { s.blanks = 0 }()
	}
	all := matched == len(s.stack)

	// The open leaf, when every container goes on.
	if all {
		switch s.leaf {
		case fencedLeaf:
			if ind, after := s.indent(c, end); ind <= 3 && s.closingFence(after.pos, end) {
				s.leaf = noLeaf
			}
			return
		case indentedLeaf:
			if ind, _ := s.indent(c, end); ind >= 4 || isBlank {
				return
			}
			s.leaf = noLeaf
		case htmlLeaf:
			if s.htmlKind >= 6 && isBlank {
				s.leaf = noLeaf
				return
			}
			if partial {
				s.depart("a tab in an HTML block's indent")
			}
			s.html(c.pos, end)
			return
		}
	}
	if isBlank {
		s.closeTo(matched)
		return
	}
	if s.leaf != paragraphLeaf && s.leaf != noLeaf {
		s.closeTo(matched)
	}
	if partial {
		s.depart("a tab a container took part of")
	}

	// New blocks, containers first.
	opened := false
	for {
		ind, after := s.indent(c, end)
		if after.pos == end {
			s.closeTo(matched) // nothing after the containers opened
			return
		}
		paraOpen := s.leaf == paragraphLeaf && !opened
		if ind >= 4 {
			if paraOpen {
				break // a paragraph's line
			}
			s.closeTo(matched)
			s.leaf = indentedLeaf
			return
		}
		if bytes.IndexByte(s.src[c.pos:after.pos], '\t') >= 0 {
			s.depart("a tab in the indent of a block")
		}
		p := after.pos
		switch ch := s.src[p]; {
		case ch == '>':
			s.closeTo(matched)
			s.stack = append(s.stack, container{})
			matched++
			c, opened = s.quoteMarker(after, end), true
			continue
		case ch == '#' && s.atx(p, end, matched):
			return
		case (ch == '`' || ch == '~') && s.fence(p, end, matched):
			return
		case ch == '<' && s.htmlStart(c.pos, p, end, matched, paraOpen):
			return
		case paraOpen && matched == len(s.stack) && (ch == '=' || ch == '-') && s.setext(p, end):
			return
		case (ch == '*' || ch == '-' || ch == '_') && s.thematicBreak(p, end):
			s.closeTo(matched)
			return
		}
		if k, next, ok := s.listItem(after, end, paraOpen && matched == len(s.stack)); ok {
			s.closeTo(matched)
			s.stack = append(s.stack, k)
			matched++
			c, opened = next, true
			continue
		}
		break
	}
	// Text: a paragraph's line.
	line := s.trimLeft(c.pos, end)
	if s.leaf == paragraphLeaf && !opened {
		// The open paragraph's line, in its containers or a lazy one,
		// which leaves the containers it does not continue open.
		s.para = append(s.para, line)
		return
	}
	s.closeTo(matched)
	s.leaf = paragraphLeaf
	s.para = append(s.para[:0], line)
	// The first block of a list item: a task list item's box it starts
	// with is no link.
	s.paraTask = opened && s.stack[len(s.stack)-1].marker != 0 || s.taskLine
}

// trimLeft returns the line from pos on without its leading white space.
func (s *scanner) trimLeft(pos, end int) Span {
	for pos < end && (s.src[pos] == ' ' || s.src[pos] == '\t') {
		pos++
	}
	return Span{pos, end}
}

// closeTo closes the open leaf and the containers past the first n.
func (s *scanner) closeTo(n int) {
	if s.leaf == paragraphLeaf {
		s.closeParagraph()
	}
	s.leaf = noLeaf
	s.stack = s.stack[:n]
}

// closeParagraph reads the definitions a paragraph starts with, and keeps
// the rest for the second pass.
func (s *scanner) closeParagraph() {
	lines := s.para
	for len(lines) > 0 {
		n, ok := s.definition(lines)
		if !ok {
			break
		}
		lines = lines[n:]
		s.paraTask = false // the definition is the item's first block
	}
	if len(lines) == 0 {
		return
	}
	last := &lines[len(lines)-1]
	for last.End > last.Start && (s.src[last.End-1] == ' ' || s.src[last.End-1] == '\t') {
		last.End--
	}
	// A table (GitHub's, in each dialect): the first line after the
	// first that is a delimiter row makes the line before it a header
	// and the lines after it rows, when the header has as many cells; the
	// lines before it stay a paragraph.
	for i := 1; i < len(lines); i++ {
		align := tableColumns(s.src[lines[i].Start:lines[i].End], i == len(lines)-1)
		if align == 0 {
			continue
		}
		header := s.tableRow(lines[i-1], -1)
		if len(header) != align {
			break
		}
		if i > 1 {
			s.block(lines[:i-1], 0, -1)
		}
		for _, cell := range header {
			s.block([]Span{cell}, 0, -1)
		}
		for _, row := range lines[i+1:] {
			for _, cell := range s.tableRow(row, align) {
				s.block([]Span{cell}, 0, -1)
			}
		}
		return
	}
	s.block(lines, 0, -1)
	s.blocks[len(s.blocks)-1].task = s.paraTask
}

// taskBox returns how long the task list item's box that line starts
// with is, with the white space after it, as goldmark's extension reads
// one ("[ ]", "[x]", "[X]", white space around the x): 0 for none.
func taskBox(line []byte) int {
	if len(line) < 3 || line[0] != '[' {
		return 0
	}
	j, inside, x := 1, 0, false
	for ; j < len(line) && line[j] != ']'; j++ {
		switch c := line[j]; {
		case c == ' ' || c == '\t':
		case (c == 'x' || c == 'X') && !x:
			x = true
		default:
			return 0
		}
		inside++
	}
	if j == len(line) || inside == 0 {
		return 0
	}
	for j++; j < len(line) && (line[j] == ' ' || line[j] == '\t'); j++ {
	}
	return j
}

// gfmTaskBox reports whether line starts with a task list item's box as
// GitHub Flavored Markdown has one: "[ ]", "[x]" or "[X]", and white space.
func gfmTaskBox(line []byte) bool {
	return len(line) >= 4 && line[0] == '[' && (line[1] == ' ' || line[1] == 'x' || line[1] == 'X') && line[2] == ']' && (line[3] == ' ' || line[3] == '\t')
}

// tableColumns returns how many columns a table's delimiter row says, as
// goldmark reads one, 0 if line is none: between "|", cells of "-" with
// perhaps a ":" on either side, in white space.
func tableColumns(line []byte, last bool) int {
	dashes := 0
	for _, c := range line {
		switch c {
		case '-':
			dashes++
		case '|', ':', ' ', '\t', '\v', '\f':
		default:
			return 0
		}
	}
	// All "-": not on the paragraph's last line, whose line break
	// goldmark has trimmed; on another, its line break is with it.
	if dashes == 0 || dashes == len(line) && last {
		return 0
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	for _, col := range cols {
		col = bytes.Trim(col, " \t\v\f")
		col = bytes.TrimPrefix(col, []byte(":"))
		col = bytes.TrimSuffix(col, []byte(":"))
		if len(col) == 0 || len(bytes.Trim(col, "-")) > 0 {
			return 0
		}
	}
	return len(cols)
}

// tableRow returns the cells of a table's row, as goldmark splits one: at
// each "|" without a backslash before it, a "|" at either end left out,
// each cell trimmed. A header's cells are all there are (columns -1); a
// row's, no more than the columns.
func (s *scanner) tableRow(row Span, columns int) []Span {
	line := s.src[row.Start:row.End]
	start := 0
	for start < len(line) && (line[start] == ' ' || line[start] == '\t') {
		start++
	}
	limit := len(line)
	for limit > start && (line[limit-1] == ' ' || line[limit-1] == '\t') {
		limit--
	}
	pos := start
	if pos < limit && line[pos] == '|' {
		pos++
	}
	if limit > pos && line[limit-1] == '|' {
		limit--
	}
	var cells []Span
	for pos < limit {
		if columns >= 0 && len(cells) >= columns {
			break
		}
		end := pos
		for ; end < limit; end++ {
			if line[end] == '|' && (end == start || line[end-1] != '\\') {
				break
			}
		}
		cell := Span{row.Start + pos, row.Start + end}
		for cell.Start < cell.End && (s.src[cell.Start] == ' ' || s.src[cell.Start] == '\t') {
			cell.Start++
		}
		for cell.End > cell.Start && (s.src[cell.End-1] == ' ' || s.src[cell.End-1] == '\t') {
			cell.End--
		}
		cells = append(cells, cell)
		pos = end + 1
	}
	return cells
}

// thematicBreak reports whether src[p:end] is a thematic break: three or
// more of one of "*", "-", "_", with white space. Where a line of them
// ends in something else ("- - - - x", a list 5,000 deep), the places
// after the first that is looked at are not looked at again: time linear
// in the line.
func (s *scanner) thematicBreak(p, end int) bool {
	c := s.src[p]
	if p > s.breakFrom && p < s.breakFails && c == s.breakChar {
		return false
	}
	n := 0
	for i := p; i < end; i++ {
		switch s.src[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			s.breakFrom, s.breakFails, s.breakChar = p, i, c
			return false
		}
	}
	return n >= 3
}

// atx reads an ATX heading at p, as goldmark does.
func (s *scanner) atx(p, end, matched int) bool {
	i := p
	for i < end && s.src[i] == '#' {
		i++
	}
	level := i - p
	if level > 6 || i < end && s.src[i] != ' ' && s.src[i] != '\t' {
		return false
	}
	s.closeTo(matched)
	from := i
	for from < end && (s.src[from] == ' ' || s.src[from] == '\t') {
		from++
	}
	to := end
	for to > from && (s.src[to-1] == ' ' || s.src[to-1] == '\t') {
		to--
	}
	if to > from {
		if s.d == MdBook && bytes.IndexByte(s.src[from:to], '{') >= 0 {
			bail("heading attributes")
		}
		// The closing sequence, and the white space before it.
		j := to - 1
		for j > from && s.src[j] == '#' {
			j--
		}
		if j == from && s.src[j] == '#' {
			s.block(nil, level, -1)
			return true
		}
		if j != to-1 && (s.src[j] == ' ' || s.src[j] == '\t') {
			to = j
			for to > from && (s.src[to-1] == ' ' || s.src[to-1] == '\t') {
				to--
			}
		}
		s.block([]Span{{from, to}}, level, from)
		return true
	}
	s.block(nil, level, -1)
	return true
}

// setext reads a setext heading's underline at p, which makes the open
// paragraph a heading.
func (s *scanner) setext(p, end int) bool {
	ch := s.src[p]
	i := p
	for i < end && s.src[i] == ch {
		i++
	}
	if !blank(s.src[i:end]) {
		return false
	}
	if s.src[s.para[0].Start] == '[' {
		bail("a setext heading that may start with a definition")
	}
	for i, l := range s.para[1:] {
		if tableColumns(s.src[l.Start:l.End], i == len(s.para)-2) > 0 {
			bail("a setext underline under what may be a table") // goldmark makes the table first
		}
	}
	for _, l := range s.para[:len(s.para)-1] {
		if c := s.src[l.End-1]; c == ' ' || c == '\t' || c == '\\' {
			bail("a setext heading's line break that is hard, or trimmed")
		}
	}
	lines := slices.Clone(s.para)
	line := &lines[len(lines)-1]
	for line.End > line.Start && (s.src[line.End-1] == ' ' || s.src[line.End-1] == '\t') {
		line.End--
	}
	level := 1
	if ch == '-' {
		level = 2
	}
	if s.d == MdBook && bytes.IndexByte(s.src[line.Start:line.End], '{') >= 0 {
		bail("heading attributes")
	}
	s.leaf = noLeaf
	s.block(lines, level, lines[0].Start)
	return true
}

// fence opens a fenced code block at p.
func (s *scanner) fence(p, end, matched int) bool {
	ch := s.src[p]
	i := p
	for i < end && s.src[i] == ch {
		i++
	}
	if i-p < 3 || ch == '`' && bytes.IndexByte(s.src[i:end], '`') >= 0 {
		return false
	}
	s.closeTo(matched)
	s.leaf, s.fenceChar, s.fenceLen = fencedLeaf, ch, i-p
	return true
}

// closingFence reports whether src[p:end] closes the open fence.
func (s *scanner) closingFence(p, end int) bool {
	i := p
	for i < end && s.src[i] == s.fenceChar {
		i++
	}
	return i-p >= s.fenceLen && blank(s.src[i:end])
}

// listItem reads a list item's marker at c: the item, and the cursor at
// its content. interrupts says it would interrupt a paragraph in the same
// container, which an empty item, or an ordered list that starts with
// another number than 1, does not.
func (s *scanner) listItem(c cursor, end int, interrupts bool) (container, cursor, bool) {
	p := c.pos
	i := p
	var marker byte
	start := 0
	switch ch := s.src[p]; {
	case ch == '-' || ch == '+' || ch == '*':
		marker, i = ch, p+1
	case ch >= '0' && ch <= '9':
		for i < end && i-p < 10 && s.src[i] >= '0' && s.src[i] <= '9' {
			start = start*10 + int(s.src[i]-'0')
			i++
		}
		if i-p > 9 || i >= end || s.src[i] != '.' && s.src[i] != ')' {
			return container{}, c, false
		}
		marker = s.src[i]
		i++
	default:
		return container{}, c, false
	}
	if i < end && s.src[i] != ' ' && s.src[i] != '\t' {
		return container{}, c, false
	}
	empty := i == end || blank(s.src[i:end])
	if interrupts && (empty || (marker == '.' || marker == ')') && start != 1) {
		return container{}, c, false // a paragraph's text
	}
	if empty {
		// Its content is on the lines after it, one column past its marker.
		w := i - p
		return container{marker: marker, content: c.col + w + 1, fresh: true}, cursor{end, c.col + w}, true
	}
	w := i - p
	n, after := s.indent(cursor{i, c.col + w}, end)
	if bytes.IndexByte(s.src[i:after.pos], '\t') >= 0 {
		s.depart("a tab after a list marker")
	}
	if n > 4 {
		// Indented code: the item's content is one column past its
		// marker, and the code the rest of the line.
		c, _ = s.advance(cursor{i, c.col + w}, 1)
		return container{marker: marker, content: c.col}, c, true
	}
	return container{marker: marker, content: c.col + w + n}, after, true
}

// htmlStart opens an HTML block at p, whose line, inside its containers,
// is src[from:end]: CommonMark's kinds 1 to 6 (with goldmark's names of
// kind 6), and kind 7, any other whole tag alone on its line, which does
// not interrupt a paragraph.
func (s *scanner) htmlStart(from, p, end, matched int, paraOpen bool) bool {
	line := s.src[p:end]
	kind := 0
	switch {
	case rawTextTag(line, 1) > 0: // line starts with "<"
		kind = 1
	case bytes.HasPrefix(line, []byte("<!--")):
		kind = 2
	case bytes.HasPrefix(line, []byte("<?")):
		kind = 3
	case len(line) > 2 && line[1] == '!' && line[2] >= 'A' && line[2] <= 'Z':
		kind = 4
	case bytes.HasPrefix(line, []byte("<![CDATA[")):
		kind = 5
	default:
		kind = blockTag(line, paraOpen)
	}
	if kind == 0 {
		return false
	}
	s.closeTo(matched)
	s.leaf, s.htmlKind = htmlLeaf, kind
	s.html(from, end)
	return true
}

// rawTextTag returns where the name ends of a tag at line[i:] whose
// contents are raw text (script, pre, style, textarea, in any case) and
// after which comes white space, ">", "/>" or the line's end; 0 if there
// is none.
func rawTextTag(line []byte, i int) int {

	for _, name := range [...]string{"script", "pre", "style", "textarea"} {
		n := i + len(name)
		if n > len(line) || !bytes.EqualFold(line[i:n], []byte(name)) {
			continue
		}
		if n == len(line) || line[n] == '>' || reSpace(line[n]) || line[n] == '/' && n+1 < len(line) && line[n+1] == '>' {
			return n
		}
	}
	return 0
}

// reSpace reports whether c is white space as regexp's \s is (goldmark
// tells HTML blocks by regular expressions).
func reSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// blockTag returns the kind of HTML block, 6, 7 or none, whose line
// starts with the tag that line starts with, as goldmark tells them.
func blockTag(line []byte, paraOpen bool) int {
	i := 1
	// A closing tag with attributes is not kind 7; goldmark takes "</ a"
	// with a space for no closing tag.
	closing := false
	if i < len(line) && line[i] == '/' {
		i++
		closing = i < len(line) && line[i] != ' '
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	n := tagName(line, i)
	if n == i {
		return 0
	}
	known := blockTags[strings.ToLower(string(line[i:n]))]
	// Kind 7: the whole line is the tag, and spaces.
	a := attributes(line, n)
	j := a
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j < len(line) && line[j] == '/' {
		j++
		if j >= len(line) || line[j] != '>' {
			j = -1
		}
	}
	if j >= 0 && j < len(line) && line[j] == '>' && blank(line[j+1:]) && bytes.IndexByte(line[j+1:], '\t') < 0 {
		name := strings.ToLower(string(line[i:n]))
		switch {
		case known:
			return 6
		case name != "script" && name != "style" && name != "pre" && !paraOpen && !(closing && a > n):
			return 7
		}
	}
	// Kind 6: a known name, then a space, ">", "/>" or the line's end.
	if known && (n == len(line) || line[n] == ' ' || line[n] == '>' || line[n] == '/' && n+1 < len(line) && line[n+1] == '>') {
		return 6
	}
	return 0
}

// tagName returns where the tag name at b[i] ends, i for none.
func tagName(b []byte, i int) int {
	if i >= len(b) || !isAlpha(b[i]) {
		return i
	}
	for i++; i < len(b) && (util.IsAlphaNumeric(b[i]) || b[i] == '-'); i++ {
	}
	return i
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tagSpace reports whether c is white space between a tag's attributes.
func tagSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// attributes returns where the attributes at b[i] end: each white space,
// a name, and perhaps "=" and a value, unquoted or quoted.
func attributes(b []byte, i int) int {
	for {
		j := i
		for j < len(b) && tagSpace(b[j]) {
			j++
		}
		if j == i || j >= len(b) || !(isAlpha(b[j]) || b[j] == '_' || b[j] == ':') {
			return i
		}
		for j++; j < len(b) && (util.IsAlphaNumeric(b[j]) || b[j] == ':' || b[j] == '.' || b[j] == '_' || b[j] == '-'); j++ {
		}
		i = j
		for j < len(b) && tagSpace(b[j]) {
			j++
		}
		if j < len(b) && b[j] == '=' {
			j++
			for j < len(b) && tagSpace(b[j]) {
				j++
			}
			if v := attributeValue(b, j); v > j {
				i = v
			}
		}
	}
}

// attributeValue returns where the attribute value at b[i] ends, i for
// none.
func attributeValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	if q := b[i]; q == '"' || q == '\'' {
		if n := bytes.IndexByte(b[i+1:], q); n >= 0 {
			return i + 1 + n + 1
		}
		return i
	}
	j := i
	for j < len(b) && b[j] > ' ' && b[j] != '"' && b[j] != '\'' && b[j] != '=' && b[j] != '<' && b[j] != '>' && b[j] != '`' {
		j++
	}
	return j
}

// openTag returns where the open tag at b[i], a "<", ends (it may go on
// over lines), 0 for none.
func openTag(b []byte, i int) int {
	n := tagName(b, i+1)
	if n == i+1 {
		return 0
	}
	j := attributes(b, n)
	for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n') {
		j++
	}
	if j < len(b) && b[j] == '/' {
		j++
	}
	if j < len(b) && b[j] == '>' {
		return j + 1
	}
	return 0
}

// closeTag returns where the closing tag at b[i], a "<", ends, 0 for none.
func closeTag(b []byte, i int) int {
	n := tagName(b, i+2)
	if n == i+2 {
		return 0
	}
	for n < len(b) && (b[n] == ' ' || b[n] == '\t' || b[n] == '\n') {
		n++
	}
	if n < len(b) && b[n] == '>' {
		return n + 1
	}
	return 0
}

// rawTextEnd reports whether line holds the end of an HTML block of kind
// 1: "</script>", "</pre>", "</style>" or "</textarea>", in any case.
func rawTextEnd(line []byte) bool {
	for i := 0; ; {
		k := bytes.Index(line[i:], []byte("</"))
		if k < 0 {
			return false
		}
		i += k + 2
		if n := rawTextTag(line, i); n > 0 && n < len(line) && line[n] == '>' {
			return true
		}
	}
}

var htmlEnds = [...][]byte{2: []byte("-->"), 3: []byte("?>"), 4: []byte(">"), 5: []byte("]]>")}

// html adds a line of the open HTML block, and closes the block where the
// line holds its end.
func (s *scanner) html(p, end int) {
	s.doc.HTML = append(s.doc.HTML, Span{p, min(end+1, len(s.src))}) // its line break too, as goldmark's
	line := s.src[p:end]
	switch k := s.htmlKind; {
	case k == 1 && rawTextEnd(line),
		k >= 2 && k <= 5 && bytes.Contains(line, htmlEnds[k]):
		s.leaf = noLeaf
	}
}

// blockTags are the names of HTML blocks of kind 6.
var blockTags = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`address article aside base basefont blockquote body caption center col
		colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3
		h4 h5 h6 head header hr html iframe legend li link main menu menuitem meta nav noframes ol optgroup option
		p param search section summary table tbody td tfoot th thead title tr track ul`) {
		blockTags[name] = true
	}
}

// definition reads the reference definition the paragraph's lines start
// with, as goldmark does: how many lines it takes.
func (s *scanner) definition(lines []Span) (int, bool) {
	line := s.src[lines[0].Start:lines[0].End]
	if len(line) == 0 || line[0] != '[' {
		return 0, false
	}
	base := lines[0].Start
	close, how := closure(line, 1, '[', ']')
	for k := 1; how == atEnd && k < len(lines); k++ {
		// A label that goes on: a definition's ("[a\nb]: /url") is
		// left to goldmark; a link's text ("[a\nb](/url)") is no
		// definition.
		next := s.src[lines[k].Start:lines[k].End]
		var end int
		if end, how = closure(next, 0, '[', ']'); how == found {
			if end+1 < len(next) && next[end+1] == ':' {
				bail("a definition's label on more than one line")
			}
			return 0, false
		}
	}
	if how == atEnd {
		return 0, false
	}
	if how != found {
		return 0, false
	}
	label := line[1:close]
	if util.IsBlank(label) || close+1 >= len(line) || line[close+1] != ':' {
		return 0, false
	}
	i := close + 2
	for i < len(line) && util.IsSpace(line[i]) {
		i++
	}
	if i == len(line) {
		if len(lines) > 1 {
			bail("its destination on the next line")
		}
		return 0, false
	}
	dest, angle, next, ok := destination(line, i, len(line))
	if !ok {
		return 0, false
	}
	rest := line[next:]
	l := Link{Kind: Definition, Label: string(label), Dest: href(line[dest.Start:dest.End]), Angle: angle && dest.End > dest.Start}
	l.Span = Span{base + dest.Start, base + dest.End}
	if dest.End == dest.Start {
		l.Span, l.Angle, l.Unplaced = s.doc.emptyDest(base, Definition)
	}
	if blank(rest) {
		if len(lines) > 1 {
			if c := s.src[lines[1].Start]; c == '"' || c == '\'' || c == '(' {
				bail("a title on the next line")
			}
		}
	} else {
		j := 0
		for j < len(rest) && util.IsSpace(rest[j]) {
			j++
		}
		if j == 0 || j == len(rest) {
			return 0, false
		}
		end, how, ok := title(rest, j)
		if !ok {
			return 0, false
		}
		if how == atEnd && len(lines) > 1 {
			bail("a title on more than one line")
		}
		if how != found || !blank(rest[end+1:]) {
			return 0, false
		}
	}
	s.defs[string(util.ToLinkReference(label))] = true
	s.defLinks = append(s.defLinks, l)
	s.blocks = append(s.blocks, block{def: len(s.defLinks)})
	return 1, true
}

// How a closure search ended.
const (
	found    = iota // at its closer
	atOpener        // at an opener, which does not nest
	atEnd           // at the end of the text
)

// closure finds the closer of an opener whose text starts at b[from], as
// goldmark's FindClosure does without nesting: backslash escapes, no code
// spans.
func closure(b []byte, from int, opener, closer byte) (int, int) {
	for i := from; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\' && i+1 < len(b) && util.IsPunct(b[i+1]):
			i++
		case c == closer:
			return i, found
		case c == opener:
			return i, atOpener
		}
	}
	return len(b), atEnd
}

// title finds the end of a link title whose opener ('"', "'" or "(") is
// at b[p]: where its closer is and how the search ended (closure); ok is
// false when b[p] opens no title.
func title(b []byte, p int) (end, how int, ok bool) {
	closer := b[p]
	switch closer {
	case '(':
		closer = ')'
	case '"', '\'':
	default:
		return 0, 0, false
	}
	end, how = closure(b, p+1, b[p], closer)
	return end, how, true
}

// destination reads a link destination at b[i], as goldmark does: in
// angle brackets on its line, or up to white space or a ")" that closes
// no "(". It returns where the destination is (inside the brackets), and
// where what follows it starts.
func destination(b []byte, i, end int) (dest Span, angle bool, next int, ok bool) {
	line := b[i:end]
	if line[0] == '<' {
		for j := 1; j < len(line); j++ {
			switch c := line[j]; {
			case c == '\\' && j < len(line)-1 && util.IsPunct(line[j+1]):
				j++
			case c == '>':
				return Span{i + 1, i + j}, true, i + j + 1, true
			}
		}
		return Span{}, false, 0, false
	}
	opened, j := 0, 0
loop:
	for j < len(line) {
		switch c := line[j]; {
		case c == '\\' && j < len(line)-1 && util.IsPunct(line[j+1]):
			j += 2
			continue
		case c == '(':
			opened++
		case c == ')':
			opened--
			if opened < 0 {
				break loop
			}
		case util.IsSpace(c):
			break loop
		}
		j++
	}
	return Span{i, i + j}, false, i + j, j > 0
}

// prepare is the second pass, which hands nothing out: it makes the
// headings' text, finds the HTML of the inlines, and counts the
// definitions' uses (a definition is handed out, with its count, where
// it is written, before the links after it that use it). What it leaves
// to goldmark is found before any link is handed out.
func (s *scanner) prepare() {
	in := s.in
	in.preparing, s.recording = true, true
	s.read(in)
	in.preparing = false
	for i := range s.defLinks {
		l := &s.defLinks[i]
		label := string(util.ToLinkReference([]byte(l.Label)))
		l.Uses, l.ImageUses = in.uses[label], in.images[label]
	}
	sortHTML(s.doc.HTML)
}

// links is the third pass: it hands each link to yield, in document
// order, as it finds it.
func (s *scanner) links(yield func(Link) bool) {
	s.yield = yield
	if s.recording {
		for i := range s.blocks {
			if s.stopped {
				break
			}
			if b := &s.blocks[i]; b.def > 0 {
				s.out(s.defLinks[b.def-1])
			} else {
				for _, l := range s.recorded[b.rec[0]:b.rec[1]] {
					s.out(l)
				}
			}
		}
	} else {
		s.read(s.in)
	}
	s.release()
}

// maxRecorded is the most links the second pass keeps for the third to
// hand out; past it, the third reads the inlines again, so that memory
// does not grow with the links. (A variable for the tests, which read
// every document both ways.)
var maxRecorded = 1 << 14

// read reads the blocks' inlines: in the second pass, the headings'
// text, the HTML, the uses of definitions and the links to keep; in the
// third (past maxRecorded), the links to hand out.
func (s *scanner) read(in *inline) {
	for i := range s.blocks {
		if s.stopped {
			return
		}
		b := &s.blocks[i]
		lines := s.spans[b.from:b.to]
		switch {
		case b.def > 0:
			if !in.preparing {
				s.out(s.defLinks[b.def-1])
			}
		case b.heading > 0 && in.preparing:
			h := Heading{Level: b.heading, Start: b.start}
			b.rec[0] = len(s.recorded)
			if len(lines) > 0 {
				h.Text = string(in.parse(lines, true))
			}
			b.rec[1] = len(s.recorded)
			s.doc.Headings = append(s.doc.Headings, h)
		case b.heading > 0:
			if len(lines) > 0 && s.mayLink(b, s.src[lines[0].Start:lines[len(lines)-1].End]) {
				in.parse(lines, true)
			}
		default:
			// A task list item's box, "[x]" or "[ ]", and the white space
			// after it, goldmark's extension takes before the inlines.
			if b.task && s.d != MkDocs {
				first := s.src[lines[0].Start:lines[0].End]
				n := taskBox(first)
				if n > 0 && !gfmTaskBox(first) {
					// goldmark's box, which GitHub reads as text (and
					// "[x](a.md)" as a link): read as GitHub does.
					s.depart("a task box goldmark reads where GitHub reads text")
					n = 0
				}
				if n > 0 {
					lines = append(in.task[:0], lines...)
					in.task = lines
					if lines[0].Start += n; lines[0].Start == lines[0].End {
						lines = lines[1:]
					}
					if len(lines) == 0 {
						continue
					}
				}
			}
			// The paragraph's source, from its first line to its last,
			// container markers and all: a link needs what mayLink looks
			// for, and a use of a definition a "]".
			src := s.src[lines[0].Start:lines[len(lines)-1].End]
			b.rec[0] = len(s.recorded)
			need := s.mayLink(b, src)
			if in.preparing && !s.recording {
				// Past maxRecorded, the second pass looks only for the
				// HTML and the uses of definitions.
				need = bytes.IndexByte(src, '<') >= 0 || len(s.defs) > 0 && bytes.IndexByte(src, ']') >= 0
			}
			if need {
				in.parse(lines, false)
			}
			b.rec[1] = len(s.recorded)
		}
	}
}

// depart notes a place where the scanner reads the document as
// CommonMark and cmark-gfm do, and goldmark does not.
func (s *scanner) depart(why string) {
	if s.departs == "" {
		s.departs = why
	}
}

// out hands out a link: in the second pass, into recorded.
func (s *scanner) out(l Link) {
	switch {
	case s.in.preparing && s.recording && len(s.recorded) < maxRecorded:
		s.recorded = append(s.recorded, l)
	case s.in.preparing:
		s.recording, s.recorded = false, s.recorded[:0]
	case !s.stopped && !s.yield(l):
		s.stopped = true
	}
}

// sortHTML puts the HTML in document order: a block's lines come in the
// first pass, inline HTML in the second.
func sortHTML(h []Span) {
	if !slices.IsSortedFunc(h, func(a, b Span) int { return a.Start - b.Start }) {
		slices.SortStableFunc(h, func(a, b Span) int { return a.Start - b.Start })
	}
}
