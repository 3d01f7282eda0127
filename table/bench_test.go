package table

import (
	"fmt"
	"io"
	"net/textproto"
	"testing"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/warc"
)

// benchRows are 200,000 rows shaped like a crawl's: documents of 125 links
// each, WARC records, URLs of 50 to 80 bytes, an anchor's text on most.
func benchRows() []byte {
	var out []byte
	for d := range 1600 {
		doc := Doc{Source: fmt.Sprintf("https://docs.example.org/3/library/module%d.html", d), Archive: "crawl.warc.gz", Status: 200,
			Record: &warc.Record{Offset: int64(d) * 9000, Length: 8500, Header: textproto.MIMEHeader{
				"Warc-Record-Id": {fmt.Sprintf("<urn:uuid:%08d-1111-2222-3333-444455556666>", d)}, "Warc-Date": {"2026-11-25T00:00:00Z"}}}}
		rows := NewRows(doc)
		base := &links.Base{URL: doc.Source, From: links.FromRetrieval}
		for i := range 125 {
			ref := fmt.Sprintf("../howto/topic%d.html#section-%d", i, d%7)
			l := links.Link{Ref: []byte(ref), Element: "a", Attribute: "href", Base: base, Text: []byte(fmt.Sprintf("Topic %d", i))}
			if i%5 == 0 {
				l.Element, l.Attribute, l.Text = "img", "src", nil
			}
			out = rows.AppendLink(out, &l, []byte("https://docs.example.org/3/howto/"+ref[9:]))
		}
	}
	return out
}

// benchmarkWriter writes the rows in the pieces the ordered output hands
// a Writer (256 KiB at most).
func benchmarkWriter(b *testing.B, w func(io.Writer) *Writer) {
	data := benchRows()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		tw := w(io.Discard)
		for p := data; len(p) > 0; {
			n := min(len(p), 256<<10)
			if _, err := tw.Write(p[:n]); err != nil {
				b.Fatal(err)
			}
			p = p[n:]
		}
		if err := tw.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParquet(b *testing.B) { benchmarkWriter(b, NewParquet) }
func BenchmarkArrow(b *testing.B)   { benchmarkWriter(b, NewArrow) }
