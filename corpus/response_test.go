package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/docpages"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/warc"
)

func readResponse(t *testing.T, raw, requested string) *http.Response {
	t.Helper()
	u, err := url.Parse(requested)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufioReader(raw), &http.Request{Method: "GET", URL: u})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// linkLines runs f and returns a line per link, "ELEMENT ATTRIBUTE URL
// BASE_FROM", and per warning.
func linkLines(f func(h *links.Handler) error) string {
	var b strings.Builder
	h := &links.Handler{
		Link: func(l *links.Link) error {
			fmt.Fprintf(&b, "%s %s %s %s\n", l.Element, l.Attribute, l.URL, l.Base.From)
			return nil
		},
		Warn: func(err error) { fmt.Fprintf(&b, "warning: %v\n", err) },
	}
	if err := f(h); err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// Response applies every layer: the final URL, the header, the body's
// content coding; a redirect's Location is a link.
func TestResponse(t *testing.T) {
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	io.WriteString(z, `<a href="zipped.html">`)
	z.Close()
	tests := []struct {
		name, raw, requested, want string
	}{
		{"the final URL", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"x\">", "http://h/d/page",
			"a href http://h/d/x retrieval\n"},
		{"Content-Base", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Base: http://cb/e/\r\n\r\n<a href=\"x\">", "http://h/d/page",
			"a href http://cb/e/x content-base\n"},
		{"Content-Location does not count over HTTP", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Location: /moved/page\r\n\r\n<a href=\"x\">", "http://h/d/page",
			"a href http://h/d/x retrieval\n"},
		{"gzip content coding", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: " + fmt.Sprint(gz.Len()) + "\r\n\r\n" + gz.String(), "http://h/d/page",
			"a href http://h/d/zipped.html retrieval\n"},
		{"a redirect", "HTTP/1.1 301 Moved\r\nLocation: ../../other.html\r\nContent-Type: text/html\r\n\r\n<a href=\"ignored\">", "http://h/a/b/page",
			"http location http://h/other.html retrieval\n"},
		{"not HTML", "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n<a href=\"x\">", "http://h/i.png",
			"warning: http://h/i.png is image/png, not HTML: no links\n"},
		{"brotli", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n\r\nxx", "http://h/p",
			"warning: http://h/p: Content-Encoding \"br\" is not supported: no links\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := readResponse(t, tt.raw, tt.requested)
			var gives bool
			got := linkLines(func(h *links.Handler) (err error) {
				gives, err = response(&links.Extractor{}, resp, tt.requested, 0, h)
				return err
			})
			if got != tt.want {
				t.Errorf("got:\n%swant:\n%s", got, tt.want)
			}
			if want := !strings.HasPrefix(tt.want, "warning:"); gives != want {
				t.Errorf("response reports %v, want %v: a kind that gives links", gives, want)
			}
		})
	}
}

