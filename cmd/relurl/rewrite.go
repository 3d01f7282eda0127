package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/safefile"
	"github.com/relurl/relurl/internal/textsafe"
	"github.com/relurl/relurl/rewrite"
	"github.com/relurl/relurl/source"
)

const rewriteHelp = `
Rewrite moves HTML documents: it rewrites their links in place, so that a
tree of documents can be moved as a whole (RFC 1808's introduction), or a
document can leave its tree. Links are found as links finds them, every
kind (href, src, each srcset candidate, ping, a meta refresh's URL, CSS
url() and @import in <style> and style attributes, form actions, cite,
SVG's links), against the base a browser uses: the document's URL (-map
DIR=URL for the files of a tree, -url for one, else its file:// URL), or
its <base href>.

  -relative SCOPE   a link whose target and base are under the URL
                    prefix SCOPE becomes the shortest relative reference
                    from the base (repeatable); a relative link from under
                    SCOPE out of it becomes absolute, or it would move
                    with the tree and miss; others are left alone
  -absolute         every link becomes its absolute URL
  -move OLD=NEW     targets under OLD, and documents whose URL is, move
                    under NEW: relative when both ends are under NEW,
                    absolute otherwise (repeatable)
  -drop-base        remove the <base> element and write every link
                    against the document's own URL

A <base href> under SCOPE is a link too, made relative to the document's
URL: <base href="https://old.example/docs/"> in docs/guide/x.html becomes
<base href="../">. One outside every SCOPE is left, and so are the links
written against it: they do not move with the tree (-drop-base makes them
movable). A link that is already relative and still reaches its
target is left as written. Only the bytes of the values that change are
written: quotes kept (or added where a value now needs them), "&" and the
quote escaped as HTML's serializer does, the URL token alone in CSS; the
document's encoding is kept; script and raw text are left as written; the
document of an <iframe srcdoc> is rewritten as a document whose base is
its container's. Rewriting the output again changes nothing.
Links resolve by the URL Standard, as browsers resolve them (-spec to
change it).

Every document needs its URL, which its links are rewritten against:
-map DIR=URL gives the files below DIR theirs, -url a single document
its; a document with none is an error (its file: URL holds this
machine's path, and would move with nothing).

The rewritten document goes to standard output (a DOCUMENT "-" is read
from standard input, with -url its URL); with -d as a unified diff; with
-l as the names of the documents that change (quoted as git quotes them
when they hold a control byte, a quote or a backslash; -z ends each with
a NUL instead, as it is); with -w back to its file; with -o DIR, into a
copy of each tree under DIR, its other files copied as they are. Files
are written as rsync writes them: to a temporary file beside the target,
renamed over it once whole, never through a symbolic link, so that a
failure, a full disk or a kill leaves the old file or the new one. -w
leaves a file as it is, and says why, when it changed since it was read,
is read-only or not this user's to write, or its owner or group could
not be kept; its mode is kept. -o refuses a DIR that is one of the
trees, or inside one, or holds one (-w rewrites in place). A symbolic
link met in a tree is never followed: it is named on standard error, and
-o copies it as a link. A directory's documents are its .html, .htm and
.xhtml files, its Markdown (.md, .markdown: the destinations of its links,
images and reference definitions, and the links of its HTML; -markdown
names its renderer), its stylesheets (.css), its sitemaps, sitemap
indexes and feeds (.xml, .xml.gz, .rss, .atom: <loc>, RSS's links and
enclosures, Atom's href and src, each against its xml:base) and its
robots.txt (its Sitemap: lines). A sitemap's, a feed's and robots.txt's
URLs stay absolute, as their formats want them: moved, or made absolute,
never relative; a compressed sitemap is compressed again. A document is
rewritten whole or not at all: a URL that cannot be replaced where it is
written (broken by a comment), or links in the HTML a feed holds, are an
error naming the line, and the document is left as it is. -j N rewrites N
at once (one for each core by default), the output in the same order. A
run that finds no document to rewrite is an error, which names the files
it met. Exit
status: 0 when every document was rewritten (changed or not, as gofmt),
1 when one could not be read, rewritten or written (the others are), 2
for a usage error.

Examples:

  $ relurl rewrite -relative https://old.example/docs/ \
      -map testdata/moving/docs=https://old.example/docs/ \
      testdata/moving/docs/index.html
  <!DOCTYPE html>
  <title>Docs</title>
  <link rel=stylesheet href="style.css">
  <a href="guide/intro.html">Intro</a>
  <a href="https://elsewhere.example/">Elsewhere</a>

  $ relurl rewrite -relative https://d.org/ -map site=https://d.org/ -w site
  $ relurl rewrite -map docs=https://a.org/ \
      -move https://a.org/=https://b.org/ -o moved docs
  $ relurl rewrite -absolute -url https://d.org/x.html page.html > mail.html
`

