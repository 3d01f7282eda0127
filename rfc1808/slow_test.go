package rfc1808

import "strings"

// This file is a deliberately literal reading of RFC 1808, Section 2.4,
// written for obviousness rather than speed, in the manner of net/netip's
// slow_test.go; Split is checked against it on generated and fuzzed inputs.
// The literal reading of Section 4 is Explain (explain.go), which the
// library needs for its traces; the fast resolver is checked against it.

// slowURL holds the components of Section 2.1 as separate strings, with a
// flag for each that may be present and empty.
type slowURL struct {
	scheme, netLoc, path, params, query, fragment string

	hasScheme, hasNetLoc, slash, hasParams, hasQuery, hasFragment bool
}

// slowSplit follows Section 2.4 as written: each step finds its delimiter in
// the parse string and removes what it matched before the next step begins.
func slowSplit(s string) slowURL {
	var u slowURL
	parse := s

	// 2.4.1: after the first "#".
	if i := strings.Index(parse, "#"); i >= 0 {
		u.fragment, u.hasFragment = parse[i+1:], true
		parse = parse[:i]
	}

	// 2.4.2: a colon after the first character and before any character
	// not allowed in a scheme name.
	if i := strings.Index(parse, ":"); i > 0 {
		if strings.Trim(parse[:i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") == "" {
			u.scheme, u.hasScheme = parse[:i], true
			parse = parse[i+1:]
		}
	}

	// 2.4.3: "//" up to the next "/".
	if strings.HasPrefix(parse, "//") {
		parse = parse[2:]
		u.hasNetLoc = true
		if i := strings.Index(parse, "/"); i >= 0 {
			u.netLoc, parse = parse[:i], parse[i:]
		} else {
			u.netLoc, parse = parse, ""
		}
	}

	// 2.4.4: after the first "?".
	if i := strings.Index(parse, "?"); i >= 0 {
		u.query, u.hasQuery = parse[i+1:], true
		parse = parse[:i]
	}

	// 2.4.5: after the first ";".
	if i := strings.Index(parse, ";"); i >= 0 {
		u.params, u.hasParams = parse[i+1:], true
		parse = parse[:i]
	}

	// 2.4.6: the path, remembering the slash.
	u.path, u.slash = strings.CutPrefix(parse, "/")
	return u
}

// String is Step 7: the components recombined.
func (u slowURL) String() string {
	var b strings.Builder
	if u.hasScheme {
		b.WriteString(u.scheme + ":")
	}
	if u.hasNetLoc {
		b.WriteString("//" + u.netLoc)
	}
	if u.slash {
		b.WriteString("/")
	}
	b.WriteString(u.path)
	if u.hasParams {
		b.WriteString(";" + u.params)
	}
	if u.hasQuery {
		b.WriteString("?" + u.query)
	}
	if u.hasFragment {
		b.WriteString("#" + u.fragment)
	}
	return b.String()
}
