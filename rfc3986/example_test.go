package rfc3986_test

import (
	"errors"
	"fmt"

	"github.com/relurl/relurl/rfc3986"
)

func ExampleResolve() {
	base := "http://a/b/c/d;p?q"
	for _, ref := range []string{"g;x", "../../../g", "/./g", "?", "#s", ""} {
		fmt.Printf("%-12q %s\n", ref, rfc3986.Resolve(base, ref))
	}
	// Output:
	// "g;x"        http://a/b/c/g;x
	// "../../../g" http://a/g
	// "/./g"       http://a/g
	// "?"          http://a/b/c/d;p?
	// "#s"         http://a/b/c/d;p?q#s
	// ""           http://a/b/c/d;p?q
}

func ExampleSplit() {
	u := rfc3986.Split("http://user@a:80/b/c;p?q#f")
	fmt.Printf("scheme %q authority %q path %q query %q fragment %q\n",
		u.Scheme(), u.Authority(), u.Path(), u.Query(), u.Fragment())
	v := rfc3986.Split("g?#")
	fmt.Println(v.HasQuery(), v.HasFragment(), v.HasAuthority())
	// Output:
	// scheme "http" authority "user@a:80" path "/b/c;p" query "q" fragment "f"
	// true true false
}

func ExampleURI_AppendResolve() {
	// Split a page's URI once, then resolve each of its links into one
	// reused buffer: no allocation per link.
	page := rfc3986.Split("https://go.dev/doc/effective_go")
	var buf []byte
	for _, href := range []string{"#names", "../ref/spec", "/blog/"} {
		buf = page.AppendResolve(buf[:0], href)
		fmt.Println(string(buf))
	}
	// Output:
	// https://go.dev/doc/effective_go#names
	// https://go.dev/ref/spec
	// https://go.dev/blog/
}

func ExampleURI_ResolveNonStrict() {
	base := rfc3986.Split("http://a/b/c/d;p?q")
	fmt.Println(base.Resolve("http:g"))
	fmt.Println(base.ResolveNonStrict("http:g"))
	// Output:
	// http:g
	// http://a/b/c/g
}

func ExampleValidate() {
	for _, s := range []string{"http://a/~u/b;p?q", "http://a/b c", "http://[::1/"} {
		err := rfc3986.Validate(s)
		var serr *rfc3986.SyntaxError
		if errors.As(err, &serr) {
			fmt.Printf("%-20q offset %d: %s\n", s, serr.Offset, serr.Rule)
			continue
		}
		fmt.Printf("%-20q valid\n", s)
	}
	// Output:
	// "http://a/~u/b;p?q"  valid
	// "http://a/b c"       offset 10: path (pchar or "/")
	// "http://[::1/"       offset 7: IP-literal (no closing "]")
}
