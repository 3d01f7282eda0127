package main

import (
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"unicode/utf8"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/rfc3986"
	"github.com/relurl/relurl/whatwg"
)

const parseHelp = `
Parse shows, for each URL, its six components as Section 2.4 splits them
(an absent component differs from an empty one), whether its path follows a
"/", its form in the grammar of Section 2.2 (generic-RL, absoluteURL,
net_path, abs_path, rel_path), the category of its scheme (Section 2.3) and
whether it is valid, with the byte offset of the first error. With "-" as the
only argument, it reads URLs from standard input, one a line.

Parse exits 0 whether or not the URLs are valid; use validate to test them.

With -spec 3986 it shows the five components of RFC 3986's Appendix B
(scheme, authority, path, query, fragment) and validity by its Appendix A.
With -spec whatwg it parses each URL by the WHATWG URL Standard, as
"new URL(input)" does, and shows the components of the Standard's API
(href, protocol, username, password, host, hostname, port, pathname,
search, hash, origin) and the validation errors the parser met, each with
its byte offset; a URL the parser refuses shows "failure" and why, and the
exit status is then 1. In JSON: input, href ... origin, valid,
validation_errors (offset, name, message) and failure (null, or the same).

The text output quotes each value as Go does, so control bytes and invalid
UTF-8 show as escapes. JSON strings cannot hold bytes that are not UTF-8:
where the URL has some, its JSON "url" shows each as U+FFFD, and the field
"url_base64" holds its exact bytes (base64, standard encoding), from which
every component and offset can be taken; so does "text_base64" for an
error's text.

Examples:

  $ relurl parse 'http://a/b/c/d;p?q#f'
  $ relurl parse -json 'g?y#s' 'http://a/b c' | jq .error.offset
  $ relurl parse -spec whatwg 'HTTPS://user@Bücher.example:443/a/../b c'
`

// parsed is the JSON form of one URL; absent components are null.
type parsed struct {
	URL            string       `json:"url"`
	URLBase64      *string      `json:"url_base64,omitempty"`
	Scheme         *string      `json:"scheme"`
	NetLoc         *string      `json:"net_loc"`
	Path           string       `json:"path"`
	AbsPath        bool         `json:"abs_path"`
	Params         *string      `json:"params"`
	Query          *string      `json:"query"`
	Fragment       *string      `json:"fragment"`
	Form           *string      `json:"form"`
	SchemeCategory *string      `json:"scheme_category"`
	Valid          bool         `json:"valid"`
	Error          *parseErrorJ `json:"error"`
}

type parseErrorJ struct {
	Offset     int     `json:"offset"`
	Text       string  `json:"text"`
	TextBase64 *string `json:"text_base64,omitempty"`
	Rule       string  `json:"rule"`
	Message    string  `json:"message"`
}

// syntaxError returns the JSON form of the syntax error of either RFC that
// err wraps, nil for none.
func syntaxError(err error) *parseErrorJ {
	var e1808 *rfc1808.SyntaxError
	var e3986 *rfc3986.SyntaxError
	switch {
	case errors.As(err, &e1808):
		return &parseErrorJ{e1808.Offset, e1808.Text, exactBytes(e1808.Text), e1808.Rule, e1808.Error()}
	case errors.As(err, &e3986):
		return &parseErrorJ{e3986.Offset, e3986.Text, exactBytes(e3986.Text), e3986.Rule, e3986.Error()}
	}
	return nil
}

// exactBytes returns s in base64 when it is not valid UTF-8, which a JSON
// string cannot hold as it is, else nil.
func exactBytes(s string) *string {
	if utf8.ValidString(s) {
		return nil
	}
	b := base64.StdEncoding.EncodeToString([]byte(s))
	return &b
}

