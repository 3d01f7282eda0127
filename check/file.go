package check

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/htmltok"
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
func (c *checker) mapped(u string) (string, bool) {
	for _, m := range c.o.Maps {
		if path, ok := m.PathOf(u); ok {
			return path, true
		}
	}
	return "", false
}

// file checks that a file exists (a directory standing for its Index), and
// reads its ids when fragments are wanted and it is HTML.
func (c *checker) file(path string, fragments bool) targetResult {
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() {
		path = filepath.Join(path, c.o.Index)
		fi, err = os.Stat(path)
	}
	if err != nil {
		if os.IsNotExist(err) {
			return targetResult{Result: Result{State: Broken, Err: "no such file: " + path}}
		}
		return targetResult{Result: Result{State: Broken, Err: err.Error()}}
	}
	r := targetResult{}
	if fragments && isHTMLFile(path) {
		f, err := os.Open(path)
		if err != nil {
			return targetResult{Result: Result{State: Broken, Err: err.Error()}}
		}
		defer f.Close()
		if _, r.ids, r.cut, err = c.readPage(f); err != nil {
			return targetResult{Result: Result{State: Broken, Err: "reading " + path + ": " + err.Error()}}
		}
	}
	return r
}

func isHTMLFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm", ".xhtml", "":
		return true
	}
	return false
}

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
// indicated element"). The empty fragment and "top" name the document.
func ids(r io.Reader) (map[string]bool, error) {
	found := map[string]bool{"": true, "top": true}
	z := htmltok.New(r)
	for {
		switch z.Next() {
		case htmltok.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return found, err
			}
			return found, nil
		case htmltok.StartTagToken:
			if a, ok := z.Attr("id"); ok {
				found[string(a.Value)] = true
			}
			if string(z.Name()) == "a" {
				if a, ok := z.Attr("name"); ok {
					found[string(a.Value)] = true
				}
			}
		}
	}
}
