package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/edit"
	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/internal/textsafe"
)

const urlHelp = `
Url edits and shows URLs, as curl's trurl does: by the WHATWG URL Standard
(its setters, as a browser's url.pathname = ... sets a part), or with
-spec 3986 by RFC 3986 (a part replaced by the RFC's syntax, the whole URI
checked again: it must read back with that part and every other as they
are, so a value with another part's delimiters is refused; a path after a
host gains its "/"). The URLs are the arguments; without any, the lines of
-files FILE or of standard input, one a line. With none of these (standard
input empty, or a terminal), the URL is made of the -set parts, as trurl
makes it: -set host=example.com -set path=/x gives http://example.com/x
(scheme http unless set); without a host to make it of, nothing is done,
and the exit status is 1. Each gives one line of
output; one that fails gives an error naming it (or its line number) on
standard error, an empty line in its place (with -json, an object with
input and error), and exit status 1 at the end.

The parts have trurl's names: scheme, user, password, host (without the
port), port, path, query, fragment, and url for the whole; the URL API's
names (protocol, username, hostname, pathname, search, hash, href) are
the same parts.

The operations run in this order: -redirect resolves a reference against
the URL; each -set COMPONENT=VALUE sets a part (as the standard's setter
does: "-set port=" removes the port, a value the setter ignores is an
error); -append path=SEGMENT adds a path segment, percent-encoded;
-qtrim NAME removes the query pairs named NAME, a pattern ("utm_*");
-append query=NAME=VALUE adds a query pair, which -qtrim does not remove;
-sort-query sorts the pairs by name, stably. Query pairs are read and
written as the URL Standard's URLSearchParams does them: "+" is a space.

Output is the URL; with -get TEMPLATE, the template with "{part}" (the
part decoded), "{:part}" (as it is in the URL), "{default:port}" (the
port, or the scheme's), "{puny:host}", "{idn:host}", "{query:NAME}" (the
first value of NAME) and "{query-all:NAME}" (all of them, space
separated) filled in, "{{" for "{"; with -json, one object per URL: url,
parts (the parts present, decoded) and params (the query's pairs, in
order). -as-idn writes hosts in Unicode. -punycode, hosts in ASCII, is
what relurl writes anyway (the URL Standard's host parser writes
punycode, and RFC 3986 has no other host), and is taken for trurl's
scripts. The URL Standard always drops a
scheme's default port; with -spec 3986, it is dropped unless -keep-port.

Examples:

  $ relurl url -set path=/new/place -set query=a=1 https://example.com/old?x
  https://example.com/new/place?a=1

  $ relurl url -get '{host} {default:port} {query:q}' 'https://h.example/?q=a+b'
  h.example 443 a b

  $ relurl url -append query=page=2 -qtrim 'utm_*' -sort-query \
      'https://example.com/?utm_source=x&b=1&a=2'
  https://example.com/?a=2&b=1&page=2

  $ relurl url -redirect ../c 'http://example.com/a/b/index.html'
  http://example.com/a/c

  $ relurl url -as-idn -get '{host}' http://xn--bcher-kva.example/
  bücher.example

  $ relurl url -set port=99999 https://example.com/; echo "exit $?"

  relurl url: https://example.com/: set port to "99999": a port is at most 65535
  exit 1

  $ relurl url -json 'https://h.example/p?a=1&a=2' | jq -c .params
  [{"key":"a","value":"1"},{"key":"a","value":"2"}]

  $ relurl url -get '{host}' < urls.txt
`

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runURL(e *env, args []string) int {
	fs := flag.NewFlagSet("url", flag.ContinueOnError)
	var sets, appends, qtrims listFlag
	fs.Var(&sets, "set", "set a part: `COMPONENT=VALUE` (repeatable)")
	fs.Var(&appends, "append", "append `path=SEGMENT` or query=NAME=VALUE (repeatable)")
	fs.Var(&qtrims, "qtrim", "remove the query pairs named `NAME`, a pattern such as utm_* (repeatable)")
	get := fs.String("get", "", "print this `TEMPLATE` for each URL: {host}, {:path}, {query:NAME}, ...")
	asJSON := fs.Bool("json", false, "print one JSON object per URL: url, parts, params")
	sortQuery := fs.Bool("sort-query", false, "sort the query pairs by name")
	redirect := fs.String("redirect", "", "resolve this `REF`erence against each URL first")
	asIDN := fs.Bool("as-idn", false, "write hosts in Unicode")
	punycode := fs.Bool("punycode", false, "write hosts in ASCII (punycode), as relurl does anyway")
	keepPort := fs.Bool("keep-port", false, "with -spec 3986, keep a port that is the scheme's default")
	files := fs.String("files", "", "read the URLs from `FILE` (- for standard input), one a line")
	spec := relurl.WHATWG
	fs.TextVar(&spec, "spec", relurl.WHATWG, "by the URL Standard (`whatwg`) or RFC 3986")
	if code, ok := e.parseFlags(fs, args, urlHelp); !ok {
		return code
	}
	ed := &edit.Edit{Spec: spec, Redirect: *redirect, QTrim: qtrims, SortQuery: *sortQuery, KeepPort: *keepPort}
	switch {
	case spec == relurl.RFC1808:
		return e.usageError("url", "-spec: url edits by the URL Standard (whatwg) or RFC 3986")
	case *keepPort && spec == relurl.WHATWG:
		return e.usageError("url", "-keep-port: the URL Standard always drops a default port; use -spec 3986")
	case *asIDN && *punycode:
		return e.usageError("url", "-as-idn and -punycode exclude each other")
	case *asJSON && *get != "":
		return e.usageError("url", "-json and -get exclude each other")
	case *files != "" && fs.NArg() > 0:
		return e.usageError("url", "-files and URL arguments exclude each other")
	}
	for _, s := range sets {
		if err := ed.Add(true, s); err != nil {
			return e.usageError("url", "-set %v", err)
		}
	}
	for _, a := range appends {
		if err := ed.Add(false, a); err != nil {
			return e.usageError("url", "-append %v", err)
		}
	}
	tmpl := *get
	if tmpl == "" {
		tmpl = "{url}"
	}
	template, err := edit.ParseTemplate(tmpl)
	if err != nil {
		return e.usageError("url", "-get %q: %v", *get, err)
	}
	show := urlShower(ed, template, *asJSON, *asIDN)
	failed := []byte("\n")
	var skipped func(int, error) []byte
	if *asJSON {
		failed = nil // show wrote the error's object
		skipped = skippedJSON(true)
	}
	if fs.NArg() == 0 || fs.NArg() == 1 && fs.Arg(0) == "-" { // "-": standard input, as with none
		in := *e
		if *files != "" && *files != "-" {
			f, err := os.Open(*files)
			if err != nil {
				fmt.Fprintf(e.stderr, "relurl url: %v\n", err)
				return exitFailed
			}
			defer f.Close()
			in.stdin = f
		}
		// No URL at all: the URL is made of the -set parts alone, as
		// trurl makes it; with none to make it of, nothing was done.
		br := bufio.NewReader(in.stdin)
		in.stdin = br
		noInput := fs.NArg() == 0 && *files == "" && e.stdinIsTTY
		if !noInput {
			_, err := br.Peek(1)
			noInput = err == io.EOF
		}
		if noInput {
			return e.urlFromParts(ed, sets, show)
		}
		return in.stream(streamer{cmd: "url", failed: failed, skipped: skipped, f: func(o *ordered.Output, _ int, line []byte) error {
			var err error
			o.Out, err = show(o.Out, bytestr.Transient(line)) // parsing copies what it keeps
			return err
		}})
	}
	var o ordered.Output
	status := exitOK
	for _, s := range fs.Args() {
		var err error
		if o.Out, err = show(o.Out, s); err != nil {
			o.Err = fmt.Appendf(o.Err, "relurl url: %s: %s\n", printable(s), printable(err.Error()))
			o.Out = append(o.Out, failed...)
			status = exitFailed
		}
	}
	e.stderr.Write(o.Err)
	return worse(status, e.write(o.Out))
}

