package relurl

import (
	"strings"

	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/whatwg"
)

// Relative returns the shortest reference that r resolves against base to
// exactly target, and true. Round trip is the contract:
//
//	got, err := r.Resolve(base, ref) // err == nil && got == target
//
// When no reference reaches target, it returns target and false: a target
// that is not absolute, or one r cannot produce, such as, under RFC 3986, a
// path with dot segments, or under the WHATWG URL Standard, anything but a
// serialization its parser writes ("HTTP://A" is not; "http://a/" is). A
// target with a scheme other than base's comes back whole (an absolute
// URL); one that shares only the scheme comes back as a network-path
// reference ("//host/path").
//
// Relative tries the forms a person would write and keeps the shortest that
// resolves back to target, checking each with r.Resolve. Among forms of the
// same length it prefers, in order: a reference within the same document
// ("#frag", "?query", ";params"), a path relative to the base's directory
// (the fewer "../" the better), an absolute path, a network path, the
// absolute URL. A first segment with a colon is written "./this:that", as
// RFC 1808, Section 5.3 recommends, since "this:that" would be a scheme.
func (r Resolver) Relative(base, target string) (string, bool) {
	return r.relative(base, target, false)
}

// RelativePath is Relative limited to relative paths (RFC 1808's
// rel_path, RFC 3986's relative-path reference): the shortest reference
// with no scheme, no host and no leading "/", which reaches target from
// base wherever the two are moved together. When none does (a target on
// another host), it returns target and false.
func (r Resolver) RelativePath(base, target string) (string, bool) {
	return r.relative(base, target, true)
}

func (r Resolver) relative(base, target string, pathOnly bool) (string, bool) {
	given := base
	if r.Spec == WHATWG {
		// Only a serialization comes out of the parser, and the base is
		// compared with the target as the parser writes it.
		u, err := whatwg.Parse(target)
		if err != nil || u.Href() != target {
			return target, false
		}
		if base == "" {
			return target, true // no base: only an absolute URL reaches the target
		}
		b, err := whatwg.Parse(base)
		if err != nil {
			return target, false
		}
		base = b.Href()
	}
	t, b := r.sections(target), r.sections(base)
	var cands []string
	add := func(refs ...string) { cands = append(cands, refs...) }

	if t.prefix(secAuthority) == b.prefix(secAuthority) {
		// The same document: only what follows the path differs.
		if t.path() == b.path() {
			add(t.tails()...)
		}
		// A path relative to the base's directory, then an absolute path.
		rel := relativePath(b.dir(), t.path())
		tail := target[t.end[secPath]:]
		add(rel+tail, "./"+rel+tail)
		if rel == "" {
			add("."+tail, "./"+tail)
		}
		if last := t.path()[strings.LastIndexByte(t.path(), '/')+1:]; last != rel {
			add(last + tail)
		}
		add(target[t.end[secAuthority]:])
	}
	if t.prefix(secScheme) == b.prefix(secScheme) && t.end[secScheme] > 0 {
		add(target[t.end[secScheme]:]) // a network path, or what follows the scheme
	}
	add(target)

	best, found := target, false
	for _, c := range cands {
		if pathOnly && (strings.HasPrefix(c, "/") || rfc1808.Split(c).HasScheme()) {
			continue // not a relative path
		}
		if !found || len(c) < len(best) {
			if got, err := r.Resolve(given, c); err == nil && got == target {
				best, found = c, true
			}
		}
	}
	return best, found
}

// relativePath returns the path that leads from the directory dir to
// target: "../" for each segment of dir after the two part ways, then the
// rest of target.
func relativePath(dir, target string) string {
	common := 0 // the length of the longest common prefix that ends a segment
	for i := 0; i < len(dir) && i < len(target) && dir[i] == target[i]; i++ {
		if dir[i] == '/' {
			common = i + 1
		}
	}
	return strings.Repeat("../", strings.Count(dir[common:], "/")) + target[common:]
}