func runRewrite(e *env, args []string) int {
	fs := flag.NewFlagSet("rewrite", flag.ContinueOnError)
	o := rewrite.Rewriter{Resolver: &relurl.Resolver{}} // the flags set it
	var scopes, moves listFlag
	var maps mapFlag
	fs.Var(&scopes, "relative", "write links to targets under the URL prefix `SCOPE` relative (repeatable)")
	fs.BoolVar(&o.Absolute, "absolute", false, "write every link as its absolute URL")
	fs.Var(&moves, "move", "move targets under `OLD=NEW`'s OLD under NEW (repeatable)")
	fs.BoolVar(&o.DropBase, "drop-base", false, "remove the <base> element; write links against the document's URL")
	fs.Var(&maps, "map", "give the files below `DIR=URL`'s DIR the URL URL/PATH (repeatable)")
	url := fs.String("url", "", "the `URL` of a single document")
	specFlag(fs, &o.Resolver.Spec)
	documentSpec(fs, &o.Resolver.Spec)
	write := fs.Bool("w", false, "write the result back to each document's file")
	diff := fs.Bool("d", false, "print a unified diff of each document that changes")
	list := fs.Bool("l", false, "print the names of the documents that change")
	nul := fs.Bool("z", false, "with -l, end each name with a NUL byte, as it is, instead of a newline")
	outDir := fs.String("o", "", "write a rewritten copy of the trees into `DIR`")
	fs.IntVar(&o.Jobs, "j", 0, "read, rewrite and write `N` files at once (default: one for each core)")
	fs.Int64Var(&o.MaxSize, "max-size", rewrite.DefaultMaxSize, "rewrite no document over `bytes` (an error)")
	var dialect dialectFlag
	dialectFlagVar(fs, &dialect)
	if code, ok := e.parseFlags(fs, args, rewriteHelp); !ok {
		return code
	}
	for _, m := range moves {
		mv, err := rewrite.ParseMove(m)
		if err != nil {
			return e.usageError("rewrite", "-move: %v", err)
		}
		o.Moves = append(o.Moves, mv)
	}
	o.Relative = scopes
	docs := fs.Args()
	switch {
	case len(docs) == 0:
		return e.usageError("rewrite", "no DOCUMENT")
	case !o.Absolute && len(o.Relative) == 0 && len(o.Moves) == 0 && !o.DropBase:
		return e.usageError("rewrite", "say what to do: -relative SCOPE, -absolute, -move OLD=NEW or -drop-base")
	case o.Absolute && len(o.Relative) > 0:
		return e.usageError("rewrite", "-absolute and -relative exclude each other")
	case countTrue(*write, *diff, *list, *outDir != "") > 1:
		return e.usageError("rewrite", "-w, -d, -l and -o exclude each other")
	case o.MaxSize < 1:
		return e.usageError("rewrite", "-max-size %d: want a number of bytes, at least 1", o.MaxSize)
	case *nul && !*list:
		return e.usageError("rewrite", "-z is for the names -l prints")
	case *url != "" && len(docs) > 1:
		return e.usageError("rewrite", "-url names the URL of a single document")
	case *url == "" && len(maps) == 0:
		// A file's own file: URL holds the machine's path: links made
		// absolute or relative against it would lead nowhere once the
		// tree is moved, and a SCOPE of the web matches none of them.
		return e.usageError("rewrite", "give the documents their URL: -map DIR=URL for the files below DIR, or -url URL for one document")
	case countTrue(*write, *diff, *list, *outDir != "") == 0 && (len(docs) > 1 || docs[0] != "-" && isDir(docs[0])):
		return e.usageError("rewrite", "more than one document: give -w, -d, -l or -o DIR")
	}
	if *outDir != "" {
		if err := outsideInputs(*outDir, docs); err != nil {
			return e.usageError("rewrite", "-o %s: %v", *outDir, err)
		}
	}
	for _, m := range maps {
		if !slices.ContainsFunc(docs, func(d string) bool { return under(m, d) }) {
			fmt.Fprintf(e.stderr, "relurl rewrite: warning: -map %s=%s: no DOCUMENT is below %s or holds it\n", m.Dir, m.URL, m.Dir)
		}
	}
	if os.Getenv("GOGC") == "" {
		// rewrite holds a few documents at a time, each read and written
		// whole: its heap is small, and collecting it four times less
		// often makes the run a fifth faster (bench/rewrite.sh). Past
		// the heap floor, that is (setHeapFloor).
		gcPercent.Store(400)
	}
	// A document's retrieval URL: -url's, or its URL under its -map.
	retrieval := func(path string) string {
		if *url != "" {
			return *url
		}
		u, _ := source.Maps(maps).URLOf(path)
		return u
	}
	o.Dialect = dialect.of(docs)
	w := &rewriter{e: e, write: *write, diff: *diff, list: *list, nul: *nul, status: exitOK}
	if *outDir != "" {
		os.MkdirAll(*outDir, 0o755)
		root, err := os.OpenRoot(*outDir)
		if err != nil {
			fmt.Fprintf(e.stderr, "relurl rewrite: -o: %v\n", err)
			return exitFailed
		}
		defer root.Close()
		w.out = root
	}
	var err error
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	largest := int64(0)
	single := len(docs) == 1 && !isDir(docs[0])
	urlOf := func(path string) string {
		// A document is read and rewritten whole: memory is bounded by
		// the largest documents read at once, 3 × their size and 55 MB
		// each, as for links. Files calls urlOf on one goroutine, before
		// it hands the file on to be read.
		if fi, err := os.Stat(path); err == nil && fi.Size() > largest {
			largest = fi.Size()
			limitMemory(jobs, single, largest, 0, 0)
		}
		return retrieval(path)
	}
	if slices.Contains(docs, "-") {
		// Standard input: one document, rewritten to standard output (or
		// shown by -d and -l), as a filter.
		if len(docs) > 1 || *write || *outDir != "" {
			return e.usageError("rewrite", `"-", standard input, is one document, rewritten to standard output: not with other documents, -w or -o`)
		}
		f := &rewrite.File{Path: "-", Rel: "-", URL: retrieval("-"), Document: true}
		if f.Old, f.Err = o.ReadDocument(e.stdin); f.Err != nil {
			f.Err = fmt.Errorf("standard input: %w", f.Err)
		}
		o.File(f)
		err = w.each(f)
	} else {
		if w.out != nil || w.write {
			o.Write = w.writeFile
		}
		for f := range o.Files(docs, urlOf) {
			if err = w.each(f); err != nil {
				break
			}
		}
	}
	if err != nil {
		return exitWrite // main reports it
	}
	if w.documents == 0 && w.status == exitOK {
		fmt.Fprintf(e.stderr, "relurl rewrite: no document rewritten: %s\n", w.skippedNote())
		return exitFailed
	}
	return w.status
}

