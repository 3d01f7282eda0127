package relurl

import (
	"bytes"
	"regexp"
	"strings"
)

// uri is a string split by RFC 3986, Appendix B:
//
//	^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
//
// with, as in URL, the end offsets of each part and its delimiters: s[:schemeEnd]
// is "scheme:", s[schemeEnd:authEnd] "//authority", s[authEnd:pathEnd] the
// path, s[pathEnd:queryEnd] "?query" and s[queryEnd:] "#fragment".
type uri struct {
	s                                     string
	schemeEnd, authEnd, pathEnd, queryEnd int
}

func (u *uri) split(s string) {
	u.s, u.schemeEnd, u.queryEnd = s, 0, len(s)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u.queryEnd = i
	}
	rest := s[:u.queryEnd]
	// strings.IndexByte for each delimiter costs less than one IndexAny.
	if i := strings.IndexByte(rest, ':'); i > 0 && indexSlashOrQuery(rest[:i]) < 0 {
		u.schemeEnd = i + 1
	}
	u.authEnd = u.schemeEnd
	if strings.HasPrefix(rest[u.schemeEnd:], "//") {
		u.authEnd = len(rest)
		if i := indexSlashOrQuery(rest[u.schemeEnd+2:]); i >= 0 {
			u.authEnd = u.schemeEnd + 2 + i
		}
	}
	u.pathEnd = len(rest)
	if i := strings.IndexByte(rest[u.authEnd:], '?'); i >= 0 {
		u.pathEnd = u.authEnd + i
	}
}

// indexSlashOrQuery returns the index of the first "/" or "?" in s, or -1.
func indexSlashOrQuery(s string) int {
	end := len(s)
	if i := strings.IndexByte(s, '/'); i >= 0 {
		end = i
	}
	if i := strings.IndexByte(s[:end], '?'); i >= 0 {
		return i
	}
	if end == len(s) {
		return -1
	}
	return end
}

func (u *uri) hasScheme() bool    { return u.schemeEnd > 0 }
func (u *uri) hasAuthority() bool { return u.authEnd > u.schemeEnd }
func (u *uri) hasQuery() bool     { return u.queryEnd > u.pathEnd }
func (u *uri) path() string       { return u.s[u.authEnd:u.pathEnd] }

// appendResolve3986 is RFC 3986, Section 5.2.2, on split URIs: base b,
// reference r. Like the RFC 1808 resolver, it builds the result from pieces
// of the two, as few as it can, and rewrites only the path, in place.
func appendResolve3986(dst []byte, b, r *uri, nonStrict bool) []byte {
	if r.hasScheme() && !(nonStrict && strings.EqualFold(r.s[:r.schemeEnd], b.s[:b.schemeEnd])) {
		start := len(dst) + r.authEnd
		dst = append(dst, r.s[:r.pathEnd]...)
		return append(removeDotsFrom(dst, start), r.s[r.pathEnd:]...)
	}
	dst = append(dst, b.s[:b.schemeEnd]...) // T.scheme = Base.scheme
	switch {
	case r.hasAuthority():
		start := len(dst) + r.authEnd - r.schemeEnd
		dst = append(dst, r.s[r.schemeEnd:r.pathEnd]...)
		return append(removeDotsFrom(dst, start), r.s[r.pathEnd:]...)
	case r.path() == "":
		if r.hasQuery() {
			dst = append(dst, b.s[b.schemeEnd:b.pathEnd]...) // authority and path
			return append(dst, r.s[r.pathEnd:]...)
		}
		dst = append(dst, b.s[b.schemeEnd:b.queryEnd]...) // and query
		return append(dst, r.s[r.queryEnd:]...)
	}
	var start int
	if p := r.path(); p[0] == '/' {
		dst = append(dst, b.s[b.schemeEnd:b.authEnd]...)
		start = len(dst)
	} else if b.hasAuthority() && b.path() == "" {
		// Section 5.2.3, merge: "/" and the reference's path.
		dst = append(dst, b.s[b.schemeEnd:b.authEnd]...)
		start = len(dst)
		dst = append(dst, '/')
	} else {
		// Section 5.2.3, merge: the base's path up to its last "/", and
		// the reference's path.
		dirEnd := b.authEnd + strings.LastIndexByte(b.path(), '/') + 1
		start = len(dst) + b.authEnd - b.schemeEnd
		dst = append(dst, b.s[b.schemeEnd:dirEnd]...)
	}
	dst = append(dst, r.s[r.schemeEnd:r.pathEnd]...)
	return append(removeDotsFrom(dst, start), r.s[r.pathEnd:]...)
}

// removeDotsFrom removes the dot segments of the path that dst holds from
// start on.
func removeDotsFrom(dst []byte, start int) []byte {
	return dst[:start+removeDotSegments3986(dst[start:])]
}

// removeDotSegments3986 is remove_dot_segments (RFC 3986, Section 5.2.4),
// in place: the input buffer is p[r:], the output buffer p[:w], and w never
// passes r. Where a rule replaces the input's prefix with "/", the "/" is
// written just before what is left of the input. It returns the output's
// length.
func removeDotSegments3986(p []byte) int {
	// Rule E moves the segments before the first dot segment to the output
	// unchanged: start after them, at the "/" before that segment.
	first := firstDotSegment(p)
	if first < 0 {
		return len(p)
	}
	w := max(first-1, 0)
	for r := w; r < len(p); {
		in := p[r:]
		switch {
		case bytes.HasPrefix(in, []byte("../")): // A
			r += 3
		case bytes.HasPrefix(in, []byte("./")): // A
			r += 2
		case bytes.HasPrefix(in, []byte("/./")): // B
			r += 2
		case string(in) == "/.": // B
			r++
			p[r] = '/'
		case bytes.HasPrefix(in, []byte("/../")): // C
			r += 3
			w = max(0, bytes.LastIndexByte(p[:w], '/'))
		case string(in) == "/..": // C
			r += 2
			p[r] = '/'
			w = max(0, bytes.LastIndexByte(p[:w], '/'))
		case string(in) == "." || string(in) == "..": // D
			r = len(p)
		default: // E: the first segment, with its "/" if any
			n := 1 + bytes.IndexByte(in[1:], '/')
			if n == 0 {
				n = len(in)
			}
			w += copy(p[w:], in[:n])
			r += n
		}
	}
	return w
}

// firstDotSegment returns the index where the first segment "." or ".."
// of p begins, or -1 if it has none.
func firstDotSegment(p []byte) int {
	if noDotSegment(p) {
		return -1
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(p[i:], '.')
		if j < 0 {
			return -1
		}
		if i += j; i > 0 && p[i-1] != '/' {
			continue
		}
		if j := i + 1; j == len(p) || p[j] == '/' || p[j] == '.' && (j+1 == len(p) || p[j+1] == '/') {
			return i
		}
	}
}

// noDotSegment reports, with one search, that p cannot have a "." or ".."
// segment: each is followed by "/" or ends the path, and ordinary paths
// rarely have a segment that ends in "." otherwise.
func noDotSegment(p []byte) bool {
	return !bytes.Contains(p, []byte("./")) && !bytes.HasSuffix(p, []byte("."))
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
