package linkcheck

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/markdown"
)

// A linkSet holds the links of a run page by page, and their distinct
// targets. A crawl of a site that never ends (a calendar of pages, each
// linking to the next) finds millions of links before MaxPages stops it, a
// single page may hold millions (60 MB of <a href=x>), and a report needs
// each of them at the end, so the links are kept compactly, as they come:
// each page's encoded in a few bytes a link beyond its URL and reference,
// in chunks, in memory up to spillAt bytes and in a temporary file after
// that. What stays in memory is a small record for each chunk and the
// distinct targets with their results. Its methods are safe for
// concurrent use until check.
type linkSet struct {
	mu      sync.Mutex
	pages   []*pageRef
	targets map[string]*target
	order   []string // targets to check, in the order of their first link
	links   int      // links added
	held    int      // bytes of pages held in memory
	file    *os.File // the pages past spillAt, once there are some
	fileLen int64
	err     error // the spill file failed: reports stop there
}

// spillAt is how many bytes of encoded pages a linkSet holds in memory;
// chunkSize how many a page's chunk holds before it is stored.
const (
	spillAt   = 32 << 20
	chunkSize = 1 << 20
)

// A pageRef is one page's links, in chunks that each decode alone.
type pageRef struct {
	source string
	chunks []chunkRef
	links  int
}

// A chunkRef is a run of a page's links: encoded in data, or in the file
// at off.
type chunkRef struct {
	data  []byte
	off   int64
	size  int
	links int
}

// A target is a distinct URL, without its fragment, and what checking it
// found.
type target struct {
	fragments bool // some link wants a fragment of it: its ids are needed
	markdown  bool // some link written in Markdown leads to it
	known     bool // result is known already: a page a crawl read
	result    targetResult
}

func newLinkSet() *linkSet { return &linkSet{targets: map[string]*target{}} }

// add adds the links of one document (all of the same Source).
func (s *linkSet) add(ls []Link) {
	if len(ls) == 0 {
		return
	}
	w := s.page(ls[0].Source)
	for _, l := range ls {
		w.add(l)
	}
	w.close()
}

// page begins the links of the document source, which its pageWriter
// takes one at a time, in any order, and close ends.
func (s *linkSet) page(source string) *pageWriter {
	return &pageWriter{set: s, page: &pageRef{source: source}, first: true}
}

// A pageWriter encodes one document's links as they come, into chunks
// stored as they fill. A report lists a page's links by line and column:
// links come in that order but for a few (those a late <base> held back),
// and a page whose links did not is sorted once it is whole.
type pageWriter struct {
	set      *linkSet
	page     *pageRef
	buf      []byte
	prev     Link
	first    bool // the next link begins a chunk
	n        int  // links in buf
	last     Link // the last link added, for the order
	unsorted bool
}

func (w *pageWriter) add(l Link) {
	if w.page.links > 0 && cmp.Or(l.Line-w.last.Line, l.Column-w.last.Column) < 0 {
		w.unsorted = true
	}
	w.last = Link{Line: l.Line, Column: l.Column}
	w.set.addTarget(l)
	w.encode(l)
}

// encode appends l to the chunk being written, and stores it once full.
func (w *pageWriter) encode(l Link) {
	if w.buf == nil {
		w.buf = *scratch.Get().(*[]byte)
	}
	w.buf = encodeLink(w.buf, l, w.prev, w.first)
	w.prev, w.first = l, false
	w.n++
	w.page.links++
	if len(w.buf) >= chunkSize {
		w.store()
	}
}

// store stores the chunk being written, a copy of its exact size: a
// page's chunk is written in a scratch buffer, which grows once for
// many pages, not once for each.
func (w *pageWriter) store() {
	if w.n > 0 {
		w.page.chunks = append(w.page.chunks, w.set.store(bytes.Clone(w.buf), w.n))
	}
	if w.buf != nil {
		b := w.buf[:0]
		scratch.Put(&b)
	}
	w.buf, w.n, w.first, w.prev = nil, 0, true, Link{}
}

// scratch holds the buffers pages' chunks are written in.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// close ends the page and adds it to the set: sorted by line and column
// first if its links did not come in that order.
func (w *pageWriter) close() {
	w.store()
	if w.page.links == 0 {
		return
	}
	if w.unsorted {
		w.sort()
	}
	w.set.mu.Lock()
	w.set.pages = append(w.set.pages, w.page)
	w.set.links += w.page.links
	w.set.mu.Unlock()
}

