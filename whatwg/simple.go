package whatwg

import "strings"

// This file is the basic URL parser's shortcut for the references most
// links of a page are: "page.html", "sub/page.html#part", "../up.html",
// "?q=1", "#top", "/docs/page.html". For a special base URL and a
// reference of characters that no step of the parser changes, parsing
// comes to copying: the base's scheme, host and port, then its path up to
// its last "/" ("relative state", "path state": the base's path with its
// last segment removed, one more for each leading "../", the reference's
// segments appended), or all of its path ("?..."), or all but its
// fragment ("#..."), and then the rest of the reference as it is.
// Anything else takes the parser's whole way. FuzzSimple and TestSimple
// hold the shortcut to that way.

// simpleByte marks the bytes a reference may hold to take the shortcut,
// in its path (simplePath) and in its query and fragment (simpleRest):
// the bytes no percent-encode set of a special URL holds, and that mark
// nothing to the parser there.
var simpleByte = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = simplePath | simpleRest
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = simplePath | simpleRest
		t[c-'a'+'A'] = simplePath | simpleRest
	}
	// Not ":" in the path, which may end a scheme or a Windows drive
	// letter; not "%" there, where "%2e" is a dot segment's "."; "?" and
	// "#" start the query and the fragment, where a second "#" is the
	// fragment's.
	for _, c := range "-._~!$&()*+,;=@/" {
		t[c] = simplePath | simpleRest
	}
	for _, c := range ":%?#" {
		t[c] |= simpleRest
	}
	return t
}()

const (
	simplePath = 1 << iota
	simpleRest
)

// appendSimple appends ref parsed against base to dst, and reports
// whether it could: base is special, with a path, and ref is one of the
// references the file's comment names.
func appendSimple(dst []byte, ref string, base *URL) ([]byte, bool) {
	if base.scheme == notSpecial || base.opaque || ref == "" || ref[0] == '/' && len(ref) > 1 && ref[1] == '/' {
		return dst, false
	}
	href := base.href
	var keep int // how much of the base's href comes before rest
	rest := ref
	switch ref[0] {
	case '?':
		keep = base.pathEnd()
	case '#':
		keep = len(href)
		if base.fragStart >= 0 {
			keep = base.fragStart
		}
	case '/':
		if base.scheme == fileScheme {
			return dst, false // "file slash state" may keep a Windows drive letter of the base
		}
		keep = base.pathStart
	default:
		// The base's path without its last segment, and one segment
		// fewer for each leading "../" ("shorten a URL's path", which
		// stops at the root).
		path := href[base.pathStart:base.pathEnd()]
		dir := strings.LastIndexByte(path, '/')
		drive := len(path) >= 3 && isDriveLetter(path[1:3]) && (len(path) == 3 || path[3] == '/')
		if dir < 0 || base.scheme == fileScheme && (dir == 0 || drive) {
			// A file URL's first segment may be a Windows drive letter,
			// which shortening keeps.
			return dst, false
		}
		for {
			if strings.HasPrefix(rest, "./") {
				rest = rest[2:]
			} else if strings.HasPrefix(rest, "../") {
				rest = rest[3:]
				if dir > 0 {
					dir = strings.LastIndexByte(path[:dir], '/')
				}
			} else {
				break
			}
		}
		keep = base.pathStart + dir + 1
		if strings.HasPrefix(rest, "/") {
			return dst, false // "..//x": an empty segment, left to the parser
		}
	}
	// The path, up to the first "?" or "#": no segment "." or "..".
	i, seg := 0, 0
	for ; i < len(rest); i++ {
		c := rest[i]
		if c == '?' || c == '#' {
			break
		}
		if simpleByte[c]&simplePath == 0 {
			return dst, false
		}
		if c == '/' {
			if dotSegment(rest[seg:i]) {
				return dst, false
			}
			seg = i + 1
		}
	}
	if dotSegment(rest[seg:i]) {
		return dst, false
	}
	for j := i; j < len(rest); j++ {
		if simpleByte[rest[j]]&simpleRest == 0 {
			return dst, false
		}
	}
	return append(append(dst, href[:keep]...), rest...), true
}

// dotSegment reports whether a segment is a single-dot or double-dot
// segment.
func dotSegment(s string) bool { return isSingleDot(s) || isDoubleDot(s) }
