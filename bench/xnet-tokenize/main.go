// Command xnet-tokenize is a yardstick for "relurl links" over a tree of
// pages: the golang.org/x/net/html tokenizer alone, reading every .html
// file below DIR and every token, with each start tag's name and
// attributes, and printing nothing but the count of tags. Whatever finds
// links with that tokenizer does at least this much; bench/corpus.sh times
// it beside relurl, whose own tokenizer is package htmltok.
//
//	xnet-tokenize DIR
package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: xnet-tokenize DIR")
		os.Exit(2)
	}
	tags := 0
	err := filepath.WalkDir(os.Args[1], func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		z := html.NewTokenizer(bufio.NewReader(f))
		for {
			switch z.Next() {
			case html.ErrorToken:
				return nil
			case html.StartTagToken, html.SelfClosingTagToken:
				tags++
				for _, more := z.TagName(); more; {
					_, _, more = z.TagAttr()
				}
			}
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "xnet-tokenize:", err)
		os.Exit(1)
	}
	fmt.Println(tags, "start tags")
}
