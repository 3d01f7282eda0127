package relurl_test

import (
	"errors"
	"fmt"
	"log"
	"net/url"

	"github.com/relurl/relurl"
)

func ExampleResolve() {
	base := "http://a/b/c/d;p?q#f"
	for _, ref := range []string{"g", "../g", "?y", ";x", "#s", "", "../../../g"} {
		fmt.Printf("%-12q %s\n", ref, relurl.Resolve(base, ref))
	}
	// Output:
	// "g"          http://a/b/c/g
	// "../g"       http://a/b/g
	// "?y"         http://a/b/c/d;p?y
	// ";x"         http://a/b/c/d;x
	// "#s"         http://a/b/c/d;p?q#s
	// ""           http://a/b/c/d;p?q#f
	// "../../../g" http://a/../g
}

func ExampleAppendResolve() {
	buf := make([]byte, 0, 256)
	buf = relurl.AppendResolve(buf[:0], "https://example.org/docs/guide/", "../api/index.html#top")
	fmt.Println(string(buf))
	// Output:
	// https://example.org/docs/api/index.html#top
}

func ExampleURL_AppendResolve() {
	// Split a page's URL once, then resolve each of its links into one
	// reused buffer: no allocation per link.
	page := relurl.Split("https://docs.python.org/3.11/library/functions.html")
	var buf []byte
	for _, href := range []string{"stdtypes.html#str", "../reference/index.html", "#abs", "https://www.python.org/"} {
		buf = page.AppendResolve(buf[:0], href)
		fmt.Println(string(buf))
	}
	// Output:
	// https://docs.python.org/3.11/library/stdtypes.html#str
	// https://docs.python.org/3.11/reference/index.html
	// https://docs.python.org/3.11/library/functions.html#abs
	// https://www.python.org/
}

func ExampleURL_Resolve() {
	u := relurl.Split("ftp://ftp.example.org/pub/dir/file;type=a").Resolve("../other/file2")
	fmt.Println(u, u.NetLoc(), u.Path())
	// Output:
	// ftp://ftp.example.org/pub/other/file2 ftp.example.org pub/other/file2
}

func ExampleSplit() {
	u := relurl.Split("http://user@a:80/b/c;p?q#f")
	fmt.Printf("scheme %q net_loc %q path %q (after a slash: %v) params %q query %q fragment %q\n",
		u.Scheme(), u.NetLoc(), u.Path(), u.AbsPath(), u.Params(), u.Query(), u.Fragment())

	// Empty components are present; absent ones are not.
	v := relurl.Split("g?#")
	fmt.Println(v.HasQuery(), v.Query() == "", v.HasFragment(), v.HasParams())
	// Output:
	// scheme "http" net_loc "user@a:80" path "b/c" (after a slash: true) params "p" query "q" fragment "f"
	// true true true false
}

func ExampleValidate() {
	for _, s := range []string{"http://a/b;p?q", "//a/b", "../g", "http://a//b", "http://a/b c", "g%zz"} {
		form, err := relurl.Validate(s)
		if err != nil {
			var serr *relurl.SyntaxError
			errors.As(err, &serr)
			fmt.Printf("%-16q invalid at offset %d: %v\n", s, serr.Offset, err)
			continue
		}
		fmt.Printf("%-16q %v\n", s, form)
	}
	// Output:
	// "http://a/b;p?q" generic-RL
	// "//a/b"          net_path
	// "../g"           rel_path
	// "http://a//b"    absoluteURL
	// "http://a/b c"   invalid at offset 10: parse "http://a/b c": offset 10: " " is not allowed in path (pchar)
	// "g%zz"           invalid at offset 1: parse "g%zz": offset 1: "%zz" is an invalid escape (escape = "%" hex hex)
}

func ExampleSchemeCategoryOf() {
	for _, s := range []string{"mailto", "GOPHER", "http", "https"} {
		fmt.Println(s, relurl.SchemeCategoryOf(s))
	}
	// Output:
	// mailto never-relative
	// GOPHER own-reserved
	// http generic-RL
	// https unknown
}

func ExampleURL_NetURL() {
	u, err := relurl.Split("http://a/b/c;p?q#f").NetURL()
	if err != nil {
		panic(err)
	}
	// net/url has no params: they stay in its Path.
	fmt.Println(u.Host, u.Path, u.RawQuery, u.Fragment)
	fmt.Println(relurl.URLFromNet(u).Params())
	// Output:
	// a /b/c;p q f
	// p
}

