package rewrite_test

import (
	"fmt"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/rewrite"
)

// A page moves with its site from http://old.example/docs/ to
// https://new.example/manual/. Its absolute link into the old site follows
// the move; since the page moves too, the link is written relative to the
// page's new place, and so keeps working wherever the site is served
// next. Its relative link moves with it, and the link elsewhere stays.
func ExampleRewriter_Document() {
	o := rewrite.Rewriter{
		Moves:    []rewrite.Move{{Old: "http://old.example/docs/", New: "https://new.example/manual/"}},
		Resolver: relurl.Resolver{Spec: relurl.WHATWG},
	}
	page := []byte(`<a href="http://old.example/docs/api.html#os">os</a> <a href="intro.html">intro</a> <a href="https://elsewhere.example/">x</a>`)
	out, res, err := o.Document(page, links.Retrieved("http://old.example/docs/index.html"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n%d links, %d rewritten\n", out, res.Links, res.Rewritten)
	// Output:
	// <a href="api.html#os">os</a> <a href="intro.html">intro</a> <a href="https://elsewhere.example/">x</a>
	// 3 links, 1 rewritten
}
