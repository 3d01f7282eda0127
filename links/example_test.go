package links_test

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"strings"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/warc"
)

func ExampleExtractor_HTML() {
	page := `<html><head><base href="http://www.ics.uci.edu/Test/a/b/c"></head>
<body><a href="../x">anchor</a> <img src="pic.png" srcset="pic-2x.png 2x"></body></html>`
	var x links.Extractor
	err := x.HTML(strings.NewReader(page), links.Retrieved("http://elsewhere.example/"), &links.Handler{
		Link: func(l *links.Link) error {
			fmt.Printf("%s %s=%q → %s (%s)\n", l.Element, l.Attribute, l.Ref, l.URL, l.Base.From)
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// a href="../x" → http://www.ics.uci.edu/Test/a/x (html-base)
	// img src="pic.png" → http://www.ics.uci.edu/Test/a/b/pic.png (html-base)
	// img srcset="pic-2x.png" → http://www.ics.uci.edu/Test/a/b/pic-2x.png (html-base)
}

func ExampleExtractor_Message() {
	msg := "Subject: news\r\n" +
		"Base: <URL:http://example.org/news/>\r\n" +
		"Content-Type: multipart/alternative; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/html\r\n\r\n<a href=\"today.html\">today</a>\r\n--b--\r\n"
	var x links.Extractor
	err := x.Message(strings.NewReader(msg), links.Base{}, &links.Handler{
		Link: func(l *links.Link) error {
			fmt.Printf("part %s: %s (%s, from %s)\n", l.Part, l.URL, l.Base.URL, l.Base.From)
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// part 1: http://example.org/news/today.html (http://example.org/news/, from encapsulating)
}

func ExampleSrcsetURLs() {
	for u := range links.SrcsetURLs([]byte("small.jpg 480w, large.jpg 1080w, a,b.jpg 2x")) {
		fmt.Println(string(u))
	}
	// Output:
	// small.jpg
	// large.jpg
	// a,b.jpg
}

// A Go program that already holds an HTTP response gives it whole, so that
// its header and final URL count: here the header's Content-Base.
func ExampleExtractor_Response() {
	raw := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Base: http://cdn.example/assets/\r\n\r\n" +
		`<img src="logo.png"><a href="/about">about</a>`
	requested, _ := url.Parse("https://example.org/docs/") // resp.Request.URL after redirects
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), &http.Request{Method: "GET", URL: requested})
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var x links.Extractor
	_, err = x.Response(resp, &links.Handler{Link: func(l *links.Link) error {
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

// The links of a web archive, record by record, each with the byte range
// that holds it in the file.
func ExampleExtractor_Record() {
	archive := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: <https://example.org/a/b.html>\r\n" +
		"Content-Type: application/http; msgtype=response\r\nContent-Length: 74\r\n\r\n" +
		"HTTP/1.1 301 Moved Permanently\r\nLocation: ../c.html\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
	r := warc.NewReader(strings.NewReader(archive))
	var x links.Extractor
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Print(err)
			continue
		}
		x.Record(rec, &links.Handler{Link: func(l *links.Link) error {
			fmt.Printf("%s -> %s (%s %s), record at %d+%d\n", rec.TargetURI(), l.URL, l.Element, l.Attribute, rec.Offset, rec.Length)
			return nil
		}})
	}
	// Output:
	// https://example.org/a/b.html -> https://example.org/c.html (http location), record at 0+230
}

// A range loop over a document's links: each Link may be kept, as this
// program keeps them all.
func ExampleExtractor_Links() {
	page := `<base href="/docs/"><a href="intro.html">Intro</a> <img src="../logo.png">`
	var x links.Extractor // resolves by the URL Standard, as browsers do
	var kept []links.Link
	for l, err := range x.Links(strings.NewReader(page), links.FormatHTML, links.Retrieved("https://example.com/a/page.html")) {
		if err != nil {
			log.Fatal(err)
		}
		kept = append(kept, l)
	}
	for _, l := range kept {
		fmt.Printf("%s %s %s\n", l.Element, l.Ref, l.URL)
	}
	// Output:
	// a intro.html https://example.com/docs/intro.html
	// img ../logo.png https://example.com/logo.png
}

func ExampleCSSURLs() {
	css := []byte(`@import "print.css"; body { background: url(img/bg\ 1.png) }`)
	for u, token := range links.CSSURLs(css) {
		fmt.Printf("%s in %s\n", u, css[token[0]:token[1]])
	}
	// Output:
	// print.css in "print.css"
	// img/bg 1.png in url(img/bg\ 1.png)
}

// A Filter makes a document's links the edges of a link graph: here, each
// page of the same site once, without fragments.
func ExampleFilter() {
	page := `<a href="/about#team">About</a> <a href="https://blog.example.org/">Blog</a>
<a href="/about#history">History</a> <a href="https://other.example/">Elsewhere</a>`
	pageURL := "https://www.example.org/index.html"
	f := links.Filter{NoFragment: true, Unique: true, Scope: links.ScopeInternal}.Doc(pageURL)
	var x links.Extractor
	for l, err := range x.Links(strings.NewReader(page), links.FormatHTML, links.Retrieved(pageURL)) {
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
