package rewrite

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/relurl/relurl"
)

// TestXML: a sitemap's and a feed's URLs are moved where they are written,
// every other byte kept; what cannot be rewritten where it is, is an error,
// and the document is left whole.
func TestXML(t *testing.T) {
	move := Rewriter{Moves: []Move{{"https://old.example/", "https://new.example/"}}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	rel := Rewriter{Relative: []string{"https://old.example/"}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	abs := Rewriter{Absolute: true, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	const sitemap = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	const atom = `<feed xmlns="http://www.w3.org/2005/Atom">`
	tests := []struct {
		name     string
		o        Rewriter
		in, want string
		err      string
	}{
		{"a sitemap's loc, white space and entities kept around it", move,
			sitemap + "<url><loc>\n  https://old.example/a?x=1&amp;y=2 </loc></url><url><loc>https://other.example/</loc></url></urlset>",
			sitemap + "<url><loc>\n  https://new.example/a?x=1&amp;y=2 </loc></url><url><loc>https://other.example/</loc></url></urlset>", ""},
		{"an index's sitemaps", move,
			`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://old.example/s1.xml.gz</loc></sitemap></sitemapindex>`,
			`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://new.example/s1.xml.gz</loc></sitemap></sitemapindex>`, ""},
		{"-relative leaves them absolute", rel,
			sitemap + "<url><loc>https://old.example/a</loc></url></urlset>", sitemap + "<url><loc>https://old.example/a</loc></url></urlset>", ""},
		{"Atom's href, in either quote, spaced", move,
			atom + `<link rel='self' href = 'https://old.example/f.atom' /><link href="https://old.example/" rel="alternate"/></feed>`,
			atom + `<link rel='self' href = 'https://new.example/f.atom' /><link href="https://new.example/" rel="alternate"/></feed>`, ""},
		{"a relative Atom href made absolute, against its xml:base", abs,
			atom + `<entry xml:base="https://old.example/d/"><link href="a.html"/></entry></feed>`,
			atom + `<entry xml:base="https://old.example/d/"><link href="https://old.example/d/a.html"/></entry></feed>`, ""},
		{"an attribute named alike is not taken for it", move,
			atom + `<link data-href="https://old.example/x" href="https://old.example/x"/></feed>`,
			atom + `<link data-href="https://old.example/x" href="https://new.example/x"/></feed>`, ""},
		{"RSS's link and enclosure", move,
			`<rss version="2.0"><channel><link>https://old.example/</link><item><enclosure url="https://old.example/a.mp3" type="audio/mpeg"/></item></channel></rss>`,
			`<rss version="2.0"><channel><link>https://new.example/</link><item><enclosure url="https://new.example/a.mp3" type="audio/mpeg"/></item></channel></rss>`, ""},
		{"a URL a comment breaks: all or nothing", move,
			sitemap + "<url><loc>https://old.example/a</loc></url><url><loc>https://old<!-- -->.example/b</loc></url></urlset>", "",
			"line 1: the URL of <url> \"https://old.example/b\" is not written where rewrite can replace it alone"},
		{"links to rewrite in a feed's HTML: all or nothing", abs,
			`<rss version="2.0"><channel><link>https://old.example/</link><item><description>&lt;a href="x.html"&gt;x&lt;/a&gt;</description></item></channel></rss>`, "",
			"rewrite does not rewrite HTML inside a feed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := tt.o.XML([]byte(tt.in), "https://old.example/sitemap.xml")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || string(out) != tt.in {
					t.Errorf("error %v, output changed %v; want %q and the input as it is", err, string(out) != tt.in, tt.err)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got %q, %v\nwant %q", out, err, tt.want)
			}
			again, _, err := tt.o.XML(out, "https://old.example/sitemap.xml")
			if tt.o.Absolute && (err != nil || !bytes.Equal(again, out)) {
				t.Errorf("not idempotent: %q", again)
			}
		})
	}

	// A compressed sitemap: inflated, rewritten, compressed again.
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	io.WriteString(z, sitemap+"<url><loc>https://old.example/a</loc></url></urlset>")
	z.Close()
	out, res, err := move.XML(gz.Bytes(), "https://old.example/sitemap.xml.gz")
	if err != nil || res.Rewritten != 1 {
		t.Fatalf("gzip: %v, %+v", err, res)
	}
	r, err := gzip.NewReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(r)
	if want := sitemap + "<url><loc>https://new.example/a</loc></url></urlset>"; string(text) != want {
		t.Errorf("gzip: %q", text)
	}
}

// TestRobots: robots.txt's Sitemap: lines are moved, and nothing else is
// touched, not a comment naming the same URL before them.
func TestRobots(t *testing.T) {
	move := Rewriter{Moves: []Move{{"https://old.example/", "https://new.example/"}}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	in := "User-agent: *\nDisallow: /private/\n# https://old.example/sitemap.xml\nSitemap: https://old.example/sitemap.xml\nSITEMAP:https://old.example/s.xml.gz\nsitemap: https://other.example/s.xml\n"
	want := "User-agent: *\nDisallow: /private/\n# https://old.example/sitemap.xml\nSitemap: https://new.example/sitemap.xml\nSITEMAP:https://new.example/s.xml.gz\nsitemap: https://other.example/s.xml\n"
	out, res, err := move.Robots([]byte(in), "https://old.example/robots.txt")
	if err != nil || string(out) != want || res.Links != 3 || res.Rewritten != 2 {
		t.Errorf("got %q, %+v, %v\nwant %q", out, res, err, want)
	}
}

// FuzzXML: rewriting a sitemap or a feed never panics; it either leaves
// the document as it is, with an error, or rewrites it so that moving
// again changes nothing and the document holds as many links as before.
func FuzzXML(f *testing.F) {
	for _, s := range []string{
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://old.example/a?x=1&amp;y=2 </loc></url></urlset>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><link rel='self' href = 'https://old.example/f.atom' /><entry xml:base="https://old.example/d/"><link href="a.html"/></entry></feed>`,
		`<rss version="2.0"><channel><link>https://old.example/</link><item><enclosure url="https://old.example/a.mp3"/><guid>https://old.example/g</guid></item></channel></rss>`,
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://old<!-- -->.example/b</loc></url></urlset>`,
	} {
		f.Add(s)
	}
	move := Rewriter{Moves: []Move{{"https://old.example/", "https://new.example/"}}, Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}
	f.Fuzz(func(t *testing.T, s string) {
		out, res, err := move.XML([]byte(s), "https://old.example/sitemap.xml")
		if err != nil {
			if string(out) != s {
				t.Fatalf("an error, %v, and the document changed", err)
			}
			return
		}
		again, res2, err := move.XML(out, "https://old.example/sitemap.xml")
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("moving again: %v, %q -> %q", err, out, again)
		}
		if res2.Links != res.Links {
			t.Fatalf("%d links, then %d", res.Links, res2.Links)
		}
	})
}
