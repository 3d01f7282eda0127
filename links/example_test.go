package links_test

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/links"
)

func ExampleExtractor_HTML() {
	page := `<html><head><base href="http://www.ics.uci.edu/Test/a/b/c"></head>
<body><a href="../x">anchor</a> <img src="pic.png" srcset="pic-2x.png 2x"></body></html>`
	var x links.Extractor
	_, err := x.HTML(strings.NewReader(page), base.Retrieved("http://elsewhere.example/"), &links.Handler{
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
	err := x.Message(strings.NewReader(msg), base.Base{}, &links.Handler{
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
	for _, u := range links.SrcsetURLs([]byte("small.jpg 480w, large.jpg 1080w, a,b.jpg 2x")) {
		fmt.Println(string(u))
	}
	// Output:
	// small.jpg
	// large.jpg
	// a,b.jpg
}
