package relurl_test

import (
	"fmt"
	"log"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/rfc3986"
	"github.com/relurl/relurl/whatwg"
)

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

// The three standards side by side: each a package of its own, and the
// Resolver that chooses between them at run time.
func Example_standards() {
	base, ref := "http://a/b/c/d;p?q", "../../../g h"
	fmt.Println(rfc1808.Resolve(base, ref)) // keeps ".." above the root
	fmt.Println(rfc3986.Resolve(base, ref)) // net/url's answer
	u, _ := whatwg.Parse(base)              // a browser's: parsed and normalized
	v, _ := u.Parse(ref)
	fmt.Println(v.Href())
	s, _ := relurl.Resolver{Spec: relurl.WHATWG}.Resolve(base, ref)
	fmt.Println(s)
	// Output:
	// http://a/../g h
	// http://a/g h
	// http://a/g%20h
	// http://a/g%20h
}
