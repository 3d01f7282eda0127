package rfc1808

import (
	"bytes"
	"strings"

	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/grammar"
)

// Resolve resolves the reference ref against the base URL base by the
// algorithm of RFC 1808, Section 4, and returns the result. It is
// Split(base).Resolve(ref) as a string; see [URL.AppendResolve] for the
// algorithm and the decisions it makes where the RFC leaves room.
//
// Unlike net/url's ResolveReference (RFC 3986), it keeps a ".." segment
// that would climb above the root: "../../../g" against "http://a/b/c/d"
// is "http://a/../g", not "http://a/g".
func Resolve(base, ref string) string {
	return Split(base).resolveString(ref)
}

// AppendResolve appends the resolution of ref against base (Section 4) to
// dst and returns the extended buffer, as strconv's Append functions do. It
// makes no allocation when dst has room for the result, which is never
// longer than len(base)+len(ref)+1 bytes. It is the fastest way to resolve
// pairs that do not share a base: it splits both strings in place.
func AppendResolve(dst []byte, base, ref string) []byte {
	var u, r URL
	u.split(base)
	r.split(ref)
	return appendResolve(dst, &u, &r)
}

// Resolve resolves ref against u by RFC 1808, Section 4, and returns the
// result, split. Split the base once and call Resolve for each reference
// found in its document. u is not modified.
func (u URL) Resolve(ref string) URL {
	return Split(u.resolveString(ref))
}

// resolveString returns the resolution of ref against u as a string, with
// one allocation at most, and none when the result is the base or the
// reference itself (Steps 1, 2a and 2b), which is common: absolute links,
// the empty reference.
func (u URL) resolveString(ref string) string {
	r := Split(ref)
	switch {
	case u.s == "" || r.HasScheme():
		return ref
	case ref == "":
		return u.s
	}
	return bytestr.Owned(appendResolve(make([]byte, 0, len(u.s)+len(ref)+1), &u, &r))
}

// AppendResolve appends the resolution of ref against u to dst and returns
// the extended buffer. It follows RFC 1808, Section 4, step by step:
//
//   - Step 1: if u is empty (no base is known), ref is the result.
//   - Step 2a: if ref is empty, u is the result, fragment included.
//   - Step 2b: if ref has a scheme, ref is the result.
//   - Step 2c: otherwise the result takes u's scheme, and
//   - Step 3: if ref's net_loc is non-empty, the rest of ref; otherwise u's
//     net_loc, if any, and
//   - Step 4: if ref's path is preceded by "/", the rest of ref;
//   - Step 5: if ref's path is empty, u's path, and u's params unless ref
//     has non-empty params, and u's query unless ref has non-empty params or
//     a non-empty query, and then the rest of ref;
//   - Step 6: otherwise u's path without its last segment, followed by ref's
//     path, with "." and ".." segments removed by steps 6a to 6d;
//   - Step 7: the components above, recombined, and ref's params, query and
//     fragment.
//
// Where the RFC leaves room, AppendResolve decides as follows:
//
//   - "Non-empty" in Steps 3, 5a and 5b means what it says: a net_loc, params
//     or query that is present but empty in ref is replaced by u's, so
//     "///g" gives "http://a/g" and "?" gives "http://a/b/c/d;p?q". A
//     fragment is never inherited (Step 7), so an empty one stays: "#"
//     gives "http://a/b/c/d;p?q#".
//   - Steps 1 and 2b return ref byte for byte, even when its scheme is
//     u's: "HTTP:g" against "http://a/b" gives "HTTP:g" (Section 5.2 calls
//     the older reading a loophole). Step 2a is for the zero-length
//     reference only.
//   - A base without a scheme is used as it is, and the result has none.
//   - Step 6 works on u's path without its leading "/", which Step 7 puts
//     back, so ".." can never consume the root: "../../../g" gives
//     "http://a/../g". An empty segment is a segment like any other ("b//c"
//     and "../g" give "b/g"); ".." never cancels ".."; surplus ".." stay.
//     Step 6c removes the leftmost "<segment>/../" until none is left; Step
//     6d removes one trailing "<segment>/..".
//   - A base with a net_loc and an empty path resolves relative paths as if
//     its path were "/": "g" against "http://a" gives "http://a/g", and "."
//     gives "http://a/". A base without a net_loc and without a slash before
//     its path gets none ("g" against "foo:" gives "foo:g").
//   - Nothing is decoded, re-parsed or normalised: "%2e%2e" is not "..",
//     case is kept, and "?y" against "http://a" gives "http://a?y".
//
// AppendResolve never fails: any pair of strings has a result. It makes no
// allocation when dst has room for the result, which is never longer than
// len(u.String())+len(ref)+1 bytes. u is not modified.
func (u URL) AppendResolve(dst []byte, ref string) []byte {
	var r URL
	r.split(ref)
	return appendResolve(dst, &u, &r)
}