func parseURL(s string) parsed {
	u := rfc1808.Split(s)
	opt := func(v string, ok bool) *string {
		if !ok {
			return nil
		}
		return &v
	}
	p := parsed{
		URL:       s,
		URLBase64: exactBytes(s),
		Scheme:    opt(u.Scheme(), u.HasScheme()),
		NetLoc:    opt(u.NetLoc(), u.HasNetLoc()),
		Path:      u.Path(),
		AbsPath:   u.AbsPath(),
		Params:    opt(u.Params(), u.HasParams()),
		Query:     opt(u.Query(), u.HasQuery()),
		Fragment:  opt(u.Fragment(), u.HasFragment()),
	}
	if u.HasScheme() {
		p.SchemeCategory = opt(rfc1808.SchemeCategoryOf(u.Scheme()).String(), true)
	}
	form, err := rfc1808.Validate(s)
	if p.Error = syntaxError(err); p.Error == nil {
		p.Valid, p.Form = true, opt(form.String(), true)
	}
	return p
}

func runParse(e *env, args []string) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object per URL per line")
	var spec relurl.Spec
	specFlag(fs, &spec)
	if code, ok := e.parseFlags(fs, args, parseHelp); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return e.usageError("parse", "missing URL (or - to read standard input)")
	}
	var skipped func(int, error) []byte
	if *asJSON {
		skipped = skippedJSON(false)
	}
	switch spec {
	case relurl.WHATWG:
		return e.eachURL("parse", fs.Args(), exitFailed, skipped, func(o *ordered.Output, line int, s string) bool {
			return parseWeb(o, line, s, *asJSON)
		})
	case relurl.RFC3986:
		return e.eachURL("parse", fs.Args(), exitFailed, skipped, func(o *ordered.Output, _ int, s string) bool {
			o.Out = parse3986(o.Out, s, *asJSON)
			return true
		})
	}
	show := showText
	if *asJSON {
		show = showJSON
	}
	return e.eachURL("parse", fs.Args(), exitFailed, skipped, func(o *ordered.Output, _ int, s string) bool {
		o.Out = show(o.Out, parseURL(s))
		return true
	})
}

func showJSON(out []byte, p parsed) []byte { return jsonline.Append(out, p) }

func showText(out []byte, p parsed) []byte {
	show := func(v *string) string {
		if v == nil {
			return "(absent)"
		}
		return fmt.Sprintf("%q", *v)
	}
	out = fmt.Appendf(out, "%q\n", p.URL)
	scheme := show(p.Scheme)
	if p.SchemeCategory != nil {
		scheme += " (" + *p.SchemeCategory + ")"
	}
	out = fmt.Appendf(out, "  scheme    %s\n", scheme)
	out = fmt.Appendf(out, "  net_loc   %s\n", show(p.NetLoc))
	path := fmt.Sprintf("%q", p.Path)
	if p.AbsPath {
		path += ` (after "/")`
	}
	out = fmt.Appendf(out, "  path      %s\n", path)
	out = fmt.Appendf(out, "  params    %s\n", show(p.Params))
	out = fmt.Appendf(out, "  query     %s\n", show(p.Query))
	out = fmt.Appendf(out, "  fragment  %s\n", show(p.Fragment))
	if p.Valid {
		out = fmt.Appendf(out, "  form      %s\n  valid     yes\n\n", *p.Form)
	} else {
		out = fmt.Appendf(out, "  valid     no: %s\n\n", p.Error.Message)
	}
	return out
}

// parse3986 appends what parse -spec 3986 shows of s: its components by
// Appendix B and its validity by Appendix A.
func parse3986(out []byte, s string, asJSON bool) []byte {
	r := relurl.Resolver{Spec: relurl.RFC3986}
	parts, _ := r.Components(s)
	serr := syntaxError(r.Validate(s))
	valid := serr == nil
	if asJSON {
		v := map[string]any{"url": s, "valid": valid, "error": serr}
		for _, name := range []string{"scheme", "authority", "query", "fragment"} {
			v[name] = nil
		}
		for _, p := range parts {
			v[p.Name] = p.Value
		}
		if b := exactBytes(s); b != nil {
			v["url_base64"] = *b
		}
		return jsonline.Append(out, v)
	}
	out = fmt.Appendf(out, "%q\n", s)
	for _, p := range parts {
		out = fmt.Appendf(out, "  %-10s%q\n", p.Name, p.Value)
	}
	if valid {
		return append(out, "  valid     yes\n\n"...)
	}
	return fmt.Appendf(out, "  valid     no: %s\n\n", serr.Message)
}

