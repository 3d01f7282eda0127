package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/edit"
	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/internal/textsafe"
)

const urlHelp = `
Url edits and shows URLs, as curl's trurl does, with trurl's command line:
its option names (-s, -g, -a, --url, --url-file, --trim, ...) and its
order of operations, by the WHATWG URL Standard (its setters, as a
browser's url.pathname = ... sets a part), or with -spec 3986 by RFC 3986
(a part replaced by the RFC's syntax, the whole URI checked again: it
must read back with that part and every other as they are, so a value
with another part's delimiters is refused; a path after a host gains its
"/"). Linked or installed under the name trurl, relurl is relurl url.
Where the Standard answers otherwise than trurl's libcurl, relurl keeps
the Standard's answer (the README lists where).

The URLs are the arguments and -url, or the lines of -files FILE (of
standard input with -files - or the argument -), one a line, blank lines
skipped; standard input is read only when asked, as trurl reads it, so
that relurl url in a while-read loop leaves the loop's lines alone. An
empty argument is no URL: said, and skipped. An input without a scheme gets the
one curl guesses (http://, or ftp:// for ftp.example.com, as for dict.,
ldap., imap., smtp. and pop3.), and so does a host with a dot, or
localhost, before a port (example.com:29); -no-guess-scheme reads it as
the standard does. With no URL at all (no argument, or standard input
empty), the URL is made of the -set parts, as trurl makes it: -set
host=example.com -set path=/x gives http://example.com/x (scheme http
unless set); without a host to make it of, nothing is done, and the exit
status is 1. Each URL gives a line of output (one per combination of
-iterate's values); one that fails gives an error naming it (or its line
number) on standard error, an empty line in its place (with -json, an
object with input and error; with -verify, the end), and exit status 1 at
the end.

The parts have trurl's names: scheme, user, password, host (without the
port), port, path, query, fragment, and url for the whole; the URL API's
names (protocol, username, hostname, pathname, search, hash, href) are
the same parts.

The operations run in this order: -redirect resolves a reference against
the URL; each -set COMPONENT=VALUE sets a part (as the standard's setter
does: "-set port=" removes the port, a value the setter ignores is an
error; COMPONENT?=VALUE sets it only where the URL has none, and
COMPONENT:=VALUE is the same as "=", since the setter keeps a "%20" as it
is); -append path=SEGMENT adds a path segment, percent-encoded; -qtrim
NAME removes the query pairs named NAME, a pattern ("utm_*"); -replace
NAME=VALUE replaces the pairs named NAME by one (-force-replace adds it
if there is none); -append query=NAME=VALUE adds a query pair; -sort-query
sorts the pairs by name, stably. Query pairs are read and written as the
URL Standard's URLSearchParams does them: "+" is a space; they are
separated by "&", or by -query-separator's character ("a=1;b=2").

Output is the URL; with -get TEMPLATE, the template with its fields
filled in: "{part}" (the part decoded) or "[part]" (the first of "{" and
"[" in a template opens its fields); before the part's name, "url:" or
":" (as it is in the URL), "default:" (the port, or the scheme's),
"puny:" and "idn:" (the host in ASCII or Unicode), "must:" (an error for
a URL without the part); "{query:NAME}" (the first value of NAME) and
"{query-all:NAME}" (all of them, space separated); "\{", "\[" and "{{"
for the brace, "\t", "\n", "\r" and "\\". With -json, one object per
URL: url, parts (the parts present, decoded) and params (the query's
pairs, in order); -urlencode writes the parts as they are in the URL.
-as-idn writes hosts in Unicode. -punycode, hosts in ASCII, is what relurl
writes anyway (the URL Standard's host parser writes punycode, and RFC
3986 has no other host), and is taken for trurl's scripts. The URL
Standard drops a scheme's default port, and so does RFC 3986 here, unless
-keep-port: then a default port written in the URL, set, or left by a
change of scheme is written, as trurl writes it. -default-port writes the
scheme's default port where a URL has none, as every field's "default:"
would: the URL Standard's (http, https, ws, wss, ftp), else libcurl's
(imap 143, smtp 25, sftp 22, ...). -curl accepts
only the schemes libcurl supports (dict, file, ftp, ftps, gopher, gophers,
http, https, imap, imaps, ldap, ldaps, mqtt, mqtts, pop3, pop3s, rtsp,
scp, sftp, smb, smbs, smtp, smtps, telnet, tftp, ws, wss); a URL of
another fails.

Examples:

  trurl's own, as its README writes them:

  $ relurl url --url https://curl.se --set host=example.com
  https://example.com/

  $ relurl url --set host=example.com --set scheme=ftp
  ftp://example.com/

  $ relurl url --url https://curl.se/we/are.html --redirect here.html
  https://curl.se/we/here.html

  $ relurl url --url https://curl.se/we/../are.html --set port=8080
  https://curl.se:8080/are.html

  $ relurl url --url https://curl.se/we/are.html --get '{path}'
  /we/are.html

  $ relurl url --url "https://curl.se?name=hello" --append query=search=string
  https://curl.se/?name=hello&search=string

  $ relurl url "https://curl.se?search=hey&utm_source=tracker" --qtrim "utm_*"
  https://curl.se/?search=hey

  $ relurl url "https://example.com?a=home&here=now&thisthen" -g '{query:a}'
  home

  $ relurl url "https://curl.se/this has space/index.html" --accept-space
  https://curl.se/this%20has%20space/index.html

  and more:

  $ relurl url example.com -g '{scheme} {host} {default:port}'
  http example.com 80

  $ relurl url https://curl.se --iterate 'port=81 82' \
      --iterate 'scheme=http https'
  http://curl.se:81/
  https://curl.se:81/
  http://curl.se:82/
  https://curl.se:82/

  $ relurl url -append query=page=2 -qtrim 'utm_*' -sort-query \
      'https://example.com/?utm_source=x&b=1&a=2'
  https://example.com/?a=2&b=1&page=2

  $ relurl url -as-idn -get '{host}' http://xn--bcher-kva.example/
  bücher.example

  $ relurl url -default-port https://example.com/a
  https://example.com:443/a

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

// trurlShortFlags splits trurl's one-letter options written with their
// value attached ("-shost=moo", "-g{path}") into the flag and its value,
// as trurl reads them; a flag of the command's own ("-spec", "-set") stays
// as it is.
func trurlShortFlags(fs *flag.FlagSet, args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune("sga", rune(a[1])) && fs.Lookup(name) == nil {
			out = append(out, a[:2], a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

func runURL(e *env, args []string) int {
	fs := flag.NewFlagSet("url", flag.ContinueOnError)
	var sets, appends, qtrims, trims, urls listFlag
	fs.Var(&sets, "set", "set a part: `COMPONENT=VALUE` (repeatable)")
	fs.Var(&sets, "s", "the same as -set, as trurl spells it")
	fs.Var(&appends, "append", "append `path=SEGMENT` or query=NAME=VALUE (repeatable)")
	fs.Var(&appends, "a", "the same as -append, as trurl spells it")
	fs.Var(&qtrims, "qtrim", "remove the query pairs named `NAME`, a pattern such as utm_* (repeatable)")
	fs.Var(&trims, "trim", "`query=NAME`: the same as -qtrim NAME, as trurl spells it")
	fs.Var(&urls, "url", "a `URL` to edit, as an argument is (repeatable)")
	get := fs.String("get", "", "print this `TEMPLATE` for each URL: {host}, {:path}, {query:NAME}, ...")
	fs.StringVar(get, "g", "", "the same as -get, as trurl spells it")
	noGuess := fs.Bool("no-guess-scheme", false, "take an input without a scheme as the standard does, not as http://")
	var replaces, forceReplaces, iterates listFlag
	fs.Var(&replaces, "replace", "`NAME=VALUE`: replace the pairs named NAME by one, if any (repeatable)")
	fs.Var(&forceReplaces, "force-replace", "`NAME=VALUE`: as -replace, and append it if there is none (repeatable)")
	fs.Var(&forceReplaces, "replace-append", "the same as -force-replace")
	fs.Var(&iterates, "iterate", "`COMPONENT=V1 V2 ...`: a URL for each value (and combination)")
	urlencode := fs.Bool("urlencode", false, "-get and -json write the parts as they are in the URL, not decoded")
	querySep := fs.String("query-separator", "", "the `CHARACTER` that separates the query's pairs, instead of &")
	verify := fs.Bool("verify", false, "stop at the first URL that fails")
	fs.Bool("accept-space", false, "accepted for trurl's command lines: the parser encodes spaces")
	fs.Bool("quiet", false, "accepted for trurl's command lines: url writes no warnings")
	asJSON := fs.Bool("json", false, "print one JSON object per URL: url, parts, params")
	sortQuery := fs.Bool("sort-query", false, "sort the query pairs by name")
	redirect := fs.String("redirect", "", "resolve this `REF`erence against each URL first")
	asIDN := fs.Bool("as-idn", false, "write hosts in Unicode")
	punycode := fs.Bool("punycode", false, "write hosts in ASCII (punycode), as relurl does anyway")
	keepPort := fs.Bool("keep-port", false, "keep a port that is the scheme's default")
	defaultPort := fs.Bool("default-port", false, "write the scheme's default port where a URL has none")
	curlOnly := fs.Bool("curl", false, "accept only the schemes libcurl supports")
	files := fs.String("files", "", "read the URLs from `FILE` (- for standard input), one a line")
	fs.StringVar(files, "url-file", "", "the same as -files, as trurl spells it")
	fs.StringVar(files, "f", "", "the same as -files, as trurl spells it")
	spec := relurl.WHATWG
	fs.TextVar(&spec, "spec", relurl.WHATWG, "by the URL Standard (`whatwg`) or RFC 3986")
	if code, ok := e.parseFlags(fs, trurlShortFlags(fs, args), urlHelp); !ok {
		return code
	}
	for _, t := range trims {
		name, ok := strings.CutPrefix(t, "query=")
		if !ok {
			return e.usageError("url", "-trim %q: only the query is trimmed: want query=NAME", t)
		}
		qtrims = append(qtrims, name)
	}

	ed := &edit.Edit{Spec: spec, Redirect: *redirect, QTrim: qtrims, Replace: replaces, ForceReplace: forceReplaces,
		SortQuery: *sortQuery, KeepPort: *keepPort, GuessScheme: !*noGuess, CurlOnly: *curlOnly}
	switch {
	case spec == relurl.RFC1808:
		return e.usageError("url", "-spec: url edits by the URL Standard (whatwg) or RFC 3986")
	case *asIDN && *punycode:
		return e.usageError("url", "-as-idn and -punycode exclude each other")
	case *asJSON && *get != "":
		return e.usageError("url", "-json and -get exclude each other")
	case *files != "" && (fs.NArg() > 0 || len(urls) > 0):
		return e.usageError("url", "-files and URL arguments exclude each other")
	case *querySep != "" && (len(*querySep) != 1 || strings.ContainsAny(*querySep, "=%+#")):
		return e.usageError("url", "-query-separator %q: want one ASCII character, not =, %%, + or #", *querySep)
	}
	if *querySep != "" {
		ed.QuerySeparator = (*querySep)[0]
	}
	args = append(urls, fs.Args()...)
	for _, s := range sets {
		a, err := edit.ParseAssignment(s)
		if err != nil {
			return e.usageError("url", "-set %v", err)
		}
		ed.Set = append(ed.Set, a)
	}
	for _, a := range appends {
		if err := ed.Append(a); err != nil {
			return e.usageError("url", "-append %v", err)
		}
	}
	// Each -iterate multiplies the edits: a URL gives a line for each
	// combination of their values, the last -iterate's varying fastest.
	// The combinations are made one at a time as they are written, never
	// all at once: four -iterate of 100 values are 10^8 lines.
	var iterated [][]edit.Assignment
	for _, it := range iterates {
		component, values, ok := strings.Cut(it, "=")
		if !ok || values == "" {
			return e.usageError("url", "-iterate %q: want COMPONENT=V1 V2 ...", it)
		}
		var as []edit.Assignment
		for _, v := range strings.Split(values, " ") {
			a, err := edit.ParseAssignment(component + "=" + v)
			if err != nil {
				return e.usageError("url", "-iterate %v", err)
			}
			as = append(as, a)
		}
		iterated = append(iterated, as)
	}
	tmpl := *get
	if tmpl == "" {
		tmpl = "{url}"
	}
	template, err := edit.ParseTemplate(tmpl)
	if err != nil {
		return e.usageError("url", "-get %q: %v", *get, err)
	}
	if *urlencode {
		template = template.Encoded()
	}
	show := urlShower(ed, iterated, template, *asJSON, *verify, edit.Display{IDN: *asIDN, DefaultPort: *defaultPort}, *urlencode)
	failed := []byte("\n")
	var skipped func(int, error) []byte
	if *asJSON {
		failed = nil // show wrote the error's object
		skipped = skippedJSON(true)
	}
	if len(args) == 0 || len(args) == 1 && args[0] == "-" { // "-": standard input
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
		// Standard input is read only when asked for: "-" or -files.
		br := bufio.NewReader(in.stdin)
		in.stdin = br
		noInput := len(args) == 0 && *files == ""
		if !noInput {
			_, err := br.Peek(1)
			noInput = err == io.EOF
		}
		if noInput {
			return e.urlFromParts(ed, sets, show)
		}
		return in.stream(streamer{cmd: "url", strict: *verify, failed: failed, skipped: skipped, f: func(o *ordered.Output, _ int, line []byte) error {
			if len(bytes.TrimSpace(line)) == 0 {
				return nil // a blank line is no URL, as trurl skips it
			}
			return show(o, bytestr.Transient(line)) // parsing copies what it keeps
		}})
	}
	// The arguments, on one worker: what a URL prints is written in
	// pieces as it is made (Output.Spill), not held whole.
	status, failedURL := exitOK, false
	ordered.Run(slices.Values(args), 1, ordered.Window{Jobs: 1},
		func(s string, o *ordered.Output) {
			if s == "" && !*verify {
				// No URL, as trurl has it: said, and skipped.
				o.Err = append(o.Err, "relurl url: an empty argument is no URL: skipped\n"...)
				return
			}
			if err := show(o, s); err != nil {
				o.Err = fmt.Appendf(o.Err, "relurl url: %s: %s\n", printable(s), printable(err.Error()))
				failedURL = true
				if !*verify { // -verify stops there, with no line for it
					o.Out = append(o.Out, failed...)
				}
			}
		},
		e.writer(e.newProgress(), &status).ordered,
		func(string) bool { return !failedURL || !*verify })
	if failedURL {
		status = worse(status, exitFailed)
	}
	return status
}

// urlFromParts prints the URL made of the -set parts alone: scheme (http
// when none is set) and host, then every -set applied to it in order, as
// trurl builds one with no URL given.
func (e *env) urlFromParts(ed *edit.Edit, sets []string, show func(o *ordered.Output, s string) error) int {
	scheme, host := "http", ""
	for _, s := range sets {
		a, err := edit.ParseAssignment(s)
		switch {
		case err != nil:
		case a.Component == "scheme":
			scheme = strings.TrimSuffix(a.Value, ":")
		case a.Component == "host":
			host = a.Value
		}
	}
	if host == "" {
		fmt.Fprintf(e.stderr, "relurl url: no URL: none was given (as an argument, or with -files or -), and -set gives no host to make one of\n")
		return exitFailed
	}
	var o ordered.Output
	if err := show(&o, scheme+"://"+host+"/"); err != nil {
		fmt.Fprintf(e.stderr, "relurl url: the URL made of the -set parts: %s\n", printable(err.Error()))
		return exitFailed
	}
	return e.write(o.Out)
}

// urlShower returns what appends the edited URL s to o.Out, once for each
// combination of the iterated assignments (ed alone when there are none),
// spilling o between them: by the template, or as JSON, its hosts and
// ports as d says. A URL that fails is, in JSON, a line of its own with
// the input and why, unless verify stops the run there.
func urlShower(ed *edit.Edit, iterated [][]edit.Assignment, template *edit.Template, asJSON, verify bool, d edit.Display, encoded bool) func(o *ordered.Output, s string) error {
	fixed := len(ed.Set)
	return func(o *ordered.Output, s string) error {
		// A copy for this call (the workers of a stream call at once),
		// its Set appended to in an array of its own.
		c := *ed
		c.Set = slices.Clip(ed.Set)
		// An odometer over the iterated values, the last fastest.
		at := make([]int, len(iterated))
		for {
			c.Set = c.Set[:fixed]
			for i, as := range iterated {
				c.Set = append(c.Set, as[at[i]])
			}
			if err := showOne(o, &c, s, template, asJSON, verify, d, encoded); err != nil {
				return err
			}
			o.Spill()
			i := len(at) - 1
			for ; i >= 0; i-- {
				if at[i]++; at[i] < len(iterated[i]) {
					break
				}
				at[i] = 0
			}
			if i < 0 {
				return nil
			}
		}
	}
}

// showOne appends the URL s edited by ed to o.Out.
func showOne(o *ordered.Output, ed *edit.Edit, s string, template *edit.Template, asJSON, verify bool, d edit.Display, encoded bool) error {
	u, err := ed.Apply(s)
	if err != nil {
		if asJSON && !verify {
			o.Out = jsonline.Append(o.Out, struct {
				Input string `json:"input"`
				Err   string `json:"error"`
			}{s, err.Error()})
		}
		return err
	}
	if asJSON {
		j, err := edit.JSON(&u, d, encoded)
		o.Out = append(append(o.Out, j...), '\n')
		return err
	}
	// -get's template, or "{url}": the values' control bytes
	// percent-encoded, the template's own written as they are.
	start := len(o.Out)
	if o.Out, err = template.Append(o.Out, &u, d, textsafe.EscapeControls); err != nil {
		o.Out = o.Out[:start]
		return err
	}
	o.Out = append(o.Out, '\n')
	return nil
}
