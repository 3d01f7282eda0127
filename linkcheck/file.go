package linkcheck

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/htmltree"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/markdown"
)

// filePath returns the path a file: URL names.
func filePath(u *url.URL) string {
	p := u.Path
	if u.Host != "" && u.Host != "localhost" {
		p = "//" + u.Host + p // a UNC path
	}
	return filepath.FromSlash(p)
}

// mapped returns the file an http(s) URL stands for under a Map, and
// whether a Map covers it; "" for one whose path would leave the Map's
// directory (source.Map.PathOf), which is never looked up.
func (c *checker) mapped(u string) (string, bool) { return c.o.Maps.PathOf(u) }

// file checks that a file exists (a directory standing for its Index),
// and reads its ids when fragments are wanted: an HTML page's, or a
// Markdown document's as its Dialect's renderer makes them. A link from
// Markdown to a directory reaches it if it exists, as on GitHub, which
// shows its README.md (and whose anchors its fragments name). Under
// MdBook, a link to X.html reaches the X.md beside it, which mdBook
// renders there (index.html: README.md).
func (c *checker) file(path string, fragments, fromMarkdown bool) targetResult {
	ids, known := c.o.IDs[absPath(path)]
	if known {
		// A Markdown document of the run, read already: a file, there.
		return markdownIDs(ids, fragments)
	}
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() {
		index := filepath.Join(path, c.o.Index)
		if _, ierr := os.Stat(index); ierr == nil || !fromMarkdown {
			path = index
		} else if readme := filepath.Join(path, "README.md"); fileExists(readme) {
			path = readme
		} else {
			return targetResult{} // a directory: GitHub lists it
		}
		_, err = os.Stat(path)
	}
	if os.IsNotExist(err) && c.o.Dialect == markdown.MdBook {
		if md := c.mdBookSource(path); md != "" {
			if ids, known := c.o.IDs[absPath(md)]; known {
				return markdownIDs(ids, fragments)
			}
			path = md
			_, err = os.Stat(path)
		}
	}
	if err != nil {
		if os.IsNotExist(err) {
			return targetResult{Result: Result{State: Broken, Err: fmt.Errorf("no such file: %s", path)}}
		}
		return targetResult{Result: Result{State: Broken, Err: err}}
	}
	r := targetResult{}
	if !fragments {
		return r
	}
	switch {
	case isMarkdownFile(path):
		// Read whole up to MaxSize, as a page is: the Markdown scanner
		// reads any document whole; one goldmark parses, up to its
		// markdown.MaxSize.
		src, err := readUpTo(path, c.o.MaxSize+1)
		if err != nil {
			return targetResult{Result: Result{State: Broken, Err: err}}
		}
		whole := int64(len(src)) <= c.o.MaxSize
		src = src[:min(int64(len(src)), c.o.MaxSize)]
		doc := markdown.Parse(src, c.o.Dialect)
		r = markdownIDs(doc.Anchors(c.o.Dialect), true)
		r.cut, r.read = !whole || doc.Read < len(src), int64(doc.Read)
	case isHTMLFile(path):
		f, err := os.Open(path)
		if err != nil {
			return targetResult{Result: Result{State: Broken, Err: err}}
		}
		defer f.Close()
		if _, r.ids, r.cut, err = c.readPage(f); err != nil {
			return targetResult{Result: Result{State: Broken, Err: fmt.Errorf("reading %s: %w", path, err)}}
		}
	}
	return r
}

// markdownIDs is the result of a Markdown document with the anchors ids,
// when fragments are wanted: a page's top ("" and "top") is one too.
func markdownIDs(ids []string, fragments bool) targetResult {
	if !fragments {
		return targetResult{}
	}
	found := map[string]bool{"": true, "top": true}
	for _, id := range ids {
		found[id] = true
	}
	return targetResult{ids: makeIDSet(found), markdown: true}
}

