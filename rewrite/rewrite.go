// Package rewrite moves HTML documents: it rewrites their links in place,
// so that a tree of documents can be moved "as a whole", as RFC 1808's
// introduction puts it, or a document can leave its tree.
//
// A document's links are found by package links, as a browser finds them:
// every link kind (href, src, each candidate of a srcset, each URL of a
// ping, a meta refresh's URL, CSS url() and @import in <style> and style
// attributes, form actions), resolved against the base the browser uses
// (the document's URL, or its <base href>, HTML's frozen base URL). Each
// link whose target Rewriter select gets a new reference that resolves,
// from where the document will be, to where its target will be:
//
//   - Relative: a link whose target and base are under the same one of
//     these URL prefixes (they move together) is written as the shortest
//     relative reference from the base (relurl's Resolver.Relative, whose
//     round trip is its contract), a relative path: one written from the
//     root ("/docs/x") or with the host ("//host/docs/x") is rewritten
//     too, since it would not reach its target once the tree is moved
//     to another path or host; a relative link from under a prefix to
//     a target outside it is written absolute, or it would move with the
//     tree and miss;
//   - Absolute: every target is written as its absolute URL;
//   - Moves: a target under OLD is moved under NEW, and so is the document
//     if its own URL is under OLD; the reference is relative when the
//     target and the document's base are both under NEW, absolute
//     otherwise.
//
// The <base href> that sets the base is itself a link: one under a Relative
// prefix is made relative to the document's URL, or the tree could not
// move. One outside every prefix stays, and so do the links written
// against it: no relative reference from there reaches into the tree.
// With DropBase, the <base> element is removed, and every other <base href>
// that would set the base once it is gone, and every link is written
// against the document's own URL instead.
//
// Only the bytes of the values that change are written: an attribute's
// value, serialized again in its own quotes (or in double quotes when it
// had none and now needs them) with "&" and the quote escaped as HTML's
// serializer escapes them, or in a <style>, the CSS token of the URL
// alone. Text, comments, scripts, other attributes, white space and case
// are left as they are, and so is the document's encoding. A reference
// that does not change leaves its value as it was, so rewriting the output
// again changes nothing.
package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/encoding"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltree"
	"github.com/relurl/relurl/internal/microsyntax"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/markdown"
	"github.com/relurl/relurl/rfc1808"
)

// A Rewriter rewrites the links of documents: its fields say which links,
// and how. The zero Rewriter leaves every link as it is written.
type Rewriter struct {
	// Relative lists URL prefixes: a link whose target starts with one
	// is written relative to the document's base.
	Relative []string
	// Absolute writes every link as its absolute URL.
	Absolute bool
	// Moves move the targets under each Old to New, the first that
	// applies.
	Moves []Move
	// DropBase removes the <base> element that sets the document's base,
	// and every other that would set it once that one is gone, and
	// writes every link against the document's own URL.
	DropBase bool
	// Resolver resolves links and finds relative references. Nil
	// resolves as browsers do, by the WHATWG URL Standard, as relurl
	// rewrite does; &relurl.Resolver{Spec: relurl.RFC1808} is the RFC's.
	Resolver *relurl.Resolver
	// Jobs is how many files Files reads, rewrites and writes at once; 0
	// means one for each core.
	Jobs int
	// Write, if not nil, writes each file Files yields, on the goroutine
	// that rewrote it, before the file is yielded: a copy of a tree, or
	// documents rewritten in place, are written Jobs at a time. It is not
	// called for a file with an Err, or for a symbolic link. What it
	// returns is the file's WriteErr.
	Write func(f *File) error
	// Dialect is the renderer Markdown documents are written for.
	Dialect markdown.Dialect
	// MaxSize is the largest document Files reads, in bytes; 0 means
	// DefaultMaxSize. A larger one is not rewritten at all (a document is
	// rewritten whole or not at all): its Err says so, naming the bound.
	MaxSize int64
}

