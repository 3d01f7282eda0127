package corpus_test

import (
	"bufio"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
		},
		// What the documents print is written in their order, in pieces.
		func(out, errOut []byte) bool {
			os.Stderr.Write(errOut)
			_, err := os.Stdout.Write(out)
			return err == nil
		})
	// Each document comes once all it printed is written.
	for d := range docs {
		stats.Add(d)
	}
	fmt.Println(&stats)
	// Output:
	// https://docs.example/guide/start.html -> https://docs.example/index.html
	// https://docs.example/index.html -> https://docs.example/guide/start.html
	// 2 documents, 2 links, 0.0 MB
}

// A Go program that already holds an HTTP response gives it whole, so that
// its header and final URL count: here the header's Content-Base.
func ExampleResponse() {
	raw := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Base: http://cdn.example/assets/\r\n\r\n" +
		`<img src="logo.png"><a href="/about">about</a>`
	requested, _ := url.Parse("https://example.org/docs/") // resp.Request.URL after redirects
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), &http.Request{Method: "GET", URL: requested})
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var x links.Extractor
	err = corpus.Response(&x, resp, &links.Handler{Link: func(l *links.Link) error {
		fmt.Printf("%s (%s)\n", l.URL, l.Base.From)
		return nil
	}})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// http://cdn.example/assets/logo.png (content-base)
	// http://cdn.example/about (content-base)
}