// outsideInputs reports an output directory that is, or is inside, one
// of the input trees, or that holds one: a copy there would overwrite
// the originals, or be read again as documents by the next run.
func outsideInputs(out string, inputs []string) error {
	dest := realPath(out)
	for _, in := range inputs {
		if !isDir(in) {
			continue
		}
		src := realPath(in)
		switch {
		case dest == src:
			return fmt.Errorf("is the tree %s itself: rewrite it in place with -w instead", in)
		case within(dest, src):
			return fmt.Errorf("is inside the tree %s: its copies would be read as its documents (use -w to rewrite in place, or another directory)", in)
		case within(src, dest):
			return fmt.Errorf("holds the tree %s: the copy could overwrite its originals", in)
		}
	}
	return nil
}

// realPath is path made absolute with its symbolic links resolved, as far
// as it exists: the place it is, however it is named.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		if filepath.Dir(p) == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// within reports whether path is below dir (both absolute and clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// under reports whether the input in is below the Map's directory, or
// holds it.
func under(m source.Map, in string) bool {
	if _, ok := m.Below(in); ok {
		return true
	}
	_, ok := source.Map{Dir: in}.Below(m.Dir)
	return ok
}

// rewriter does with each rewritten file what the flags say: copy it into
// out, write it back, print its diff or its name if it changed, or print
// it. A file that cannot be read or written is reported and sets status;
// an error writing standard output stops the run.
type rewriter struct {
	e                      *env
	out                    *os.Root // -o
	write, diff, list, nul bool
	status                 int
	documents              int            // documents rewritten, changed or not
	skipped                map[string]int // files that are no documents, by extension
}

func (w *rewriter) failed(path string, err error) {
	fmt.Fprintf(w.e.stderr, "relurl rewrite: %s: %v\n", printable(path), printable(err.Error()))
	w.status = exitFailed
}

func (w *rewriter) each(f *rewrite.File) error {
	switch {
	case f.Err != nil:
		msg := f.Err.Error()
		if errors.Is(f.Err, rewrite.ErrNoURL) {
			msg += " (-map DIR=URL gives the files below DIR theirs)"
		}
		fmt.Fprintf(w.e.stderr, "relurl rewrite: %s\n", printable(msg))
		w.status = exitFailed
		return nil
	case f.Link != "":
		w.symlink(f)
		return nil
	case f.Document:
		w.documents++
	default:
		if w.skipped == nil {
			w.skipped = map[string]int{}
		}
		w.skipped[extension(f.Path)]++
	}
	switch {
	case w.out != nil || w.write:
		// Written by writeFile, on the worker that rewrote it.
		if f.WriteErr != nil {
			w.failed(f.Path, f.WriteErr)
		}
	case !f.Document:
	case w.diff:
		_, err := fmt.Fprint(w.e.stdout, f.Diff())
		return err
	case w.list:
		if f.Changed() {
			end := "\n"
			name := textsafe.QuoteName(f.Path)
			if w.nul {
				end, name = "\x00", f.Path
			}
			_, err := fmt.Fprint(w.e.stdout, name+end)
			return err
		}
	default:
		_, err := w.e.stdout.Write(f.New)
		return err
	}
	return nil
}

