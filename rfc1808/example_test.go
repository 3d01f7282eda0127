package rfc1808_test

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/relurl/relurl/rfc1808"
)

func ExampleResolve() {
	base := "http://a/b/c/d;p?q#f"
	for _, ref := range []string{"g", "../g", "?y", ";x", "#s", "", "../../../g"} {
		fmt.Printf("%-12q %s\n", ref, rfc1808.Resolve(base, ref))
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
	buf = rfc1808.AppendResolve(buf[:0], "https://example.org/docs/guide/", "../api/index.html#top")
	fmt.Println(string(buf))
	// Output:
	// https://example.org/docs/api/index.html#top
}

func ExampleURL_AppendResolve() {
	// Split a page's URL once, then resolve each of its links into one
	// reused buffer: no allocation per link.
	page := rfc1808.Split("https://docs.python.org/3.11/library/functions.html")
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
	u := rfc1808.Split("ftp://ftp.example.org/pub/dir/file;type=a").Resolve("../other/file2")
	fmt.Println(u, u.NetLoc(), u.Path())
	// Output:
	// ftp://ftp.example.org/pub/other/file2 ftp.example.org pub/other/file2
}

func ExampleSplit() {
	u := rfc1808.Split("http://user@a:80/b/c;p?q#f")
	fmt.Printf("scheme %q net_loc %q path %q (after a slash: %v) params %q query %q fragment %q\n",
		u.Scheme(), u.NetLoc(), u.Path(), u.AbsPath(), u.Params(), u.Query(), u.Fragment())

	// Empty components are present; absent ones are not.
	v := rfc1808.Split("g?#")
	fmt.Println(v.HasQuery(), v.Query() == "", v.HasFragment(), v.HasParams())
	// Output:
	// scheme "http" net_loc "user@a:80" path "b/c" (after a slash: true) params "p" query "q" fragment "f"
	// true true true false
}

func ExampleValidate() {
	for _, s := range []string{"http://a/b;p?q", "//a/b", "../g", "http://a//b", "http://a/b c", "g%zz"} {
		form, err := rfc1808.Validate(s)
		if err != nil {
			var serr *rfc1808.SyntaxError
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
		fmt.Println(s, rfc1808.SchemeCategoryOf(s))
	}
	// Output:
	// mailto never-relative
	// GOPHER own-reserved
	// http generic-RL
	// https unknown
}

func ExampleURL_NetURL() {
	u, err := rfc1808.Split("http://a/b/c;p?q#f").NetURL()
	if err != nil {
		panic(err)
	}
	// net/url has no params: they stay in its Path.
	fmt.Println(u.Host, u.Path, u.RawQuery, u.Fragment)
	fmt.Println(rfc1808.FromNetURL(u).Params())
	// Output:
	// a /b/c;p q f
	// p
}

func ExampleFromNetURL() {
	u := &url.URL{Scheme: "http", Host: "a", Path: "/b/c;p", RawQuery: "q"}
	fmt.Println(rfc1808.FromNetURL(u).Resolve(";x"))
	// Output:
	// http://a/b/c;x
}
