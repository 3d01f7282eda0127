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
// those the percent-encode sets of a special URL's path, query and
// fragment leave as they are (encodeTable), and that mean nothing to the
// parser there. The path is cut at "?" and "#", which the path set holds;
// it may not hold "\\" (a special URL's "/"), ":" (which may end a scheme
// or a Windows drive letter), "|" (a drive letter's other form) or "%"
// ("%2e" is a dot segment's "."). After "?" or "#" every byte the query
// and fragment sets leave is kept as it is, a second "#" the fragment's.
var simpleByte = func() (t [256]uint8) {
	for c := range t {
		if encodeTable[c]&pathSet == 0 && !strings.ContainsRune(`\:|%`, rune(c)) {
			t[c] |= simplePath
		}
		if encodeTable[c]&(specialQuerySet|fragmentSet) == 0 || c == '#' {
			t[c] |= simpleRest
		}
		if c == '/' || c == '?' || c == '#' {
			t[c] |= pathStop
		}
	}
	return t
}()

const (
	simplePath = 1 << iota
	simpleRest
	pathStop // "/", "?" and "#", where the path's loop stops to look
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
		if dir < 0 || base.scheme == fileScheme && (dir == 0 || drivePath(path)) {
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
		if simpleByte[c]&(simplePath|pathStop) == simplePath {
			continue // most bytes: one test
		}
		if c == '?' || c == '#' {
			break
		}
		if c != '/' {
			return dst, false
		}
		if dotSegment(rest[seg:i]) {
			return dst, false
		}
		seg = i + 1
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
