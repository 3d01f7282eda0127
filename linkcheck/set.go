package linkcheck

import (
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
// linking to the next) finds millions of links before MaxPages stops it,
// and a report needs each of them at the end, so the links are kept
// compactly: each page's encoded in a few bytes a link beyond its URL and
// reference, in memory up to spillAt bytes and in a temporary file after
// that. What stays in memory is a small record for each page and the
// distinct targets with their results.
type linkSet struct {
	pages   []pageRef
	targets map[string]*target
	order   []string // targets to check, in the order of their first link
	links   int      // links added
	held    int      // bytes of pages held in memory
	file    *os.File // the pages past spillAt, once there are some
	fileLen int64
	err     error // the spill file failed: reports stop there
}

// spillAt is how many bytes of encoded pages a linkSet holds in memory.
const spillAt = 32 << 20

// A pageRef is one page's links: encoded in data, or in the file at off.
type pageRef struct {
	source string
	data   []byte
	off    int64
	size   int
	links  int
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

// add adds the links of one document (all of the same Source), in the
// order of a report: by line and column.
func (s *linkSet) add(ls []Link) {
	if len(ls) == 0 {
		return
	}
	slices.SortStableFunc(ls, func(a, b Link) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
	s.addTargets(ls)
	data := encodePage(ls)
	p := pageRef{source: ls[0].Source, size: len(data), links: len(ls)}
	s.links += len(ls)
	switch {
	case s.held+len(data) <= spillAt:
		p.data = data
		s.held += len(data)
	case s.err == nil:
		p.off = s.fileLen
		s.err = s.spill(data)
		s.fileLen += int64(len(data))
	}
	s.pages = append(s.pages, p)
}

// addTargets adds the targets of links, not the links.
func (s *linkSet) addTargets(ls []Link) {
	for _, l := range ls {
		if l.URL == "" || remoteFile(l) || unusedDefinition(l) {
			continue
		}
		t, frag := splitFragment(l.URL)
		tg := s.targets[t]
		if tg == nil {
			tg = &target{}
			s.targets[t] = tg
			s.order = append(s.order, t)
		}
		tg.fragments = tg.fragments || frag != ""
		tg.markdown = tg.markdown || l.Markdown != ""
	}
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
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
		sem  = make(chan struct{}, c.o.Concurrency)
	)
	for _, t := range todo {
		tg := s.targets[t]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			tg.result = c.target(ctx, t, tg.fragments, tg.markdown)
			if progress != nil {
				mu.Lock()
				done++
				progress(done, len(todo))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// reports returns the reports of the links, page by page in the order of
// their sources, each page's by line and column. It may be iterated again.
func (s *linkSet) reports(c *checker) iter.Seq[Report] {
	order := make([]int, len(s.pages))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(s.pages[a].source, s.pages[b].source) })
	return func(yield func(Report) bool) {
		var buf []byte
		for _, i := range order {
			p := s.pages[i]
			data := p.data
			if data == nil {
				if s.err != nil {
					return
				}
				buf = slices.Grow(buf[:0], p.size)[:p.size]
				if _, err := s.file.ReadAt(buf, p.off); err != nil {
					s.err = fmt.Errorf("reading the links back from their temporary file: %w", err)
					return
				}
				data = buf
			}
			links, err := decodePage(data, p.source, p.links)
			if err != nil {
				s.err = err
				return
			}
			for _, l := range links {
				if !yield(c.report(l, s.targets)) {
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
				read = markdown.MaxSize
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

// A page's links are encoded as: its Source, then for each link its line
// and column as uvarints, and its URL, Ref, Base, BaseFrom (a uvarint), Element,
// Attribute, File and Markdown as strings, Uses as a uvarint and Local as
// a byte. A string is a
// uvarint n: 0 for the previous link's value of the field (a page's
// links share their base, their file, often their element), else n-1
// bytes.

func encodePage(ls []Link) []byte {
	var b []byte
	var prev Link
	str := func(s, was string, first bool) {
		if !first && s == was {
			b = binary.AppendUvarint(b, 0)
			return
		}
		b = binary.AppendUvarint(b, uint64(len(s))+1)
		b = append(b, s...)
	}
	for i, l := range ls {
		first := i == 0
		b = binary.AppendUvarint(b, uint64(max(l.Line, 0)))
		b = binary.AppendUvarint(b, uint64(max(l.Column, 0)))
		str(l.URL, prev.URL, first)
		str(l.Ref, prev.Ref, first)
		str(l.Base, prev.Base, first)
		b = binary.AppendUvarint(b, uint64(l.BaseFrom))
		str(l.Element, prev.Element, first)
		str(l.Attribute, prev.Attribute, first)
		str(l.File, prev.File, first)
		str(l.Markdown, prev.Markdown, first)
		b = binary.AppendUvarint(b, uint64(max(l.Uses, 0)))
		local := byte(0)
		if l.Local {
			local = 1
		}
		b = append(b, local)
		prev = l
	}
	return b
}

var errCorrupt = errors.New("check: the links kept of a page do not decode")

// decodePage returns the n links that encodePage encoded in data.
func decodePage(data []byte, source string, n int) ([]Link, error) {
	var err error
	num := func() int {
		v, k := binary.Uvarint(data)
		if k <= 0 {
			err = errCorrupt
			return 0
		}
		data = data[k:]
		return int(v)
	}
	str := func(was string) string {
		m := num()
		switch {
		case m == 0:
			return was
		case m-1 > len(data):
			err = errCorrupt
			return ""
		}
		s := string(data[:m-1])
		data = data[m-1:]
		return s
	}
	found := make([]Link, 0, n)
	var prev Link
	for range n {
		l := Link{Source: source}
		l.Line, l.Column = num(), num()
		l.URL, l.Ref, l.Base, l.BaseFrom = str(prev.URL), str(prev.Ref), str(prev.Base), links.BaseFrom(num())
		l.Element, l.Attribute, l.File = str(prev.Element), str(prev.Attribute), str(prev.File)
		l.Markdown, l.Uses = str(prev.Markdown), num()
		if err != nil || len(data) == 0 {
			return found, errCorrupt
		}
		l.Local = data[0] == 1
		data = data[1:]
		found = append(found, l)
		prev = l
	}
	return found, nil
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