// appendResolve is AppendResolve on split URLs. Every result of Section 4
// is a prefix of the base followed by a suffix of the reference, with only
// Step 6 doing more: a "/" for a base with a net_loc and no path, and the
// removal of dot segments from the merged path.
//
// It reads the offsets directly: calling URL's value methods through u and r
// would copy the structs, which costs more than the rest of a common case.
func appendResolve(dst []byte, u, r *URL) []byte {
	ref := r.s
	switch {
	case u.s == "" || r.schemeEnd > 0: // Steps 1 and 2b
		return append(dst, ref...)
	case ref == "": // Step 2a
		return append(dst, u.s...)
	case r.netLocEnd > 2: // Step 3: a non-empty net_loc; 2c inherits the scheme.
		return append(append(dst, u.s[:u.schemeEnd]...), ref...)
	case r.pathEnd > r.netLocEnd && ref[r.netLocEnd] == '/': // Step 4; 3 inherits the net_loc.
		return append(append(dst, u.s[:u.netLocEnd]...), ref[r.netLocEnd:]...)
	case r.pathEnd == r.netLocEnd: // Step 5: the path is empty and inherited.
		switch {
		case r.paramsEnd > r.pathEnd+1: // 5a: non-empty params
			return append(append(dst, u.s[:u.pathEnd]...), ref[r.pathEnd:]...)
		case r.queryEnd > r.paramsEnd+1: // 5b: non-empty query; 5a inherits the params.
			return append(append(dst, u.s[:u.paramsEnd]...), ref[r.paramsEnd:]...)
		}
		return append(append(dst, u.s[:u.queryEnd]...), ref[r.queryEnd:]...)
	}

	// Step 6: the base up to the last "/" of its path, which drops the last
	// segment, then ref. Dot segments are removed from the path without its
	// leading "/" (from start on).
	hasNetLoc := u.netLocEnd > u.schemeEnd
	absPath := u.pathEnd > u.netLocEnd && u.s[u.netLocEnd] == '/'
	start := u.netLocEnd
	if absPath {
		start++
	}
	dirEnd := max(start, strings.LastIndexByte(u.s[:u.pathEnd], '/')+1)
	dst = append(dst, u.s[:dirEnd]...)
	start += len(dst) - dirEnd
	if hasNetLoc && !absPath {
		dst = append(dst, '/')
		start++
	}
	dst = append(dst, ref[:r.pathEnd]...)
	dst = dst[:start+removeDotSegments(dst[start:])]
	return append(dst, ref[r.pathEnd:]...) // Step 7
}

// removeDotSegments applies Steps 6a to 6d of Section 4 to the path p, in
// place, and returns its new length. It makes one pass over the segments,
// keeping the output (always a run of complete segments, each followed by
// "/", until the last) at the front of p:
//
//   - "." is dropped, whether followed by "/" (6a) or last (6b);
//   - ".." drops the output's last segment when there is one and it is not
//     ".." itself: followed by "/" that is 6c, last it is 6d;
//   - anything else, the empty segment included, is kept.
//
// The RFC describes 6c as the leftmost "<segment>/../" removed again and
// again; matching each ".." with the nearest segment before it that no other
// ".." took gives the same path in one pass, as the tests check against a
// literal implementation of the RFC's rewrites.
func removeDotSegments(p []byte) int {
	// Everything before the first dot segment stays as it is.
	r := grammar.FirstDotSegment(p)
	if r < 0 {
		return len(p)
	}
	w := r
	for r < len(p) {
		end, next := len(p), len(p)
		if i := bytes.IndexByte(p[r:], '/'); i >= 0 {
			end, next = r+i, r+i+1
		}
		switch seg := p[r:end]; {
		case len(seg) == 1 && seg[0] == '.':
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.' && w > 0 && !isDotDot(p[:w]):
			w = bytes.LastIndexByte(p[:w-1], '/') + 1
		default:
			w += copy(p[w:], p[r:next])
		}
		r = next
	}
	return w
}

// isDotDot reports whether the last segment of out, which ends with "/", is "..".
func isDotDot(out []byte) bool {
	return bytes.HasSuffix(out, []byte("../")) && (len(out) == 3 || out[len(out)-4] == '/')
}