// resolver returns rw's resolver: rw.Resolver, or the URL Standard's.
func (rw *Rewriter) resolver() relurl.Resolver {
	if rw.Resolver == nil {
		return relurl.Resolver{Spec: relurl.WHATWG}
	}
	return *rw.Resolver
}

// DefaultMaxSize is the largest document a Rewriter reads unless told
// otherwise: 64 MiB, as package corpus reads them for links.
const DefaultMaxSize = 64 << 20

// ErrTooLarge is the error of a document over the Rewriter's MaxSize.
var ErrTooLarge = errors.New("larger than the size bound (-max-size): not rewritten")

// ReadDocument reads r whole, up to the Rewriter's MaxSize: a document
// larger (an endless stream, a device) is ErrTooLarge, read no further
// than one byte past the bound, so that memory never grows with it.
func (rw *Rewriter) ReadDocument(r io.Reader) ([]byte, error) {
	return rw.readDocument(r, 0)
}

// readDocument is ReadDocument with the size r is expected to have, if
// known, so that the document is read into one buffer of its size.
func (rw *Rewriter) readDocument(r io.Reader, size int64) ([]byte, error) {
	max := rw.MaxSize
	if max <= 0 {
		max = DefaultMaxSize
	}
	if size > max {
		return nil, fmt.Errorf("%w: %d bytes, over %d", ErrTooLarge, size, max)
	}
	var b bytes.Buffer
	b.Grow(int(size) + bytes.MinRead + 1) // no growing for a file that keeps its size
	if _, err := b.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, err
	}
	if int64(b.Len()) > max {
		return nil, fmt.Errorf("%w: over %d bytes", ErrTooLarge, max)
	}
	return b.Bytes(), nil
}

// A Move says that the URLs under Old are now under New.
type Move struct{ Old, New string }

// ParseMove parses "OLD=NEW", two absolute URLs.
func ParseMove(s string) (Move, error) {
	old, new, ok := strings.Cut(s, "=")
	if !ok {
		return Move{}, fmt.Errorf("%q: want OLD=NEW", s)
	}
	for _, u := range []string{old, new} {
		if !rfc1808.Split(u).HasScheme() {
			return Move{}, fmt.Errorf("%q: %q is not an absolute URL", s, u)
		}
	}
	return Move{old, new}, nil
}

// Result tells what Document did.
type Result struct {
	Links     int // links found
	Rewritten int // links whose reference changed
	BaseGone  bool
}

