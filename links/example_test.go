package links_test

import (
	"fmt"
	"log"
	"net/textproto"
	"strings"

	"github.com/relurl/relurl/links"
)

func ExampleExtractor_Extract() {
	page := `<html><head><base href="http://www.ics.uci.edu/Test/a/b/c"></head>
<body><a href="../x">anchor</a> <img src="pic.png" srcset="pic-2x.png 2x"></body></html>`
	var x links.Extractor
	err := x.Extract(strings.NewReader(page), links.Doc{Format: links.FormatHTML, Base: links.Retrieved("http://elsewhere.example/")}, &links.Handler{
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

// A MIME message: its Base header is the base of its parts (Section 3.2).
func ExampleExtractor_Extract_message() {
	msg := "Subject: news\r\n" +
		"Base: <URL:http://example.org/news/>\r\n" +
		"Content-Type: multipart/alternative; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/html\r\n\r\n<a href=\"today.html\">today</a>\r\n--b--\r\n"
	var x links.Extractor
	err := x.Extract(strings.NewReader(msg), links.Doc{Format: links.FormatMessage}, &links.Handler{
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

// A document with a header, here an HTTP response's: its Base header sets
// the base (RFC 1808, Section 3.1, whose example it is), over the URL the
// page was retrieved by, and its Content-Type says the document is HTML.
func ExampleDoc() {
	doc := links.Doc{
		Base: links.Retrieved("https://example.org/page"),
		Header: textproto.MIMEHeader{
			"Content-Type": {"text/html; charset=utf-8"},
			"Base":         {"<URL:http://www.ics.uci.edu/ Test/a/b/c>"},
		},
	}
	var x links.Extractor
	for l, err := range x.Links(strings.NewReader(`<a href="../g">g</a>`), doc) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s\n", l.URL, l.Base.From)
	}
	// Output:
	// http://www.ics.uci.edu/Test/a/g base-header
}

// A redirect is one link: its Location, resolved against the URL that was
// redirected.
func ExampleDoc_redirect() {
	doc := links.Doc{
		Format: links.FormatRedirect,
		Base:   links.Retrieved("https://example.org/a/b.html"),
		Header: textproto.MIMEHeader{"Location": {"../c.html"}},
	}
	var x links.Extractor
	for l, err := range x.Links(nil, doc) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s %s\n", l.Element, l.Attribute, l.URL)
	}
	// Output:
	// http location https://example.org/c.html
}

// A range loop over a document's links: each Link may be kept, as this
// program keeps them all.
func ExampleExtractor_Links() {
	page := `<base href="/docs/"><a href="intro.html">Intro</a> <img src="../logo.png">`
	var x links.Extractor // resolves by the URL Standard, as browsers do
	var kept []links.Link
	for l, err := range x.Links(strings.NewReader(page), links.Doc{Format: links.FormatHTML, Base: links.Retrieved("https://example.com/a/page.html")}) {
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