// sort rewrites a page whose links came out of order in the order of a
// report, stably: the one time a page's links are all decoded at once.
func (w *pageWriter) sort() {
	var ls []Link
	for l, err := range w.set.pageLinks(w.page) {
		if err != nil {
			return // said by the set's err
		}
		ls = append(ls, l)
	}
	slices.SortStableFunc(ls, func(a, b Link) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
	w.page.chunks, w.page.links = nil, 0
	for _, l := range ls {
		w.encode(l)
	}
	w.store()
}

// store keeps the chunk data of n links: in memory, or past spillAt in
// the temporary file.
func (s *linkSet) store(data []byte, n int) chunkRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := chunkRef{size: len(data), links: n}
	switch {
	case s.held+len(data) <= spillAt:
		c.data = data
		s.held += len(data)
	case s.err == nil:
		c.off = s.fileLen
		s.err = s.spill(data)
		s.fileLen += int64(len(data))
	}
	return c
}

// addTargets adds the targets of links, not the links.
func (s *linkSet) addTargets(ls []Link) {
	for _, l := range ls {
		s.addTarget(l)
	}
}

// addTarget adds the target of l.
func (s *linkSet) addTarget(l Link) {
	if l.URL == "" || remoteFile(l) || unusedDefinition(l) {
		return
	}
	t, frag := splitFragment(l.URL)
	s.mu.Lock()
	defer s.mu.Unlock()
	tg := s.targets[t]
	if tg == nil {
		tg = &target{}
		s.targets[t] = tg
		s.order = append(s.order, t)
	}
	tg.fragments = tg.fragments || frag != ""
	tg.markdown = tg.markdown || l.Markdown != ""
}

// know gives the target u a result found already: a page a crawl read.
func (s *linkSet) know(u string, r targetResult) {
	tg := s.targets[u]
	if tg == nil {
		tg = &target{}
		s.targets[u] = tg
	}
	tg.known, tg.result = true, r
}

func (s *linkSet) spill(data []byte) error {
	if s.file == nil {
		f, err := os.CreateTemp("", "relurl-check-*.links")
		if err != nil {
			return fmt.Errorf("keeping the links in a temporary file: %w", err)
		}
		s.file = f
		// Unix lets a file be used once its name is gone: nothing is left
		// behind, whatever stops the run. Elsewhere, close removes it.
		os.Remove(f.Name())
	}
	_, err := s.file.Write(data)
	return err
}

// close removes the temporary file, if any.
func (s *linkSet) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
}

// check checks every target whose result is not known, Concurrency at a
// time, calling progress as each is done.
func (s *linkSet) check(ctx context.Context, c *checker, progress func(done, total int)) {
	var todo []string
	for _, t := range s.order {
		if !s.targets[t].known {
			todo = append(todo, t)
		}
	}
	// Concurrency workers take the targets in turn: most are done in
	// microseconds (a file's stat, a URL left out), and a goroutine each
	// would cost more than the check.
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		done int
	)
	for range min(c.o.Concurrency, len(todo)) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(todo) {
					return
				}
				tg := s.targets[todo[i]]
				tg.result = c.target(ctx, todo[i], tg.fragments, tg.markdown)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(todo))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
}

// reports returns the reports of the links, page by page in the order of
// their sources, each page's by line and column. It may be iterated again.
func (s *linkSet) reports(c *checker) iter.Seq[Report] {
	pages := slices.Clone(s.pages)
	slices.SortStableFunc(pages, func(a, b *pageRef) int { return cmp.Compare(a.source, b.source) })
	return func(yield func(Report) bool) {
		for _, p := range pages {
			for l, err := range s.pageLinks(p) {
				if err != nil || !yield(c.report(l, s.targets)) {
					return
				}
			}
		}
	}
}

// pageLinks yields the links of page p, one at a time, decoded from its
// chunks; an error, which is also the set's err, ends them.
func (s *linkSet) pageLinks(p *pageRef) iter.Seq2[Link, error] {
	return func(yield func(Link, error) bool) {
		var buf []byte
		for _, c := range p.chunks {
			data := c.data
			if data == nil {
				if s.err != nil {
					yield(Link{}, s.err)
					return
				}
				buf = slices.Grow(buf[:0], c.size)[:c.size]
				if _, err := s.file.ReadAt(buf, c.off); err != nil {
					s.err = fmt.Errorf("reading the links back from their temporary file: %w", err)
					yield(Link{}, s.err)
					return
				}
				data = buf
			}
			for l, err := range decodeLinks(data, p.source, c.links) {
				if err != nil {
					s.err = err
				}
				if !yield(l, err) || err != nil {
					return
				}
			}
		}
	}
}

