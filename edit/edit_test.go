package edit_test

import (
	"fmt"
	"strings"
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
	s, _ := edit.Format("{host} {query:q} {default:port}", &u, edit.Display{})
	fmt.Println(s)
	// Output:
	// https://www.example.com/search?page=2&q=go+url
	// www.example.com go url 443
}

// FuzzFormat: any template gives no panic, and the same text twice; one
// with no field, escape or brace is written as it is.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{"{host}{:path}", "{{x}} {query:a} {query-all:b}", "{default:port", "{idn:host}{puny:url}", "}{",
		"[scheme] [host", `\{{scheme}\[`, "{must:url:query:a}", "[{host}]"} {
		f.Add(s)
	}
	u, err := edit.Parse(relurl.WHATWG, "https://user@xn--bcher-kva.example:8080/a%20b?a=1&b=2+3#f")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, template string) {
		a, errA := edit.Format(template, &u, edit.Display{})
		b, errB := edit.Format(template, &u, edit.Display{})
		if a != b || (errA == nil) != (errB == nil) {
			t.Fatalf("%q gives %q, then %q", template, a, b)
		}
		if !strings.ContainsAny(template, "{[\\") && (a != template || errA != nil) {
			t.Fatalf("%q, which has no field, gives %q, %v", template, a, errA)
		}
	})
}

// TestApply: each operation of an Edit, by the URL Standard and by RFC
// 3986, on one URL with a default port, a query and a fragment.
func TestApply(t *testing.T) {
	const in = "https://www.example.com:443/p/q.html?utm_source=x&b=2&a=1#f"
	tests := []struct {
		edit        edit.Edit
		web, rfc    string // relurl.WHATWG's result, relurl.RFC3986's
		description string
	}{
		{edit.Edit{}, "https://www.example.com/p/q.html?utm_source=x&b=2&a=1#f", "https://www.example.com/p/q.html?utm_source=x&b=2&a=1#f",
			"nothing: the default port goes"},
		{edit.Edit{Set: []edit.Assignment{{Component: "host", Value: "Example.ORG"}}},
			"https://example.org/p/q.html?utm_source=x&b=2&a=1#f", "https://Example.ORG/p/q.html?utm_source=x&b=2&a=1#f",
			"the Standard lowers a host's case, RFC 3986 keeps it"},
		{edit.Edit{Set: []edit.Assignment{{Component: "port", Value: "443"}}, KeepPort: true},
			"https://www.example.com:443/p/q.html?utm_source=x&b=2&a=1#f", "https://www.example.com:443/p/q.html?utm_source=x&b=2&a=1#f",
			"KeepPort keeps a default port set, by either standard, as trurl's --keep-port"},
		{edit.Edit{AppendPath: []string{"a b", "c/d"}},
			"https://www.example.com/p/q.html/a%20b/c%2Fd?utm_source=x&b=2&a=1#f", "https://www.example.com/p/q.html/a%20b/c%2Fd?utm_source=x&b=2&a=1#f",
			"a segment is percent-encoded, its slash too"},
		{edit.Edit{AppendQuery: []string{"x=1 2", "y"}},
			"https://www.example.com/p/q.html?utm_source=x&b=2&a=1&x=1+2&y=#f", "https://www.example.com/p/q.html?utm_source=x&b=2&a=1&x=1+2&y=#f",
			"pairs appended as a form encodes them"},
		{edit.Edit{QTrim: []string{"utm_*"}, SortQuery: true},
			"https://www.example.com/p/q.html?a=1&b=2#f", "https://www.example.com/p/q.html?a=1&b=2#f",
			"trimmed by pattern, then sorted"},
		{edit.Edit{Redirect: "../up?q"}, "https://www.example.com/up?q", "https://www.example.com/up?q",
			"a redirect resolved first"},
		{edit.Edit{Set: []edit.Assignment{{Component: "fragment", Value: "top"}, {Component: "user", Value: "me"}}},
			"https://me@www.example.com/p/q.html?utm_source=x&b=2&a=1#top", "https://me@www.example.com/p/q.html?utm_source=x&b=2&a=1#top",
			"two components"},
		{edit.Edit{Set: []edit.Assignment{{Component: "scheme", Value: "ftp"}}},
			"ftp://www.example.com/p/q.html?utm_source=x&b=2&a=1#f", "ftp://www.example.com:443/p/q.html?utm_source=x&b=2&a=1#f",
			"the Standard dropped 443 at parsing; in RFC 3986 it is ftp's port now, not a default"},
		{edit.Edit{Set: []edit.Assignment{{Component: "url", Value: "http://other.example/"}}}, "http://other.example/", "http://other.example/",
			"the whole URL"},
	}
	for _, tt := range tests {
		for spec, want := range map[relurl.Spec]string{relurl.WHATWG: tt.web, relurl.RFC3986: tt.rfc} {
			e := tt.edit
			e.Spec = spec
			u, err := e.Apply(in)
			if err != nil || u.String() != want {
				t.Errorf("%s, %v: %q, %v; want %q", tt.description, spec, u.String(), err, want)
			}
		}
	}
}