// TestRecordsOfDocsCrawl extracts the links of wget's crawl of the 1,699
// pages, record by record, and checks each page's links against those of
// the same page read from the documentation's tarballs: the gzip and
// chunked codings are removed, Content-Location is not a base over HTTP,
// and every redirect gives its Location.
func TestRecordsOfDocsCrawl(t *testing.T) {
	recs, err := docpages.Records("../../shared/data")
	if err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	const site = "http://127.0.0.1:18555/"
	fromWARC := map[string][]string{}
	var x links.Extractor
	redirects, documents, skipped := 0, 0, 0
	for _, rec := range recs {
		target := rec.TargetURI()
		ok, err := record(&x, rec, 0, &links.Handler{
			Link: func(l *links.Link) error {
				if l.Element == "http" {
					redirects++
				}
				if l.Base.From == links.FromContentLocation {
					t.Errorf("%s: Content-Location set the base over HTTP", target)
				}
				fromWARC[target] = append(fromWARC[target], string(l.URL))
				return nil
			},
			Warn: func(err error) { t.Errorf("warning: %v", err) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			documents++
		} else {
			skipped++
		}
	}
	// 1,824 responses (1,759 pages, 60 redirects, 5 404 pages); 1,824
	// requests, a warcinfo, a metadata and two resources of wget's own.
	if documents != 1824 || skipped != 1828 || redirects != 60 {
		t.Errorf("%d records gave links, %d none, %d redirects", documents, skipped, redirects)
	}

	compared := 0
	err = docpages.Each("../../shared/data", func(set, path string, body []byte) error {
		page := site + set + "/" + path
		var want []string
		if err := x.Extract(bytes.NewReader(body), links.Doc{Format: links.FormatHTML, Base: links.Retrieved(page)}, &links.Handler{Link: func(l *links.Link) error {
			want = append(want, string(l.URL))
			return nil
		}}); err != nil {
			return err
		}
		// Redirect targets were fetched twice: their links come twice.
		got := fromWARC[page]
		if len(got) == 2*len(want) {
			got = got[:len(want)]
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %d links from the WARC, %d from the page", page, len(got), len(want))
		}
		compared++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if compared != 1699 {
		t.Errorf("%d pages compared, want 1699", compared)
	}
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// BenchmarkRecords extracts the links of every record of wget's crawl, read
// beforehand; bytes are the records' blocks, against warc's BenchmarkReader,
// which reads them alone.
func BenchmarkRecords(b *testing.B) {
	recs, err := docpages.Records("../../shared/data")
	if err != nil {
		b.Skipf("no shared data (%v)", err)
	}
	var size int64
	for _, rec := range recs {
		size += int64(len(rec.Block))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var x links.Extractor
	h := &links.Handler{Link: func(*links.Link) error { return nil }}
	for b.Loop() {
		for _, rec := range recs {
			if _, err := record(&x, rec, 0, h); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// A record's payload read where it is in memory (payload) gives what it
// gives read through http.ReadResponse's body, field by field, warnings
// and all: on responses of every framing (a Content-Length, one longer
// than the block, none, chunks, gzip, no body), a resource, and with
// ../shared every record of wget's crawl of the 1,699 pages.
func TestPayloadInMemory(t *testing.T) {
	page := `<!DOCTYPE html><title>t</title><base href="/b/"><a href="x.html">x</a> <img srcset="i.png 1x, j.png 2x">`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(page))
	zw.Close()
	response := func(header, body string) *warc.Record {
		return &warc.Record{Header: textproto.MIMEHeader{"Warc-Type": {"response"}, "Content-Type": {"application/http; msgtype=response"},
			"Warc-Target-Uri": {"http://h.example/d/p.html"}}, Block: []byte(header + "\r\n" + body)}
	}
	recs := []*warc.Record{
		response("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "+fmt.Sprint(len(page))+"\r\n", page),
		response("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10\r\n", page),
		response("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9999\r\n", page),
		response("HTTP/1.0 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n", page+"<a href=caf\xe9.html>"),
		response("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n", fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(page), page)),
		response("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: "+fmt.Sprint(gz.Len())+"\r\n", gz.String()),
		response("HTTP/1.1 204 No Content\r\nContent-Type: text/html\r\n", ""),
		response("HTTP/1.1 200 OK\r\nContent-Type: text/markdown\r\n", "[a](b.md)"),
		{Header: textproto.MIMEHeader{"Warc-Type": {"resource"}, "Content-Type": {"text/html"}, "Warc-Target-Uri": {"http://h.example/r.html"}}, Block: []byte(page)},
	}
	if crawl, err := docpages.Records("../../shared/data"); err == nil {
		recs = append(recs, crawl...)
	}
	read := func(rec *warc.Record, inMemory bool) string {
		defer func(was bool) { inMemoryPayloads = was }(inMemoryPayloads)
		inMemoryPayloads = inMemory
		var b strings.Builder
		x := links.Extractor{Options: links.Options{Positions: true, Sites: true, Text: true}}
		ok, err := record(&x, rec, 64<<10, &links.Handler{
			Link: func(l *links.Link) error {
				fmt.Fprintf(&b, "%s %s %q %q %+v %d:%d %q %v %v\n", l.Element, l.Attribute, l.Ref, l.URL, *l.Base, l.Line, l.Column, l.Text, l.Site.Value, l.Site.Tag)
				return nil
			},
			Warn: func(err error) { fmt.Fprintf(&b, "warning: %v\n", err) },
		})
		fmt.Fprintf(&b, "%v %v\n", ok, err)
		return b.String()
	}
	for i, rec := range recs {
		if mem, stream := read(rec, true), read(rec, false); mem != stream {
			t.Errorf("record %d (%s): in memory\n%s\nthrough the body\n%s", i, rec.TargetURI(), mem, stream)
		}
	}
}
