package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/relurl/relurl/whatwg"
)

// Format writes u by template, as trurl's --get does. "{component}" is the
// component decoded (empty if the URL lacks it), and "[component]" the
// same: the first of "{" and "[" in a template opens its fields, and the
// other is text. Before the component's name, any of these, each followed
// by ":", change it: "url" (or nothing: "{:path}") as it is in the URL,
// not decoded; "default" the port, or else the scheme's default (and the
// whole URL with it: "{default:url}"); "puny" and "idn" the host in ASCII
// or in Unicode; "must" an error for a URL that lacks the component;
// "strict", which decoding never needs here. "{query:name}" is the first
// value of the query parameter name, and "{query-all:name}" all of them,
// separated by spaces. "\{", "\[" and "{{" are the brace, "\\" a
// backslash, "\t", "\n" and "\r" a tab, a newline and a carriage return;
// a brace that is not closed is text. d says how hosts and ports are
// written where no modifier says it.
func Format(template string, u *URL, d Display) (string, error) {
	t, err := ParseTemplate(template)
	if err != nil {
		return "", err
	}
	b, err := t.Append(nil, u, d, nil)
	return string(b), err
}

// Display says how the formats write a URL's host and port, for every
// field that has no modifier of its own: IDN writes the host in Unicode
// (trurl's --as-idn, the modifier "idn:"; "puny:" overrides it), and
// DefaultPort writes the scheme's default port where the URL has none
// (trurl's --default-port, the modifier "default:"). The zero value writes
// the URL as it is.
type Display struct {
	IDN, DefaultPort bool
}

// unescape returns the byte a template's backslash escape "\\c" stands for.
func unescape(c byte) (byte, bool) {
	switch c {
	case '\\', '{', '[':
		return c, true
	case 't':
		return '\t', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	}
	return 0, false
}

// A Template is a template of Format, parsed once for many URLs.
type Template struct {
	fields []field
}

// field is a literal, or one "{...}" of a template.
type field struct {
	literal   string
	component string // canonical
	query     string // "query" or "query-all" for a parameter's values, whose name is key
	key       string
	raw       bool // "url:": as it is in the URL
	def       bool // "default:"
	puny, idn bool
	must      bool
}