func TestFormat(t *testing.T) {
	u, err := edit.Parse(relurl.WHATWG, "https://user:pw@xn--bcher-kva.example:8080/a%20b?a=1&b=2+3&b=4#f")
	if err != nil {
		t.Fatal(err)
	}
	for template, want := range map[string]string{
		"{host}":                              "xn--bcher-kva.example",
		"{idn:host}":                          "bücher.example",
		"{puny:url}":                          "https://user:pw@xn--bcher-kva.example:8080/a%20b?a=1&b=2+3&b=4#f",
		"{path}":                              "/a b",
		"{:path}":                             "/a%20b",
		"{query:b}":                           "2 3",
		"{query-all:b}":                       "2 3 4",
		"{port} {default:port}":               "8080 8080",
		"{{host}}":                            "{host}}",
		"{scheme}://{user}:{password}@{host}": "https://user:pw@xn--bcher-kva.example",
		// trurl's template language: brackets, modifiers in a row,
		// backslash escapes, an unclosed brace as text.
		"[scheme] [host] {x}":           "https xn--bcher-kva.example {x}",
		"{:query:b}|{url:query-all:b}":  "2+3|2+3 4",
		"{idn:url}":                     "https://user:pw@bücher.example:8080/a%20b?a=1&b=2+3&b=4#f",
		`\{scheme}\t{scheme}\\{host`:    "{scheme}\thttps\\{host",
		"{must:fragment} {strict:path}": "f /a b",
		"[{host}]":                      "[xn--bcher-kva.example]",
	} {
		if got, err := edit.Format(template, &u, edit.Display{}); err != nil || got != want {
			t.Errorf("Format(%q) = %q, %v; want %q", template, got, err, want)
		}
	}
	for template, says := range map[string]string{"{nope}": `no component "nope"`, "{puny:idn:host}": "exclude each other", "{bad:host}": `no modifier "bad"`} {
		if _, err := edit.Format(template, &u, edit.Display{}); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("Format(%q): %v, want an error saying %q", template, err, says)
		}
	}
	if _, err := edit.Format("{must:user} {must:query}", &u, edit.Display{}); err != nil {
		t.Errorf("must: %v", err)
	}
	noQuery, _ := edit.Parse(relurl.WHATWG, "https://h/")
	if _, err := edit.Format("{host} {must:query}", &noQuery, edit.Display{}); err == nil {
		t.Error("{must:query} of a URL without a query: no error")
	}
	if got, _ := edit.Format("{default:url}", &noQuery, edit.Display{}); got != "https://h:443/" {
		t.Errorf("{default:url}: %q", got)
	}
	// Display: what -as-idn and -default-port ask of every field, and of
	// JSON; a field's own "puny:" still wins.
	idnHost, _ := edit.Parse(relurl.WHATWG, "https://xn--bcher-kva.example/p")
	both := edit.Display{IDN: true, DefaultPort: true}
	for template, want := range map[string]string{
		"{url}":                  "https://bücher.example:443/p",
		"{host} {port}":          "bücher.example 443",
		"{puny:host} {puny:url}": "xn--bcher-kva.example https://xn--bcher-kva.example:443/p",
	} {
		if got, err := edit.Format(template, &idnHost, both); err != nil || got != want {
			t.Errorf("Format(%q, %+v) = %q, %v; want %q", template, both, got, err, want)
		}
	}
	if j, _ := edit.JSON(&idnHost, both, false); string(j) != `{"url":"https://bücher.example:443/p","parts":{"host":"bücher.example","path":"/p","port":"443","scheme":"https"}}` {
		t.Errorf("JSON with %+v: %s", both, j)
	}
	j, err := edit.JSON(&u, edit.Display{}, false)
	want := `{"url":"https://user:pw@xn--bcher-kva.example:8080/a%20b?a=1&b=2+3&b=4#f","parts":{"fragment":"f","host":"xn--bcher-kva.example","password":"pw","path":"/a b","port":"8080","query":"a=1&b=2 3&b=4","scheme":"https","user":"user"},"params":[{"key":"a","value":"1"},{"key":"b","value":"2 3"},{"key":"b","value":"4"}]}`
	if err != nil || string(j) != want {
		t.Errorf("JSON: %s, %v\nwant %s", j, err, want)
	}
	// An RFC host is Unicode or ASCII as -as-idn and puny: ask, its case
	// otherwise kept.
	rfcHost, _ := edit.Parse(relurl.RFC3986, "http://B%C3%BCcher.Example/")
	for template, want := range map[string]string{"{host}": "Bücher.Example", "{puny:host}": "xn--bcher-kva.example"} {
		if got, err := edit.Format(template, &rfcHost, edit.Display{}); err != nil || got != want {
			t.Errorf("RFC 3986, Format(%q) = %q, %v; want %q", template, got, err, want)
		}
	}
}