// unusedDefinition reports whether l is a Markdown reference definition no
// link uses, which renderers leave out of the page: no link to check.
func unusedDefinition(l Link) bool { return l.Markdown == "definition" && l.Uses == 0 }

// hasID reports whether target tr has the id a fragment names. A
// Markdown page on GitHub finds a heading whatever the fragment's case:
// its script looks the anchor up in lower case, where GitHub's anchors
// are; a browser alone, as mdBook's and MkDocs's pages have it, matches
// ids exactly.
func (c *checker) hasID(tr targetResult, id string) bool {
	return tr.ids.has(id) || tr.markdown && c.o.Dialect == markdown.GitHub && tr.ids.has(strings.ToLower(id))
}

// report is the Report of link l, given the results of the targets.
func (c *checker) report(l Link, targets map[string]*target) Report {
	switch {
	case unusedDefinition(l):
		return Report{l, Result{State: Skipped, Err: errors.New("a reference definition that no link uses: a rendered page shows no link for it")}}
	case l.URL == "":
		return Report{l, Result{State: Broken, Err: errors.New("not resolved: the document has no base URL, or the URL parser refuses the link")}}
	case remoteFile(l):
		return Report{l, Result{State: Skipped, Err: errors.New("a file: link in a document that is not a local file is not checked: a browser never lets a web page reach local files")}}
	}
	t, frag := splitFragment(l.URL)
	tr := targets[t].result
	r := tr.Result
	if r.State == OK && frag != "" && tr.ids != nil && !c.hasID(tr, fragmentID(frag)) {
		if tr.cut {
			// Past what was read, it may be there: not a broken link.
			read := c.o.MaxSize
			if tr.markdown {
				read = tr.read
			}
			r.Err = fmt.Errorf("no element with id or name %q in the first %d bytes; the rest was not read", fragmentID(frag), read)
		} else if tr.markdown {
			r.State, r.Err = Broken, fmt.Errorf("no heading with the anchor %q (by the %s slug rule), nor an element with that id or name", fragmentID(frag), c.o.Dialect)
		} else {
			r.State, r.Err = Broken, fmt.Errorf("no element with id or name %q", fragmentID(frag))
		}
	}
	return Report{l, r}
}

// A chunk of a page's links is encoded as, for each link, its line and
// column as uvarints, and its URL, Ref, Base, BaseFrom (a uvarint),
// Element, Attribute, File and Markdown as strings, Uses as a uvarint and
// Local as a byte. A string is a uvarint n: 0 for the previous link's
// value of the field (a page's links share their base, their file, often
// their element), else n-1 bytes. A chunk's first link has no previous.

// encodeLink appends l to b, the link before it in its chunk prev (none
// when first).
func encodeLink(b []byte, l, prev Link, first bool) []byte {
	str := func(s, was string) {
		if !first && s == was {
			b = binary.AppendUvarint(b, 0)
			return
		}
		b = binary.AppendUvarint(b, uint64(len(s))+1)
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(max(l.Line, 0)))
	b = binary.AppendUvarint(b, uint64(max(l.Column, 0)))
	str(l.URL, prev.URL)
	str(l.Ref, prev.Ref)
	str(l.Base, prev.Base)
	b = binary.AppendUvarint(b, uint64(l.BaseFrom))
	str(l.Element, prev.Element)
	str(l.Attribute, prev.Attribute)
	str(l.File, prev.File)
	str(l.Markdown, prev.Markdown)
	b = binary.AppendUvarint(b, uint64(max(l.Uses, 0)))
	local := byte(0)
	if l.Local {
		local = 1
	}
	return append(b, local)
}

var errCorrupt = errors.New("check: the links kept of a page do not decode")