// urlFromParts prints the URL made of the -set parts alone: scheme (http
// when none is set) and host, then every -set applied to it in order, as
// trurl builds one with no URL given.
func (e *env) urlFromParts(ed *edit.Edit, sets []string, show func(out []byte, s string) ([]byte, error)) int {
	scheme, host := "http", ""
	for _, s := range sets {
		name, value, _ := strings.Cut(s, "=")
		switch strings.TrimSuffix(name, "?") {
		case "scheme", "protocol":
			scheme = strings.TrimSuffix(value, ":")
		case "host", "hostname":
			host = value
		}
	}
	if host == "" {
		fmt.Fprintf(e.stderr, "relurl url: no URL: none was given (as an argument, with -files or on standard input), and -set gives no host to make one of\n")
		return exitFailed
	}
	out, err := show(nil, scheme+"://"+host+"/")
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl url: the URL made of the -set parts: %s\n", printable(err.Error()))
		return exitFailed
	}
	return e.write(out)
}

// urlShower returns what appends the edited URL s to out: by the template,
// or as JSON, with hosts in Unicode when idn. A URL that fails is, in
// JSON, a line of its own with the input and why.
func urlShower(ed *edit.Edit, template *edit.Template, asJSON, idn bool) func(out []byte, s string) ([]byte, error) {
	return func(out []byte, s string) ([]byte, error) {
		u, err := ed.Apply(s)
		if err != nil {
			if asJSON {
				out = jsonline.Append(out, struct {
					Input string `json:"input"`
					Err   string `json:"error"`
				}{s, err.Error()})
			}
			return out, err
		}
		if asJSON {
			j, err := edit.JSON(&u, idn)
			return append(append(out, j...), '\n'), err
		}
		// -get's template, or "{url}": the values' control bytes
		// percent-encoded, the template's own written as they are.
		return append(template.Append(out, &u, idn, textsafe.EscapeControls), '\n'), nil
	}
}
