package markdown

import (
	"bytes"
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// The scanner's inlines (scan.go reads the blocks): what a paragraph or
// heading holds of links, HTML and text, as goldmark's inline parsers
// find them.

// An opener is a "[" or "![" not yet closed.
type opener struct {
	at    int // the "["
	start int // the "[", or the "!" of an image
	image bool
	// In a heading: where it is in the text, and how many runs of
	// emphasis came before it.
	text, delims int
}

// inline parses the inlines of a paragraph or heading for links, as
// goldmark's inline parsers do.
type inline struct {
	s            *scanner
	uses, images map[string]int

	b      []byte  // the lines, joined by "\n"
	plain  []byte  // a heading's text not yet flushed
	delims []delim // a heading's runs of "*" and "_"
	// preparing says this is the second pass (prepare): it makes the
	// headings' text, finds the HTML, counts the definitions' uses and
	// keeps the links it finds for the third pass, handing out none.
	preparing bool
	// autolink is the text of the autolink angle read last, nil for raw
	// HTML.
	autolink []byte
	// What keeps the text's reading linear (lineEnd, destination, until,
	// linkify): the line whose end was found last; where the last
	// destinations read stopped; where a closer was looked for and not
	// found; up to where no e-mail address can start.
	eolFrom, eol int
	dests        [2]destMemo
	none         map[string]int
	noAt         int
	hasAt        bool // whether the text holds an "@" at all
	// The links found, and where each one's node starts in b: goldmark's
	// tree holds a link before the links of its text.
	task    []Span // a paragraph's lines after its task box
	found   []foundLink
	openers []opener // kept from text to text, for its memory
	lines   []Span   // where they are in the source
	starts  []int    // where they are in b
	buf     []byte
	// The code spans' backtick runs, by length, then where each starts;
	// kept from text to text, for its memory.
	runs     []backticks
	runsRead bool
}

// backticks is a run of n backticks at b[at].
type backticks struct{ n, at int }

// src returns the source offset of b[i].
func (in *inline) src(i int) int {
	k, _ := slices.BinarySearch(in.starts, i+1)
	k--
	return in.lines[k].Start + i - in.starts[k]
}

// parse parses lines; a heading's text is what it returns.
func (in *inline) parse(lines []Span, heading bool) []byte {
	src := in.s.src
	in.lines, in.starts, in.runs, in.runsRead = lines, in.starts[:0], in.runs[:0], false
	in.eolFrom, in.eol, in.noAt, in.dests = 0, 0, 0, [2]destMemo{}
	clear(in.none)
	if len(lines) == 1 {
		in.b = src[lines[0].Start:lines[0].End]
		in.starts = append(in.starts, 0)
	} else {
		in.buf = in.buf[:0]
		for i, l := range lines {
			if i > 0 {
				in.buf = append(in.buf, '\n')
			}
			in.starts = append(in.starts, len(in.buf))
			in.buf = append(in.buf, src[l.Start:l.End]...)
		}
		in.b = in.buf
	}
	b := in.b
	in.hasAt = bytes.IndexByte(b, '@') >= 0
	// GitHub's extended autolinks need "http:", "https:", "ftp:", "www."
	// or "@"; without them, only the bytes in plainStops stop the loop.
	gh := in.s.d == GitHub && (in.hasAt || bytes.Contains(b, []byte("://")) || bytes.Contains(b, []byte("www.")))
	stops := &plainStops
	if gh {
		stops = &linkifyStops
	}
	var text []byte
	openers := in.openers[:0]
	lastLink := -1 // the "[" of the last link made
	images := 0    // the images among the openers
	// release hands out the links found so far, unless an opener before
	// them may yet be a link or image, which goes before them: an image,
	// or a link's opener with no link after it (one with a link in it is
	// text, as links do not nest).
	release := func() {
		if images == 0 && (len(openers) == 0 || openers[len(openers)-1].at < lastLink) {
			in.emit()
		}
	}
	after := 0 // where the last inline node ended
	escaped := false
	for i := 0; i < len(b); {
		c := b[i]
		if escaped {
			// What the text shows: the escaped punctuation, or a
			// backslash and what follows it.
			escaped = false
			if heading && !util.IsPunct(c) {
				in.plain = append(in.plain, '\\')
			}
			if heading {
				in.plain = append(in.plain, c)
			}
			i++
			continue
		}
		if gh && len(openers) == 0 && util.IsAlphaNumeric(c) && (i == 0 || i == after || b[i-1] == '\n' || in.triggers(i-1)) {
			if n := in.linkify(i); n > 0 {
				if heading {
					text = append(in.flush(text), b[i:i+n]...)
				}
				i += n
				after = i
				release()
				continue
			}
		}
		if !heading && !stops[c] {
			// Up to the next byte that may start or end something, or
			// be followed by where an extended autolink may start.
			for i++; i < len(b) && !stops[b[i]]; i++ {
			}
			continue
		}
		switch c {
		case '\\':
			if heading && i+1 == len(b) {
				in.plain = append(in.plain, c)
			}
			escaped = true
			i++
			continue
		case '`':
			end, code, ok := in.codeSpan(i)
			if heading && ok {
				text = append(in.flush(text), code...)
			} else if heading {
				in.plain = append(in.plain, b[i:end]...)
			}
			i, after = end, end
			continue
		case '<':
			if end := in.angle(i); end > 0 {
				if heading && in.autolink != nil {
					text = append(in.flush(text), in.autolink...) // raw HTML shows nothing
				}
				i, after = end, end
				release()
				continue
			}
		case '[', '!':
			if c == '!' && (i+1 >= len(b) || b[i+1] != '[') {
				break
			}
			o := opener{at: i, start: i}
			if c == '!' {
				o.at, o.image = i+1, true
			}
			if heading {
				text = append(in.flush(text), b[i:o.at+1]...)
				o.text, o.delims = len(text)-(o.at+1-i), len(in.delims)
			}
			openers = append(openers, o)
			if o.image {
				images++
			}
			i = o.at + 1
			after = i
			continue
		case ']':
			if len(openers) == 0 {
				break
			}
			last := openers[len(openers)-1]
			openers = openers[:len(openers)-1]
			if last.image {
				images--
			}
			if len(openers) > 998 || !last.image && lastLink > last.at {
				break
			}
			if end, ok := in.link(last, i); ok {
				if !last.image {
					lastLink = last.at
				}
				if heading {
					// A link shows its text; an image, nothing.
					text = in.flush(text)
					if len(in.delims) > last.delims {
						bail("emphasis in a heading's link")
					}
					if last.image {
						text = text[:last.text]
					} else {
						text = append(text[:last.text], text[last.text+1:]...)
					}
				}
				i, after = end, end
				release()
				continue
			}
			release()
		case '*', '_':
			if heading {
				n := 1
				for i+n < len(b) && b[i+n] == c {
					n++
				}
				text = append(in.flush(text), b[i:i+n]...)
				in.delims = append(in.delims, delimiter(b, i, n, len(text)-n))
				i += n
				after = i
				continue
			}
		case '~':
			if heading && in.s.d != MkDocs {
				// GitHub's strikethrough, as goldmark reads it: a run of
				// one or two, a delimiter as emphasis's are; a longer run
				// is text.
				n := 1
				for i+n < len(b) && b[i+n] == '~' {
					n++
				}
				text = append(in.flush(text), b[i:i+n]...)
				if n <= 2 {
					in.delims = append(in.delims, delimiter(b, i, n, len(text)-n))
				}
				i += n
				after = i
				continue
			}
		}
		if heading {
			in.plain = append(in.plain, c)
		}
		i++
	}
	in.openers = openers[:0]
	in.emit()
	text = in.flush(text)
	if len(in.delims) > 0 {
		text = emphasis(text, in.delims)
		in.delims = in.delims[:0]
	}
	return text
}

// A delim is a run of "*", "_" or "~" in a heading's text.
type delim struct {
	at, orig    int // where in the text, how long
	n, removed  int // how much of it can still pair; how much paired
	open, close bool
	active      bool
}

// delimiter returns the run of n "*" or "_" at b[i], which starts at at in
// the text, as goldmark's ScanDelimiter tells whether it can open or
// close emphasis (CommonMark's left- and right-flanking runs).
func delimiter(b []byte, i, n, at int) delim {
	before, after := ' ', ' '
	if i > 0 {
		before, _ = utf8.DecodeLastRune(b[:i])
	}
	if i+n < len(b) {
		after, _ = utf8.DecodeRune(b[i+n:])
	}
	beforePunct, beforeSpace := util.IsPunctRune(before), util.IsSpaceRune(before)
	afterPunct, afterSpace := util.IsPunctRune(after), util.IsSpaceRune(after)
	left := !afterSpace && (!afterPunct || beforeSpace || beforePunct)
	right := !beforeSpace && (!beforePunct || afterSpace || afterPunct)
	d := delim{at: at, orig: n, n: n, open: left, close: right, active: true}
	if b[i] == '_' {
		d.open = left && (!right || beforePunct)
		d.close = right && (!left || afterPunct)
	}
	return d
}

// emphasis returns a heading's text without the delimiters that make
// emphasis, paired as CommonMark's "process emphasis" pairs them: each
// closer with the nearest opener of its character before it, but for the
// rule of 3, two of each where both have two, the runs between them left
// as text.
func emphasis(text []byte, ds []delim) []byte {
	if len(ds) > 200 {
		bail("a heading of more than 200 runs of emphasis")
	}
	for ci := range ds {
		cl := &ds[ci]
		for cl.active && cl.close && cl.n > 0 {
			oi := ci - 1
			for ; oi >= 0; oi-- {
				op := &ds[oi]
				if !op.active || !op.open || op.n == 0 || text[op.at] != text[cl.at] {
					continue
				}
				if (op.close || cl.open) && (op.orig+cl.orig)%3 == 0 && !(op.orig%3 == 0 && cl.orig%3 == 0) {
					continue
				}
				break
			}
			if oi < 0 {
				if !cl.open {
					cl.active = false
				}
				break
			}
			op := &ds[oi]
			use := 1
			if op.n >= 2 && cl.n >= 2 {
				use = 2
			}
			op.n, cl.n = op.n-use, cl.n-use
			op.removed, cl.removed = op.removed+use, cl.removed+use
			for k := oi + 1; k < ci; k++ {
				ds[k].active = false
			}
			if op.n == 0 {
				op.active = false
			}
		}
	}
	out := make([]byte, 0, len(text))
	from := 0
	for _, d := range ds {
		out = append(out, text[from:d.at+d.orig-d.removed]...)
		from = d.at + d.orig
	}
	return append(out, text[from:]...)
}

// add keeps a link whose node starts at b[at].
func (in *inline) add(l Link, at int) {
	if in.preparing && !in.s.recording {
		return
	}
	in.found = append(in.found, foundLink{at, l})
}

// A foundLink is a link found, with where its node starts.
type foundLink struct {
	node int
	link Link
}

// emit hands out the links found, in the order of their nodes' starts:
// an outer link or image before the links of its text, which complete
// first.
func (in *inline) emit() {
	slices.SortStableFunc(in.found, func(a, b foundLink) int { return a.node - b.node })
	for _, f := range in.found {
		in.s.out(f.link)
	}
	in.found = in.found[:0]
}

// flush appends a heading's text outside code, inline nodes and links to
// text, with mdBook's smart dashes.
func (in *inline) flush(text []byte) []byte {
	plain := in.plain
	if bytes.IndexByte(plain, '&') >= 0 {
		// Its character references, as goldmark's Text resolves them,
		// after the escapes.
		plain = util.ResolveEntityNames(util.ResolveNumericReferences(plain))
	}
	if in.s.d == MdBook {
		plain = smartDashes(plain)
	}
	text = append(text, plain...)
	in.plain = in.plain[:0]
	return text
}

// plainStops are the bytes at which a paragraph's inlines may start or
// end: escapes, code spans, autolinks and HTML, links and images.
// linkifyStops add those after which one of GitHub's extended autolinks
// may start (goldmark's linkify triggers, and a line's start).
var plainStops, linkifyStops [256]bool

func init() {
	for _, c := range []byte("\\`<[!]") {
		plainStops[c], linkifyStops[c] = true, true
	}
	for _, c := range []byte(" (*_~\n") {
		linkifyStops[c] = true
	}
}

// triggers reports whether b[i], unescaped, makes goldmark look for one of
// GitHub's extended autolinks after it.
func (in *inline) triggers(i int) bool {
	switch in.b[i] {
	case ' ':
		return true
	case '(', '*', '_', '~':
		return i == 0 || in.b[i-1] != '\\' || escapedBackslash(in.b[:i])
	}
	return false
}

// escapedBackslash reports whether the backslash b ends with is itself
// escaped: whether an even number of backslashes end b.
func escapedBackslash(b []byte) bool {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n%2 == 0
}

// lineEnd returns where the line of b[i] ends, after its "\n".
func (in *inline) lineEnd(i int) int {
	if i >= in.eolFrom && i < in.eol {
		return in.eol
	}
	in.eolFrom, in.eol = i, len(in.b)
	if n := bytes.IndexByte(in.b[i:], '\n'); n >= 0 {
		in.eol = i + n + 1
	}
	return in.eol
}

// destination reads an inline link's destination at b[p], as the
// function destination does, in time linear in the text however many
// links start and fail on one line ("[a](<" or "[a](b" a thousand
// times): the first "<" or unparenthesized destination on a line that
// was read to its end tells the next ones there where theirs end, for
// their escapes are read alike (a "(" or a space before each).
func (in *inline) destination(p int) (dest Span, angle bool, next int, ok bool) {
	end := in.lineEnd(p)
	m := &in.dests[0]
	if in.b[p] != '<' {
		m = &in.dests[1]
	}
	if p > m.from && p < m.stop && m.stop <= end {
		if m.angle {
			if m.next == 0 {
				return Span{}, false, 0, false
			}
			return Span{p + 1, m.next - 1}, true, m.next, true
		}
		return Span{p, m.stop}, false, m.stop, m.stop > p
	}
	dest, angle, next, ok = destination(in.b, p, end)
	switch {
	case in.b[p] == '<' && !ok:
		*m = destMemo{from: p, stop: end, angle: true}
	case in.b[p] == '<':
		*m = destMemo{from: p, stop: next, next: next, angle: true}
	case bytes.IndexByte(in.b[p:dest.End], ')') < 0:
		*m = destMemo{from: p, stop: dest.End}
	}
	return dest, angle, next, ok
}

// A destMemo is where a destination read from from stopped: for one in
// angle brackets, after its ">" (next; 0 for none up to stop, the line's
// end); for another, at stop, with no ")" before it.
type destMemo struct {
	from, stop, next int
	angle            bool
}

// linkify reads one of GitHub's extended autolinks at b[i], as goldmark's
// linkify parser does, and returns how many bytes it takes (0 for none).
func (in *inline) linkify(i int) int {
	line := in.b[i:in.lineEnd(i)]
	stop := -1
	email := false
	var protocol []byte
	if n := autolinkLength(line, false); n > 0 {
		stop = n
	}
	if stop < 0 && bytes.HasPrefix(line, []byte("www.")) {
		if n := autolinkLength(line, true); n > 0 {
			stop = n
		}
		protocol = []byte("http")
	}
	if stop < 0 {
		// An e-mail address: none where the word holds no "@", which
		// each of its places that a link may start at would look for.
		if !in.hasAt || i < in.noAt {
			return 0
		}
		sawAt := false
		word := 0
		for ; word < len(line) && line[word] != ' ' && line[word] != '\t' && line[word] != '\n'; word++ {
			sawAt = sawAt || line[word] == '@'
		}
		if !sawAt {
			in.noAt = i + word
			return 0
		}
		email = true
		stop = util.FindEmailIndex(line)
		if stop < 0 {
			return 0
		}
		at := bytes.IndexByte(line, '@')
		if bytes.IndexByte(line[at:stop-1], '.') < 0 {
			return 0
		}
		if line[stop-1] == '.' {
			stop--
		}
		if stop < len(line) && (line[stop] == '-' || line[stop] == '_') {
			return 0
		}
	}
	// goldmark's end: without trailing punctuation, a ")" that closes no
	// "(", and an entity-like "&name;".
	opening := bytes.Count(line[:stop], []byte("("))
	closing := bytes.Count(line[:stop], []byte(")"))
	n := stop
trim:
	for n > 1 {
		switch line[n-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			n--
		case ')':
			if closing <= opening {
				break trim
			}
			closing--
			n--
		case ';':
			j := n - 2
			for j > 0 && util.IsAlphaNumeric(line[j]) {
				j--
			}
			if j == n-2 || line[j] != '&' {
				break trim
			}
			n = j
		default:
			break trim
		}
	}
	if l, ok := in.s.doc.autolinkAt(in.src(i), line[:n], email, protocol); ok {
		in.add(l, i)
	}
	return n
}

// codeSpan reads the backtick run at b[i]: where what it starts ends,
// and the text of the code span it opens, if it opens one.
func (in *inline) codeSpan(i int) (end int, code []byte, ok bool) {
	b := in.b
	n := 0
	for i+n < len(b) && b[i+n] == '`' {
		n++
	}
	if !in.runsRead {
		in.runsRead = true
		for j := 0; j < len(b); {
			k := bytes.IndexByte(b[j:], '`')
			if k < 0 {
				break
			}
			j += k
			m := 0
			for j+m < len(b) && b[j+m] == '`' {
				m++
			}
			in.runs = append(in.runs, backticks{m, j})
			j += m
		}
		slices.SortStableFunc(in.runs, func(x, y backticks) int { return x.n - y.n })
	}
	k, _ := slices.BinarySearchFunc(in.runs, backticks{n, i + n}, func(x, y backticks) int { return cmp.Or(x.n-y.n, x.at-y.at) })
	if k == len(in.runs) || in.runs[k].n != n {
		return i + n, nil, false
	}
	close := in.runs[k].at
	code = b[i+n : close]
	if !blank(code) && len(code) >= 2 && (code[0] == ' ' || code[0] == '\n') && (code[len(code)-1] == ' ' || code[len(code)-1] == '\n') {
		code = code[1 : len(code)-1]
	}
	return close + n, code, true
}

// angle reads an autolink or raw HTML at the "<" at b[i]: where it ends,
// 0 for neither.
func (in *inline) angle(i int) int {
	b := in.b
	line := b[i:in.lineEnd(i)]
	stop := util.FindEmailIndex(line[1:])
	email := true
	if stop < 0 {
		stop, email = util.FindURLIndex(line[1:]), false
	}
	in.autolink = nil
	if stop >= 0 && stop+1 < len(line) && line[stop+1] == '>' {
		if l, ok := in.s.doc.autolinkAt(in.src(i+1), line[1:stop+1], email, nil); ok {
			in.add(l, i)
		}
		in.autolink = line[1 : stop+1]
		return i + stop + 2
	}
	rest := b[i:]
	end := -1
	switch {
	case len(rest) > 1 && util.IsAlphaNumeric(rest[1]):
		if n := openTag(b, i); n > 0 {
			end = n
		}
	case len(rest) > 2 && rest[1] == '/' && util.IsAlphaNumeric(rest[2]):
		if n := closeTag(b, i); n > 0 {
			end = n
		}
	case bytes.HasPrefix(rest, []byte("<!-->")):
		end = i + 5
	case bytes.HasPrefix(rest, []byte("<!--->")):
		end = i + 6
	case bytes.HasPrefix(rest, []byte("<!--")):
		end = in.until(i+4, "-->")
	case bytes.HasPrefix(rest, []byte("<?")):
		end = in.until(i, "?>")
	case len(rest) > 2 && rest[1] == '!' && rest[2] >= 'A' && rest[2] <= 'Z':
		end = in.until(i, ">")
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		end = in.until(i, "]]>")
	}
	if end < 0 {
		return 0
	}
	// The HTML's source, a piece for each line, with its line break.
	for from := i; from < end; {
		to := min(in.lineEnd(from), end)
		if in.preparing { // the HTML is found in the second pass
			in.s.doc.HTML = append(in.s.doc.HTML, Span{in.src(from), in.src(to-1) + 1})
		}
		from = to
	}
	return end
}

// until returns where the first closer at or after b[i] ends, -1 if none:
// none after b[i] means none after any later place, which is not looked
// for again.
func (in *inline) until(i int, closer string) int {
	if from, ok := in.none[closer]; ok && i >= from {
		return -1
	}
	n := bytes.Index(in.b[i:], []byte(closer))
	if n < 0 {
		in.none[closer] = i
		return -1
	}
	return i + n + len(closer)
}

// link reads what follows the "]" at b[i] that closes the opener last: an
// inline link's destination, a reference's label, or nothing (a shortcut
// reference), as goldmark does. It returns where the link ends.
func (in *inline) link(last opener, i int) (int, bool) {
	b := in.b
	q := i + 1
	if q < len(b) && b[q] == '(' {
		if dest, angle, end, ok := in.inline(q); ok {
			k := Inline
			if last.image {
				k = Image
			}
			l := Link{Kind: k}
			if dest.Start < 0 {
				l.Span, l.Angle, l.Unplaced = in.s.doc.emptyDest(in.src(last.start), k)
			} else {
				v := b[dest.Start:dest.End]
				l.Dest = href(v)
				start := in.src(dest.Start)
				l.Span = Span{start, start + len(v)}
				l.Angle = angle
			}
			in.add(l, last.start)
			return end, true
		}
	}
	if q < len(b) && b[q] == '[' {
		close, how := closure(b, q+1, '[', ']')
		if how == found {
			label := b[q+1 : close]
			if util.IsBlank(label) {
				label = b[last.at+1 : i]
			}
			if len(label) > 999 || !in.use(label, last.image) {
				return 0, false
			}
			return close + 1, true
		}
	}
	label := b[last.at+1 : i]
	if len(label) > 999 || !in.use(label, last.image) {
		return 0, false
	}
	return i + 1, true
}

// use counts a use of the definition label, if there is one.
func (in *inline) use(label []byte, image bool) bool {
	if len(in.s.defs) == 0 {
		return false
	}
	key := string(util.ToLinkReference(label))
	if !in.s.defs[key] {
		return false
	}
	if in.preparing {
		in.uses[key]++
		if image {
			in.images[key]++
		}
	}
	return true
}

// inline reads an inline link's parenthesized destination and title at
// b[q], the "(": where its destination is (Start -1 for an empty one),
// and where the link ends.
func (in *inline) inline(q int) (dest Span, angle bool, end int, ok bool) {
	b := in.b
	p := skipSpace(b, q+1)
	if p < len(b) && b[p] == ')' {
		return Span{-1, -1}, false, p + 1, true
	}
	if p >= len(b) {
		return
	}
	dest, angle, p, ok = in.destination(p)
	if !ok {
		return
	}
	if angle && dest.Start == dest.End {
		dest = Span{-1, -1}
	}
	p = skipSpace(b, p)
	if p < len(b) && b[p] == ')' {
		return dest, angle, p + 1, true
	}
	if p >= len(b) {
		return dest, angle, 0, false
	}
	close, how, ok := title(b, p)
	if !ok || how != found {
		return dest, angle, 0, false
	}
	p = skipSpace(b, close+1)
	if p < len(b) && b[p] == ')' {
		return dest, angle, p + 1, true
	}
	return dest, angle, 0, false
}

// skipSpace returns where the white space at b[i] ends, line breaks and
// all.
func skipSpace(b []byte, i int) int {
	for i < len(b) && util.IsSpace(b[i]) {
		i++
	}
	return i
}