// Document rewrites the links of the HTML document src, whose base is outer
// unless it declares its own (its retrieval URL: links.Retrieved(url)),
// and returns the document rewritten, which is src itself when nothing
// changed. A document whose encoding cannot be written back byte for byte
// is an error.
func (rw *Rewriter) Document(src []byte, outer links.Base) ([]byte, Result, error) {
	enc, name := htmltree.Encoding(src, "")
	text := src
	if enc != nil {
		// The sites are offsets in the document decoded to UTF-8: it is
		// rewritten so, and written back in its encoding, if that gives
		// its bytes back.
		var err error
		if text, err = enc.NewDecoder().Bytes(src); err != nil {
			return nil, Result{}, fmt.Errorf("decoding %s: %w", name, err)
		}
		if back, err := enc.NewEncoder().Bytes(text); err != nil || !bytes.Equal(back, src) {
			return nil, Result{}, fmt.Errorf("its encoding, %s, does not give its bytes back once decoded: it cannot be rewritten byte for byte", name)
		}
	}
	read := func(x *links.Extractor, h *links.Handler) error {
		return x.Extract(bytes.NewReader(src), links.Doc{Format: links.FormatHTML, Base: outer}, h)
	}
	out, res, err := rw.rewrite(document{text: text, docURL: rw.move(outer.URL), retrieval: outer.URL, read: read})
	if err != nil || out == nil {
		return src, res, err
	}
	if enc != nil {
		if out, err = encode(enc, out); err != nil {
			return nil, res, fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return out, res, nil
}

// A document is one to rewrite: its text, decoded to UTF-8; docURL, the
// URL its <base href> (and, with DropBase, its links) will resolve against
// once rewritten: its own URL, moved, or for an iframe srcdoc's document
// its container's new base; how deep it is in srcdoc documents; and read,
// which finds its links against the base it has now.
type document struct {
	text   []byte
	docURL string
	// retrieval is the URL the document's links resolve against once its
	// <base> elements are gone (DropBase): its own, not moved.
	retrieval string
	depth     int
	read      func(*links.Extractor, *links.Handler) error
}

// rewrite applies to d's text the edits of the links d.read finds in it,
// and returns it rewritten, nil when nothing changed.
//
// The edits are applied as they come, in the order of the document, so
// that memory does not grow with its links (a page of six million links
// is rewritten in little more than twice its size). Should one come
// before the text already written, the document is read again, its edits
// kept and applied at the end.
func (rw *Rewriter) rewrite(d document) ([]byte, Result, error) {
	w := &editWriter{text: d.text}
	res, err := rw.edits(d, w.add)
	if err == nil && w.disordered {
		var edits []edit
		res, err = rw.edits(d, func(e edit) { edits = append(edits, e) })
		w = &editWriter{text: d.text, out: apply(d.text, edits), at: len(d.text), edits: len(edits)}
	}
	if err != nil || w.edits == 0 {
		return nil, res, err
	}
	return w.finish(), res, nil
}

// srcdoc rewrites doc, the document an <iframe srcdoc> holds, whose
// container's base is fallback and will be newBase once rewritten. Its
// links are rewritten as the container's are, against newBase: a relative
// one that would miss once the container's <base> is dropped or moved is
// written again.
func (rw *Rewriter) srcdoc(doc []byte, fallback links.Base, newBase, retrieval string, depth int) ([]byte, Result, error) {
	if depth > links.DefaultMaxDepth {
		return nil, Result{}, fmt.Errorf("iframe srcdoc documents nested deeper than %d", links.DefaultMaxDepth)
	}
	read := func(x *links.Extractor, h *links.Handler) error {
		return x.Extract(bytes.NewReader(doc), links.Doc{Format: links.FormatHTML, Base: fallback, Header: srcdocHeader}, h)
	}
	return rw.rewrite(document{text: doc, docURL: newBase, retrieval: retrieval, depth: depth, read: read})
}

// srcdocHeader is the header of an iframe srcdoc's document: it is UTF-8,
// whatever it declares, as HTML says of about:srcdoc.
var srcdocHeader = textproto.MIMEHeader{"Content-Type": {"text/html; charset=utf-8"}}

// Markdown rewrites the links of the Markdown document src, whose URL is
// url, written for the renderer Dialect: each destination that changes is
// written again as Markdown has it (in angle brackets if it was, or if it
// now holds what a bare destination cannot; "\" before what Markdown
// would read as an escape or a reference), a reference definition once
// for all its uses, titles left as they are; an autolink, which cannot be
// relative, becomes its target's absolute URL when the target moves; the
// links of its raw HTML as in an HTML document. It returns src itself
// when nothing changed.
func (rw *Rewriter) Markdown(src []byte, url string) ([]byte, Result, error) {
	outer := links.Retrieved(url)
	read := func(x *links.Extractor, h *links.Handler) error {
		x.Dialect = rw.Dialect
		return x.Extract(bytes.NewReader(src), links.Doc{Format: links.FormatMarkdown, Base: outer}, h)
	}
	out, res, err := rw.rewrite(document{text: src, docURL: rw.move(outer.URL), retrieval: outer.URL, read: read})
	if err != nil || out == nil {
		return src, res, err
	}
	return out, res, nil
}

// CSS rewrites the URLs of the stylesheet src, whose URL is url: each
// url() and @import, as in a <style>, the token alone. When src has room
// past its length, the byte after it is borrowed while it runs, as
// microsyntax.CSSURLs does, and restored.
func (rw *Rewriter) CSS(src []byte, url string) ([]byte, Result, error) {
	var res Result
	// The URLs come in the text's order: each edit is applied as it
	// comes, never kept (a stylesheet of a million url()s). src is read
	// in place when it has room past its length (microsyntax.CSSURLs).
	w := editWriter{text: src}
	var with []byte
	docURL := rw.move(url)
	b := links.Retrieved(url)
	for ref, token := range microsyntax.CSSURLs(src) {
		res.Links++
		target, rerr := rw.resolver().Resolve(url, string(cleanRef(ref)))
		if rerr != nil || !rfc1808.Split(target).HasScheme() {
			continue
		}
		l := links.Link{URL: []byte(target), Ref: ref, Base: &b}
		if to, ok := rw.reference(&l, docURL); ok && to != string(cleanRef(ref)) {
			with = appendCSSURL(with[:0], src[token[0]:token[1]], to)
			w.add(edit{token[0], token[1], with})
			res.Rewritten++
		}
	}
	if w.edits == 0 {
		return src, res, nil
	}
	return w.finish(), res, nil
}

func encode(enc encoding.Encoding, b []byte) ([]byte, error) {
	return enc.NewEncoder().Bytes(b)
}

// An edit replaces text[start:end] with with.
type edit struct {
	start, end int
	with       []byte
}

// editWriter writes text with its edits applied, as they come.
type editWriter struct {
	text       []byte
	out        []byte
	at         int  // the text before it is written
	edits      int  // edits applied
	disordered bool // an edit came before at: out is of no use
}

func (w *editWriter) add(e edit) {
	if e.start < w.at || w.disordered {
		w.disordered = true
		return
	}
	if w.out == nil {
		w.out = make([]byte, 0, len(w.text)) // about as long: no need to grow it often
	}
	w.out = append(append(w.out, w.text[w.at:e.start]...), e.with...)
	w.at = e.end
	w.edits++
}

func (w *editWriter) finish() []byte { return append(w.out, w.text[w.at:]...) }

func apply(text []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	out := make([]byte, 0, len(text)+len(text)/8)
	at := 0
	for _, e := range edits {
		out = append(append(out, text[at:e.start]...), e.with...)
		at = e.end
	}
	return append(out, text[at:]...)
}

// site is one value that holds links, and the new references of those
// that change.
type site struct {
	s       links.Site
	decoded []byte
	changes []change
}

type change struct {
	ref [2]int // in decoded
	css bool
	to  string
}

// edits finds the links of a document with read, and hands each edit that
// rewrites them to emit, in text, the document decoded to UTF-8 as
// package links decodes it (its own bytes for UTF-8), whose offsets the
// links' sites give. A value's edit is handed out once its last link is
// seen.
func (rw *Rewriter) edits(d document, emit func(edit)) (Result, error) {
	text, docURL := d.text, d.docURL
	var res Result
	var cur *site // the value whose links are being seen
	done := func() {
		if cur != nil {
			for _, e := range cur.edits(nil, text) {
				emit(e)
			}
			res.Rewritten += len(cur.changes)
			cur = nil
		}
	}
	x := extractors.Get().(*links.Extractor)
	defer extractors.Put(x)
	x.Sites, x.Template, x.Resolver = true, true, rw.Resolver
	h := &links.Handler{Link: func(l *links.Link) error {
		res.Links++
		if l.Element == "base" && rw.DropBase {
			done()
			start := int(l.Site.Tag.Start)
			if start > 0 && text[start-1] == '<' {
				// "<<base href=x>img>": the text "<" would open a tag
				// with what follows the <base> once it is gone. Written
				// as a character reference, it stays text.
				emit(edit{start - 1, start, []byte("&lt;")})
			}
			emit(edit{start, int(l.Site.Tag.End), nil})
			res.BaseGone = true
			return nil
		}
		if l.URL == nil && rw.DropBase && d.retrieval != "" {
			// A link its <base> could not resolve ("a:", an opaque URL)
			// resolves against the document's own URL once the base is
			// gone: it is rewritten as that link, so that rewriting the
			// output again changes nothing.
			if u, err := rw.resolver().Resolve(d.retrieval, current(l)); err == nil {
				resolved := *l
				resolved.URL, resolved.Base = []byte(u), &links.Base{URL: d.retrieval, From: links.FromRetrieval}
				l = &resolved
			}
		}
		to, ok := rw.reference(l, docURL)
		if !ok {
			return nil
		}
		if l.Markdown == markdown.Autolink && !rfc1808.Split(to).HasScheme() {
			to = rw.move(string(l.URL)) // an autolink is absolute, or no link at all
		}
		if l.Attribute == "srcset" || l.Attribute == "imagesrcset" {
			if strings.HasPrefix(to, ",") {
				to = "./" + to // a srcset's parser skips the commas a candidate starts with
			}
			if strings.HasSuffix(to, ",") {
				// A srcset's parser drops the commas a candidate's URL ends
				// with: a URL that ends with one (written, say, with a
				// control character after it, which the URL parser drops)
				// cannot be written there. Not rewritten, rather than in
				// part.
				return fmt.Errorf("%s: a %s candidate whose URL ends with a comma, %s, which a srcset cannot hold: not rewritten", l.Element, l.Attribute, to)
			}
		}
		if to == current(l) {
			return nil // the reference it has
		}
		if cur == nil || cur.s.Value != l.Site.Value {
			done()
			cur = &site{s: l.Site, decoded: bytes.Clone(l.Site.Decoded)}
			cur.s.Decoded = nil
		}
		cur.changes = append(cur.changes, change{l.Site.Ref, l.Site.CSS, to})
		return nil
	}}
	h.Srcdoc = func(s links.Site, fallback links.Base) error {
		newBase := rw.move(fallback.URL)
		if rw.DropBase {
			newBase = docURL
		}
		doc := bytes.Clone(s.Decoded)
		out, r, err := rw.srcdoc(doc, fallback, newBase, d.retrieval, d.depth+1)
		res.Links, res.Rewritten, res.BaseGone = res.Links+r.Links, res.Rewritten+r.Rewritten, res.BaseGone || r.BaseGone
		if err != nil || out == nil {
			return err
		}
		done()
		whole := &site{s: s, decoded: doc, changes: []change{{ref: [2]int{0, len(doc)}, to: string(out)}}}
		for _, e := range whole.edits(nil, text) {
			emit(e)
		}
		return nil
	}
	// A part of the document the extractor could not read (a line past
	// Markdown's bounds, a text cut at its size limit, a broken MIME
	// part) holds links that would stay as they are: the document is not
	// rewritten at all, rather than in part.
	var lost []error
	h.Warn = func(err error) {
		var loss *links.Loss
		if errors.As(err, &loss) {
			lost = append(lost, err)
		}
	}
	err := d.read(x, h)
	done()
	if err == nil && len(lost) > 0 {
		err = &PartlyReadError{Lost: lost}
	}
	return res, err
}

// A PartlyReadError says that a document was not rewritten because part
// of it could not be read for links (each Lost error says which part, and
// why): rewriting the rest would leave the links there unchanged and
// report success for work not done.
type PartlyReadError struct {
	Lost []error // each a *links.Loss
}

func (e *PartlyReadError) Error() string {
	msg := "not rewritten, for part of it was not read for links: " + e.Lost[0].Error()
	if len(e.Lost) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(e.Lost)-1)
	}
	return msg
}

