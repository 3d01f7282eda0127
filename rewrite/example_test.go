package rewrite_test

import (
	"fmt"

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
		Moves: []rewrite.Move{{Old: "http://old.example/docs/", New: "https://new.example/manual/"}},
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

// A site's sitemap moves with it: each <loc> is written anew where it is,
// absolute, as the sitemaps protocol wants, and every other byte stays.
func ExampleRewriter_XML() {
	o := rewrite.Rewriter{
		Moves: []rewrite.Move{{Old: "https://old.example/", New: "https://new.example/"}},
	}
	sitemap := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://old.example/a.html</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc>https://elsewhere.example/</loc></url>
</urlset>`
	out, res, err := o.XML([]byte(sitemap), "https://old.example/sitemap.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	fmt.Println(res.Rewritten, "of", res.Links)
	// Output:
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	//   <url><loc>https://new.example/a.html</loc><lastmod>2026-01-01</lastmod></url>
	//   <url><loc>https://elsewhere.example/</loc></url>
	// </urlset>
	// 1 of 2
}
