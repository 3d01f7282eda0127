package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestURLLikeTrurl checks relurl url against what trurl 0.16's manual
// says each option does, in cases written here from those descriptions,
// and the places where the URL Standard decides otherwise.
func TestURLLikeTrurl(t *testing.T) {
	tests := []cliTest{
		// --set: a part replaced, the others kept.
		{"set host", "", []string{"url", "-set", "host=example.com", "https://curl.se/path"}, "https://example.com/path\n", "", 0},
		{"set scheme and host", "", []string{"url", "-set", "host=example.com", "-set", "scheme=ftp", "http://curl.se/"}, "ftp://example.com/\n", "", 0},
		{"set port, path normalised", "", []string{"url", "-set", "port=8080", "https://curl.se/we/../are.html"}, "https://curl.se:8080/are.html\n", "", 0},
		{"set a default port: dropped", "", []string{"url", "-set", "port=443", "https://curl.se:8443/"}, "https://curl.se/\n", "", 0},
		{"set the query, the fragment", "", []string{"url", "-set", "query=a=b c", "-set", "fragment=top", "https://curl.se/"}, "https://curl.se/?a=b%20c#top\n", "", 0},
		{"set by the URL API's names", "", []string{"url", "-set", "hostname=a.example", "-set", "pathname=/x", "-set", "search=?q", "-set", "hash=h", "http://b/"}, "http://a.example/x?q#h\n", "", 0},
		{"set user and password", "", []string{"url", "-set", "user=me", "-set", "password=p@ss", "https://curl.se/"}, "https://me:p%40ss@curl.se/\n", "", 0},
		{"set url", "", []string{"url", "-set", "url=https://other.example/", "https://curl.se/"}, "https://other.example/\n", "", 0},
		// --redirect: resolved as a browser follows a Location.
		{"redirect", "", []string{"url", "-redirect", "here.html", "https://curl.se/we/are.html"}, "https://curl.se/we/here.html\n", "", 0},
		{"redirect absolute", "", []string{"url", "-redirect", "//other.example/x", "https://curl.se/we/are.html"}, "https://other.example/x\n", "", 0},
		// --get: parts decoded, ":" for them as they are.
		{"get path", "", []string{"url", "-get", "{path}", "https://curl.se/we/are.html"}, "/we/are.html\n", "", 0},
		{"get decoded and not", "", []string{"url", "-get", "{path} {:path} {query} {:query}", "https://h/a%20b?x=1+2"}, "/a b /a%20b x=1 2 x=1+2\n", "", 0},
		{"get default port", "", []string{"url", "-get", "[{port}] [{default:port}]", "https://curl.se/", "ftp://f.example/", "https://curl.se:8443/"}, "[] [443]\n[] [21]\n[8443] [8443]\n", "", 0},
		{"get query values", "", []string{"url", "-get", "{query:a}|{query-all:a}|{query:none}", "https://h/?a=1&b=2&a=3+4"}, "1|1 3 4|\n", "", 0},
		{"a template is the user's: its tab kept, a value's newline encoded", "", []string{"url", "-get", "{host}\t{path}", "http://h/x%0Ay"}, "h\t/x%0Ay\n", "", 0},
		{"get the empty name's value", "", []string{"url", "-get", "{query:}|{query-all:}", "http://localhost/?=bar&=baz"}, "bar|bar baz\n", "", 0},
		{"get literal brace", "", []string{"url", "-get", "{{host}} {host}", "http://h.example/"}, "{host}} h.example\n", "", 0},
		// --append, --qtrim, --sort-query.
		{"append path", "", []string{"url", "-append", "path=you", "https://example.com/hello"}, "https://example.com/hello/you\n", "", 0},
		{"append path encoded", "", []string{"url", "-append", "path=with space/and slash", "https://example.com/"}, "https://example.com/with%20space%2Fand%20slash\n", "", 0},
		{"append query", "", []string{"url", "-append", "query=e=f g", "https://example.com/?a=b"}, "https://example.com/?a=b&e=f+g\n", "", 0},
		{"qtrim a pattern", "", []string{"url", "-qtrim", "utm_*", "https://example.com/?search=hello&utm_source=tracker&utm_medium=m"}, "https://example.com/?search=hello\n", "", 0},
		{"qtrim all: no query left", "", []string{"url", "-qtrim", "*", "https://example.com/?a=1#f"}, "https://example.com/#f\n", "", 0},
		{"qtrim before append", "", []string{"url", "-qtrim", "a", "-append", "query=a=ciao", "-append", "query=b=salve", "https://example.org/foo?a=hi&b=hello&x=y"},
			"https://example.org/foo?b=hello&x=y&a=ciao&b=salve\n", "", 0},
		{"a query's own ? is a name's, as Node and browsers read it", "", []string{"url", "-sort-query", "http://h/??b=1&a=2"}, "http://h/?%3Fb=1&a=2\n", "", 0},
		{"a query separator", "", []string{"url", "--query-separator", ";", "--qtrim", "search", "-g", "{url} {query:page} {query-all:a}", "https://curl.se?search=fool;page=5;a=x%26y;a=%3B"},
			"https://curl.se/?page=5;a=x%26y;a=%3B 5 x&y ;\n", "", 0},
		{"sort query, stable", "", []string{"url", "-sort-query", "https://example.com/?b=a&a=c&b=0"}, "https://example.com/?a=c&b=a&b=0\n", "", 0},
		// --punycode and --as-idn.
		{"idn input is punycode", "", []string{"url", "https://räksmörgås.se"}, "https://xn--rksmrgs-5wao1o.se/\n", "", 0},
		{"punycode: as written anyway", "", []string{"url", "-punycode", "https://räksmörgås.se/p"}, "https://xn--rksmrgs-5wao1o.se/p\n", "", 0},
		{"as-idn", "", []string{"url", "-as-idn", "https://xn--rksmrgs-5wao1o.se/"}, "https://räksmörgås.se/\n", "", 0},
		{"as-idn: the host, not a user of the same name", "", []string{"url", "-as-idn", "https://xn--rksmrgs-5wao1o.se@xn--rksmrgs-5wao1o.se/xn--rksmrgs-5wao1o.se"},
			"https://xn--rksmrgs-5wao1o.se@räksmörgås.se/xn--rksmrgs-5wao1o.se\n", "", 0},
		{"as-idn in a template", "", []string{"url", "-get", "{idn:host} {puny:host}", "https://räksmörgås.se"}, "räksmörgås.se xn--rksmrgs-5wao1o.se\n", "", 0},
		// --json.
		{"json", "", []string{"url", "-json", "https://user:pw@example.com:8080/p%20q?a=1&b=x+y#f"},
			`{"url":"https://user:pw@example.com:8080/p%20q?a=1&b=x+y#f","parts":{"fragment":"f","host":"example.com","password":"pw","path":"/p q","port":"8080","query":"a=1&b=x y","scheme":"https","user":"user"},"params":[{"key":"a","value":"1"},{"key":"b","value":"x y"}]}` + "\n", "", 0},
		// Where the URL Standard's setters decide.
		{"a port of letters is refused", "", []string{"url", "-set", "port=abc", "https://h/"}, "\n", `relurl url: https://h/: set port to "abc": a port is digits` + "\n", 1},
		{"a file URL has no port", "", []string{"url", "-set", "port=80", "file:///x"}, "\n", "relurl url: file:///x: set port to \"80\": a URL without a host (or with the empty host, or a file URL) has no port\n", 1},
		{"http cannot become mailto", "", []string{"url", "-set", "scheme=mailto", "http://h/"}, "\n", "relurl url: http://h/: set protocol to \"mailto\": a special scheme and one that is not cannot replace each other\n", 1},
		{"empty port removes it", "", []string{"url", "-set", "port=", "http://h:81/"}, "http://h/\n", "", 0},
		// Input: arguments, standard input, -files; errors with their line.
		{"standard input, asked for, blank lines skipped", "http://a/\nbad url\n\n \t\r\nhttps://b/x\n", []string{"url", "-get", "{host}", "-"}, "a\n\nb\n", "relurl url: line 2: parse \"bad url\": offset 0: missing-scheme-non-relative-URL (no scheme, and no base URL a reference can be relative to)\n", 1},
		{"standard input only when asked: a while-read loop keeps its lines", "http://a/\n", []string{"url", "-set", "host=b.example"}, "http://b.example/\n", "", 0},
		{"an empty argument is no URL", "", []string{"url", "http://a/", "", "http://b/"}, "http://a/\nhttp://b/\n", "relurl url: an empty argument is no URL: skipped\n", 0},
		{"json: a failure is an object too", "bad url\nhttp://a/\n", []string{"url", "-json", "-"},
			`{"input":"bad url","error":"parse \"bad url\": offset 0: missing-scheme-non-relative-URL (no scheme, and no base URL a reference can be relative to)"}` + "\n" +
				`{"url":"http://a/","parts":{"host":"a","path":"/","scheme":"http"}}` + "\n", "relurl url: line 1: parse \"bad url\"…", 1},
		// Scheme guessing, as curl and trurl do it; -no-guess-scheme reads
		// the input as the standard does.
		{"guess http", "", []string{"url", "example.com/x", "localhost:8080", "[::1]"}, "http://example.com/x\nhttp://localhost:8080/\nhttp://[::1]/\n", "", 0},
		{"guess by the host's first label", "", []string{"url", "ftp.example.com", "imap.example.com/x"}, "ftp://ftp.example.com/\nimap://imap.example.com/x\n", "", 0},
		{"a scheme stays", "", []string{"url", "mailto:a@b", "tel:123", "urn:a:b"}, "mailto:a@b\ntel:123\nurn:a:b\n", "", 0},
		{"no guess", "", []string{"url", "-no-guess-scheme", "example.com:29"}, "example.com:29\n", "", 0},
		// trurl's spellings of the options, attached values too.
		{"trurl's spellings", "", []string{"url", "--url", "https://curl.se/we/are.html", "-shost=moo", "-g{host}{path}", "-a", "path=x"}, "moo/we/are.html/x\n", "", 0},
		{"--trim query=", "", []string{"url", "--trim", "query=utm_*", "https://e.example/?utm_a=1&b=2"}, "https://e.example/?b=2\n", "", 0},
		{"3986: set checks the RFC's syntax", "", []string{"url", "-spec", "3986", "-set", "path=/a b", "http://h/"}, "\n", "relurl url: http://h/: set path to \"/a b\": \"http://h/a b\" is not a URI by RFC 3986: parse \"http://h/a b\": offset 10: \" \" is not allowed in path (pchar or \"/\")\n", 1},
		{"3986: keeps what it is given", "", []string{"url", "-spec", "3986", "-set", "path=/A/./b", "HTTP://H:80/"}, "HTTP://H/A/./b\n", "", 0},
		{"3986: keep-port", "", []string{"url", "-spec", "3986", "-keep-port", "http://h:80/"}, "http://h:80/\n", "", 0},
		// A setter changes its own part alone: a path after a host gains
		// its "/", and one that would make a host is refused, as is a
		// query that would make a fragment.
		{"3986: a path after a host", "", []string{"url", "-spec", "3986", "-set", "path=abc", "-json", "http://h/x"},
			`{"url":"http://h/abc","parts":{"host":"h","path":"/abc","scheme":"http"}}` + "\n", "", 0},
		{"3986: a path cannot make a host", "", []string{"url", "-spec", "3986", "-set", "path=//evil.example/x", "file:/x"}, "\n",
			`relurl url: file:/x: set path to "//evil.example/x": "file://evil.example/x" reads back with host "evil.example", not "": a setter changes its own component alone (percent-encode the value's delimiters)` + "\n", 1},
		{"3986: a query cannot make a fragment", "", []string{"url", "-spec", "3986", "-set", "query=a#b", "http://h/"}, "\n",
			`relurl url: http://h/: set query to "a#b": "http://h/?a#b" reads back with query "a", not "a#b": a setter changes its own component alone (percent-encode the value's delimiters)` + "\n", 1},
		{"whatwg: a path cannot make a host", "", []string{"url", "-set", "path=//evil.example/x", "file:/x"}, "file:////evil.example/x\n", "", 0},
		{"default-port", "", []string{"url", "-default-port", "-get", "{url} {port}", "https://h/a", "http://h:8080/", "ws://h/", "mailto:a@b"},
			"https://h:443/a 443\nhttp://h:8080/ 8080\nws://h:80/ 80\nmailto:a@b \n", "", 0},
		{"3986: default-port", "", []string{"url", "-spec", "3986", "-default-port", "-json", "ftp://h/"},
			`{"url":"ftp://h:21/","parts":{"host":"h","path":"/","port":"21","scheme":"ftp"}}` + "\n", "", 0},
		{"curl: libcurl's schemes alone, in and out", "", []string{"url", "-curl", "imaps://h/", "foo://bar/", "-set", "scheme=gophers"},
			"gophers://h/\n\n", "relurl url: foo://bar/: scheme \"foo\": libcurl does not support it\n", 1},
		{"curl: a scheme set", "", []string{"url", "-curl", "-set", "scheme=foo", "imaps://h/"},
			"\n", "relurl url: imaps://h/: scheme \"foo\": libcurl does not support it\n", 1},
		{"keep-port: written, set, left by a change of scheme", "", []string{"url", "-keep-port", "https://h:443/a", "https://h:0443/", "ftp://h:443/", "-set", "scheme=https"},
			"https://h:443/a\nhttps://h:443/\nhttps://h:443/\n", "", 0},
		{"keep-port set", "", []string{"url", "-keep-port", "-set", "port=80", "-get", "{url} {port}", "http://h/"}, "http://h:80/ 80\n", "", 0},
		{"libcurl's default ports", "", []string{"url", "-get", "{default:port}", "imap://h/", "sftp://h/", "gopher://h/"}, "143\n22\n70\n", "", 0},
		{"bad -set", "", []string{"url", "-set", "colour=red", "http://h/"}, "", "relurl url: -set \"colour=red\": no component \"colour\"…", 2},
		{"bad template", "", []string{"url", "-get", "{nope}", "http://h/"}, "", "relurl url: -get \"{nope}\": {nope}: no component \"nope\"\n…", 2},
		{"bad -append", "", []string{"url", "-append", "fragment=x", "http://h/"}, "", "relurl url: -append \"fragment=x\": want path=SEGMENT or query=NAME=VALUE\n…", 2},
	}
	runCLITests(t, tests)

	list := filepath.Join(t.TempDir(), "urls.txt")
	os.WriteFile(list, []byte("https://a.example/\nhttps://b.example/?x=1\n"), 0o644)
	r := relurlRun(t, nil, "url", "-files", list, "-get", "{host}{query:x}")
	check(t, r, "a.example\nb.example1\n", "", 0)
}

// Linked under the name trurl, relurl is relurl url: trurl's command lines
// run as written.
func TestLinkedAsTrurl(t *testing.T) {
	trurl := filepath.Join(t.TempDir(), "trurl")
	if err := os.Symlink(relurlBin, trurl); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(trurl, "--url", "https://curl.se", "--set", "host=example.com").CombinedOutput()
	if err != nil || string(out) != "https://example.com/\n" {
		t.Errorf("trurl --url https://curl.se --set host=example.com: %q, %v", out, err)
	}
}
