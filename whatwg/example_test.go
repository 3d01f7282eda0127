package whatwg_test

import (
	"fmt"
	"log"

	"golang.org/x/text/encoding/charmap"

	"github.com/relurl/relurl/whatwg"
)

func ExampleURL_Parse() {
	base, err := whatwg.Parse("HTTPS://Example.COM:443/a/b/c")
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

func ExampleCheck() {
	_, errs, err := whatwg.Check("https://user@0x7f.1/a\\b c", nil)
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

func ExampleParse() {
	u, err := whatwg.Parse("HTTPS://user:pw@Bücher.example:443/a/./b/../c%2fd?q=ü#top")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(u.Href())
	fmt.Println(u.Protocol(), u.Username(), u.Hostname(), u.Port() == "", u.Pathname(), u.Search(), u.Hash())
	fmt.Println(u.Origin())
	// Output:
	// https://user:pw@xn--bcher-kva.example/a/c%2fd?q=%C3%BC#top
	// https: user xn--bcher-kva.example true /a/c%2fd ?q=%C3%BC #top
	// https://xn--bcher-kva.example
}

func ExampleURL_AppendResolve() {
	// Parse a page's URL once, then resolve each of its links into one
	// reused buffer: no allocation per link for ASCII input.
	page := whatwg.MustParse("https://example.com/docs/guide/")
	var buf []byte
	for _, href := range []string{"../api/", "intro.html#x", "//cdn.example/a b.js"} {
		var err error
		if buf, err = page.AppendResolve(buf[:0], href); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// https://example.com/docs/api/
	// https://example.com/docs/guide/intro.html#x
	// https://cdn.example/a%20b.js
}

// A host shown to people is Unicode; on the wire it is ASCII.
func ExampleDomainToASCII() {
	ascii, err := whatwg.DomainToASCII("Bücher.example")
	fmt.Println(ascii, err)
	fmt.Println(whatwg.DomainToUnicode(ascii))
	_, err = whatwg.DomainToASCII("a b.example")
	fmt.Println(err)
	// Output:
	// xn--bcher-kva.example <nil>
	// bücher.example
	// offset 0: domain-to-ASCII (UTS #46 ToASCII refuses the domain)
}

// AppendResolve is new URL(ref, base).href with both strings, into a
// buffer of the caller's.
func ExampleAppendResolve() {
	buf, err := whatwg.AppendResolve(nil, "https://example.com/a/b?q", "../c d#top")
	fmt.Println(string(buf), err)
	// Output: https://example.com/c%20d#top <nil>
}

// A page in windows-1252 links to a search: the browser sends the query's
// é as that encoding's byte, %E9, and its path in UTF-8; a character the
// encoding lacks goes as a character reference.
func ExampleParser() {
	page := whatwg.MustParse("https://example.com/fr/page.html")
	p := whatwg.Parser{QueryEncoding: charmap.Windows1252}
	u, _ := p.Parse("café?q=café €5 ☃", &page)
	fmt.Println(u.Href())
	// Output:
	// https://example.com/fr/caf%C3%A9?q=caf%E9%20%805%20%26%239731%3B
}
