package edit_test

import (
	"fmt"
	"testing"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/edit"
)

func ExampleEdit() {
	e := edit.Edit{
		Spec:        relurl.WHATWG,
		Set:         []edit.Assignment{{Component: "path", Value: "/search"}},
		AppendQuery: []string{"page=2"},
		QTrim:       []string{"utm_*"},
		SortQuery:   true,
	}
	u, _ := e.Apply("https://www.example.com/old?utm_source=mail&q=go+url")
	fmt.Println(u.String())
	s, _ := edit.Format("{host} {query:q} {default:port}", &u, false)
	fmt.Println(s)
	// Output:
	// https://www.example.com/search?page=2&q=go+url
	// www.example.com go url 443
}

// FuzzFormat: any template gives no panic, and the same text twice.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{"{host}{:path}", "{{x}} {query:a} {query-all:b}", "{default:port", "{idn:host}{puny:url}", "}{"} {
		f.Add(s)
	}
	u, err := edit.Parse(relurl.WHATWG, "https://user@xn--bcher-kva.example:8080/a%20b?a=1&b=2+3#f")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, template string) {
		a, errA := edit.Format(template, &u, false)
		b, errB := edit.Format(template, &u, false)
		if a != b || (errA == nil) != (errB == nil) {
			t.Fatalf("%q gives %q, then %q", template, a, b)
		}
	})
}
