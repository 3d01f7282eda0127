package links_test

import (
	"fmt"
	"net/textproto"

	"github.com/relurl/relurl/links"
)

func ExampleParseBaseHeader() {
	// Section 3.1's example, folded across two lines.
	u, err := links.ParseBaseHeader("<URL:http://www.ics.uci.edu/\r\n Test/a/b/c>")
	fmt.Println(u, err)
	// Output:
	// http://www.ics.uci.edu/Test/a/b/c <nil>
}

func ExampleBaseFromHeader() {
	retrieved := links.Retrieved("http://mail.example/inbox/42")
	h := textproto.MIMEHeader{}
	h.Set("Content-Location", "parts/page.html")
	b, _ := links.BaseFromHeader(h, retrieved, true)
	fmt.Println(b.URL, b.From)
	fmt.Println(b.Note)
	// Output:
	// http://mail.example/inbox/parts/page.html content-location
	// relative content-location "parts/page.html" resolved against the retrieval base http://mail.example/inbox/42
}

func ExampleBase_Enclosed() {
	message := links.Base{URL: "http://example.org/news/", From: links.FromBaseHeader}
	part := message.Enclosed() // a part without a base of its own (Section 3.2)
	fmt.Println(part.URL, part.From)
	// Output:
	// http://example.org/news/ encapsulating
}