func TestParseAssignment(t *testing.T) {
	for in, want := range map[string]edit.Assignment{
		"host=x":         {Component: "host", Value: "x"},
		"Hostname=x":     {Component: "host", Value: "x"}, // the URL API's name
		"href=http://a/": {Component: "url", Value: "http://a/"},
		"query=a=b":      {Component: "query", Value: "a=b"},
	} {
		if got, err := edit.ParseAssignment(in); err != nil || got != want {
			t.Errorf("ParseAssignment(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, says := range map[string]string{"nope=1": `no component "nope"`, "host": "want COMPONENT=VALUE"} {
		if _, err := edit.ParseAssignment(in); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("ParseAssignment(%q): %v, want an error saying %q", in, err, says)
		}
	}
}

// TestParseRefuses: what each standard refuses, with where and why.
func TestParseRefuses(t *testing.T) {
	for _, tt := range []struct {
		in       string
		web, rfc string
	}{
		{"http://a b/", "domain-to-ASCII", `" " is not allowed in host`},
		{"/relative", "missing-scheme-non-relative-URL", "is not absolute: it has no scheme"},
		{"http://[::1/", "IPv6-unclosed", "no closing \"]\""},
	} {
		for spec, says := range map[relurl.Spec]string{relurl.WHATWG: tt.web, relurl.RFC3986: tt.rfc} {
			if _, err := edit.Parse(spec, tt.in); err == nil || !strings.Contains(err.Error(), says) {
				t.Errorf("%v, Parse(%q): %v, want an error saying %q", spec, tt.in, err, says)
			}
		}
	}
}

func TestAppend(t *testing.T) {
	var e edit.Edit
	for _, s := range []string{"path=a b", "query=x=1"} {
		if err := e.Append(s); err != nil {
			t.Fatal(s, err)
		}
	}
	if len(e.AppendPath) != 1 || e.AppendPath[0] != "a b" || len(e.AppendQuery) != 1 || e.AppendQuery[0] != "x=1" {
		t.Errorf("%+v", e)
	}
	if err := e.Append("fragment=x"); err == nil || err.Error() != `"fragment=x": want path=SEGMENT or query=NAME=VALUE` {
		t.Errorf("append fragment: %v", err)
	}
}

// TestSettersKeepOtherComponents: whatever value a setter is given, in
// either standard, it changes its own component alone: the URL it gives,
// parsed again, has the components it reports. A value that cannot be
// written so is refused.
func TestSettersKeepOtherComponents(t *testing.T) {
	hostile := []string{"", "abc", "//x", "//evil.example/x", "/..", "/../..", "..", ".", "@", "a@b", ":", "a:b", "?", "?x", "#", "#x",
		`\`, `\\x\y`, "a/b", "a b", "\t", "a\nb", "é", "%", "%41", "[", "[::1]", "80", "-1", "99999", "x:80", "/x?y#z", "h/x", "h?x", "h#x"}
	urls := map[relurl.Spec][]string{
		relurl.WHATWG:  {"http://u:p@h:81/x?q#f", "file:///x", "file:/x", "mailto:a@b", "web+x:/p", "web+x://h/p", "data:,x", "http://h"},
		relurl.RFC3986: {"http://u:p@h:81/x?q#f", "http://h/x", "file:/x", "file:///x", "mailto:a@b", "urn:a:b", "http://h"},
	}
	for spec, list := range urls {
		for _, start := range list {
			for _, c := range edit.Components {
				for _, v := range hostile {
					u, err := edit.Parse(spec, start)
					if err != nil {
						t.Fatalf("%v %s: %v", spec, start, err)
					}
					if u.Set(c, v) != nil {
						continue // refused: the URL is as it was
					}
					s := u.String()
					again, err := edit.Parse(spec, s)
					if err != nil {
						t.Errorf("%v: %s with %s=%q gives %q, which does not parse: %v", spec, start, c, v, s, err)
						continue
					}
					for _, other := range edit.Components {
						if got, want := again.Get(other, false), u.Get(other, false); got != want || again.Has(other) != u.Has(other) {
							t.Errorf("%v: %s with %s=%q gives %q, whose %s is %q (present %v), where the edit reports %q (present %v)",
								spec, start, c, v, s, other, got, again.Has(other), want, u.Has(other))
						}
					}
				}
			}
		}
	}
}
