package markdown_test

import (
	"fmt"

	"github.com/relurl/relurl/markdown"
)

func ExampleParse() {
	src := []byte("# Getting started\n\nSee [the guide](guide.md#install) and <https://go.dev/>.\n\n[spec]: ../ref/spec.md\n")
	doc := markdown.Parse(src, markdown.GitHub)
	for _, l := range doc.Links {
		fmt.Printf("%q at bytes %d-%d\n", l.Dest, l.Span.Start, l.Span.End)
	}
	fmt.Println(doc.Anchors(markdown.GitHub))
	// Output:
	// "guide.md#install" at bytes 35-51
	// "https://go.dev/" at bytes 58-73
	// "../ref/spec.md" at bytes 85-99
	// [getting-started]
}

func ExampleScan() {
	// The links are handed out as they are found, in order; the document
	// (headings, HTML, the uses of each definition) is whole before the
	// first.
	src := []byte("# Notes\n\n- [a](a.md)\n- ![b][logo]\n\n[logo]: img/logo.png\n")
	doc, links := markdown.Scan(src, markdown.GitHub)
	fmt.Println(doc.Headings[0].Text)
	for l := range links {
		fmt.Println(l.Kind, l.Dest, l.Uses)
	}
	// Output:
	// Notes
	// link a.md 0
	// definition img/logo.png 1
}

func ExampleTextLinks() {
	// Trailing punctuation is not the URL's; an e-mail address is no URL.
	links, _ := markdown.TextLinks([]byte("Docs: https://example.com/docs. Mirror (www.example.org). Mail admin@example.com"))
	for _, l := range links {
		fmt.Println(l.Dest)
	}
	// Output:
	// https://example.com/docs
	// http://www.example.org
}
