package main

import (
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"unicode/utf8"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/ordered"
)

const parseHelp = `
Parse shows, for each URL, its six components as Section 2.4 splits them
(an absent component differs from an empty one), whether its path follows a
"/", its form in the grammar of Section 2.2 (generic-RL, absoluteURL,
net_path, abs_path, rel_path), the category of its scheme (Section 2.3) and
whether it is valid, with the byte offset of the first error. With "-" as the
only argument, it reads URLs from standard input, one a line.

Parse exits 0 whether or not the URLs are valid; use validate to test them.

The text output quotes each value as Go does, so control bytes and invalid
UTF-8 show as escapes. JSON strings cannot hold bytes that are not UTF-8:
where the URL has some, its JSON "url" shows each as U+FFFD, and the field
"url_base64" holds its exact bytes (base64, standard encoding), from which
every component and offset can be taken; so does "text_base64" for an
error's text.

Examples:

  $ relurl parse 'http://a/b/c/d;p?q#f'
  $ relurl parse -json 'g?y#s' 'http://a/b c' | jq .error.offset
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

// syntaxErrorJSON returns the JSON form of a syntax error, nil for none.
func syntaxErrorJSON(e *relurl.SyntaxError) *parseErrorJ {
	if e == nil {
		return nil
	}
	return &parseErrorJ{e.Offset, e.Text, exactBytes(e.Text), e.Rule, e.Error()}
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
	u := relurl.Split(s)
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
		p.SchemeCategory = opt(relurl.SchemeCategoryOf(u.Scheme()).String(), true)
	}
	form, err := relurl.Validate(s)
	var serr *relurl.SyntaxError
	if errors.As(err, &serr) {
		p.Error = syntaxErrorJSON(serr)
	} else {
		p.Valid, p.Form = true, opt(form.String(), true)
	}
	return p
}

func runParse(e *env, args []string) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object per URL per line")
	if code, ok := e.parseFlags(fs, args, parseHelp); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return e.usageError("parse", "missing URL (or - to read standard input)")
	}
	show := showText
	if *asJSON {
		show = showJSON
	}
	return e.eachURL("parse", fs.Args(), func(o *ordered.Output, _ int, s string) bool {
		o.Out = show(o.Out, parseURL(s))
		return true
	})
}

func showJSON(out []byte, p parsed) []byte { return appendJSON(out, p) }

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