// Unwrap returns the losses.
func (e *PartlyReadError) Unwrap() []error { return e.Lost }

// current is the reference a link has: its value as the URL parser is
// handed it, or for a Markdown link, the href its renderer writes.
func current(l *links.Link) string {
	if l.Markdown != 0 {
		return string(l.Site.Decoded[l.Site.Ref[0]:l.Site.Ref[1]])
	}
	return string(cleanRef(l.Ref))
}

// extractors keeps Extractors, and the buffers of their tokenizers, from
// one document to the next.
var extractors = sync.Pool{New: func() any { return new(links.Extractor) }}

// move returns u moved by the first Move under whose Old it is.
func (rw *Rewriter) move(u string) string {
	for _, m := range rw.Moves {
		if rest, ok := strings.CutPrefix(u, m.Old); ok {
			return m.New + rest
		}
	}
	return u
}

// reference returns the new reference of l, and whether it is to be
// rewritten. docURL is the document's URL, moved.
//
// A reference that is relative already and still reaches its target from
// where the document will be is left as it was written, shortest or not:
// only what would break, or what is absolute and should not be, changes.
func (rw *Rewriter) reference(l *links.Link, docURL string) (string, bool) {
	if l.URL == nil {
		return "", false // unresolved, or refused by the URL parser: left as it is
	}
	target := string(l.URL)
	moved := rw.move(target)
	from := rw.move(l.Base.URL)
	if rw.DropBase || l.Element == "base" {
		from = docURL
	}
	cur := current(l)
	if rw.Absolute {
		return moved, true
	}
	works := func() bool {
		if from == l.Base.URL {
			// The extractor resolved cur against this very base (its
			// query in the document's encoding): no need to again.
			return target == moved
		}
		got, err := rw.resolver().Resolve(from, cur)
		return err == nil && got == moved
	}
	ref := rfc1808.Split(cur)
	relative := !ref.HasScheme()
	switch {
	case rw.sameScope(moved, from) || rw.inMovedTree(moved, from):
		// A relative-path reference that works is kept. One that names
		// the host ("//host/docs/x") or starts at the root ("/docs/x")
		// works here but not once the tree is somewhere else: only a
		// relative path moves with it.
		if relative && !ref.HasNetLoc() && !ref.AbsPath() && works() {
			return "", false
		}
		return rw.relative(from, moved), true
	case relative && !ref.HasNetLoc() && rw.scope(from) != "":
		// The tree under the scope is to move, and a relative reference
		// out of it would move with it and miss: it is written absolute.
		// One that names its host ("//host/x") reaches it from anywhere.
		return moved, true
	case moved == target && from == l.Base.URL:
		return "", false // outside the scope, and nothing here moves
	case works():
		return "", false // the base changed, but not for this reference
	}
	return moved, true // it leaves the tree: an absolute URL
}

