package xmldoc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// collect returns each link of an XML document as "element attribute ref
// against base", an HTML link's as "element html: its HTML against base".
func collect(t *testing.T, data []byte, docURL string) ([]string, error) {
	t.Helper()
	var got []string
	for l, err := range Links(bytes.NewReader(data), docURL) {
		if err != nil {
			return got, err
		}
		if l.HTML != "" {
			got = append(got, fmt.Sprintf("%s html: %s against %s", l.Element, l.HTML, l.Base))
			continue
		}
		got = append(got, fmt.Sprintf("%s %s %s against %s (%d:%d)", l.Element, l.Attribute, l.Ref, l.Base, l.Line, l.Column))
	}
	return got, nil
}

func TestLinks(t *testing.T) {
	for _, tt := range []struct {
		file, url string
		want      []string
	}{
		{"sitemap.xml", "https://site.example/sitemap.xml", []string{
			"url  https://site.example/ against https://site.example/sitemap.xml (3:8)",
			"url  https://site.example/docs/a.html against https://site.example/sitemap.xml (5:5)",
			"url  https://site.example/docs/b&c.html against https://site.example/sitemap.xml (9:8)",
		}},
		{"sitemapindex.xml", "https://site.example/sitemap.xml", []string{
			"sitemap  https://site.example/sitemap-1.xml.gz against https://site.example/sitemap.xml (3:12)",
			"sitemap  https://site.example/sitemap-2.xml against https://site.example/sitemap.xml (4:12)",
		}},
		// xml:base nested per element, each resolved against its parent's
		// by RFC 3986: the feed's, an entry's relative one, an entry's
		// absolute one, and one inside it.
		{"atom.xml", "https://feeds.example/blog/atom.xml", []string{
			"link href / against https://blog.example/ (4:3)",
			"link href feed.xml against https://blog.example/ (5:3)",
			"icon  favicon.ico against https://blog.example/ (6:3)",
			"logo  img/logo.png against https://blog.example/ (7:3)",
			"uri  about/ann.html against https://blog.example/ (8:27)",
			`title html: A <a href="title-link.html">title</a> against https://blog.example/posts/2026/`,
			"link href hello.html against https://blog.example/posts/2026/ (11:5)",
			"link href ../../media/talk.mp3 against https://blog.example/posts/2026/ (12:5)",
			`content html: <p>See <a href="other.html">this</a> and <img src="/img/x.png"></p> against https://blog.example/posts/2026/`,
			"link href there.html against https://other.example/deep/ (16:5)",
			"a href x.html against https://other.example/deep/inner/ (18:49)",
			"img src y.png against https://other.example/deep/inner/ (18:72)",
			"content src media/body.html against https://other.example/deep/ (20:5)",
		}},
		{"rss.xml", "https://news.example/rss.xml", []string{
			"link  https://news.example/ against https://news.example/rss.xml (5:5)",
			"url  https://news.example/logo.png against https://news.example/rss.xml (6:12)",
			"link  https://news.example/first.html against https://news.example/rss.xml (9:7)",
			"guid  https://news.example/p/1 against https://news.example/rss.xml (10:7)",
			`description html: <a href="/related.html">related</a> against https://news.example/rss.xml`,
			"enclosure url https://cdn.example/ep1.mp3 against https://news.example/rss.xml (12:7)",
			"link  https://news.example/second.html against https://news.example/rss.xml (15:7)",
			`encoded html: <p><a href="https://news.example/cdata.html">cdata</a></p> against https://news.example/rss.xml`,
		}},
	} {
		data, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if tt.file == "rss.xml" {
			data = latin1(data)
		}
		got, err := collect(t, data, tt.url)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v\n%s\nwant\n%s", tt.file, err, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

// latin1 is data written as ISO-8859-1, as rss.xml declares.
func latin1(data []byte) []byte {
	var b []byte
	for _, r := range string(data) {
		b = append(b, byte(r))
	}
	return b
}

// A sitemap compressed with gzip is read as it is; XML that is not
// well-formed gives its links, then the error with its line; another root
// gives none.
func TestGzipErrorsOthers(t *testing.T) {
	data, _ := os.ReadFile("testdata/sitemap.xml")
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(data)
	z.Close()
	if got, err := collect(t, gz.Bytes(), "https://site.example/sitemap.xml.gz"); err != nil || len(got) != 3 {
		t.Errorf("gzip: %v, %q", err, got)
	}
	got, err := collect(t, []byte("<urlset>\n<url><loc>https://a.example/</loc></url>\n<url><loc>x</url>"), "https://a.example/s.xml")
	if len(got) != 1 || err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("broken XML: %q, %v", got, err)
	}
	if got, err := collect(t, []byte(`<project><url>https://a.example/</url></project>`), "https://a.example/pom.xml"); err != nil || len(got) != 0 {
		t.Errorf("another root: %q, %v", got, err)
	}
}

func FuzzLinks(f *testing.F) {
	for _, name := range []string{"atom.xml", "rss.xml", "sitemap.xml", "sitemapindex.xml"} {
		data, _ := os.ReadFile("testdata/" + name)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		for l, err := range Links(bytes.NewReader(data), "https://a.example/d/x.xml") {
			if err != nil {
				break
			}
			if l.Base == "" {
				t.Fatalf("a link without a base: %+v", l)
			}
			if n++; n > len(data)+1 {
				t.Fatalf("%d links from %d bytes", n, len(data))
			}
		}
	})
}

// TestHostile: a feed nested a million elements deep, each with an
// xml:base, took 24 GB and 13 minutes (each level's base longer than the
// last); bases that grow past MaxBase and nesting past MaxDepth now stop
// the reading with an error that says where, and a feed of many entries,
// each with a base of its own, gives every link.
func TestHostile(t *testing.T) {
	deep := `<feed xmlns="http://www.w3.org/2005/Atom">` + strings.Repeat(`<entry xml:base="x/">`, 100000) + `<link href="a"/>`
	long := `<feed xmlns="http://www.w3.org/2005/Atom">` + strings.Repeat(`<entry xml:base="`+strings.Repeat("y", 1000)+`/">`, 100) + `<link href="a"/>`
	for _, tt := range []struct{ name, doc, err string }{
		{"deep", deep, "line 1: elements nested more than 512 deep: the rest is not read"},
		{"long bases", long, "line 1: an xml:base that makes a base of 66084 bytes, more than 65536: the rest is not read"},
	} {
		var err error
		n := 0
		for _, e := range Links(strings.NewReader(tt.doc), "https://a.example/") {
			if e != nil {
				err = e
				break
			}
			n++
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) || n != 0 {
			t.Errorf("%s: %d links, %v; want the error %q", tt.name, n, err, tt.err)
		}
	}
	var wide strings.Builder
	wide.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom">`)
	for i := range 100000 {
		fmt.Fprintf(&wide, `<entry xml:base="e%d/"><link href="a"/></entry>`, i)
	}
	wide.WriteString(`</feed>`)
	n := 0
	for l, err := range Links(strings.NewReader(wide.String()), "https://a.example/") {
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("https://a.example/e%d/", n); l.Base != want {
			t.Fatalf("link %d: base %s, want %s", n, l.Base, want)
		}
		n++
	}
	if n != 100000 {
		t.Errorf("%d links of 100000", n)
	}
}
