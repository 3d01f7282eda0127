package links

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/htmltok"
)

// describe extracts the links of doc, retrieved from http://h/dir/page,
// and returns one line for each: "element@attribute URL", with " rel=..."
// and " text=..." when the link has them, and "warning: ..." lines.
func describe(t *testing.T, x *Extractor, doc string) []string {
	t.Helper()
	var got []string
	err := x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://h/dir/page")}, &Handler{
		Link: func(l *Link) error {
			s := fmt.Sprintf("%s@%s %s", l.Element, l.Attribute, l.URL)
			if l.Err != nil {
				s = fmt.Sprintf("%s@%s error", l.Element, l.Attribute)
			}
			if l.Rel != nil {
				s += " rel=" + string(l.Rel)
			}
			if l.Text != nil {
				s += " text=" + string(l.Text)
			}
			got = append(got, s)
			return nil
		},
		Warn: func(err error) { got = append(got, "warning: "+err.Error()) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestHTMLRules checks the rules of the HTML standard that decide which
// links a document has and what each resolves against, under every spec.
func TestHTMLRules(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		spec      relurl.Spec // and WHATWG, unless web is set
		want      []string
	}{
		{"data: base is ignored", `<base href="data:text/html,x"><a href=g></a>`, relurl.RFC1808,
			[]string{"warning: <base href> of a data: URL ignored, as HTML says: the document's URL is its base", "a@href http://h/dir/g"}},
		{"javascript: base is ignored", `<a href=g></a><base href="JavaScript:void(0)">`, relurl.WHATWG,
			[]string{"warning: <base href> of a javascript: URL ignored, as HTML says: the document's URL is its base", "a@href http://h/dir/g"}},
		{"a failed base leaves the document's URL", `<base href="http://[bad/"><base href="http://other/"><a href=g></a>`, relurl.WHATWG,
			[]string{`warning: html-base "http://[bad/": parse "http://[bad/": offset 7: IPv6-unclosed (an IPv6 address has no closing bracket); ignored, as HTML says: the document's URL is its base`, "a@href http://h/dir/g"}},
		{"empty action is the document's URL", `<base href="http://b/x/"><form action=""><button formaction>go</button><input type=submit formaction=" "></form><form action="s"></form>`, relurl.WHATWG,
			[]string{"form@action http://h/dir/page", "button@formaction http://h/dir/page", "input@formaction http://h/dir/page", "form@action http://b/x/s"}},
		{"formaction of submit buttons only", `<base href="http://b/"><button type=button formaction=a></button><button type=RESET formaction=b></button><button formaction=c></button><button type=bogus formaction=d></button><input formaction=e><input type=Image formaction=f src=i.png><input type=submit formaction=g src=x.png>`, relurl.RFC3986,
			[]string{"button@formaction http://b/c", "button@formaction http://b/d", "input@formaction http://b/f", "input@src http://b/i.png", "input@formaction http://b/g"}},
		{"a inside math is MathML's, in mi HTML's", `<math><a href=m></a><mi><a href=n></a></mi></math><a href=o></a><svg><a href=s></a></svg>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/n", "a@href http://h/dir/o", "a@href http://h/dir/s"}},
		{"math ends at a breakout tag", `<math><p><a href=p></a></math>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/p"}},
		{"a later <body> tag's background goes to the body", `x<body background="bg.png"><body background="other.png">`, relurl.WHATWG,
			[]string{"body@background http://h/dir/bg.png"}},
		{"a UTF-8 byte order mark is no character: the frameset stands", "\xef\xbb\xbf<frameset><frame src=a.html></frameset>", relurl.WHATWG,
			[]string{"frame@src http://h/dir/a.html"}},
		{"a <meta> declaring x-user-defined declares windows-1252", "<meta charset=\"x-user-defined\"><a href=\"caf\xe9.html\"></a>", relurl.WHATWG,
			[]string{"a@href http://h/dir/caf%C3%A9.html"}},
		// The tree builder's rules (htmltree): each of these read otherwise
		// when a tokenizer and counters stood for the tree.
		{"a base in foreignObject is HTML's", `<svg><foreignObject><base href="http://b/d/"></foreignObject></svg><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://b/d/x"}},
		{"a base in mi is HTML's", `<math><mi><base href="http://b/d/"></mi></math><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://b/d/x"}},
		{"</div> ends the svg it holds", `<div><svg></div><base href="http://b/d/"><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://b/d/x"}},
		{"</td> ends the math in its cell", `<table><tr><td><math></td><td><base href="http://b/d/"><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://b/d/x"}},
		{"a breakout in an integration point stays in the svg", `<svg><foreignObject><div>d</div></foreignObject><base href="http://b/d/"></svg><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/x"}},
		{"SVG's links after HTML in foreignObject", `<svg><foreignObject><p>h</p></foreignObject><a xlink:href=s2></a></svg>`, relurl.WHATWG,
			[]string{"a@xlink:href http://h/dir/s2"}},
		{"HTML in annotation-xml of text/html", `<math><annotation-xml encoding="Text/HTML"><a href=m2></a></annotation-xml><annotation-xml><a href=m3></a></annotation-xml></math>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/m2"}},
		{"script is script again after an unclosed svg", `<div><svg></div><script>var s = '<a href="js">'</script><svg><desc><textarea><a href="t"></textarea></desc></svg><a href=r></a>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/r"}},
		{"a template in svg is SVG's", `<svg><template></svg><a href=st2></a><base href="http://b/d/">`, relurl.WHATWG,
			[]string{"a@href http://b/d/st2"}},
		{"the first base in tree order", `<table><tr><td><base href="http://a/"></td></tr><base href="http://b/"></table><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://b/x"}},
		{"the first base in tree order, the other way", `<table><tr><td><base href="http://a/"></td></tr></table><base href="http://b/"><a href=x></a>`, relurl.WHATWG,
			[]string{"a@href http://a/x"}},
		{"a base in a frameset is dropped", `<frameset><base href="http://b/d/"><frame src=f4></frameset>`, relurl.WHATWG,
			[]string{"frame@src http://h/dir/f4"}},
		{"no frameset after content, nothing after a frameset", `<p>hi</p><frameset><frame src=f1></frameset><a href=a1></a>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/a1"}},
		{"nothing after a frameset", `<frameset><frame src=f2></frameset><a href=dropped></a><img src=dropped>`, relurl.WHATWG,
			[]string{"frame@src http://h/dir/f2"}},
		{"a form in svg is SVG's", `<svg><form action=sf1></svg><form action=sf2></form>`, relurl.WHATWG,
			[]string{"form@action http://h/dir/sf2"}},
		{"SVG's <style> is CSS too", `<svg><style>.a { fill: url(f.svg#g) }</style></svg><style>.b { background: url(b.png) }</style>`, relurl.WHATWG,
			[]string{"style@ http://h/dir/f.svg#g", "style@ http://h/dir/b.png"}},
		{"background of a body and a table's parts", `<body background=b><table background=t><tr background=r><td background=d></td></tr></table><div background=no></div>`, relurl.WHATWG,
			[]string{"body@background http://h/dir/b", "table@background http://h/dir/t", "tr@background http://h/dir/r", "td@background http://h/dir/d"}},
		{"frame only in a frameset", `<frame src=a><frameset><frame src=b></frameset><frame src=c>`, relurl.WHATWG,
			[]string{"frame@src http://h/dir/b"}},
		{"meta refresh", `<meta http-equiv=Refresh content="5; URL='r1'"><meta http-equiv=refresh content="0;url = r2 "><meta http-equiv=refresh content="3"><meta content="0; r3" http-equiv="REFRESH"><meta name=refresh content="0; no">`, relurl.WHATWG,
			[]string{"meta@content http://h/dir/r1", "meta@content http://h/dir/r2", "meta@content http://h/dir/r3"}},
		{"imagesrcset and ping", `<link rel=preload as=image imagesrcset="a.png 1x, b.png 2x"><a href=x ping="/p1 p2">x</a><area href=y ping=p3>`, relurl.WHATWG,
			[]string{"link@imagesrcset http://h/dir/a.png rel=preload", "link@imagesrcset http://h/dir/b.png rel=preload",
				"a@href http://h/dir/x", "a@ping http://h/p1", "a@ping http://h/dir/p2", "area@href http://h/dir/y", "area@ping http://h/dir/p3"}},
		{"css", `<style>@import "i.css"; @import url(j.css) screen; .a { background: url( "k\"l.png" ) } .b { background: URL(m\28 1\29.png) } .c { background-image: image-set("n.png" 1x, url(o.png) 2x) } /* url(c.png) */ .d { content: "url(s.png)" }</style><div style="background:url('p q.png')"></div><p style="color:red">`, relurl.WHATWG,
			[]string{"style@ http://h/dir/i.css", "style@ http://h/dir/j.css", `style@ http://h/dir/k%22l.png`, "style@ http://h/dir/m(1).png",
				"style@ http://h/dir/n.png", "style@ http://h/dir/o.png", "div@style http://h/dir/p%20q.png"}},
		{"rel tokens", `<a href=a REL=" NoFollow  UGC">x</a><link rel=stylesheet href=s.css><img src=i rel=x>`, relurl.WHATWG,
			[]string{"a@href http://h/dir/a rel=nofollow ugc", "link@href http://h/dir/s.css rel=stylesheet", "img@src http://h/dir/i"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := describe(t, &Extractor{Options: Options{Resolver: &relurl.Resolver{Spec: tt.spec}}}, tt.doc)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestAnchorText checks that with Text an <a>'s links carry its text,
// collapsed and bounded, and that the links inside it follow it.
func TestAnchorText(t *testing.T) {
	long := strings.Repeat("é", maxText) // two bytes each: cut at a character
	doc := `<a href=a>  Hello,
	<b>wide</b>   world <img src=i> &amp; more </a><a href=b rel=next>` + long + `<a href=c>unclosed<base href="http://b/">`
	got := describe(t, &Extractor{Options: Options{Text: true}}, doc)
	want := []string{
		"a@href http://b/a text=Hello, wide world & more",
		"img@src http://b/i",
		"a@href http://b/b rel=next text=" + strings.Repeat("é", maxText/2),
		"a@href http://b/c text=unclosed",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestOnlyAttribute(t *testing.T) {
	doc := `<a href=a ping=p></a><div style="background:url(c)"></div><style>x{background:url(d)}</style>`
	for _, tt := range []struct {
		only map[string]bool
		want string
	}{
		{map[string]bool{"a@href": true}, "http://h/dir/a"},
		{map[string]bool{"a@ping": true}, "http://h/dir/p"},
		{map[string]bool{"a": true}, "http://h/dir/a http://h/dir/p"},
		{map[string]bool{CSSElement: true}, "http://h/dir/c http://h/dir/d"},
	} {
		got := collect(t, &Extractor{Options: Options{Only: tt.only}}, doc, Retrieved("http://h/dir/page"))
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%v: got %q, want %q", tt.only, got, tt.want)
		}
	}
}

// TestAttrFound: the attributes that decide a link (rel, ping) are found
// in any case and wherever they are, and never inside another's value.
func TestAttrFound(t *testing.T) {
	for _, tt := range []struct {
		s, name string
		want    bool
	}{
		{`<a href=x REL=next>`, "rel", true},
		{`<a href=x ReL=next>`, "rel", true},
		{`<a href=x rel="next">`, "rel", true},
		{`<a href="x"rel=next>`, "rel", true},
		{`<a href=x rel>`, "rel", true},
		{`<a/rel=x>`, "rel", true},
		{`<a href=/About/Us/Today ping=x>`, "ping", true},
		{`<a href=/About/Us/Today pin=x>`, "ping", false},
		{`<a href="mapping.html">`, "ping", false},
		{`<a href="MAPPING.html">`, "ping", false},
		{`<a href="release.html">`, "rel", false},
		{`<a href=x>`, "rel", false},
		{`<A HREF=X PIN>`, "ping", false},
	} {
		z := htmltok.NewBytes([]byte(tt.s))
		z.Next()
		if _, got := z.Attr(tt.name); got != tt.want {
			t.Errorf("%q: attribute %q found: %v", tt.s, tt.name, got)
		}
	}
	for _, tt := range []struct {
		s, lower string
		want     bool
	}{
		{"url(x)", "url(", true},
		{"URL(x)", "url(", true},
		{"\xc1\xd2\xc5", "are", false}, // not ASCII: no case
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZ@[`{", "xyz", true},
	} {
		if got := containsFold([]byte(tt.s), tt.lower); got != tt.want {
			t.Errorf("containsFold(%q, %q) = %v", tt.s, tt.lower, got)
		}
	}
	for c := 0; c < 256; c++ {
		for pos := range 9 {
			b := make([]byte, 9)
			b[pos] = byte(c)
			if got, want := hasUpper(b), 'A' <= c && c <= 'Z'; got != want {
				t.Fatalf("hasUpper with 0x%x at %d = %v", c, pos, got)
			}
		}
	}
}

func TestPositions(t *testing.T) {
	doc := "<!doctype html>\n<p>x <a href=a>1</a>\n  <img\n src=i><a href=b>\n<base href=\"http://b/\">\n<style>\n.x{background:url(c)}</style>"
	var got []string
	err := (&Extractor{Options: Options{Positions: true}}).Extract(strings.NewReader(doc), Doc{Format: FormatHTML}, &Handler{Link: func(l *Link) error {
		got = append(got, fmt.Sprintf("%s %d:%d", l.URL, l.Line, l.Column))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "http://b/a 2:6|http://b/i 3:3|http://b/b 4:8|http://b/c 6:8"
	if strings.Join(got, "|") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// TestSites: with Extractor.Sites, each link says where it is written: the
// bytes of its attribute's value (or <style> text) in the document, its
// quote, and where its reference is in the decoded value; links that
// wait for a late <base> keep theirs, and the <base href> is a link.
func TestSites(t *testing.T) {
	doc := `<a href="a.html">` + // 0
		`<img srcset='b.png 1x, c.png 2x'>` +
		`<a href=d&amp;e.html ping="p1 p2">` +
		`<meta http-equiv=refresh content="0; url='r.html'">` +
		`<p style="background: url(s.png)">` +
		`<style>@import "i.css"; x { y: URL( u.png ) }</style>` +
		`<base href="http://h.example/dir/">` +
		`<template><a href=t.html></template>` +
		`<a href=after.html>`
	var got []string
	x := &Extractor{Options: Options{Sites: true}}
	h := &Handler{Link: func(l *Link) error {
		s := l.Site
		got = append(got, fmt.Sprintf("%s@%s %q value %q quote %q ref %q css %v style %v",
			l.Element, l.Attribute, l.URL, doc[s.Value.Start:s.Value.End], s.Quote, s.Decoded[s.Ref[0]:s.Ref[1]], s.CSS, s.Style))
		return nil
	}}
	if err := x.Extract(strings.NewReader(doc), Doc{Format: FormatHTML, Base: Retrieved("http://doc.example/x/page.html")}, h); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`a@href "http://h.example/dir/a.html" value "a.html" quote '"' ref "a.html" css false style false`,
		`img@srcset "http://h.example/dir/b.png" value "b.png 1x, c.png 2x" quote '\'' ref "b.png" css false style false`,
		`img@srcset "http://h.example/dir/c.png" value "b.png 1x, c.png 2x" quote '\'' ref "c.png" css false style false`,
		`a@href "http://h.example/dir/d&e.html" value "d&amp;e.html" quote '\x00' ref "d&e.html" css false style false`,
		`a@ping "http://h.example/dir/p1" value "p1 p2" quote '"' ref "p1" css false style false`,
		`a@ping "http://h.example/dir/p2" value "p1 p2" quote '"' ref "p2" css false style false`,
		`meta@content "http://h.example/dir/r.html" value "0; url='r.html'" quote '"' ref "r.html" css false style false`,
		`p@style "http://h.example/dir/s.png" value "background: url(s.png)" quote '"' ref "url(s.png)" css true style false`,
		`style@ "http://h.example/dir/i.css" value "@import \"i.css\"; x { y: URL( u.png ) }" quote '\x00' ref "\"i.css\"" css true style true`,
		`style@ "http://h.example/dir/u.png" value "@import \"i.css\"; x { y: URL( u.png ) }" quote '\x00' ref "URL( u.png )" css true style true`,
		`base@href "http://h.example/dir/" value "http://h.example/dir/" quote '"' ref "http://h.example/dir/" css false style false`,
		`a@href "http://h.example/dir/after.html" value "after.html" quote '\x00' ref "after.html" css false style false`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBasePositionWaiting: a <base>'s href, handed out as a link with
// Sites, has its position also when it waits: inside a table, until the
// table ends, and while the fast path holds the links.
func TestBasePositionWaiting(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{"<p>x\n<table><tr><td>\n  <base href=\"http://b.example/\"></td></tr></table><a href=y>", "base 3:3|a 3:52"},
		{"<p>x\n\n  <base href=\"http://b.example/\"><a href=y>", "base 3:3|a 3:34"},
	} {
		var got []string
		x := &Extractor{Options: Options{Sites: true, Positions: true}}
		err := x.Extract(strings.NewReader(tt.doc), Doc{Format: FormatHTML, Base: Retrieved("http://h/p")}, &Handler{Link: func(l *Link) error {
			got = append(got, fmt.Sprintf("%s %d:%d", l.Element, l.Line, l.Column))
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%q: got %q, want %s", tt.doc, got, tt.want)
		}
	}
}
