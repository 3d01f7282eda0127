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
	"github.com/relurl/relurl/links"

	"github.com/relurl/relurl/internal/ordered"
)

// A File is one file of the trees Files walks: a document rewritten, or
// another file, which a copy of the tree takes as it is.
type File struct {
	Path     string // as found: the input, or a path below it
	Rel      string // its path below the input it was found in ("" for a file named alone: its base name)
	URL      string // its retrieval URL, the base of a document's links ("" for none)
	Document bool   // an HTML document (.html, .htm, .xhtml, or a file named alone), a Markdown document (.md, .markdown), a stylesheet (.css), a sitemap or feed (.xml, .xml.gz, .rss, .atom) or a robots.txt
	Old, New []byte // a document's bytes, and rewritten (New is Old when nothing changed)
	// Info describes the file as it was when Old was read, as os.Lstat
	// gives it (a file named alone that is a symbolic link: the link), so
	// that a writer can tell whether it changed since.
	Info fs.FileInfo
	// Link is the target of a symbolic link met in a directory, which is
	// not followed: neither read nor rewritten (a link may lead out of the
	// tree). The file is then no document, and has no bytes.
	Link   string
	Result Result
	Err    error // the document could not be read or rewritten
	// WriteErr is what Rewriter.Write returned for the file.
	WriteErr error

	unread bool // Files has found it; a worker reads it
}

// ErrNoURL is the error of a document that no URL was given for: its
// links could only be resolved against its file: URL, which holds the
// machine's own path, and would move nowhere.
var ErrNoURL = errors.New("its URL is unknown: no Map covers it")

// Changed reports whether the document's rewriting changed it.
func (f *File) Changed() bool { return f.Document && f.Err == nil && !bytes.Equal(f.Old, f.New) }

// isDocument reports whether a file found in a directory is an HTML
// document, a Markdown document or a stylesheet, by its extension.
func isDocument(name string) bool {
	switch links.FormatOf(name, nil) {
	case links.FormatHTML, links.FormatMarkdown, links.FormatXML:
		return true
	}
	return strings.EqualFold(filepath.Ext(name), ".css") || isRobots(name)
}

// isRobots reports whether the file name is a robots.txt.
func isRobots(name string) bool { return strings.EqualFold(filepath.Base(name), "robots.txt") }

// Files rewrites the documents of inputs, files and directories (walked
// in lexical order), and yields every file in turn, in that order: the
// documents, rewritten, and every other file of a directory. urlOf gives a
// file's retrieval URL, the document's URL for its links ("" for none). A
// file named alone is a document whatever its name. A file that could not
// be read, or a document not rewritten, has its Err set; the walk goes on.
//
// Jobs files are read, rewritten and (with Write) written at once, while
// the loop's body runs on the calling goroutine, handed the files in
// order; breaking out of it stops the walk. At most twice Jobs files are
// in memory at once.
func (rw *Rewriter) Files(inputs []string, urlOf func(path string) string) iter.Seq[*File] {
	return func(yield func(*File) bool) {
		workers := rw.Jobs
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		ordered.Run(found(inputs, urlOf), workers, ordered.Window{Jobs: 2 * workers},
			func(f *File, _ *ordered.Output) {
				if f.unread {
					f.unread = false
					if f.Info, f.Err = os.Lstat(f.Path); f.Err == nil {
						f.Old, f.Err = rw.readFile(f.Path)
					}
				}
				rw.File(f)
				if rw.Write != nil && f.Err == nil && f.Link == "" {
					f.WriteErr = rw.Write(f)
				}
			},
			func(*ordered.Output) bool { return true },
			yield)
	}
}

// readFile reads the file at path, up to MaxSize.
func (rw *Rewriter) readFile(path string) ([]byte, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var size int64
	if info, err := file.Stat(); err == nil && info.Mode().IsRegular() {
		size = info.Size()
	}
	data, err := rw.readDocument(file, size)
	if err != nil {
		err = &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, err
}

// found yields the files of inputs, to be read, with their URLs. It runs
// on one goroutine, so urlOf need not be safe for concurrent use.
func found(inputs []string, urlOf func(path string) string) iter.Seq[*File] {
	return func(yield func(*File) bool) {
		read := func(path, rel string, document bool) bool {
			return yield(&File{Path: path, Rel: rel, URL: urlOf(path), Document: document, unread: true})
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
				rel, _ := filepath.Rel(in, path)
				if d.Type()&fs.ModeSymlink != 0 {
					f := &File{Path: path, Rel: rel}
					if f.Link, f.Err = os.Readlink(path); f.Err == nil {
						f.Info, f.Err = os.Lstat(path)
					}
					if !yield(f) {
						return stopped
					}
					return nil
				}
				if d.IsDir() || !d.Type().IsRegular() {
					return nil
				}
				if !read(path, rel, isDocument(path)) {
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
func (rw *Rewriter) File(f *File) {
	if f.Err != nil || !f.Document {
		return
	}
	if f.URL == "" {
		f.Err = fmt.Errorf("%s: %w", f.Path, ErrNoURL)
		return
	}
	switch {
	case strings.EqualFold(filepath.Ext(f.Path), ".css"):
		f.New, f.Result, f.Err = rw.CSS(f.Old, f.URL)
	case isRobots(f.Path):
		f.New, f.Result, f.Err = rw.Robots(f.Old, f.URL)
	case links.FormatOf(f.Path, nil) == links.FormatMarkdown:
		f.New, f.Result, f.Err = rw.Markdown(f.Old, f.URL)
	case links.FormatOf(f.Path, nil) == links.FormatXML:
		f.New, f.Result, f.Err = rw.XML(f.Old, f.URL)
	default:
		f.New, f.Result, f.Err = rw.Document(f.Old, links.Retrieved(f.URL))
	}
	if f.Err != nil {
		f.Err = fmt.Errorf("%s: %w", f.Path, f.Err)
	}
}

// Diff returns the unified diff of the document's rewriting, labelled with
// its path, "" when nothing changed.
func (f *File) Diff() string {
	if !f.Changed() {
		return ""
	}
	old, new := f.Old, f.New
	// A compressed sitemap's diff is its text's.
	if o, gz, err := inflate(old); gz && err == nil {
		if n, _, err := inflate(new); err == nil {
			old, new = o, n
		}
	}
	return udiff.Unified("a/"+filepath.ToSlash(f.Path), "b/"+filepath.ToSlash(f.Path), string(old), string(new))
}
