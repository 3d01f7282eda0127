package corpus_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
)

// A link graph of a tree of saved pages, on two workers, in the tree's
// order: each page gets its URL from the directory's mapping.
func ExampleOptions_Run() {
	dir, _ := os.MkdirTemp("", "site")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "guide"), 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<a href="guide/start.html">start</a>`), 0o644)
	os.WriteFile(filepath.Join(dir, "guide", "start.html"), []byte(`<a href="../index.html">home</a>`), 0o644)

	o := &corpus.Options{Maps: []source.Map{{Dir: dir, URL: "https://docs.example/"}}}
	var stats corpus.Stats
	docs := o.Run(o.Docs(context.Background(), slices.Values([]string{dir})), 2,
		links.Options{},
		func(d *corpus.Doc, out *corpus.Output) *links.Handler {
			return &links.Handler{Link: func(l *links.Link) error {
				out.Out = fmt.Appendf(out.Out, "%s -> %s\n", d.Source, l.URL)
				return nil
			}}
		})
	// What the documents print comes in their order, in pieces; each
	// document comes once all it printed has.
	for out, d := range docs {
		if d == nil {
			os.Stdout.Write(out.Out)
		} else {
			stats.Add(d)
		}
	}
	fmt.Println(&stats)
	// Output:
	// https://docs.example/guide/start.html -> https://docs.example/index.html
	// https://docs.example/index.html -> https://docs.example/guide/start.html
	// 2 documents, 2 links, 0.0 MB
}
