package table_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/table"
)

// The links of a page as an Arrow stream: each link encoded by the page's
// Rows (in a worker, when there are many pages), then written in order.
func Example() {
	doc := table.Doc{Source: "https://example.org/docs/"}
	rows := table.NewRows(doc)
	var encoded []byte
	x := &links.Extractor{Options: links.Options{Text: true}}
	page := `<a href="intro.html">Intro</a> <img src="/logo.png">`
	x.Extract(strings.NewReader(page), links.Doc{Format: links.FormatHTML, Base: links.Retrieved(doc.Source)}, &links.Handler{
		Link: func(l *links.Link) error {
			encoded = rows.AppendLink(encoded, l, l.URL)
			return nil
		},
	})

	var stream bytes.Buffer
	w := table.NewArrow(&stream)
	w.Write(encoded)
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}

	r, _ := ipc.NewReader(&stream)
	for r.Next() {
		batch := r.RecordBatch()
		for _, name := range []string{"url", "element", "text"} {
			fmt.Println(name, batch.Column(batch.Schema().FieldIndices(name)[0]))
		}
	}
	// Output:
	// url ["https://example.org/docs/intro.html" "https://example.org/logo.png"]
	// element ["a" "img"]
	// text ["Intro" (null)]
}

// A Filter makes a document's links the edges of a link graph: here, each
// page of the same site once, without fragments.
func ExampleFilter() {
	page := `<a href="/about#team">About</a> <a href="https://blog.example.org/">Blog</a>
<a href="/about#history">History</a> <a href="https://other.example/">Elsewhere</a>`
	pageURL := "https://www.example.org/index.html"
	f := table.Filter{NoFragment: true, Unique: true, Scope: table.ScopeInternal}.Doc(pageURL)
	var x links.Extractor
	for l, err := range x.Links(strings.NewReader(page), links.Doc{Format: links.FormatHTML, Base: links.Retrieved(pageURL)}) {
		if err != nil {
			log.Fatal(err)
		}
		if u, ok := f.URL(&l); ok {
			fmt.Println(string(u))
		}
	}
	// Output:
	// https://www.example.org/about
	// https://blog.example.org/
}
