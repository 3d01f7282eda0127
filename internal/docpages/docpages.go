// Package docpages reads, for tests and benchmarks, the documents that
// ../shared/data holds (see its README): the 1,699 HTML pages of the
// Python and PostgreSQL documentation and the Markdown of rust-lang/book,
// as tarballs, and wget's crawl of the pages, as a WARC archive.
package docpages

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/warc"
)

// Sets are the two tarballs, by the name of their set.
var Sets = []struct{ Name, File string }{
	{"python", "python3.11-doc-html.tar.gz"},
	{"postgresql", "postgresql-15-doc-html.tar.gz"},
}

// Each calls f with each page of the tarballs in the directory data (the
// shared data folder): its set ("python" or "postgresql"), its path within
// the set ("library/os.html"), and its bytes, in the tarballs' order. It
// stops at f's first error, and returns it.
func Each(data string, f func(set, path string, body []byte) error) error {
	for _, set := range Sets {
		if err := Tarball(filepath.Join(data, set.File), "html/", ".html", func(path string, body []byte) error { return f(set.Name, path, body) }); err != nil {
			return err
		}
	}
	return nil
}

// Tarball calls f with each file of the gzip-compressed tarball whose name
// starts with dir and ends with ext: its path after dir, and its bytes, in
// the tarball's order. It stops at f's first error, and returns it.
func Tarball(tarball, dir, ext string, f func(path string, body []byte) error) error {
	file, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer file.Close()
	z, err := gzip.NewReader(file)
	if err != nil {
		return err
	}
	tr := tar.NewReader(z)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		path, ok := strings.CutPrefix(hdr.Name, dir)
		if !ok || !strings.HasSuffix(path, ext) {
			continue
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := f(path, body); err != nil {
			return err
		}
	}
}

// Write writes the pages below dir, as SET/PATH.
func Write(data, dir string) error {
	return Each(data, func(set, path string, body []byte) error {
		name := filepath.Join(dir, set, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, body, 0o644)
	})
}

// Crawl is wget's crawl of the 1,699 pages, in the directory data.
const Crawl = "warc/docs-crawl.warc.gz"

// Records returns every record of the crawl in the directory data, in
// memory (71.5 MB of blocks).
func Records(data string) ([]*warc.Record, error) {
	f, err := os.Open(filepath.Join(data, Crawl))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []*warc.Record
	for r := warc.NewReader(f); ; {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
}
