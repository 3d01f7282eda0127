package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/ordered"
)

// A File is one file of the trees Files walks: a document rewritten, or
// another file, which a copy of the tree takes as it is.
type File struct {
	Path     string // as found: the input, or a path below it
	Rel      string // its path below the input it was found in ("" for a file named alone: its base name)
	URL      string // its retrieval URL, the base of a document's links ("" for none)
	Document bool   // an HTML document (.html, .htm, .xhtml, or a file named alone) or a stylesheet (.css)
	Old, New []byte // a document's bytes, and rewritten (New is Old when nothing changed)
	Result   Result
	Err      error // the document could not be read or rewritten
}

// Changed reports whether the document's rewriting changed it.
func (f *File) Changed() bool { return f.Document && f.Err == nil && !bytes.Equal(f.Old, f.New) }

// IsDocument reports whether a file found in a directory is an HTML
// document or a stylesheet, by its extension.
func IsDocument(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm", ".xhtml", ".css":
		return true
	}
	return false
}

// Files rewrites the documents of inputs, files and directories (walked
// in lexical order), calling each with every file in turn, in that order:
// the documents, rewritten, and every other file of a directory. urlOf
// gives a file's retrieval URL, the document's URL for its links ("" for
// none). A file named alone is a document whatever its name. Files are
// read ahead, and Jobs documents rewritten at once, while each runs on the
// calling goroutine. each's error stops the walk, and Files returns it.
func (o *Options) Files(inputs []string, urlOf func(path string) string, each func(*File) error) error {
	workers := o.Jobs
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var err error
	ordered.Run(found(inputs, urlOf), workers, 2*workers,
		func(f *File, _ *ordered.Output) { o.File(f) },
		func(*ordered.Output) bool { return true },
		func(f *File) bool {
			err = each(f)
			return err == nil
		})
	return err
}

// found yields the files of inputs, read, with their URLs. It runs on
// one goroutine, so urlOf need not be safe for concurrent use.
func found(inputs []string, urlOf func(path string) string) iter.Seq[*File] {
	return func(yield func(*File) bool) {
		read := func(path, rel string, document bool) bool {
			f := &File{Path: path, Rel: rel, URL: urlOf(path), Document: document}
			f.Old, f.Err = os.ReadFile(path)
			return yield(f)
		}
		for _, in := range inputs {
			info, err := os.Stat(in)
			switch {
			case err != nil:
				if !yield(&File{Path: in, Document: true, Err: err}) {
					return
				}
				continue
			case !info.IsDir():
				if !read(in, filepath.Base(in), true) {
					return
				}
				continue
			}
			stopped := errors.New("stopped")
			err = filepath.WalkDir(in, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					if !yield(&File{Path: path, Document: true, Err: err}) {
						return stopped
					}
					return nil
				}
				if d.IsDir() || !d.Type().IsRegular() {
					return nil
				}
				rel, _ := filepath.Rel(in, path)
				if !read(path, rel, IsDocument(path)) {
					return stopped
				}
				return nil
			})
			if err == stopped {
				return
			}
		}
	}
}

// File rewrites f, a document read (f.Old) at f.URL, into f.New: a
// stylesheet by its .css name, else an HTML document. A file that failed
// to be read, or that is not a document, is left as it is.
func (o *Options) File(f *File) {
	if f.Err != nil || !f.Document {
		return
	}
	if strings.EqualFold(filepath.Ext(f.Path), ".css") {
		f.New, f.Result, f.Err = o.CSS(f.Old, f.URL)
	} else {
		f.New, f.Result, f.Err = o.Document(f.Old, base.Retrieved(f.URL))
	}
	if f.Err != nil {
		f.Err = fmt.Errorf("%s: %w", f.Path, f.Err)
	}
}

// WriteFile replaces the file at path with data, whole or not at all: data
// goes to a temporary file in the same directory, with path's permissions,
// which is then renamed over path.
func WriteFile(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".relurl-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Diff returns the unified diff of a document's rewriting, labelled with
// its path, "" when nothing changed.
func Diff(f *File) string {
	if !f.Changed() {
		return ""
	}
	return udiff.Unified("a/"+filepath.ToSlash(f.Path), "b/"+filepath.ToSlash(f.Path), string(f.Old), string(f.New))
}
