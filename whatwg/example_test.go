package whatwg_test

import (
	"fmt"
	"log"

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
