package htmltok_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/relurl/relurl/htmltok"
)

// Every href of a page, as the standard decodes it, with where its value
// is in the input and on which line: what a link checker reports.
func ExampleTokenizer_Attr() {
	page := "<p>See <A HREF='guide.html?a=1&amp;b=2'>the guide</A>\n<a href=x.html>x</a>"
	z := htmltok.New(strings.NewReader(page))
	for z.Next() != htmltok.ErrorToken {
		if z.Kind() != htmltok.StartTagToken {
			continue
		}
		if a, ok := z.Attr("href"); ok {
			line, col := z.Position(a.ValueSpan.Start)
			fmt.Printf("%s %q at bytes %d-%d, line %d column %d, quoted with %q\n",
				a.Name, a.Value, a.ValueSpan.Start, a.ValueSpan.End, line, col, a.Quote)
		}
	}
	if err := z.Err(); err != io.EOF {
		fmt.Println(err)
	}
	// Output:
	// href "guide.html?a=1&b=2" at bytes 16-38, line 1 column 17, quoted with '\''
	// href "x.html" at bytes 62-68, line 2 column 9, quoted with '\x00'
}

// Spans make rewriting in place exact: the bytes of one value change, and
// every other byte of the document stays as it was.
func ExampleAttr_ValueSpan() {
	page := []byte(`<!-- <a href=old> --><A class=x HREF="old.html" id=y>old</A>`)
	z := htmltok.NewBytes(page)
	var out bytes.Buffer
	last := int64(0)
	for z.Next() != htmltok.ErrorToken {
		if a, ok := z.Attr("href"); ok && z.Kind() == htmltok.StartTagToken {
			out.Write(page[last:a.ValueSpan.Start])
			out.WriteString("new.html")
			last = a.ValueSpan.End
		}
	}
	out.Write(page[last:])
	fmt.Println(out.String())
	// Output:
	// <!-- <a href=old> --><A class=x HREF="new.html" id=y>old</A>
}