// ParseTemplate parses a template of Format.
func ParseTemplate(template string) (*Template, error) {
	t := &Template{}
	open := byte(0) // '{' or '[', once one has opened a field
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.fields = append(t.fields, field{literal: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c == '\\' && i+1 < len(template) {
			if r, ok := unescape(template[i+1]); ok {
				lit.WriteByte(r)
				i++
				continue
			}
		}
		if c != '{' && c != '[' || open != 0 && c != open {
			lit.WriteByte(c)
			continue
		}
		if i+1 < len(template) && template[i+1] == c {
			lit.WriteByte(c) // "{{"
			i++
			continue
		}
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		end := strings.IndexByte(template[i+1:], close)
		if end < 0 {
			lit.WriteString(template[i:]) // not closed: text, as trurl writes it
			break
		}
		f, err := parseField(template[i+1 : i+1+end])
		if err != nil && c == '[' {
			lit.WriteByte(c) // "[" and what is no field: text ("[{host}]")
			continue
		}
		if err != nil {
			return nil, err
		}
		open = c
		flush()
		t.fields = append(t.fields, f)
		i += 1 + end
	}
	flush()
	return t, nil
}

// Encoded returns a copy of t whose fields all write their component as
// it is in the URL, as if each were "{url:…}", as trurl's --urlencode has
// them.
func (t *Template) Encoded() *Template {
	e := &Template{fields: slices.Clone(t.fields)}
	for i := range e.fields {
		e.fields[i].raw = true
	}
	return e
}

// parseField parses what is between "{" and "}".
func parseField(text string) (field, error) {
	var f field
	rest := text
	for {
		mod, after, ok := strings.Cut(rest, ":")
		if !ok {
			break
		}
		switch mod {
		case "", "url":
			f.raw = true
		case "default":
			f.def = true
		case "puny":
			f.puny = true
		case "idn":
			f.idn = true
		case "must":
			f.must = true
		case "strict":
		case "query", "query-all":
			f.query, f.key, f.component = mod, after, "query"
			return f, nil
		default:
			return field{}, fmt.Errorf("{%s}: no modifier %q (want url, default, puny, idn, must, strict, query or query-all)", text, mod)
		}
		rest = after
	}
	if f.puny && f.idn {
		return field{}, fmt.Errorf("{%s}: puny and idn exclude each other", text)
	}
	c, known := canonical(rest)
	if !known {
		return field{}, fmt.Errorf("{%s}: no component %q", text, rest)
	}
	f.component = c
	return f, nil
}

// Append appends u written by t to dst. escape, unless nil, is applied to
// each value substituted, from where it starts in dst: the template's own
// text is the caller's, written as it is (a command percent-encodes the
// control bytes of a decoded component, not the tab of its template). A
// field with "must:" whose component the URL lacks is an error.
func (t *Template) Append(dst []byte, u *URL, d Display, escape func(dst []byte, from int) []byte) ([]byte, error) {
	put := func(v string) {
		from := len(dst)
		dst = append(dst, v...)
		if escape != nil {
			dst = escape(dst, from)
		}
	}
	for _, f := range t.fields {
		if f.component == "" {
			dst = append(dst, f.literal...)
			continue
		}
		if f.must && !u.Has(f.component) {
			return dst, fmt.Errorf("no %s, which {must:%s} asks for", f.component, f.component)
		}
		switch {
		case f.query != "":
			q := u.Query()
			values := q.GetAll(f.key)
			if f.raw {
				for i, v := range values {
					values[i] = formEncode(v)
				}
			}
			if f.query == "query" && len(values) > 1 {
				values = values[:1]
			}
			put(strings.Join(values, " "))
		case f.component == "url":
			put(u.display(Display{IDN: f.idn || d.IDN && !f.puny, DefaultPort: f.def || d.DefaultPort}))
		default:
			v := u.Get(f.component, !f.raw)
			switch {
			case (f.def || d.DefaultPort) && f.component == "port" && v == "":
				v = u.DefaultPort()
			case f.puny && f.component == "host":
				v = hostASCII(v)
			case (f.idn || d.IDN && !f.puny) && f.component == "host":
				v = hostUnicode(v)
			}
			put(v)
		}
	}
	return dst, nil
}

// formEncode writes a query parameter's value as the
// application/x-www-form-urlencoded serializer does ("tra cker" is
// "tra+cker"), for "{:query:name}".
func formEncode(v string) string {
	var q whatwg.SearchParams
	q.Append("", v)
	return strings.TrimPrefix(q.String(), "=")
}

// display returns the URL as d says to write it.
//
// The host is replaced where it is, after the "//" that follows the scheme
// and after any user information, which may hold the same text.
func (u *URL) display(d Display) string {
	s := u.String()
	host := u.Get("host", false)
	start, _, ok := hostSpan(s)
	if host == "" || !ok || !strings.HasPrefix(s[start:], host) {
		return s
	}
	after := s[start+len(host):]
	if d.DefaultPort && u.Get("port", false) == "" {
		if p := u.DefaultPort(); p != "" {
			after = ":" + p + after
		}
	}
	if d.IDN {
		host = hostUnicode(host)
	}
	return s[:start] + host + after
}

// hostSpan returns where the host of the URL s starts, past any user
// information, and where its authority ends; false if it has none.
func hostSpan(s string) (start, end int, ok bool) {
	start = strings.Index(s, "//")
	if start < 0 {
		return 0, 0, false
	}
	start += len("//")
	end = len(s)
	if i := strings.IndexAny(s[start:], "/?#"); i >= 0 {
		end = start + i // user information has "/", "?" and "#" encoded
	}
	if at := strings.LastIndexByte(s[start:end], '@'); at >= 0 {
		start += at + 1
	}
	return start, end, true
}

// JSON returns the JSON object of u, as trurl's --json writes one: url,
// parts (each component present, decoded, or with encoded as it is in the
// URL) and params (the query's pairs, decoded, in order: an empty list
// for a query of none, as "?&&&" is, and none without a query). d says how
// the url and the parts write the host and the port.
func JSON(u *URL, d Display, encoded bool) ([]byte, error) {
	type param struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	obj := struct {
		URL    string            `json:"url"`
		Parts  map[string]string `json:"parts"`
		Params *[]param          `json:"params,omitempty"`
	}{URL: u.display(d), Parts: map[string]string{}}
	for _, c := range components {
		if u.Has(c) {
			v := u.Get(c, !encoded)
			if c == "host" && d.IDN {
				v = hostUnicode(v)
			}
			obj.Parts[c] = v
		} else if c == "port" && d.DefaultPort {
			if p := u.DefaultPort(); p != "" {
				obj.Parts[c] = p
			}
		}
	}
	if u.Has("query") {
		params := []param{}
		q := u.Query()
		for k, v := range q.All() {
			params = append(params, param{k, v})
		}
		obj.Params = &params
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "&" in a URL stays "&"
	err := enc.Encode(obj)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}
