package links

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"
	"testing"
)

// TestExtractDoc: a Doc chooses the reader and the layers outside the
// content, for every format, and a document of no format is an error
// errors.ErrUnsupported recognizes, with no link.
func TestExtractDoc(t *testing.T) {
	header := func(kv ...string) textproto.MIMEHeader {
		h := textproto.MIMEHeader{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	page := Retrieved("http://h/d/page")
	tests := []struct {
		name        string
		doc         Doc
		body        string
		want        string // "ELEMENT ATTRIBUTE URL BASE_FROM" a link
		unsupported bool
	}{
		{"HTML by its format", Doc{Format: FormatHTML, Base: page}, `<a href="x">`, "a href http://h/d/x retrieval", false},
		{"HTML by its header", Doc{Base: page, Header: header("Content-Type", "text/html")}, `<a href="x">`, "a href http://h/d/x retrieval", false},
		{"no Content-Type is HTML", Doc{Base: page, Header: header()}, `<a href="x">`, "a href http://h/d/x retrieval", false},
		{"HTML by its first bytes", Doc{Base: page}, `<!doctype html><a href="x">`, "a href http://h/d/x retrieval", false},
		{"the header's charset", Doc{Base: page, Header: header("Content-Type", "text/html; charset=windows-1252")}, "<a href=\"caf\xe9\">", "a href http://h/d/caf%C3%A9 retrieval", false},
		{"the header's base over the retrieval URL", Doc{Format: FormatHTML, Base: page, Header: header("Content-Base", "http://cb/e/")}, `<a href="x">`, "a href http://cb/e/x content-base", false},
		{"the document's base over the header's", Doc{Base: page, Header: header("Content-Base", "http://cb/e/")}, `<base href="http://b/"><a href="x">`, "a href http://b/x html-base", false},
		{"Markdown by its header, with the header's base", Doc{Base: page, Header: header("Content-Type", "text/markdown", "Content-Base", "http://cb/e/")}, "[x](y.md)", "a href http://cb/e/y.md content-base", false},
		{"a sitemap by its header", Doc{Base: page, Header: header("Content-Type", "application/xml")}, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://h/z</loc></url></urlset>`, "url  http://h/z retrieval", false},
		{"a multipart by its header", Doc{Base: page, Header: header("Content-Type", "multipart/related; boundary=b")}, "--b\r\nContent-Type: text/html\r\n\r\n<a href=\"x\">\r\n--b--\r\n", "a href http://h/d/x encapsulating", false},
		{"a message whole", Doc{Format: FormatMessage, Base: page}, "Content-Type: text/html\r\n\r\n<a href=\"x\">", "a href http://h/d/x retrieval", false},
		{"plain text by its format", Doc{Format: FormatText, Base: page}, "see https://t.example/a.", "text  https://t.example/a retrieval", false},
		{"a redirect", Doc{Format: FormatRedirect, Base: page, Header: header("Location", "../o")}, "<a href=\"ignored\">", "http location http://h/o retrieval", false},
		{"a redirect without Location", Doc{Format: FormatRedirect, Base: page}, "", "", false},
		{"an image by its header", Doc{Base: page, Header: header("Content-Type", "image/png")}, `<a href="x">`, "", true},
		{"plain text by its header", Doc{Base: page, Header: header("Content-Type", "text/plain")}, `http://t.example/`, "", true},
		{"unknown by its first bytes", Doc{Base: page}, "just words", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var x Extractor
			err := x.Extract(strings.NewReader(tt.body), tt.doc, &Handler{Link: func(l *Link) error {
				got = append(got, fmt.Sprintf("%s %s %s %s", l.Element, l.Attribute, l.URL, l.Base.From))
				return nil
			}})
			if errors.Is(err, errors.ErrUnsupported) != tt.unsupported {
				t.Errorf("error %v; want unsupported %v", err, tt.unsupported)
			} else if err != nil && !tt.unsupported {
				t.Error(err)
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// A redirect left out by Only gives nothing.
	x := Extractor{Options: Options{Only: Only{"a": true}}}
	for l, err := range x.Links(nil, Doc{Format: FormatRedirect, Base: page, Header: header("Location", "/o")}) {
		t.Errorf("a redirect gives %s, %v with Only a", l.URL, err)
	}
	if err := x.Extract(nil, Doc{Format: Format(99)}, &Handler{Link: func(*Link) error { return nil }}); err == nil {
		t.Error("format 99 is read")
	}
}