// inMovedTree reports whether target and the base it is reached from are
// both in a tree moved by Moves.
func (rw *Rewriter) inMovedTree(target, from string) bool {
	for _, m := range rw.Moves {
		if strings.HasPrefix(target, m.New) && strings.HasPrefix(from, m.New) {
			return true
		}
	}
	return false
}

// scope returns the first of the Relative prefixes u is under, or "".
func (rw *Rewriter) scope(u string) string {
	for _, p := range rw.Relative {
		if strings.HasPrefix(u, p) {
			return p
		}
	}
	return ""
}

// sameScope reports whether target and the base it is reached from are
// under the same Relative prefix, and so move together.
func (rw *Rewriter) sameScope(target, from string) bool {
	p := rw.scope(target)
	return p != "" && strings.HasPrefix(from, p)
}

// relative returns the shortest relative path from base to target, or
// target.
// The empty reference, which is the base itself, is written with the
// last segment of its path, as people write it ("x.html", or "./").
func (rw *Rewriter) relative(base, target string) string {
	ref, ok := rw.resolver().RelativePath(base, target)
	if ok && ref == "" {
		sp := rfc1808.Split(target)
		path := sp.Path()
		last := path[strings.LastIndexByte(path, '/')+1:]
		if last == "" {
			last = "./"
		}
		if got, err := rw.resolver().Resolve(base, last); err == nil && got == target {
			return last
		}
		return target
	}
	return ref
}

