package source

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// A Map says that the files below Dir are the documents at URL, each at
// URL followed by its path below Dir, as relurl's -map DIR=URL says: the
// retrieval URL package corpus gives a file, and the files package check
// looks at for the links to URL. It is one type for both, so that a tree
// mapped for its links is the tree checked.
type Map struct{ Dir, URL string }

// ParseMap parses "DIR=URL"; the URL must be absolute.
func ParseMap(s string) (Map, error) {
	dir, u, ok := strings.Cut(s, "=")
	if !ok || dir == "" {
		return Map{}, fmt.Errorf("%q: want DIR=URL", s)
	}
	if p, err := url.Parse(u); err != nil || p.Scheme == "" {
		return Map{}, fmt.Errorf("%q: %q is not an absolute URL", s, u)
	}
	return Map{filepath.Clean(dir), u}, nil
}