func ExampleURLFromNet() {
	u := &url.URL{Scheme: "http", Host: "a", Path: "/b/c;p", RawQuery: "q"}
	fmt.Println(relurl.URLFromNet(u).Resolve(";x"))
	// Output:
	// http://a/b/c;x
}

func ExampleResolver() {
	base, ref := "http://a/b/c/d;p?q", "../../../G h"
	for _, spec := range []relurl.Spec{relurl.RFC1808, relurl.RFC3986, relurl.WHATWG} {
		r := relurl.Resolver{Spec: spec}
		u, err := r.Resolve(base, ref)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s\n", spec, u)
	}
	// Output:
	// RFC 1808: http://a/../G h
	// RFC 3986: http://a/G h
	// WHATWG URL Standard: http://a/G%20h
}

// A base prepared once serves every link of its document: the base is
// parsed once, and each link is appended to a reused buffer, with no
// allocation when the buffer has room.
func ExampleResolver_Base() {
	b, err := relurl.Resolver{Spec: relurl.WHATWG}.Base("https://docs.example/guide/start.html")
	if err != nil {
		log.Fatal(err)
	}
	var buf []byte
	for _, href := range []string{"install.html", "../api/#top", "/search?q=a b"} {
		if buf, err = b.AppendResolve(buf[:0], href); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// https://docs.example/guide/install.html
	// https://docs.example/api/#top
	// https://docs.example/search?q=a%20b
}

func ExampleWebURL_Parse() {
	base, err := relurl.ParseWeb("HTTPS://Example.COM:443/a/b/c")
	if err != nil {
		log.Fatal(err)
	}
	for _, ref := range []string{"../%2e%2e/d e?q=ü#top", `\\bücher.example\x`, "https:g", "//[::FFFF:7f00:1]:8080/"} {
		u, err := base.Parse(ref)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u.Href(), u.Hostname(), u.Pathname())
	}
	if _, err := base.Parse("http://a:99999/"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// https://example.com/d%20e?q=%C3%BC#top example.com /d%20e
	// https://xn--bcher-kva.example/x xn--bcher-kva.example /x
	// https://example.com/a/b/g example.com /a/b/g
	// https://[::ffff:7f00:1]:8080/ [::ffff:7f00:1] /
	// parse "http://a:99999/": offset 9: port-out-of-range (the port is above 65535)
}

func ExampleCheckWeb() {
	_, errs, err := relurl.CheckWeb("https://user@0x7f.1/a\\b c", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range errs {
		fmt.Println(e.Offset, e.Name)
	}
	// Output:
	// 12 invalid-credentials
	// 13 IPv4-too-few-parts
	// 13 IPv4-non-decimal-part
	// 21 invalid-reverse-solidus
	// 23 invalid-URL-unit
}

func ExampleResolver_Relative() {
	base := "http://a/b/c/d;p?q"
	for _, target := range []string{"http://a/b/g", "http://a/b/c/d;p?y", "http://a/b/c/this:that", "ftp://a/b"} {
		ref, _ := relurl.Resolver{}.Relative(base, target)
		fmt.Println(ref)
	}
	// Output:
	// ../g
	// ?y
	// ./this:that
	// ftp://a/b
}

func ExampleResolver_RelativePath() {
	// A tree that moves as a whole needs relative paths: "/docs/i.png"
	// is shorter, but misses once the tree is under /v2/docs/.
	var r relurl.Resolver
	ref, _ := r.Relative("https://h/docs/a/b/c/page.html", "https://h/docs/i.png")
	path, _ := r.RelativePath("https://h/docs/a/b/c/page.html", "https://h/docs/i.png")
	fmt.Println(ref)
	fmt.Println(path)
	// Output:
	// /docs/i.png
	// ../../../i.png
}

func ExampleResolver_Explain() {
	trace := relurl.Resolver{}.Explain("http://a/b/c/d;p?q#f", "g/../h")
	for _, s := range trace.Steps {
		if s.Path != "" {
			fmt.Printf("%-3s %q\n", s.Step, s.Path)
		}
	}
	fmt.Println(trace.Result)
	// Output:
	// 6   "b/c/g/../h"
	// 6a  "b/c/g/../h"
	// 6b  "b/c/g/../h"
	// 6c  "b/c/h"
	// 6d  "b/c/h"
	// http://a/b/c/h
}