// edits appends the edits of a site: its value serialized again, or in a
// <style>, each CSS token that changes.
func (st *site) edits(edits []edit, text []byte) []edit {
	v := st.decoded
	start, end := int(st.s.Value.Start), int(st.s.Value.End)
	if st.s.Markdown != 0 {
		// One reference a destination, written as Markdown has it.
		c := st.changes[len(st.changes)-1]
		return append(edits, markdownDest(start, end, st.s.Quote == '<', st.s.Markdown, c.to))
	}
	if st.s.Style {
		// A <style>'s text is written as it is: only the tokens change,
		// at their bytes in the text (which NUL and line breaks, decoded,
		// may move).
		raw := text[start:end]
		for _, c := range st.changes {
			from, to := rawOffset(raw, v, c.ref[0]), rawOffset(raw, v, c.ref[1])
			edits = append(edits, edit{start + from, start + to, appendCSSURL(nil, v[c.ref[0]:c.ref[1]], c.to)})
		}
		return edits
	}
	var b []byte
	at := 0
	for _, c := range st.changes {
		b = append(b, v[at:c.ref[0]]...)
		if c.css {
			b = appendCSSURL(b, v[c.ref[0]:c.ref[1]], c.to)
		} else {
			b = append(b, c.to...)
		}
		at = c.ref[1]
	}
	b = append(b, v[at:]...)
	w := quoteValue(b, st.s.Quote)
	if st.s.Quote == 0 && start == end && !afterEquals(text[:start]) {
		// An attribute without a value (<a href>) gains one: after its
		// name, not in it.
		w = append(append([]byte(`="`), quoteValue(b, '"')...), '"')
	}
	return append(edits, edit{start, end, w})
}

