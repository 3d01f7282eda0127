package links

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltree"
)

var update = flag.Bool("update", false, "rewrite the .links files of testdata/documents from what the code does")

// documents is where the fixtures live; testdata/README.md says what each
// checks.
const documents = "../testdata/documents/"

// extract runs an Extractor over a fixture and returns a line per link
// ("PART BASE_FROM URL REF ELEMENT ATTRIBUTE"), per established base
// ("base PART FROM URL") and per warning ("warning: ..."), in order.
func extract(t *testing.T, name, retrievedFrom string, spec relurl.Spec) string {
	t.Helper()
	f, err := os.Open(documents + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	h := &Handler{
		Link: func(l *Link) error {
			u := "-"
			if l.URL != nil {
				u = string(l.URL)
			}
			if l.Err != nil {
				u = "refused: " + l.Err.Error()
			}
			fmt.Fprintf(&out, "%s\t%s\t%s\t%q\t%s\t%s\n", orDash(l.Part), l.Base.From, u, l.Ref, l.Element, l.Attribute)
			return nil
		},
		Base: func(part string, b Base) { fmt.Fprintf(&out, "base\t%s\t%s\t%s\n", orDash(part), b.From, b.URL) },
		Warn: func(err error) { fmt.Fprintf(&out, "warning: %v\n", err) },
	}
	x := &Extractor{Options: Options{ContentLocation: true, Resolver: &relurl.Resolver{Spec: spec}}}
	outer := Retrieved(retrievedFrom)
	switch filepath.Ext(name) {
	case ".html":
		err = x.Extract(f, Doc{Format: FormatHTML, Base: outer}, h)
	default:
		err = x.Extract(f, Doc{Format: FormatMessage, Base: outer}, h)
	}
	if err != nil {
		fmt.Fprintf(&out, "error: %v\n", err)
	}
	return out.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TestDocuments extracts the links of each fixture, with and without a
// retrieval URL, and with one by the URL Standard, and compares them with
// its .links file.
func TestDocuments(t *testing.T) {
	names, err := filepath.Glob(documents + "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range names {
		name := filepath.Base(path)
		if ext := filepath.Ext(name); ext == ".links" || ext == ".md" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			const retrieval = "http://retrieval.example/dir/doc"
			got := "# retrieved from nowhere (Section 3.4)\n" + extract(t, name, "", relurl.RFC1808) +
				"# retrieved from " + retrieval + " (Section 3.3)\n" + extract(t, name, retrieval, relurl.RFC1808) +
				"# the same, by the WHATWG URL Standard\n" + extract(t, name, retrieval, relurl.WHATWG)
			wantFile := documents + strings.TrimSuffix(name, filepath.Ext(name)) + ".links"
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("links of %s differ from %s (go test -update rewrites it):\n%s", name, wantFile, diff(string(want), got))
			}
		})
	}
}

// diff shows the lines of a and b that differ, in order.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var d strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&d, "line %d:\n-%s\n+%s\n", i+1, x, y)
		}
	}
	return d.String()
}

