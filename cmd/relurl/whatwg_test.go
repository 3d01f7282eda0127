package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The commands by the WHATWG URL Standard, run as a user runs them: a
// failure is an empty line, the error on standard error, and exit 1.
func TestWHATWGCommands(t *testing.T) {
	const base = "HTTP://Example.COM:80/a/b"
	tests := []cliTest{
		{"resolve", "", []string{"resolve", "-spec", "whatwg", base, "../c d", `..\%2e\x`, "http:g", "//Bücher.example/"},
			"http://example.com/c%20d\nhttp://example.com/x\nhttp://example.com/a/g\nhttp://xn--bcher-kva.example/\n", "", 0},
		{"resolve, a failure keeps lines aligned", "g\n//[::1\nh\n", []string{"resolve", "-spec", "whatwg", "-base", base},
			"http://example.com/a/g\n\nhttp://example.com/a/h\n",
			"relurl resolve: line 2: parse \"//[::1\": offset 2: IPv6-unclosed (an IPv6 address has no closing bracket)\n", 1},
		{"resolve -pairs, a base that does not parse", "not a url\tg\nhttp://a/\tg\n", []string{"resolve", "-spec", "whatwg", "-pairs"},
			"\nhttp://a/g\n", "relurl resolve: line 1: base \"not a url\": parse \"not a url\": offset 0: missing-scheme-non-relative-URL…", 1},
		// An empty reference is the base, without its fragment, by every
		// route; an empty base fails under the URL Standard, as new URL(ref,
		// "") does, and the error says it is the base.
		{"resolve, an empty reference", "", []string{"resolve", "-spec", "whatwg", "http://h/x#f", ""}, "http://h/x\n", "", 0},
		{"resolve -pairs, an empty reference", "http://h/x#f\t\n", []string{"resolve", "-spec", "whatwg", "-pairs"}, "http://h/x\n", "", 0},
		{"resolve -base, an empty reference", "\n", []string{"resolve", "-spec", "whatwg", "-base", "http://h/x#f"}, "http://h/x\n", "", 0},
		{"resolve, an empty base", "", []string{"resolve", "-spec", "whatwg", "", "http://h/x"}, "\n",
			"relurl resolve: base \"\": parse \"\": offset 0: missing-scheme-non-relative-URL (no scheme, and no base URL a reference can be relative to)\n", 1},
		{"-rfc is -spec", "", []string{"resolve", "-rfc", "whatwg", base, "x"}, "http://example.com/a/x\n", "", 0},
		{"-nonstrict needs 3986", "", []string{"resolve", "-spec", "whatwg", "-nonstrict", base, "x"}, "",
			"relurl resolve: -nonstrict reads RFC 3986's Section 5.2.2 for old parsers: it needs -spec 3986\n…", 2},
		{"-nonstrict needs 3986, explain too", "", []string{"explain", "-nonstrict", base, "x"}, "",
			"relurl explain: -nonstrict reads RFC 3986's Section 5.2.2 for old parsers: it needs -spec 3986\n…", 2},
		{"parse", "", []string{"parse", "-spec", "whatwg", "https://u:p@[::1]:8080/x?y#z"},
			`"https://u:p@[::1]:8080/x?y#z"
  href      "https://u:p@[::1]:8080/x?y#z"
  protocol  "https:"
  username  "u"
  password  "p"
  host      "[::1]:8080"
  hostname  "[::1]"
  port      "8080"
  pathname  "/x"
  search    "?y"
  hash      "#z"
  origin    "https://[::1]:8080"
  valid     no:
    offset 11: invalid-credentials (the URL has a username or password)

`, "", 0},
		{"parse, a failure", "", []string{"parse", "-spec", "whatwg", "http://a:x/"},
			"\"http://a:x/\"\n  failure   offset 9: port-invalid (the port is not a number)\n\n",
			"relurl parse: parse \"http://a:x/\": offset 9: port-invalid (the port is not a number)\n", 1},
		{"parse -spec 3986", "", []string{"parse", "-spec", "3986", "http://a/b;c?d"},
			"\"http://a/b;c?d\"\n  scheme    \"http\"\n  authority \"a\"\n  path      \"/b;c\"\n  query     \"d\"\n  valid     yes\n\n", "", 0},
		{"validate", "", []string{"validate", "-spec", "whatwg", "https://a/b", "../g h", "http://a:99999/"}, "",
			"../g h: offset 4: invalid-URL-unit (a character that is not a URL code point, or a \"%\" without two hex digits)\n" +
				"http://a:99999/: offset 9: port-out-of-range (the port is above 65535)\n", exitFound},
		{"validate -print-valid", "https://a/b\nhttp://A/\n", []string{"validate", "-spec", "whatwg", "-print-valid", "-q", "-"}, "https://a/b\nhttp://A/\n", "", 0},
		{"explain, a failure", "", []string{"explain", "-spec", "whatwg", base, "//a:99999/"}, "WHATWG URL Standard; the base parsed as\n…", "", 1},
		{"relative", "", []string{"relative", "-spec", "whatwg", "https://a.example/docs/guide/", "https://a.example/docs/api/os%20path.html", "https://b.example/"},
			"../api/os%20path.html\n//b.example/\n", "", 0},
		{"relative, not a serialization", "", []string{"relative", "-spec", "whatwg", "https://a/", "HTTPS://A/"},
			"HTTPS://A/\n", "relurl relative: no reference resolves against https://a/ to HTTPS://A/ under the WHATWG URL Standard: the Standard writes the target https://a/; ask for that\n", 1},
		{"relative, not a serialization, the README's case", "", []string{"relative", "-spec", "whatwg", "https://ex.com/a/b/c", "HTTPS://EX.COM:443/a/b/x"},
			"HTTPS://EX.COM:443/a/b/x\n", "relurl relative: no reference resolves against https://ex.com/a/b/c to HTTPS://EX.COM:443/a/b/x under the WHATWG URL Standard: the Standard writes the target https://ex.com/a/b/x; ask for that\n", 1},
		{"compare", "", []string{"compare", "-json", "http://a/b/c", "%2e%2e/g"},
			`{"ref":"%2e%2e/g","rfc1808":"http://a/b/%2e%2e/g","rfc3986":"http://a/b/%2e%2e/g","whatwg":"http://a/g","net_url":"http://a/b/%2e%2e/g","mark":"whatwg"}` + "\n", "", 0},
		{"links", `<base href="/d i/"><a href="A b">x</a><a href="http://[::1">y</a>`, []string{"links", "-spec", "whatwg", "-url", "HTTP://H:80/", "-"},
			"http://h/d%20i/A%20b\n", "relurl links: HTTP://H:80/: <a href=\"http://[::1\">: parse \"http://[::1\": offset 7: IPv6-unclosed (an IPv6 address has no closing bracket)\nrelurl links: 1 link the URL parser refuses, as a browser would\n", 0},
	}
	runCLITests(t, tests)

	// In JSON, a refused link has url null and the error.
	r := relurlRun(t, in(`<a href="http://a:99999/">x</a>`), "links", "-spec", "whatwg", "-json", "-url", "http://h/", "-")
	check(t, r, "*", "", 0)
	var link struct {
		URL   *string `json:"url"`
		Error string  `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &link); err != nil || link.URL != nil || link.Error == "" {
		t.Errorf("links -json of a refused link: %s (%v)", r.stdout, err)
	}
	// validate -json gives the first error and all of them.
	r = relurlRun(t, nil, "validate", "-spec", "whatwg", "-json", "https://u@0x7f.1/a\\b")
	check(t, r, "*", "", exitFound)
	var v struct {
		Valid bool
		Error struct {
			Offset int
			Rule   string
		}
		Errors []struct{ Name string } `json:"validation_errors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v.Valid || v.Error.Offset != 9 || v.Error.Rule != "invalid-credentials" || len(v.Errors) != 4 {
		t.Errorf("validate -json: %s (%v)", r.stdout, err)
	}
	// parse -json gives the components of the API and the validation errors.
	r = relurlRun(t, nil, "parse", "-spec", "whatwg", "-json", "http://0x7f.1/")
	check(t, r, "*", "", 0)
	var p struct {
		Href   string
		Valid  bool
		Errors []struct{ Offset int } `json:"validation_errors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil || p.Href != "http://127.0.0.1/" || p.Valid || len(p.Errors) != 2 {
		t.Errorf("parse -json: %s (%v)", r.stdout, err)
	}
}

// TestBaseSpec: relurl base takes -spec like every command that resolves;
// by the URL Standard a <base href> is parsed as a browser parses it.
func TestBaseSpec(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(page, []byte(`<base href="../Docs/./Guide/"><a href=x>`), 0o644)
	const url = "http://Example.COM:80/a/b/page.html"
	runCLITests(t, []cliTest{
		{"RFC 1808", "", []string{"base", "-spec", "1808", "-url", url, page}, "http://Example.COM:80/a/Docs/Guide/\thtml-base\n", "*", 0},
		{"the URL Standard", "", []string{"base", "-spec", "whatwg", "-url", url, page}, "http://example.com/a/Docs/Guide/\thtml-base\n", "*", 0},
		{"the URL Standard by default", "", []string{"base", "-url", url, page}, "http://example.com/a/Docs/Guide/\thtml-base\n", "*", 0},
		{"a bad -spec", "", []string{"base", "-spec", "2396", page}, "", "relurl base: invalid value \"2396\" for flag -spec…", 2},
	})
}
