package relurl

import (
	"regexp"
	"strings"

	"github.com/relurl/relurl/rfc1808"
)

// A Part is one component that is present in a URL, however empty. The
// path is always present; under RFC 1808 it is given with the "/" that may
// precede it.
type Part struct {
	Name  string `json:"name"` // "scheme", "net_loc" (RFC 1808) or "authority" (RFC 3986), "path", "params", "query", "fragment"
	Value string `json:"value"`
}

// parts1808 lists u's present components.
func parts1808(u rfc1808.URL) []Part {
	var ps []Part
	ps = addPart(ps, "scheme", u.Scheme(), u.HasScheme())
	ps = addPart(ps, "net_loc", u.NetLoc(), u.HasNetLoc())
	ps = addPart(ps, "path", path1808(u), true)
	ps = addPart(ps, "params", u.Params(), u.HasParams())
	ps = addPart(ps, "query", u.Query(), u.HasQuery())
	return addPart(ps, "fragment", u.Fragment(), u.HasFragment())
}

// addPart appends a component to ps if it is present.
func addPart(ps []Part, name, value string, present bool) []Part {
	if !present {
		return ps
	}
	return append(ps, Part{name, value})
}

// path1808 is u's path as Section 2.4 cuts it, with the "/" before it.
func path1808(u rfc1808.URL) string {
	if u.AbsPath() {
		return "/" + u.Path()
	}
	return u.Path()
}

// appendixB is the regular expression of RFC 3986, Appendix B, where "."
// matches any character, line breaks included.
var appendixB = regexp.MustCompile(`(?s)^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`)

// components3986 holds a URI reference's components with whether each is
// defined (RFC 3986, Section 5.2.1).
type components3986 struct {
	scheme, authority, path, query, fragment       string
	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

func split3986(s string) components3986 {
	m := appendixB.FindStringSubmatch(s)
	return components3986{
		scheme: m[2], authority: m[4], path: m[5], query: m[7], fragment: m[9],
		hasScheme: m[1] != "", hasAuthority: m[3] != "", hasQuery: m[6] != "", hasFragment: m[8] != "",
	}
}

func (c components3986) parts() []Part {
	var ps []Part
	ps = addPart(ps, "scheme", c.scheme, c.hasScheme)
	ps = addPart(ps, "authority", c.authority, c.hasAuthority)
	ps = addPart(ps, "path", c.path, true)
	ps = addPart(ps, "query", c.query, c.hasQuery)
	return addPart(ps, "fragment", c.fragment, c.hasFragment)
}

// String is Section 5.3, component recomposition.
func (c components3986) String() string {
	var b strings.Builder
	if c.hasScheme {
		b.WriteString(c.scheme + ":")
	}
	if c.hasAuthority {
		b.WriteString("//" + c.authority)
	}
	b.WriteString(c.path)
	if c.hasQuery {
		b.WriteString("?" + c.query)
	}
	if c.hasFragment {
		b.WriteString("#" + c.fragment)
	}
	return b.String()
}
