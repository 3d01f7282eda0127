package source

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// A Map says that the files below Dir are the documents at URL, each at
// URL followed by its path below Dir, as relurl's -map DIR=URL says: the
// retrieval URL package corpus gives a file, and the files package linkcheck
// looks at for the links to URL. It is one type for both, so that a tree
// mapped for its links is the tree checked.
//
// Paths compare as absolute paths, whichever way they are written: a Map
// of "docs" holds "/home/me/docs/x.html" when the working directory is
// /home/me, and one of "/home/me/docs" holds "docs/x.html" and
// "./docs//x.html".
type Map struct{ Dir, URL string }

// ParseMap parses "DIR=URL"; the URL must be absolute. DIR may hold "="
// too: the URL starts after the first "=" that a scheme follows.
func ParseMap(s string) (Map, error) {
	dir, u, ok := strings.Cut(s, "=")
	for eq := len(dir); ok; {
		if p, err := url.Parse(u); err == nil && p.Scheme != "" {
			break
		}
		next := strings.IndexByte(s[eq+1:], '=')
		if next < 0 {
			break // none has a scheme: reported below
		}
		eq += 1 + next
		dir, u = s[:eq], s[eq+1:]
	}
	if !ok || dir == "" {
		return Map{}, fmt.Errorf("%q: want DIR=URL", s)
	}
	if p, err := url.Parse(u); err != nil || p.Scheme == "" {
		return Map{}, fmt.Errorf("%q: %q is not an absolute URL", s, u)
	}
	return Map{filepath.Clean(dir), u}, nil
}

// Below returns the path of the file path below m.Dir, slash-separated,
// and whether path is below it (or is it: ".").
func (m Map) Below(path string) (string, bool) {
	var rel string
	var err error
	if sameRoot(m.Dir, path) {
		// Compared as written: making each path absolute asks the system
		// for the working directory, twice for each file of a tree
		// walked (and two stat calls each time).
		rel, err = filepath.Rel(m.Dir, path)
	} else {
		dir, err1 := filepath.Abs(m.Dir)
		abs, err2 := filepath.Abs(path)
		if err1 != nil || err2 != nil {
			return "", false
		}
		rel, err = filepath.Rel(dir, abs)
	}
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// sameRoot reports whether a and b relate as written as they do made
// absolute: both absolute, or both relative and neither above the working
// directory ("../docs" may be the working directory's sibling or itself,
// by its name, which is not written).
func sameRoot(a, b string) bool {
	up := func(p string) bool {
		p = filepath.Clean(p)
		return p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator))
	}
	return filepath.IsAbs(a) == filepath.IsAbs(b) && !up(a) && !up(b)
}

// URLOf returns the URL of the file path, and whether it is below m.Dir:
// m.URL followed by its path below m.Dir, each segment percent-escaped;
// m.URL itself for m.Dir (a Map of one file).
func (m Map) URLOf(path string) (string, bool) {
	rel, ok := m.Below(path)
	if !ok {
		return "", false
	}
	return m.urlAt(rel), true
}

// urlAt returns the URL of the file at the path rel below m.Dir, as Below
// gives it.
func (m Map) urlAt(rel string) string {
	if rel == "." {
		return m.URL
	}
	return strings.TrimSuffix(m.URL, "/") + "/" + EscapePath(rel)
}

// PathOf returns the file that the URL u stands for, and whether u is
// under m.URL. The file is "" when u's path would leave m.Dir: a segment
// ".." or "." (RFC 1808 and 3986 leave those above the root in place), or
// one that holds a slash, a backslash or a NUL once percent-decoded
// ("..%2f..%2fetc%2fpasswd"), which no file name holds. Such a file is
// never to be looked up.
func (m Map) PathOf(u string) (string, bool) {
	rest, ok := strings.CutPrefix(u, m.URL)
	if !ok {
		return "", false
	}
	segs := strings.Split(rest, "/")
	for i, seg := range segs {
		s, err := url.PathUnescape(seg)
		if err != nil {
			s = seg
		}
		if s == "." || s == ".." || strings.ContainsAny(s, "/\\\x00") {
			return "", true
		}
		segs[i] = s
	}
	return filepath.Join(m.Dir, filepath.FromSlash(strings.Join(segs, "/"))), true
}

// Maps are several Maps, each a directory served at a URL. A file below
// more than one is under the innermost: the Map it is the shortest path
// below; a URL under more than one, under the Map with the longest URL.
// So URLOf and PathOf are each other's inverse wherever Maps nest.
type Maps []Map

// URLOf returns the URL of the file path under the innermost Map that holds
// it, and that Map's index in ms; -1 when none does.
func (ms Maps) URLOf(path string) (string, int) {
	best, which := "", -1
	for i, m := range ms {
		if rel, ok := m.Below(path); ok && (which < 0 || len(rel) < len(best)) {
			best, which = rel, i
		}
	}
	if which < 0 {
		return "", -1
	}
	return ms[which].urlAt(best), which
}

// PathOf returns the file that the URL u stands for under the Map with the
// longest URL that covers it, and whether one does; the file is "" when
// u's path would leave that Map's directory (see Map.PathOf).
func (ms Maps) PathOf(u string) (string, bool) {
	which := -1
	for i, m := range ms {
		if strings.HasPrefix(u, m.URL) && (which < 0 || len(m.URL) > len(ms[which].URL)) {
			which = i
		}
	}
	if which < 0 {
		return "", false
	}
	return ms[which].PathOf(u)
}

// EscapePath writes a slash-separated file path as a URL path, each
// segment percent-escaped.
func EscapePath(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