// afterEquals reports whether the tag before an attribute's empty value
// ends in "=", white space aside: whether the attribute has a value.
func afterEquals(before []byte) bool {
	before = bytes.TrimRight(before, "\t\n\f\r ")
	return len(before) > 0 && before[len(before)-1] == '='
}

// rawOffset maps offset off of decoded, a <style>'s text as the tokenizer
// decodes it, to the same place in raw, its bytes: "\r\n" and "\r" were
// decoded to "\n", NUL to U+FFFD.
func rawOffset(raw, decoded []byte, off int) int {
	if len(raw) == len(decoded) {
		return off
	}
	i, j := 0, 0
	for j < off && i < len(raw) {
		switch {
		case raw[i] == '\r' && i+1 < len(raw) && raw[i+1] == '\n':
			i, j = i+2, j+1
		case raw[i] == 0:
			i, j = i+1, j+len("\uFFFD")
		default:
			i, j = i+1, j+1
		}
	}
	return i
}

// cleanRef is ref as the URL parser is handed it: leading and trailing
// spaces and controls, and tabs and newlines, removed.
func cleanRef(ref []byte) []byte {
	ref = bytes.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	if bytes.ContainsAny(ref, "\t\n\r") {
		ref = bytes.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, ref)
	}
	return ref
}

