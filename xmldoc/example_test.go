package xmldoc_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/relurl/relurl/xmldoc"
)

func ExampleLinks() {
	feed := `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.com/blog/">
  <link href="/"/>
  <entry xml:base="2026/">
    <link href="first-post.html"/>
  </entry>
</feed>`
	for l, err := range xmldoc.Links(strings.NewReader(feed), "https://example.com/feed.xml") {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("line %d: %s against %s\n", l.Line, l.Ref, l.Base)
	}
	// Output:
	// line 2: / against https://example.com/blog/
	// line 4: first-post.html against https://example.com/blog/2026/
}
