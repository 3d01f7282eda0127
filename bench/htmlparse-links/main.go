// Command htmlparse-links is the yardstick for "relurl links" over a tree
// of pages: it does what a Go crawler usually does, golang.org/x/net/html.Parse
// for each page, then net/url to resolve each link against the page's
// <base href> or URL. It prints "SOURCE<TAB>URL" for each link of each
// .html file below DIR, whose URL is URL followed by its path below DIR:
//
//	htmlparse-links DIR URL
//
// It reads the same elements and attributes as relurl (links.Elements),
// one page after another; x/net/html gives SVG's elements their own
// namespace, but by name, as this reads them, an SVG <a>'s xlink:href is
// read wherever it is. bench/corpus.sh times it beside relurl.
package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/links"
)

// elements is links.Elements as a map, by element name.
var elements = maps.Collect(links.Elements())

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: htmlparse-links DIR URL")
		os.Exit(2)
	}
	dir, prefix := os.Args[1], strings.TrimSuffix(os.Args[2], "/")+"/"
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		page, err := url.Parse(prefix + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			return err
		}
		base := page
		var refs []string
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					if n.Data == "base" && a.Key == "href" && base == page {
						if b, err := page.Parse(strings.TrimSpace(a.Val)); err == nil {
							base = b
						}
					}
					for _, want := range elements[n.Data] {
						if a.Key != want {
							continue
						}
						if want == "srcset" {
							for _, c := range strings.Split(a.Val, ",") {
								if f := strings.Fields(c); len(f) > 0 {
									refs = append(refs, f[0])
								}
							}
						} else {
							refs = append(refs, strings.TrimSpace(a.Val))
						}
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		for _, ref := range refs {
			if u, err := base.Parse(ref); err == nil {
				fmt.Fprintf(out, "%s\t%s\n", page, u)
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
