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
	var b strings.Builder
	for len(template) > 0 {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			b.WriteString(template)
			break
		}
		b.WriteString(template[:i])
		template = template[i+1:]
		if strings.HasPrefix(template, "{") {
			b.WriteByte('{')
			template = template[1:]
			continue
		}
		end := strings.IndexByte(template, '}')
		if end < 0 {
			return "", errNoClose
		}
		v, err := expand(template[:end], u, idn)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		template = template[end+1:]
	}
	return b.String(), nil
}

// expand is one "{...}" of a template.
func expand(field string, u *URL, idn bool) (string, error) {
	modifier, name, ok := strings.Cut(field, ":")
	if !ok {
		modifier, name = "", field
	}
	switch modifier {
	case "query", "query-all":
		q := u.Query()
		if modifier == "query" {
			v, _ := q.Get(name)
			return v, nil
		}
		return strings.Join(q.GetAll(name), " "), nil
	case "", "default", "puny", "idn":
	default:
		return "", fmt.Errorf("{%s}: no modifier %q (want default, puny, idn, query or query-all, or none)", field, modifier)
	}
	c, known := Canonical(name)
	if !known {
		return "", fmt.Errorf("{%s}: no component %q", field, name)
	}
	if c == "url" {
		return u.display(idn), nil
	}
	// "{:x}" is x as it is; "{x}" decoded.
	v := u.Get(c, !ok)
	switch {
	case modifier == "default" && c == "port" && v == "":
		v = u.DefaultPort()
	case modifier == "puny" && c == "host":
		v = Punycode(v)
	case (modifier == "idn" || idn && modifier == "") && c == "host":
		v = IDN(v)
	}
	return v, nil
}

// display returns the URL, its host in Unicode with idn.
func (u *URL) display(idn bool) string {
	s := u.String()
	if !idn {
		return s
	}
	if host := u.Get("host", false); host != "" {
		if h := IDN(host); h != host {
			return strings.Replace(s, host, h, 1)
		}
	}
	return s
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