// decodeLinks yields the n links that encodeLink encoded in data, one
// chunk. The chunk is made one string, of which the links' strings are
// parts: one allocation for the chunk, not one for each string.
func decodeLinks(data []byte, source string, n int) iter.Seq2[Link, error] {
	return func(yield func(Link, error) bool) {
		rest := string(data)
		var err error
		num := func() int {
			var v uint64
			for shift := 0; ; shift += 7 {
				if len(rest) == 0 || shift > 63 {
					err = errCorrupt
					return 0
				}
				c := rest[0]
				rest = rest[1:]
				v |= uint64(c&0x7f) << shift
				if c < 0x80 {
					return int(v)
				}
			}
		}
		str := func(was string) string {
			m := num()
			switch {
			case m == 0:
				return was
			case m-1 > len(rest):
				err = errCorrupt
				return ""
			}
			s := rest[:m-1]
			rest = rest[m-1:]
			return s
		}
		var prev Link
		for range n {
			l := Link{Source: source}
			l.Line, l.Column = num(), num()
			l.URL, l.Ref, l.Base, l.BaseFrom = str(prev.URL), str(prev.Ref), str(prev.Base), links.BaseFrom(num())
			l.Element, l.Attribute, l.File = str(prev.Element), str(prev.Attribute), str(prev.File)
			l.Markdown, l.Uses = str(prev.Markdown), num()
			if err != nil || len(rest) == 0 {
				yield(Link{}, errCorrupt)
				return
			}
			l.Local = rest[0] == 1
			rest = rest[1:]
			if !yield(l, nil) {
				return
			}
			prev = l
		}
	}
}

// own returns l with strings of its own: a link a LinkSet gives back
// shares its strings' memory with the other links of its chunk, which a
// link kept past the reports would keep too.
func (l Link) own() Link {
	l.URL, l.Ref, l.Base = strings.Clone(l.URL), strings.Clone(l.Ref), strings.Clone(l.Base)
	l.Element, l.Attribute, l.File, l.Markdown = strings.Clone(l.Element), strings.Clone(l.Attribute), strings.Clone(l.File), strings.Clone(l.Markdown)
	return l
}

// idSet holds the ids of a page's elements, as 64-bit hashes, sorted: a
// page of the Python documentation has thousands of ids, and a crawl reads
// many thousands of pages, whose ids it keeps while other pages link
// there. Two ids of one page that share a hash are 1 in 2^64 apart.
type idSet []uint64

var idSeed = maphash.MakeSeed()

func (s idSet) has(id string) bool {
	_, found := slices.BinarySearch(s, maphash.String(idSeed, id))
	return found
}

// makeIDSet returns the set of ids.
func makeIDSet(ids map[string]bool) idSet {
	s := make(idSet, 0, len(ids))
	for id := range ids {
		s = append(s, maphash.String(idSeed, id))
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// A LinkSet holds the links of many documents for Checker.CheckSet, kept
// as a crawl keeps its own: a few bytes a link beyond its URL and
// reference, past 32 MiB in a temporary file, so that checking a page of
// millions of links takes memory for its distinct targets, not for each
// link (a []Link costs about 500 bytes a link). Its zero value is an empty
// set; Document may be called from many goroutines at once. Close removes
// the temporary file.
type LinkSet struct {
	once sync.Once
	set  *linkSet
	c    *checker // the checker of CheckSet, for the reports
}

func (ls *LinkSet) s() *linkSet {
	ls.once.Do(func() { ls.set = newLinkSet() })
	return ls.set
}

// Document begins the links of one document: Add each of them, in any
// order, then Close.
func (ls *LinkSet) Document() *DocumentLinks { return &DocumentLinks{w: ls.s().page("")} }

// Reports returns the reports of the links after CheckSet, page by page
// in the order of their Sources, each page's by line and column. It may
// be iterated again; an error reading the links back ends it, and Err
// says what it was. The strings of a report share memory with its
// neighbours' (up to a MiB of them): strings.Clone what is kept.
func (ls *LinkSet) Reports() iter.Seq[Report] {
	if ls.c == nil {
		return func(func(Report) bool) {}
	}
	return ls.s().reports(ls.c)
}

// Err is what ended the links kept or their Reports early: the temporary
// file could not be written or read.
func (ls *LinkSet) Err() error { return ls.s().err }

// Close removes the temporary file, if any.
func (ls *LinkSet) Close() { ls.s().close() }

// DocumentLinks are the links of one document of a LinkSet, which share
// their Source.
type DocumentLinks struct{ w *pageWriter }

// Add adds a link of the document.
func (d *DocumentLinks) Add(l Link) {
	if d.w.page.links == 0 {
		d.w.page.source = l.Source
	}
	d.w.add(l)
}

// Close ends the document's links.
func (d *DocumentLinks) Close() { d.w.close() }
