package rfc1808

import "strings"

// URL is a string split into the six components of a generic-RL
// (RFC 1808, Section 2.1):
//
//	<scheme>://<net_loc>/<path>;<params>?<query>#<fragment>
//
// It is a small value type, like [net/netip.Addr]: it holds the original
// string and the offsets where each component ends, so splitting never copies
// or allocates, and [URL.String] gives back the input byte for byte. A
// component can be absent, or present and empty ("http://a/b?" has an empty
// query, "http://a/b" has none); the Has methods tell the two apart.
//
// The zero URL is the empty string, an empty relative reference. URL values
// are comparable with ==, which compares the strings they were split from.
type URL struct {
	s string

	// End offsets into s, each past the component and its delimiters, so that
	// s[:schemeEnd] is "scheme:" (or ""), s[schemeEnd:netLocEnd] is
	// "//net_loc" (or ""), s[netLocEnd:pathEnd] is the path with its leading
	// "/", s[pathEnd:paramsEnd] is ";params", s[paramsEnd:queryEnd] is
	// "?query" and s[queryEnd:] is "#fragment". The order is the order in
	// which the components appear, which Section 2.4 guarantees: every
	// delimiter it looks for is the first of its kind in what is left.
	schemeEnd, netLocEnd, pathEnd, paramsEnd, queryEnd int
}

// Split splits s into its components by the parsing rules of RFC 1808,
// Section 2.4, applied in the RFC's order:
//
//  1. the fragment is everything after the first "#" (2.4.1);
//  2. the scheme is what comes before the first ":", if that colon is not the
//     first character and everything before it is a letter, a digit, "+", "."
//     or "-" (2.4.2); a scheme may begin with a digit, as the BNF allows;
//  3. if what is left begins with "//", the net_loc runs from there to the
//     next "/", across any ";" or "?" (2.4.3);
//  4. the query is everything after the first "?" of what is left (2.4.4);
//  5. the params are everything after the first ";" of what is left (2.4.5);
//  6. the rest is the path, with the "/" that may precede it (2.4.6).
//
// Split never fails and loses nothing: Split(s).String() == s for every s,
// valid or not. Use [Validate] to check s against the BNF of Section 2.2.
func Split(s string) URL {
	var u URL
	u.split(s)
	return u
}

// split is Split writing into u. The resolver calls it on URLs of its own:
// copying a returned URL costs more than splitting a short one, since the
// copy reloads what was just stored through wider moves, which the
// processor cannot forward from the stores.
func (u *URL) split(s string) {
	u.s, u.schemeEnd, u.queryEnd = s, 0, len(s)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u.queryEnd = i
	}
	rest := s[:u.queryEnd]

	// A scheme needs a colon; most references have none, and looking for
	// one costs less than walking the letters of a long first segment.
	if i := strings.IndexByte(rest, ':'); i > 0 && isScheme(rest[:i]) {
		u.schemeEnd = i + 1
	}

	u.netLocEnd = u.schemeEnd
	if strings.HasPrefix(rest[u.schemeEnd:], "//") {
		u.netLocEnd = len(rest)
		if i := strings.IndexByte(rest[u.schemeEnd+2:], '/'); i >= 0 {
			u.netLocEnd = u.schemeEnd + 2 + i
		}
	}

	u.paramsEnd = len(rest)
	if i := strings.IndexByte(rest[u.netLocEnd:], '?'); i >= 0 {
		u.paramsEnd = u.netLocEnd + i
	}
	u.pathEnd = u.paramsEnd
	if i := strings.IndexByte(rest[u.netLocEnd:u.paramsEnd], ';'); i >= 0 {
		u.pathEnd = u.netLocEnd + i
	}
}

// isScheme reports whether s is a scheme name (Section 2.2):
// scheme = 1*( alpha | digit | "+" | "-" | "." ).
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// String returns the string u was split from, unchanged.
func (u URL) String() string { return u.s }

// AppendText implements [encoding.TextAppender]: it appends u's string to
// b. It never fails.
func (u URL) AppendText(b []byte) ([]byte, error) { return append(b, u.s...), nil }

// MarshalText implements [encoding.TextMarshaler]; it returns u's string.
func (u URL) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText implements [encoding.TextUnmarshaler] with [Split]: like
// Split it accepts any text. Call Validate on the result to check it.
func (u *URL) UnmarshalText(text []byte) error {
	*u = Split(string(text))
	return nil
}

// HasScheme reports whether u begins with a scheme (Section 2.4.2), which
// makes it an absolute URL.
func (u URL) HasScheme() bool { return u.schemeEnd > 0 }

// Scheme returns the scheme without its ":", as written (case is kept).
func (u URL) Scheme() string {
	if u.schemeEnd == 0 {
		return ""
	}
	return u.s[:u.schemeEnd-1]
}

// HasNetLoc reports whether u has a net_loc, that is, whether "//" follows
// the scheme (Section 2.4.3). "//" alone is an empty net_loc that is present.
func (u URL) HasNetLoc() bool { return u.netLocEnd > u.schemeEnd }

// NetLoc returns the network location and login (net_loc) without the "//".
func (u URL) NetLoc() string {
	if !u.HasNetLoc() {
		return ""
	}
	return u.s[u.schemeEnd+2 : u.netLocEnd]
}

// AbsPath reports whether the path is preceded by a "/" (Section 2.4.6): an
// abs_path rather than a rel_path. It is true for "http://a/" and "/", whose
// paths are empty, and false for "http://a" and "g".
func (u URL) AbsPath() bool { return u.pathEnd > u.netLocEnd && u.s[u.netLocEnd] == '/' }

// Path returns the path without the "/" that may precede it: "b/c" for
// "http://a/b/c". [URL.AbsPath] tells whether the slash was there. A path
// is never absent, only empty.
func (u URL) Path() string {
	if u.AbsPath() {
		return u.s[u.netLocEnd+1 : u.pathEnd]
	}
	return u.s[u.netLocEnd:u.pathEnd]
}

// HasParams reports whether u has a ";" that starts params (Section 2.4.5).
func (u URL) HasParams() bool { return u.paramsEnd > u.pathEnd }

// Params returns the params without the leading ";". Further ";" that
// separate params within it are kept: "a;b" for "g;a;b".
func (u URL) Params() string {
	if !u.HasParams() {
		return ""
	}
	return u.s[u.pathEnd+1 : u.paramsEnd]
}

// HasQuery reports whether u has a "?" that starts a query (Section 2.4.4).
func (u URL) HasQuery() bool { return u.queryEnd > u.paramsEnd }

// Query returns the query without the "?".
func (u URL) Query() string {
	if !u.HasQuery() {
		return ""
	}
	return u.s[u.paramsEnd+1 : u.queryEnd]
}

// HasFragment reports whether u has a "#" that starts a fragment
// identifier (Section 2.4.1).
func (u URL) HasFragment() bool { return u.queryEnd < len(u.s) }

// Fragment returns the fragment identifier without the "#".
func (u URL) Fragment() string {
	if !u.HasFragment() {
		return ""
	}
	return u.s[u.queryEnd+1:]
}