// A BASE element governs the links before it, and only the first counts.
func TestBaseAppliesToWholeDocument(t *testing.T) {
	doc := `<a href="before">x</a><base href="http://first/a/"><base href="http://second/"><a href="after">y</a>`
	got := collect(t, &Extractor{}, doc, Retrieved("http://retrieval/"))
	want := []string{"http://first/a/before", "http://first/a/after"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func collect(t *testing.T, x *Extractor, doc string, outer Base) []string {
	t.Helper()
	var got []string
	err := x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: outer}, &Handler{Link: func(l *Link) error {
		got = append(got, string(l.URL))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestOnly(t *testing.T) {
	doc := `<a href="a"></a><img src="i" srcset="s 2x"><link href="l"><base href="http://b/">`
	got := collect(t, &Extractor{Options: Options{Only: map[string]bool{"img": true}}}, doc, Base{})
	if want := "http://b/i http://b/s"; strings.Join(got, " ") != want {
		t.Errorf("only img: got %q, want %q", got, want)
	}
}

// Nesting deeper than MaxDepth stops the walk with an error that names the part.
func TestMaxDepth(t *testing.T) {
	var msg strings.Builder
	msg.WriteString("Content-Type: message/rfc822\r\n\r\n")
	for range 5 {
		msg.WriteString("Content-Type: message/rfc822\r\n\r\n")
	}
	msg.WriteString("Content-Type: text/html\r\n\r\n<a href=x>")
	x := &Extractor{Options: Options{MaxDepth: 3}}
	err := x.Extract(strings.NewReader(msg.String()), Doc{Format: FormatMessage}, &Handler{Link: func(*Link) error { return nil }})
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 3") {
		t.Errorf("error %v, want one about nesting deeper than 3", err)
	}
	if err := (&Extractor{}).Extract(strings.NewReader(msg.String()), Doc{Format: FormatMessage}, &Handler{Link: func(*Link) error { return nil }}); err != nil {
		t.Errorf("default depth: %v", err)
	}
}

// A read error stops the extraction after handing out the links before it.
func TestReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`<a href="a">`), errReader{})
	var got []string
	err := (&Extractor{}).Extract(r, Doc{Format: FormatHTML, Base: Retrieved("http://x/")}, &Handler{Link: func(l *Link) error {
		got = append(got, string(l.URL))
		return nil
	}})
	if err == nil || len(got) != 1 || got[0] != "http://x/a" {
		t.Errorf("links %q, error %v; want the link and the error", got, err)
	}
	var rerr *ReadError
	if !errors.As(err, &rerr) {
		t.Errorf("error %T, want a *ReadError: the input failed, not the content", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

// FuzzHTML: any input gives no panic, and every link of a document with an
// absolute base is absolute.
func FuzzHTML(f *testing.F) {
	for _, name := range []string{"elements.html", "rfc1808-appendix.html", "base-relative.html"} {
		b, err := os.ReadFile(documents + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(`<meta http-equiv=refresh content="0;url=r"><style>@import "i.css"; a{b:url(x\29)}</style><a href=a ping="p q" rel=next>t<img src=i></a><math><a href=m></math><div style="x:image-set('s' 1x)"><base href="data:,x">`)
	f.Fuzz(func(t *testing.T, doc string) {
		// The links are the same with anchor texts as without, only
		// handed out later; all are absolute.
		var plain, texts []string
		for _, x := range []*Extractor{{}, {Options: Options{Text: true}}} {
			err := x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://a/b/c")}, &Handler{Link: func(l *Link) error {
				if l.URL == nil && l.Err == nil {
					t.Fatalf("unresolved link %q under an absolute base", l.Ref)
				}
				if l.Text != nil && (len(l.Text) > maxText || l.Element != "a") {
					t.Fatalf("text %q of a %s", l.Text, l.Element)
				}
				if x.Text {
					texts = append(texts, string(l.URL))
				} else {
					plain = append(plain, string(l.URL))
				}
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(plain)
		slices.Sort(texts)
		if !slices.Equal(plain, texts) {
			t.Fatalf("links %q without texts, %q with", plain, texts)
		}
		// With Sites, the same links and the <base href>, each in its
		// value, in document order.
		var sited []string
		last := int64(-1)
		err := (&Extractor{Options: Options{Sites: true}}).Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://a/b/c")}, &Handler{Link: func(l *Link) error {
			s := l.Site
			if s.Value.Start < last || s.Value.End < s.Value.Start || s.Ref[0] < 0 || s.Ref[1] < s.Ref[0] || s.Ref[1] > len(s.Decoded) {
				t.Fatalf("%s@%s %q: site %+v after %d", l.Element, l.Attribute, l.Ref, s, last)
			}
			if !s.CSS && string(s.Decoded[s.Ref[0]:s.Ref[1]]) != string(l.Ref) {
				t.Fatalf("%s@%s %q at %v of %q", l.Element, l.Attribute, l.Ref, s.Ref, s.Decoded)
			}
			last = s.Value.Start
			if l.Element != "base" {
				sited = append(sited, string(l.URL))
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(sited)
		if !slices.Equal(plain, sited) {
			t.Fatalf("links %q without sites, %q with", plain, sited)
		}
	})
}

// FuzzMessage: any input gives no panic and no hang.
func FuzzMessage(f *testing.F) {
	for _, name := range []string{"precedence.eml", "base-header.eml", "broken-boundary.eml"} {
		b, err := os.ReadFile(documents + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, msg string) {
		x := &Extractor{}
		x.Extract(strings.NewReader(msg), Doc{Format: FormatMessage, Base: Retrieved("http://a/b/c")}, &Handler{Link: func(*Link) error { return nil }})
	})
}

// Section 3.1: "Base" is case-insensitive, and so are MIME header names.
func TestBaseHeaderCase(t *testing.T) {
	msg := "bAsE: <url:http://case.example/dir/>\r\nCONTENT-TYPE: text/html\r\n\r\n<a href=x>"
	var got []string
	err := (&Extractor{}).Extract(strings.NewReader(msg), Doc{Format: FormatMessage}, &Handler{Link: func(l *Link) error {
		got = append(got, string(l.URL)+" "+l.Base.From.String())
		return nil
	}})
	if err != nil || len(got) != 1 || got[0] != "http://case.example/dir/x base-header" {
		t.Errorf("links %q, error %v", got, err)
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		prefix string
		want   Format
	}{
		{"<p>Note:<a href=x>", FormatHTML},
		{"\ufeff  \n<!DOCTYPE html>", FormatHTML},
		{"From: a@b\r\nTo: c@d\r\n", FormatMessage},
		{"\ufeffContent-Type: text/html\r\n", FormatMessage},
		{"MIME-Version: 1.0\r\n", FormatMessage},
		{"X-Mailer: x\r\n\tfolded\r\nSubject: s\r\n\r\n<a href=x>", FormatMessage},
		{"Note: plain text", 0}, // a field, but none a message has
		{"plain text: no field name", 0},
		{": no name", 0},
		{"", 0},
		{"  \r\n", 0},
		{strings.Repeat(" ", 512), FormatHTML},
		{"\xff\xfe<\x00a\x00", FormatHTML},
		{"Content-Type: text/html; charset=utf-16le\r\n\r\n<\x00a\x00", FormatMessage},
		{"root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n", 0}, // /etc/passwd
		{"\x7fELF\x02\x01\x01\x00\x00", 0},
		{"GIF89a\x01\x00\x01\x00\x80\x00\x00", 0},
		{"Some text, then <b>markup</b>", FormatHTML},
		{"a < b and c > d", 0},
		{"<?php echo 1 ?><a href=x>", FormatHTML},
	}
	for _, tt := range tests {
		if got := sniff([]byte(tt.prefix)); got != tt.want {
			t.Errorf("sniff(%q) = %v, want %v", tt.prefix, got, tt.want)
		}
	}
	if got := FormatOf("page.HTM", []byte("Subject: x\r\n")); got != FormatHTML {
		t.Errorf("the extension decides first: %v", got)
	}
}

// After a part whose header the standard library refuses, the walk goes on
// at the next part, however many bad parts follow each other.
func TestResyncAfterBadHeader(t *testing.T) {
	bad := "--b\r\n" + strings.Repeat("X: y\r\n", 10001) + "\r\n<a href=\"lost\">\r\n"
	msg := "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\npreamble\r\n" +
		"--b\r\nContent-Type: text/html\r\n\r\n<a href=\"1\">\r\n" +
		bad + bad +
		"--b\r\nContent-Type: text/html\r\n\r\n<a href=\"4\">\r\n" +
		bad +
		"--b\r\nContent-Type: text/html\r\n\r\n<a href=\"6\">\r\n--b--\r\n"
	var got, warnings []string
	err := (&Extractor{}).Extract(strings.NewReader(msg), Doc{Format: FormatMessage, Base: Retrieved("http://m/")}, &Handler{
		Link: func(l *Link) error { got = append(got, l.Part+" "+string(l.URL)); return nil },
		Warn: func(err error) { warnings = append(warnings, err.Error()) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1 http://m/1|4 http://m/4|6 http://m/6"; strings.Join(got, "|") != want {
		t.Errorf("links %q, want %q", got, want)
	}
	if len(warnings) != 3 || !strings.HasPrefix(warnings[0], "part 2: unreadable part header") || !strings.HasPrefix(warnings[2], "part 5:") {
		t.Errorf("warnings %q, want parts 2, 3 and 5", warnings)
	}
}

// The bytes a resync needs are at hand however far into the body it is:
// a bad part after 300 KiB of others.
func TestResyncFarIntoTheBody(t *testing.T) {
	big := "--b\r\nContent-Type: text/html\r\n\r\n<a href=\"big\">" + strings.Repeat("<p>filler</p>\r\n", 20000) + "\r\n"
	msg := "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" + big +
		"--b\r\n" + strings.Repeat("X: y\r\n", 10001) + "\r\n<a href=\"lost\">\r\n" +
		"--b\r\nContent-Type: text/html\r\n\r\n<a href=\"after\">\r\n--b--\r\n"
	var got []string
	err := (&Extractor{}).Extract(strings.NewReader(msg), Doc{Format: FormatMessage, Base: Retrieved("http://m/")}, &Handler{
		Link: func(l *Link) error { got = append(got, l.Part+" "+string(l.URL)); return nil },
	})
	if want := "1 http://m/big|3 http://m/after"; err != nil || strings.Join(got, "|") != want {
		t.Errorf("links %q, error %v; want %q", got, err, want)
	}
}

// Links that wait for the base cost their bytes and a few more, not a
// structure each.
func TestPendingIsCompact(t *testing.T) {
	const n = 100000
	doc := strings.Repeat(`<a href="x">`, n) + `<base href="http://b/">`
	var x Extractor
	links := 0
	if err := x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML}, &Handler{Link: func(*Link) error { links++; return nil }}); err != nil {
		t.Fatal(err)
	}
	if links != n || cap(x.pending) > 8*n {
		t.Errorf("%d links waited in %d bytes", links, cap(x.pending))
	}
}

// TestPendingInPieces: a page of a million links that wait for its end
// keeps them in pieces, not in one buffer grown by copies, and hands them
// out in their order, each with its site.
func TestPendingInPieces(t *testing.T) {
	const n = 1_000_000
	var doc strings.Builder
	for i := range n {
		fmt.Fprintf(&doc, `<a href="%d">`, i)
	}
	doc.WriteString(`<base href="http://b/">`)
	x := Extractor{Options: Options{Sites: true}}
	src := doc.String()
	i, pieces := 0, 0
	err := x.Extract(strings.NewReader(src), Doc{Format: FormatHTML}, &Handler{Link: func(l *Link) error {
		if i == 0 {
			pieces = len(x.pendingFull)
		}
		want := strconv.Itoa(i)
		if i == n {
			want = "http://b/" // the <base href>, itself a link
		}
		if string(l.Ref) != want || src[l.Site.Value.Start:l.Site.Value.End] != want {
			t.Fatalf("link %d: %q at %v", i, l.Ref, l.Site.Value)
		}
		i++
		return nil
	}})
	if err != nil || i != n+1 {
		t.Fatalf("%d links, %v", i, err)
	}
	if pieces < 2 {
		t.Errorf("the links waited in %d pieces", pieces+1)
	}
}

// A link's value is cleaned as the URL Standard cleans its input.
func TestCleanURL(t *testing.T) {
	var x Extractor
	for in, want := range map[string]string{
		"x":                  "x",
		"  \t\x00x y\x1f ":   "x y",
		"a\tb\nc\rd":         "abcd",
		"\n\n":               "",
		"http://a/\x0cb\x7f": "http://a/\x0cb\x7f",
		// Past the first word, where HasTabOrNewline reads eight bytes
		// at once; a form feed flags a word and is kept.
		"https://h/dir/a\tb/c\nd#e\r": "https://h/dir/ab/cd#e",
		"ab\x0cdefghijklmnopq":        "ab\x0cdefghijklmnopq",
	} {
		if got := string(x.cleanURL([]byte(in))); got != want {
			t.Errorf("cleanURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// Under the URL Standard, a special URL's query is encoded in the
// document's encoding, however it was declared, and every part else in
// UTF-8; one Extractor keeps no encoding from one document to the next.
func TestQueryInDocumentEncoding(t *testing.T) {
	x := &Extractor{Options: Options{Resolver: &relurl.Resolver{Spec: relurl.WHATWG}}}
	outer := Retrieved("http://h/p")
	for _, tt := range []struct{ doc, want string }{
		{"<meta charset=windows-1252><a href=\"\xe9?q=\xe9#\xe9\"></a><a href='?q=&#1046;'></a><a href='ws://w/?\xe9'></a>",
			"http://h/%C3%A9?q=%E9#%C3%A9 http://h/p?q=%26%231046%3B ws://w/?%C3%A9"},
		{"<meta charset=utf-8><a href='?q=é'></a>", "http://h/p?q=%C3%A9"},
		{"<a href='http://a/?q=é'></a>", "http://a/?q=%C3%A9"},
		{"<meta charset=shift_jis><a href='?q=\x93\xfa'></a>", "http://h/p?q=%93%FA"},
		// CSS parses its URLs with UTF-8 for the query, in <style>, a
		// style attribute and SVG's <style> alike, with a base or without.
		{"<meta charset=windows-1252><style>a { background: url(q?\xff) }</style><p style='background: url(\"?\xe9\")'><svg><style>@import 'http://c/?\xe9';</style></svg><a href='?\xe9'></a>",
			"http://h/q?%C3%BF http://h/p?%C3%A9 http://c/?%C3%A9 http://h/p?%E9"},
		// A <meta charset> past the first 1024 bytes, in the head, is the
		// tree builder's change of the encoding ("in head").
		{"<title>t</title><script>" + strings.Repeat("/* long */ ", 120) + "</script><meta charset=windows-1252><a href='?q=\xe9'></a>", "http://h/p?q=%E9"},
		{"<!-- " + strings.Repeat("x", 2000) + " --><meta http-equiv=content-type content='text/html; charset=shift_jis'><a href='?q=\x93\xfa'></a>", "http://h/p?q=%93%FA"},
		// In the body, it comes too late: the bytes are UTF-8's, as read.
		{"<p>" + strings.Repeat("text ", 250) + "<meta charset=windows-1252><a href='?q=\xc3\xa9'></a>", "http://h/p?q=%C3%A9"},
	} {
		if got := strings.Join(collect(t, x, tt.doc, outer), " "); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.doc, got, tt.want)
		}
	}
}

// TestTreeTooDeep: a page nested past htmltree.MaxDepth hands out the
// links before that point, then stops with an error that names where.
func TestTreeTooDeep(t *testing.T) {
	doc := `<a href=before>b</a>` + strings.Repeat("<span>", htmltree.MaxDepth+1) + `<a href=after>a</a>`
	var got []string
	err := (&Extractor{}).Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://h/d/p")}, &Handler{Link: func(l *Link) error {
		got = append(got, string(l.URL))
		return nil
	}})
	var de *htmltree.DepthError
	if !errors.As(err, &de) {
		t.Fatalf("HTML() = %v, want a DepthError", err)
	}
	if strings.Join(got, " ") != "http://h/d/before" {
		t.Errorf("links %q, want the one before", got)
	}
}

// The document an <iframe srcdoc> holds is read after its container's
// links, with the container's base as its own fallback, its part
// "srcdoc", its links' positions the iframe's, nested up to MaxDepth.
func TestSrcdoc(t *testing.T) {
	doc := "<base href=http://b/d/><a href=top>t</a>\n" +
		`<iframe srcdoc="<a href=x>x</a><base href='in/'><img src=y><iframe srcdoc='<a href=&quot;z&quot;>'></iframe>"></iframe>` +
		`<svg><iframe srcdoc="<a href=svg>"></iframe></svg><template><iframe srcdoc="<a href=inert>"></iframe></template>`
	type seen struct {
		url, part string
		line, col int
	}
	run := func(x *Extractor) ([]seen, []error) {
		var got []seen
		var warns []error
		err := x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://h/p")}, &Handler{
			Link: func(l *Link) error {
				got = append(got, seen{string(l.URL), l.Part, l.Line, l.Column})
				return nil
			},
			Warn: func(err error) {
				if loss := (*Loss)(nil); errors.As(err, &loss) {
					warns = append(warns, err) // not the relative base's warning
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return got, warns
	}
	got, warns := run(&Extractor{Options: Options{Positions: true}})
	want := []seen{{"http://b/d/top", "", 1, 24}, {"http://b/d/in/x", "srcdoc", 2, 1}, {"http://b/d/in/y", "srcdoc", 2, 1}, {"http://b/d/in/z", "srcdoc/srcdoc", 2, 1}}
	if !slices.Equal(got, want) || len(warns) > 0 {
		t.Errorf("got %v (warnings %v), want %v", got, warns, want)
	}
	got, warns = run(&Extractor{Options: Options{MaxDepth: 1}})
	if len(got) != 3 || len(warns) != 1 || !strings.Contains(warns[0].Error(), "srcdoc/srcdoc: iframe srcdoc documents nested deeper than 1: 1 not read") {
		t.Errorf("MaxDepth 1: got %v, warnings %v", got, warns)
	}
	// A Handler that stops the extraction is called no more, for a
	// srcdoc's links either.
	calls := 0
	stop := errors.New("enough")
	err := (&Extractor{}).Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://h/p")}, &Handler{Link: func(*Link) error {
		calls++
		return stop
	}})
	if err != stop || calls != 1 {
		t.Errorf("a Handler that stops: %d calls, %v", calls, err)
	}
	// A Handler with Srcdoc is handed each srcdoc (with Sites, where its
	// attribute is written) in place of its links.
	var sites []Site
	var fallbacks []string
	x := &Extractor{Options: Options{Sites: true}}
	err = x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://h/p")}, &Handler{
		Link: func(l *Link) error {
			if l.Part != "" {
				t.Errorf("Srcdoc set: link %s of part %s", l.URL, l.Part)
			}
			return nil
		},
		Srcdoc: func(s Site, fallback Base) error {
			sites, fallbacks = append(sites, s), append(fallbacks, fallback.URL)
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 1 || sites[0].Quote != '"' || !strings.HasPrefix(doc[sites[0].Value.Start:], "<a href=x>") ||
		!strings.HasPrefix(string(sites[0].Decoded), "<a href=x>x</a><base href='in/'><img src=y><iframe srcdoc='<a href=\"z\">'>") ||
		fallbacks[0] != "http://b/d/" {
		t.Errorf("Srcdoc handed %+v, fallbacks %q", sites, fallbacks)
	}
}

// The Links iterator hands out links a caller may keep: 2,000 links kept
// are the 2,000 a Handler sees, each its own. A break stops the
// extraction; a warning comes as an error with the zero Link; and the
// error that stops an extraction comes last.
func TestLinksIterator(t *testing.T) {
	var page strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&page, `<a href="p%d.html" rel="Next">link %d</a>`, i, i)
	}
	x := Extractor{Options: Options{Resolver: &relurl.Resolver{Spec: relurl.WHATWG}, Text: true}}
	outer := Retrieved("https://example.com/dir/")
	var want []string
	h := &Handler{Link: func(l *Link) error {
		want = append(want, fmt.Sprintf("%s %s %s %s", l.URL, l.Ref, l.Rel, l.Text))
		return nil
	}}
	if err := x.Extract(strings.NewReader(page.String()), Doc{Format: FormatHTML, Base: outer}, h); err != nil {
		t.Fatal(err)
	}
	var kept []Link
	for l, err := range x.Links(strings.NewReader(page.String()), Doc{Format: FormatHTML, Base: outer}) {
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, l)
	}
	if len(kept) != 2000 || len(want) != 2000 {
		t.Fatalf("kept %d links, the Handler saw %d", len(kept), len(want))
	}
	for i, l := range kept {
		if got := fmt.Sprintf("%s %s %s %s", l.URL, l.Ref, l.Rel, l.Text); got != want[i] {
			t.Fatalf("link %d kept as %q, was %q", i, got, want[i])
		}
	}

	n := 0
	for range x.Links(strings.NewReader(page.String()), Doc{Format: FormatHTML, Base: outer}) {
		if n++; n == 5 {
			break
		}
	}
	if n != 5 {
		t.Errorf("%d links after a break at 5", n)
	}

	// A relative <base> with no outer base is a warning, then the links.
	var got []string
	for l, err := range x.Links(strings.NewReader(`<base href="sub/"><a href="x">`), Doc{Format: FormatHTML}) {
		if err != nil {
			got = append(got, "warning: "+err.Error())
			continue
		}
		got = append(got, string(l.Ref))
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "warning: ") || got[1] != "x" {
		t.Errorf("a relative base with no outer base: %q", got)
	}

	// A read error stops the extraction and comes last.
	broken := io.MultiReader(strings.NewReader(`<a href="a">`), iotest.ErrReader(errors.New("disk gone")))
	var last error
	count := 0
	for _, err := range x.Links(broken, Doc{Format: FormatHTML, Base: outer}) {
		count++
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "disk gone") {
		t.Errorf("a read error: %d items, the last error %v", count, last)
	}
}

// ParseOnly reads -elements' lists, and Elements is the table it checks
// them against.
func TestParseOnly(t *testing.T) {
	tests := []struct {
		in   string
		want []string // the names, sorted; nil for every link
		err  string
	}{
		{"", nil, ""},
		{"a@href, IMG ,style,http", []string{"a@href", "http", "img", "style"}, ""},
		{"image@xlink:href", []string{"image@xlink:href"}, ""},
		{"blink", nil, `"blink" is not one of a,area,audio,`},
		{"a@src", nil, `"a@src": <a> has no link attribute "src"; it has href, ping, xlink:href`},
		{"style@href", nil, `"style" is not one of`},
	}
	for _, tt := range tests {
		only, err := ParseOnly(tt.in)
		got := slices.Sorted(maps.Keys(only))
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseOnly(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
		case tt.err == "" && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("ParseOnly(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	n := 0
	for name, attrs := range Elements() {
		if len(attrs) == 0 {
			t.Errorf("<%s> with no link attribute", name)
		}
		n++
	}
	if n != 30 { // 29 of HTML, and SVG's <image>
		t.Errorf("Elements yields %d elements", n)
	}
}