// writeFile writes f where -o or -w asks: Rewriter.Write, called on the
// goroutine that rewrote f, so that files are written -j at once. Each is
// written whole or not at all, so a run stopped midway leaves every file
// old or new, as in order.
func (w *rewriter) writeFile(f *rewrite.File) error {
	switch {
	case w.out != nil:
		return w.copy(f)
	case w.write && f.Changed():
		return safefile.Replace(f.Path, f.Old, f.New, f.Info)
	}
	return nil
}

// copy writes f, rewritten if it is a document, to its place under the
// output directory, with its mode, whole or not at all; never through a
// symbolic link, and never onto the file it was read from.
func (w *rewriter) copy(f *rewrite.File) error {
	if dest, err := w.out.Stat(f.Rel); err == nil && f.Info != nil && os.SameFile(dest, f.Info) {
		return fmt.Errorf("its copy would overwrite it: -o %s holds it", w.out.Name())
	}
	data := f.Old
	if f.Document {
		data = f.New
	}
	mode := os.FileMode(0o644)
	if f.Info != nil && f.Info.Mode().IsRegular() {
		mode = f.Info.Mode().Perm()
	}
	out, err := safefile.CreateIn(w.out, f.Rel, mode)
	if err != nil {
		if link := linkOnPath(w.out, f.Rel); link != "" {
			return fmt.Errorf("its copy is not written: %s is a symbolic link out of %s, which is never written through",
				filepath.Join(w.out.Name(), link), w.out.Name())
		}
		return err
	}
	if _, err := out.Write(data); err != nil {
		out.Abort()
		return err
	}
	return out.Commit()
}

// linkOnPath returns the first directory of the path name below root
// that is a symbolic link, "" if none is.
func linkOnPath(root *os.Root, name string) string {
	dir := ""
	for _, seg := range strings.Split(filepath.Dir(filepath.Clean(name)), string(filepath.Separator)) {
		dir = filepath.Join(dir, seg)
		if info, err := root.Lstat(dir); err == nil && info.Mode()&os.ModeSymlink != 0 {
			return dir
		}
	}
	return ""
}

// symlink says what becomes of a symbolic link met in a tree: it is not
// followed, so that nothing outside the tree is read or written; a copy
// of the tree gets the link as it is, as cp -a and rsync -a copy it.
func (w *rewriter) symlink(f *rewrite.File) {
	what := "not followed"
	if w.out != nil {
		what = "copied as a link, not followed"
		if err := copyLink(w.out, f.Rel, f.Link); err != nil {
			w.failed(f.Path, err)
			return
		}
	}
	fmt.Fprintf(w.e.stderr, "relurl rewrite: %s: a symbolic link to %s: %s\n", printable(f.Path), printable(f.Link), what)
}

// copyLink makes name below root a symbolic link to target, replacing
// what is there by a rename.
func copyLink(root *os.Root, name, target string) error {
	if old, err := root.Readlink(name); err == nil && old == target {
		return nil
	}
	if dir := filepath.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".relurl-link.tmp")
	root.Remove(tmp)
	if err := root.Symlink(target, tmp); err != nil {
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		root.Remove(tmp)
		return err
	}
	return nil
}

// skippedNote says what files a run that rewrote no document met.
func (w *rewriter) skippedNote() string {
	if len(w.skipped) == 0 {
		return "no file at all"
	}
	return "its documents are HTML (.html, .htm, .xhtml), Markdown (.md, .markdown) and CSS (.css); it met " + kindsNote(w.skipped)
}

// extension is the kind of file a name says: ".md", or "no extension".
func extension(name string) string {
	if ext := strings.ToLower(filepath.Ext(name)); ext != "" {
		return ext
	}
	return "no extension"
}

// kindsNote is "3 .md, 1 .png": counts by kind, the most first.
func kindsNote(kinds map[string]int) string {
	names := slices.Collect(maps.Keys(kinds))
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(kinds[b]-kinds[a], strings.Compare(a, b)) })
	for i, k := range names {
		names[i] = fmt.Sprintf("%d %s", kinds[k], k)
	}
	return strings.Join(names, ", ")
}