// quoteValue serializes an attribute's value in quote (0: none, where the
// value allows it, else '"'), escaped as HTML's serializer does: "&" always,
// and the quote.
func quoteValue(v []byte, quote byte) []byte {
	if quote == 0 && (len(v) == 0 || bytes.ContainsAny(v, "\t\n\f\r \"'=<>`")) {
		return append(append([]byte{'"'}, quoteValue(v, '"')...), '"')
	}
	var b []byte
	for _, c := range v {
		switch {
		case c == '&':
			b = append(b, "&amp;"...)
		case c == '"' && quote == '"':
			b = append(b, "&quot;"...)
		case c == '\'' && quote == '\'':
			b = append(b, "&#39;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendCSSURL appends to b the CSS token token (a url(...) or a string)
// written again with the URL u: a string in its own quotes, a url() with
// its name and the white space inside its parentheses as written and,
// unless u needs quotes there, unquoted as it was.
func appendCSSURL(b, token []byte, u string) []byte {
	if len(token) > 0 && (token[0] == '"' || token[0] == '\'') {
		return appendCSSString(b, token[0], u)
	}
	paren := bytes.IndexByte(token, '(')
	name := token[:paren+1]
	if paren < 0 || bytes.IndexByte(name, '\\') >= 0 {
		name = []byte("url(")
	}
	const space = " \t\n\f\r"
	var inner []byte
	if paren >= 0 {
		inner = bytes.TrimSuffix(token[paren+1:], []byte(")"))
	}
	// The white space inside the parentheses is kept.
	value := bytes.TrimLeft(inner, space)
	lead, trail := inner[:len(inner)-len(value)], value[len(bytes.TrimRight(value, space)):]
	b = append(append(b, name...), lead...)
	switch {
	case len(value) > 0 && (value[0] == '"' || value[0] == '\''):
		b = appendCSSString(b, value[0], u)
	case strings.ContainsFunc(u, func(r rune) bool {
		return r <= ' ' || r == 0x7f || r == '"' || r == '\'' || r == '(' || r == ')' || r == '\\'
	}):
		b = appendCSSString(b, '"', u)
	default:
		b = append(b, u...)
	}
	return append(append(b, trail...), ')')
}

// appendCSSString appends u as a CSS string in quote q, escaped.
func appendCSSString(b []byte, q byte, u string) []byte {
	b = append(b, q)
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c == q || c == '\\':
			b = append(b, '\\', c)
		case c == '\n' || c == '\r' || c == '\f' || c < ' ' || c == 0x7f:
			b = fmt.Appendf(b, "\\%x ", c)
		default:
			b = append(b, c)
		}
	}
	return append(b, q)
}

// markdownDest returns the edit that writes the reference to as the
// Markdown destination at [start, end) of the text, which was written in
// angle brackets when angle is set. A destination stays in angle brackets
// if it was, and gains them only when a bare one cannot hold to (a space,
// a control, a parenthesis that does not balance, a leading "<"). An
// autolink's text is the URL itself. Markdown reads "\" before
// punctuation as an escape and "&name;" as a character reference: those
// in to are escaped, so that the renderer writes to back.
func markdownDest(start, end int, angle bool, kind markdown.Kind, to string) edit {
	if kind == markdown.Autolink {
		return edit{start, end, []byte(to)}
	}
	needAngle := angle || bareNeedsAngle(to)
	var b []byte
	if needAngle && !angle {
		b = append(b, '<')
	}
	for i := 0; i < len(to); i++ {
		c := to[i]
		switch {
		case c == '\\' && i+1 < len(to) && isPunct(to[i+1]), c == '&' && isReference(to[i:]):
			b = append(b, '\\', c)
		case needAngle && (c == '<' || c == '>'):
			b = append(b, '\\', c)
		default:
			b = append(b, c)
		}
	}
	if needAngle && !angle {
		b = append(b, '>')
	}
	return edit{start, end, b}
}

// bareNeedsAngle reports whether a destination written bare, without
// angle brackets, would not read as d (CommonMark, "link destination").
func bareNeedsAngle(d string) bool {
	if d == "" || d[0] == '<' {
		return true
	}
	depth := 0
	for i := 0; i < len(d); i++ {
		switch c := d[i]; {
		case c <= ' ' || c == 0x7f:
			return true
		case c == '\\' && i+1 < len(d) && isPunct(d[i+1]):
			i++
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth < 0 {
				return true
			}
		}
	}
	return depth != 0
}

// isPunct reports whether c is ASCII punctuation, which a backslash
// escapes in Markdown.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// isReference reports whether s starts with a character reference
// Markdown would decode: "&name;", "&#N;", "&#xH;".
func isReference(s string) bool {
	semi := strings.IndexByte(s, ';')
	if semi < 2 || semi > 33 {
		return false
	}
	body := s[1:semi]
	if body[0] == '#' {
		body = strings.TrimPrefix(strings.TrimPrefix(body[1:], "x"), "X")
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return body != ""
}
