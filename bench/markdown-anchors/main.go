// Command markdown-anchors prints the anchors package markdown gives the
// headings of Markdown files, by a dialect's rule, one "FILE<TAB>ANCHOR"
// line each, in order; bench/markdown.sh compares them with the ids of
// the headings mdBook renders.
//
//	markdown-anchors [-dialect github|mkdocs|mdbook] FILE...
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/relurl/relurl/markdown"
)

func main() {
	name := flag.String("dialect", "mdbook", "the renderer: github, mkdocs or mdbook")
	flag.Parse()
	dialect, ok := markdown.ParseDialect(*name)
	if !ok {
		fmt.Fprintf(os.Stderr, "markdown-anchors: -dialect %q: want github, mkdocs or mdbook\n", *name)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, file := range flag.Args() {
		src, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, "markdown-anchors:", err)
			os.Exit(1)
		}
		doc := markdown.Parse(src, dialect)
		// The headings' anchors come first, in order; the ids of the
		// document's HTML after them are not headings'.
		for _, a := range doc.Anchors(dialect)[:len(doc.Headings)] {
			fmt.Fprintf(w, "%s\t%s\n", file, a)
		}
	}
}
