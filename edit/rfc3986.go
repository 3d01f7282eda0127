package edit

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/rfc3986"
	"github.com/relurl/relurl/whatwg"
)

// rfcURL is a URI by RFC 3986: its five components (Appendix B), the
// authority split as Section 3.2 writes it, each with whether it is
// present.
type rfcURL struct {
	value   map[string]string
	present map[string]bool
}

// parseRFC parses an absolute URI, which must be valid.
func parseRFC(s string) (rfcURL, error) {
	if err := rfc3986.Validate(s); err != nil {
		return rfcURL{}, err
	}
	v := rfc3986.Split(s)
	if !v.HasScheme() {
		return rfcURL{}, fmt.Errorf("%q is not absolute: it has no scheme", s)
	}
	u := rfcURL{value: map[string]string{}, present: map[string]bool{}}
	u.value["scheme"], u.present["scheme"] = v.Scheme(), true
	if v.HasAuthority() {
		u.setAuthority(v.Authority())
	}
	u.value["path"], u.present["path"] = v.Path(), true
	u.value["query"], u.present["query"] = v.Query(), v.HasQuery()
	u.value["fragment"], u.present["fragment"] = v.Fragment(), v.HasFragment()
	return u, nil
}

// setAuthority splits an authority: [ userinfo "@" ] host [ ":" port ].
func (u *rfcURL) setAuthority(a string) {
	u.present["host"] = true
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		user, pass, hasPass := strings.Cut(a[:i], ":")
		u.value["user"], u.present["user"] = user, true
		u.value["password"], u.present["password"] = pass, hasPass
		a = a[i+1:]
	}
	host := a
	if i := strings.LastIndexByte(a, ':'); i >= 0 && !strings.Contains(a[i:], "]") {
		host = a[:i]
		u.value["port"], u.present["port"] = a[i+1:], true
	}
	u.value["host"] = host
}

func (u *rfcURL) get(c string) string { return u.value[c] }
func (u *rfcURL) has(c string) bool   { return u.present[c] }

// String recomposes the URI (Section 5.3).
func (u *rfcURL) String() string {
	var b strings.Builder
	b.WriteString(u.value["scheme"] + ":")
	if u.present["host"] {
		b.WriteString("//")
		if u.present["user"] {
			b.WriteString(u.value["user"])
			if u.present["password"] {
				b.WriteString(":" + u.value["password"])
			}
			b.WriteString("@")
		}
		b.WriteString(u.value["host"])
		if u.present["port"] {
			b.WriteString(":" + u.value["port"])
		}
	}
	b.WriteString(u.value["path"])
	if u.present["query"] {
		b.WriteString("?" + u.value["query"])
	}
	if u.present["fragment"] {
		b.WriteString("#" + u.value["fragment"])
	}
	return b.String()
}

// set replaces a component by value, written in the RFC's syntax (its
// percent-encoding is the caller's), and checks the whole URI again. An
// empty value removes an optional component (user, password, port,
// query, fragment).
func (u *rfcURL) set(c, value string) error {
	if c == "url" {
		v, err := parseRFC(value)
		if err == nil {
			*u = v
		}
		return err
	}
	next := rfcURL{value: map[string]string{}, present: map[string]bool{}}
	for k, v := range u.value {
		next.value[k] = v
	}
	for k, v := range u.present {
		next.present[k] = v
	}
	switch c {
	case "query":
		value = strings.TrimPrefix(value, "?")
	case "fragment":
		value = strings.TrimPrefix(value, "#")
	}
	if c == "path" && next.present["host"] && value != "" && value[0] != '/' {
		// After an authority a path is empty or begins with "/"
		// (Section 3.3): "abc" is "/abc", as trurl writes it.
		value = "/" + value
	}
	next.value[c] = value
	next.present[c] = value != "" || c == "path" || c == "host" || c == "scheme"
	switch {
	case c == "password" && value != "":
		next.present["user"] = true
	case c == "user" && value == "" && next.present["password"]:
		next.present["user"] = true // ":password@": the user empty, the password kept
	}
	if c != "scheme" && c != "path" && c != "query" && c != "fragment" && next.present[c] {
		next.present["host"] = true
	}
	s := next.String()
	if err := rfc3986.Validate(s); err != nil {
		return fmt.Errorf("set %s to %q: %q is not a URI by RFC 3986: %w", c, value, s, err)
	}
	// A value with another component's delimiters would change that
	// component when the URI is read again ("http://h" with the path
	// "abc" is another host; a path "//x" without an authority makes one):
	// a setter changes its own component alone.
	again, err := parseRFC(s)
	if err != nil {
		return fmt.Errorf("set %s to %q: %q is not an absolute URI by RFC 3986: %w", c, value, s, err)
	}
	for _, other := range components {
		if again.value[other] != next.value[other] || again.present[other] != next.present[other] {
			return fmt.Errorf("set %s to %q: %q reads back with %s %q, not %q: a setter changes its own component alone (percent-encode the value's delimiters)", c, value, s, other, again.value[other], next.value[other])
		}
	}
	*u = next
	return nil
}

// dropDefaultPort removes a port that is the scheme's default, as trurl
// does unless --keep-port.
func (u *rfcURL) dropDefaultPort() {
	if p, ok := whatwg.DefaultPort(strings.ToLower(u.value["scheme"])); ok && u.present["port"] && u.value["port"] == fmt.Sprint(p) {
		u.present["port"] = false
		delete(u.value, "port")
	}
}
