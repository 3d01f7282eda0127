package rfc3986

import (
	"bytes"
	"strings"

	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/grammar"
)

// A URI is a URI reference split into the five components of RFC 3986,
// Section 3, by the regular expression of its Appendix B:
//
//	^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
//
// As [net/netip.Addr] is, it is a small value type: it holds the string and
// the offsets where each component ends, so splitting never copies or
// allocates and [URI.String] gives the input back byte for byte. A
// component is "defined" (Section 5.2.1) when its delimiter is present,
// however empty: "http://a/b?" has an empty query, "http://a/b" none; the
// Has methods tell the two apart. The path is always defined.
//
// Unlike RFC 1808's split, ";" is part of the path and an authority ends at
// the first "/", "?" or "#". The zero URI is the empty reference. URIs are
// comparable with ==, which compares the strings they were split from.
type URI struct {
	// s[:schemeEnd] is "scheme:", s[schemeEnd:authEnd] "//authority",
	// s[authEnd:pathEnd] the path, s[pathEnd:queryEnd] "?query" and
	// s[queryEnd:] "#fragment".
	s                                     string
	schemeEnd, authEnd, pathEnd, queryEnd int
}

// Split splits s by Appendix B. It never fails and loses nothing:
// Split(s).String() == s for every s, valid or not. [Validate] checks s
// against the grammar of Appendix A.
func Split(s string) URI {
	var u URI
	u.split(s)
	return u
}

// split is Split writing into u, which the resolver calls on URIs of its
// own rather than copying returned ones.
func (u *URI) split(s string) {
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

// String returns the string u was split from, unchanged.
func (u URI) String() string { return u.s }

// AppendText implements [encoding.TextAppender]: it appends u's string to
// b. It never fails.
func (u URI) AppendText(b []byte) ([]byte, error) { return append(b, u.s...), nil }

// MarshalText implements [encoding.TextMarshaler]; it returns u's string.
func (u URI) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText implements [encoding.TextUnmarshaler] with [Split], which
// accepts any text. Call [Validate] to check it.
func (u *URI) UnmarshalText(text []byte) error {
	*u = Split(string(text))
	return nil
}

// HasScheme reports whether u begins with a scheme, which makes it a URI
// rather than a relative reference (Section 4.1).
func (u URI) HasScheme() bool { return u.schemeEnd > 0 }

// Scheme returns the scheme, without its ":", as written: schemes compare
// without regard to case (Section 3.1), and the split keeps the case.
func (u URI) Scheme() string { return u.s[:max(u.schemeEnd-1, 0)] }

// HasAuthority reports whether u has an authority, after "//".
func (u URI) HasAuthority() bool { return u.authEnd > u.schemeEnd }

// Authority returns the authority, without its "//": userinfo, host and
// port, not split further.
func (u URI) Authority() string {
	if !u.HasAuthority() {
		return ""
	}
	return u.s[u.schemeEnd+2 : u.authEnd]
}

// Path returns the path, with its leading "/" if it has one. It is always
// defined, and may be empty.
func (u URI) Path() string { return u.s[u.authEnd:u.pathEnd] }

// HasQuery reports whether u has a query: a "?" after the path.
func (u URI) HasQuery() bool { return u.queryEnd > u.pathEnd }

// Query returns the query, without its "?".
func (u URI) Query() string {
	if !u.HasQuery() {
		return ""
	}
	return u.s[u.pathEnd+1 : u.queryEnd]
}

// HasFragment reports whether u has a fragment: a "#" after the query.
func (u URI) HasFragment() bool { return u.queryEnd < len(u.s) }

// Fragment returns the fragment, without its "#".
func (u URI) Fragment() string {
	if !u.HasFragment() {
		return ""
	}
	return u.s[u.queryEnd+1:]
}

// Resolve resolves ref against base by Section 5.2.2, strictly, and
// returns the result: components are taken from the reference from the
// first one it defines on, with merge (5.2.3) and remove_dot_segments
// (5.2.4), which removes "." and ".." from every path, absolute ones too,
// and drops a ".." at the root ("../../../g" against "http://a/b/c/d" is
// "http://a/g"). It agrees with net/url's ResolveReference on references
// net/url accepts, and never fails.
func Resolve(base, ref string) string {
	return bytestr.Owned(AppendResolve(make([]byte, 0, len(base)+len(ref)+1), base, ref))
}

// AppendResolve appends the resolution of ref against base (Section 5.2.2,
// strictly) to dst and returns the extended buffer. It makes no allocation
// when dst has room for the result, which is never longer than
// len(base)+len(ref)+1 bytes.
func AppendResolve(dst []byte, base, ref string) []byte {
	var b URI
	b.split(base)
	return appendResolve(dst, &b, ref, false)
}

// Resolve resolves ref against u, strictly, as the package-level
// [Resolve] does, and returns the result, split.
func (u URI) Resolve(ref string) URI {
	return Split(bytestr.Owned(u.AppendResolve(make([]byte, 0, len(u.s)+len(ref)+1), ref)))
}

// ResolveNonStrict resolves ref against u by the variant of Section 5.2.2
// for parsers that are not strict: a reference whose scheme is the base's
// (compared without regard to case) is read as if it had none, so "http:g"
// against "http://a/b/c/d;p?q" gives "http://a/b/c/g".
func (u URI) ResolveNonStrict(ref string) URI {
	return Split(bytestr.Owned(u.AppendResolveNonStrict(make([]byte, 0, len(u.s)+len(ref)+1), ref)))
}

// AppendResolve appends ref resolved against u, strictly, to dst. It makes
// no allocation when dst has room for the result, which is never longer
// than len(u.String())+len(ref)+1 bytes.
func (u URI) AppendResolve(dst []byte, ref string) []byte {
	// One call, so that the method inlines: a caller with a URI of its own
	// then passes it to appendResolve without another frame.
	return appendResolve(dst, &u, ref, false)
}

// AppendResolveNonStrict is [URI.AppendResolve] by the non-strict variant
// of [URI.ResolveNonStrict].
func (u URI) AppendResolveNonStrict(dst []byte, ref string) []byte {
	return appendResolve(dst, &u, ref, true)
}

// These read the offsets through a pointer. The exported methods take a
// URI by value, which the resolver's hot path must not copy: a struct of
// five fields is copied through memory, not registers.
func (u *URI) hasScheme() bool    { return u.schemeEnd > 0 }
func (u *URI) hasAuthority() bool { return u.authEnd > u.schemeEnd }
func (u *URI) hasQuery() bool     { return u.queryEnd > u.pathEnd }
func (u *URI) path() string       { return u.s[u.authEnd:u.pathEnd] }

// appendResolve is RFC 3986, Section 5.2.2: base b, split, and reference
// ref, which it splits. Like the RFC 1808 resolver, it builds the result from pieces
// of the two, as few as it can, and rewrites only the path, in place.
func appendResolve(dst []byte, b *URI, ref string, nonStrict bool) []byte {
	var rr URI
	rr.split(ref)
	r := &rr
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
	first := grammar.FirstDotSegment(p)
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