// webParsed is the JSON form of a URL parsed by the WHATWG URL Standard:
// the components of its API, and the validation errors met on the way.
type webParsed struct {
	Line     *int        `json:"line,omitempty"`
	Input    string      `json:"input"`
	Href     string      `json:"href"`
	Protocol string      `json:"protocol"`
	Username string      `json:"username"`
	Password string      `json:"password"`
	Host     string      `json:"host"`
	Hostname string      `json:"hostname"`
	Port     string      `json:"port"`
	Pathname string      `json:"pathname"`
	Search   string      `json:"search"`
	Hash     string      `json:"hash"`
	Origin   string      `json:"origin"`
	Valid    bool        `json:"valid"`
	Errors   []webErrorJ `json:"validation_errors"`
	Failure  *webErrorJ  `json:"failure"`
}

type webErrorJ struct {
	Offset  int    `json:"offset"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

// parseWeb appends what parse -spec whatwg shows of s and reports whether
// the parser succeeded.
func parseWeb(o *ordered.Output, line int, s string, asJSON bool) bool {
	u, errs, err := whatwg.Check(s, nil)
	p := webParsed{Input: s, Errors: []webErrorJ{}}
	if line > 0 {
		p.Line = &line
	}
	for _, e := range errs {
		p.Errors = append(p.Errors, webErrorJ{e.Offset, e.Name, e.Error()})
	}
	var failure *whatwg.ValidationError
	if errors.As(err, &failure) {
		p.Failure = &webErrorJ{failure.Offset, failure.Name, failure.Error()}
	} else {
		p.Href, p.Protocol, p.Username, p.Password = u.Href(), u.Protocol(), u.Username(), u.Password()
		p.Host, p.Hostname, p.Port, p.Pathname = u.Host(), u.Hostname(), u.Port(), u.Pathname()
		p.Search, p.Hash, p.Origin, p.Valid = u.Search(), u.Hash(), u.Origin(), len(errs) == 0
	}
	if err != nil {
		if line > 0 {
			o.Err = fmt.Appendf(o.Err, "line %d: ", line)
		}
		o.Err = fmt.Appendf(o.Err, "relurl parse: %s\n", printable(err.Error()))
	}
	if asJSON {
		o.Out = jsonline.Append(o.Out, p)
		return err == nil
	}
	o.Out = fmt.Appendf(o.Out, "%q\n", s)
	if err != nil {
		o.Out = fmt.Appendf(o.Out, "  failure   %s\n\n", failure.Error())
		return false
	}
	for _, f := range [][2]string{{"href", p.Href}, {"protocol", p.Protocol}, {"username", p.Username},
		{"password", p.Password}, {"host", p.Host}, {"hostname", p.Hostname}, {"port", p.Port},
		{"pathname", p.Pathname}, {"search", p.Search}, {"hash", p.Hash}, {"origin", p.Origin}} {
		o.Out = fmt.Appendf(o.Out, "  %-10s%q\n", f[0], f[1])
	}
	if p.Valid {
		o.Out = append(o.Out, "  valid     yes\n\n"...)
		return true
	}
	o.Out = append(o.Out, "  valid     no:\n"...)
	for _, e := range p.Errors {
		o.Out = fmt.Appendf(o.Out, "    %s\n", e.Message)
	}
	o.Out = append(o.Out, '\n')
	return true
}
