package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Format writes u by template, as trurl's --get does: "{component}" is the
// component decoded, "{:component}" as it is in the URL, "{default:port}"
// the port or else the scheme's default, "{puny:host}" and "{idn:host}"
// the host in ASCII or in Unicode, "{query:name}" the first value of the
// query parameter name, decoded, and "{query-all:name}" all of them,
// separated by spaces; "{{" is a "{". A component the URL lacks is
// empty. With idn, the host is written in Unicode wherever it appears.
func Format(template string, u *URL, idn bool) (string, error) {
	t, err := ParseTemplate(template)
	if err != nil {
		return "", err
	}
	return string(t.Append(nil, u, idn, nil)), nil
}

// A Template is a template of Format, parsed once for many URLs.
type Template struct {
	fields []field
}

// field is a literal, or one "{...}" of a template.
type field struct {
	literal   string
	modifier  string // "", "default", "puny", "idn", "query", "query-all"
	component string // canonical; for query and query-all, the parameter's name
	raw       bool   // "{:component}": as it is in the URL
}

// ParseTemplate parses a template of Format.
func ParseTemplate(template string) (*Template, error) {
	t := &Template{}
	var lit strings.Builder
	for len(template) > 0 {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			lit.WriteString(template)
			break
		}
		lit.WriteString(template[:i])
		template = template[i+1:]
		if strings.HasPrefix(template, "{") {
			lit.WriteByte('{')
			template = template[1:]
			continue
		}
		end := strings.IndexByte(template, '}')
		if end < 0 {
			return nil, errNoClose
		}
		f, err := parseField(template[:end])
		if err != nil {
			return nil, err
		}
		if lit.Len() > 0 {
			t.fields = append(t.fields, field{literal: lit.String()})
			lit.Reset()
		}
		t.fields = append(t.fields, f)
		template = template[end+1:]
	}
	if lit.Len() > 0 {
		t.fields = append(t.fields, field{literal: lit.String()})
	}
	return t, nil
}

// parseField parses what is between "{" and "}".
func parseField(text string) (field, error) {
	modifier, name, ok := strings.Cut(text, ":")
	if !ok {
		modifier, name = "", text
	}
	switch modifier {
	case "query", "query-all":
		return field{modifier: modifier, component: name}, nil
	case "", "default", "puny", "idn":
	default:
		return field{}, fmt.Errorf("{%s}: no modifier %q (want default, puny, idn, query or query-all, or none)", text, modifier)
	}
	c, known := Canonical(name)
	if !known {
		return field{}, fmt.Errorf("{%s}: no component %q", text, name)
	}
	return field{modifier: modifier, component: c, raw: ok && modifier == ""}, nil
}

// Append appends u written by t to dst. escape, unless nil, is applied to
// each value substituted, from where it starts in dst: the template's own
// text is the caller's, written as it is (a command percent-encodes the
// control bytes of a decoded component, not the tab of its template).
func (t *Template) Append(dst []byte, u *URL, idn bool, escape func(dst []byte, from int) []byte) []byte {
	put := func(v string) {
		from := len(dst)
		dst = append(dst, v...)
		if escape != nil {
			dst = escape(dst, from)
		}
	}
	for _, f := range t.fields {
		if f.component == "" && f.modifier == "" {
			dst = append(dst, f.literal...)
			continue
		}
		switch f.modifier {
		case "query", "query-all":
			q := u.Query()
			if f.modifier == "query" {
				v, _ := q.Get(f.component)
				put(v)
			} else {
				put(strings.Join(q.GetAll(f.component), " "))
			}
			continue
		}
		if f.component == "url" {
			put(u.display(idn))
			continue
		}
		v := u.Get(f.component, !f.raw && f.modifier == "")
		switch {
		case f.modifier == "default" && f.component == "port" && v == "":
			v = u.DefaultPort()
		case f.modifier == "puny" && f.component == "host":
			v = Punycode(v)
		case (f.modifier == "idn" || idn && f.modifier == "") && f.component == "host":
			v = IDN(v)
		}
		put(v)
	}
	return dst
}

// display returns the URL, its host in Unicode with idn.
//
// The host is replaced where it is, after the "//" that follows the scheme
// and after any user information, which may hold the same text.
func (u *URL) display(idn bool) string {
	s := u.String()
	host := u.Get("host", false)
	if !idn || host == "" {
		return s
	}
	h := IDN(host)
	start := strings.Index(s, "//")
	if h == host || start < 0 {
		return s
	}
	start += len("//")
	end := len(s)
	if i := strings.IndexAny(s[start:], "/?#"); i >= 0 {
		end = start + i // user information has "/", "?" and "#" encoded
	}
	if at := strings.LastIndexByte(s[start:end], '@'); at >= 0 {
		start += at + 1
	}
	if !strings.HasPrefix(s[start:], host) {
		return s
	}
	return s[:start] + h + s[start+len(host):]
}

// JSON returns the JSON object of u, as trurl's --json writes one: url,
// parts (each component present, decoded) and params (the query's pairs,
// in order).
func JSON(u *URL, idn bool) ([]byte, error) {
	type param struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	obj := struct {
		URL    string            `json:"url"`
		Parts  map[string]string `json:"parts"`
		Params []param           `json:"params,omitempty"`
	}{URL: u.display(idn), Parts: map[string]string{}}
	for _, c := range Components {
		if u.Has(c) {
			v := u.Get(c, true)
			if c == "host" && idn {
				v = IDN(v)
			}
			obj.Parts[c] = v
		}
	}
	q := u.Query()
	for k, v := range q.All() {
		obj.Params = append(obj.Params, param{k, v})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "&" in a URL stays "&"
	err := enc.Encode(obj)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}