// mdBookSource returns the Markdown file mdBook renders as the page path
// (X.md for X.html; for index.html, index.md or else README.md), "" if
// there is none. A document of the run (Options.IDs) is one without a
// look at the file system.
func (c *checker) mdBookSource(path string) string {
	stem, ok := strings.CutSuffix(path, ".html")
	if !ok {
		return ""
	}
	exists := func(path string) bool {
		_, known := c.o.IDs[absPath(path)]
		return known || fileExists(path)
	}
	if exists(stem + ".md") {
		return stem + ".md"
	}
	if readme := filepath.Join(filepath.Dir(path), "README.md"); filepath.Base(path) == "index.html" && exists(readme) {
		return readme
	}
	return ""
}

// readUpTo reads the first n bytes of a file, or all of a shorter one.
func readUpTo(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// absPath is path made absolute and clean, the key of Options.IDs.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

func isHTMLFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm", ".xhtml", "":
		return true
	}
	return false
}

func isMarkdownFile(path string) bool { return links.FormatOf(path, nil) == links.FormatMarkdown }

// readPage reads the HTML document r, up to MaxSize bytes, and its ids,
// and reports whether there was more: a fragment not found in a page cut
// short is not known to be missing.
func (c *checker) readPage(r io.Reader) ([]byte, idSet, bool, error) {
	body, err := io.ReadAll(io.LimitReader(r, c.o.MaxSize))
	if err != nil {
		return nil, nil, false, err
	}
	found, err := ids(bytes.NewReader(body))
	var one [1]byte
	n, _ := io.ReadFull(r, one[:])
	return body, makeIDSet(found), n > 0, err
}

// ids returns the ids of an HTML document's elements and the names of its
// <a> elements: what a fragment can name (HTML, "find a potential
// indicated element"), in the tree the browser builds (package htmltree):
// not inside a <template>'s contents, which are in no document, and not
// in text a tokenizer alone would take for tags. The empty fragment and
// "top" name the document.
func ids(r io.Reader) (map[string]bool, error) {
	z := htmltok.New(r)
	s := &idSink{z: z, found: map[string]bool{"": true, "top": true}}
	err := htmltree.New(z, s).Run()
	return s.found, err
}

// idSink is the tree builder's Sink that keeps the ids.
type idSink struct {
	z         *htmltok.Tokenizer
	found     map[string]bool
	templates int // open <template> elements
	fresh     htmltree.Node
	html, a   bool // the fresh element is HTML's; is an <a>
}

func (s *idSink) Element(n htmltree.Node, ns htmltree.Namespace, name string, how htmltree.Origin, _ htmltree.Node) {
	if how == htmltree.FromToken {
		s.fresh, s.html, s.a = n, ns == htmltree.HTML, ns == htmltree.HTML && name == "a"
	}
}

func (s *idSink) Insert(_, n, _ htmltree.Node) {
	if n != s.fresh {
		return
	}
	s.fresh = htmltree.None
	if s.templates == 0 {
		if a, ok := s.z.Attr("id"); ok {
			s.found[string(a.Value)] = true
		}
		if a, ok := s.z.Attr("name"); ok && s.a {
			s.found[string(a.Value)] = true
		}
	}
	if s.html && string(s.z.Name()) == "template" {
		s.templates++
	}
}

func (s *idSink) Pop(_ htmltree.Node, ns htmltree.Namespace, name string) {
	if ns == htmltree.HTML && name == "template" {
		s.templates--
	}
}

func (*idSink) Contents(_, _ htmltree.Node)                  {}
func (*idSink) Text(htmltree.Node, []byte, htmltree.Node)    {}
func (*idSink) Comment(htmltree.Node, []byte, htmltree.Node) {}
func (*idSink) Doctype()                                     {}
func (*idSink) Remove(htmltree.Node)                         {}
func (*idSink) MoveChildren(_, _ htmltree.Node)              {}
func (*idSink) AddAttributes(htmltree.Node)                  {}
