package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/rewrite"
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
document's encoding is kept. Rewriting the output again changes nothing.
Links resolve by the URL Standard, as browsers resolve them (-spec to
change it).

The rewritten document goes to standard output (a DOCUMENT "-" is read
from standard input, with -url its URL); with -w back to its file (a
temporary file renamed over it, its permissions kept; a document that
fails is left as it was); with -d as a unified diff; with -l as the names
of the documents that change; with -o DIR, into a copy of each tree under
DIR, its other files copied as they are. A directory's documents are its
.html, .htm and .xhtml files and its stylesheets (.css); -j N rewrites N
at once (one for each core by default), the output in the same order. Exit
status: 0 when every document was rewritten (changed or not, as gofmt), 1
when one could not be read or rewritten (the others are), 2 for a usage
error.

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
	var o rewrite.Options
	var scopes, moves listFlag
	var maps mapFlag
	fs.Var(&scopes, "relative", "write links to targets under the URL prefix `SCOPE` relative (repeatable)")
	fs.BoolVar(&o.Absolute, "absolute", false, "write every link as its absolute URL")
	fs.Var(&moves, "move", "move targets under `OLD=NEW`'s OLD under NEW (repeatable)")
	fs.BoolVar(&o.DropBase, "drop-base", false, "remove the <base> element; write links against the document's URL")
	fs.Var(&maps, "map", "give the files below `DIR=URL`'s DIR the URL URL/PATH (repeatable)")
	url := fs.String("url", "", "the `URL` of a single document")
	o.Resolver.Spec = relurl.WHATWG
	specFlag(fs, &o.Resolver.Spec)
	write := fs.Bool("w", false, "write the result back to each document's file")
	diff := fs.Bool("d", false, "print a unified diff of each document that changes")
	list := fs.Bool("l", false, "print the names of the documents that change")
	outDir := fs.String("o", "", "write a rewritten copy of the trees into `DIR`")
	fs.IntVar(&o.Jobs, "j", 0, "rewrite `N` documents at once (default: one for each core)")
	fs.Lookup("spec").DefValue = "whatwg"
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
	case *url != "" && len(docs) > 1:
		return e.usageError("rewrite", "-url names the URL of a single document")
	case countTrue(*write, *diff, *list, *outDir != "") == 0 && (len(docs) > 1 || docs[0] != "-" && isDir(docs[0])):
		return e.usageError("rewrite", "more than one document: give -w, -d, -l or -o DIR")
	}
	if os.Getenv("GOGC") == "" {
		// rewrite holds a few documents at a time, each read and written
		// whole: its heap is small, and collecting it four times less
		// often makes the run a fifth faster (bench/rewrite.sh).
		debug.SetGCPercent(400)
	}
	co := corpus.Options{URL: *url, Maps: maps, FileURLs: true}
	status := exitOK
	each := rewriteEach(e, *outDir, *write, *diff, *list, &status)
	var err error
	if slices.Contains(docs, "-") {
		// Standard input: one document, rewritten to standard output (or
		// shown by -d and -l), as a filter.
		if len(docs) > 1 || *write || *outDir != "" {
			return e.usageError("rewrite", `"-", standard input, is one document, rewritten to standard output: not with other documents, -w or -o`)
		}
		f := &rewrite.File{Path: "-", Rel: "-", URL: co.RetrievalURL("-"), Document: true}
		f.Old, f.Err = io.ReadAll(e.stdin)
		o.File(f)
		err = each(f)
	} else {
		err = o.Files(docs, co.RetrievalURL, each)
	}
	if err != nil {
		return exitWrite // main reports it
	}
	return status
}

// copyInto writes f, rewritten if it is a document, to its place under dir.
func copyInto(dir string, f *rewrite.File) error {
	path := filepath.Join(dir, f.Rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data := f.Old
	if f.Document {
		data = f.New
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(f.Path); err == nil {
		mode = info.Mode().Perm()
	}
	return os.WriteFile(path, data, mode)
}

// rewriteEach returns what does with each rewritten file what the flags
// say: copy it into outDir, write it back, print its diff or its name if
// it changed, or print it. A file that cannot be read or written is
// reported and sets *status; an error writing standard output stops the
// run.
func rewriteEach(e *env, outDir string, write, diff, list bool, status *int) func(*rewrite.File) error {
	failed := func(path string, err error) {
		fmt.Fprintf(e.stderr, "relurl rewrite: %s: %v\n", path, err)
		*status = exitInvalid
	}
	return func(f *rewrite.File) error {
		switch {
		case f.Err != nil:
			fmt.Fprintf(e.stderr, "relurl rewrite: %v\n", f.Err)
			*status = exitInvalid
		case outDir != "":
			if err := copyInto(outDir, f); err != nil {
				failed(f.Path, err)
			}
		case !f.Document:
		case write:
			if f.Changed() {
				if err := rewrite.WriteFile(f.Path, f.New); err != nil {
					failed(f.Path, err)
				}
			}
		case diff:
			_, err := fmt.Fprint(e.stdout, rewrite.Diff(f))
			return err
		case list:
			if f.Changed() {
				_, err := fmt.Fprintln(e.stdout, f.Path)
				return err
			}
		default:
			_, err := e.stdout.Write(f.New)
			return err
		}
		return nil
	}
}
