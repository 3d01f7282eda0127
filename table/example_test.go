package table_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/table"
)

// The links of a page as an Arrow stream: each link encoded by the page's
// Rows (in a worker, when there are many pages), then written in order.
func Example() {
	doc := &corpus.Doc{Source: "https://example.org/docs/"}
	rows := table.NewRows(doc)
	var encoded []byte
	x := &links.Extractor{Options: links.Options{Text: true}}
	page := `<a href="intro.html">Intro</a> <img src="/logo.png">`
	x.HTML(strings.NewReader(page), links.Base{URL: doc.Source, From: links.FromRetrieval}, &links.Handler{
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
