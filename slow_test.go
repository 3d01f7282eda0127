package relurl

import "strings"

// This file is a deliberately literal reading of RFC 1808, Sections 2.4 and
// 4, written for obviousness rather than speed, in the manner of
// net/netip's slow_test.go. The fast code in url.go and resolve.go is
// checked against it on generated and fuzzed inputs.

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

// slowResolve is Section 4, one step at a time, with the decisions
// documented on URL.AppendResolve.
func slowResolve(base, embedded string) string {
	// Step 1.
	if base == "" {
		return embedded
	}

	// Step 2.
	b, e := slowSplit(base), slowSplit(embedded)
	if embedded == "" { // 2a
		return base
	}
	if e.hasScheme { // 2b
		return embedded
	}
	e.scheme, e.hasScheme = b.scheme, b.hasScheme // 2c

	// Step 3.
	if e.netLoc != "" {
		return e.String()
	}
	e.netLoc, e.hasNetLoc = b.netLoc, b.hasNetLoc

	// Step 4.
	if e.slash {
		return e.String()
	}

	// Step 5.
	if e.path == "" {
		e.path, e.slash = b.path, b.slash
		if e.params != "" { // 5a
			return e.String()
		}
		e.params, e.hasParams = b.params, b.hasParams
		if e.query != "" { // 5b
			return e.String()
		}
		e.query, e.hasQuery = b.query, b.hasQuery
		return e.String()
	}

	// Step 6.
	e.path = slowStep6(b.path, e.path)
	e.slash = b.slash || b.hasNetLoc
	return e.String() // Step 7
}

// slowStep6 merges the paths and rewrites the result with the string
// pattern matches 6a to 6d, exactly as the RFC words them.
func slowStep6(basePath, embeddedPath string) string {
	path := basePath[:strings.LastIndex(basePath, "/")+1] + embeddedPath

	// isStart reports whether a complete segment may begin at i.
	isStart := func(p string, i int) bool { return i == 0 || p[i-1] == '/' }

	// 6a: all occurrences of "./" where "." is a complete path segment.
	for i := 0; i+2 <= len(path); {
		if path[i:i+2] == "./" && isStart(path, i) {
			path = path[:i] + path[i+2:]
			continue
		}
		i++
	}

	// 6b: a trailing "." that is a complete path segment.
	if strings.HasSuffix(path, ".") && isStart(path, len(path)-1) {
		path = path[:len(path)-1]
	}

	// 6c: the leftmost "<segment>/../", segment not "..", again and again.
	for {
		found := false
		for i := 0; i < len(path) && !found; i++ {
			if !isStart(path, i) {
				continue
			}
			j := strings.Index(path[i:], "/")
			if j < 0 {
				break
			}
			if seg := path[i : i+j]; seg != ".." && strings.HasPrefix(path[i+j:], "/../") {
				path = path[:i] + path[i+j+4:]
				found = true
			}
		}
		if !found {
			break
		}
	}

	// 6d: a trailing "<segment>/..", segment not "..", once.
	if rest, ok := strings.CutSuffix(path, "/.."); ok {
		i := strings.LastIndex(rest, "/") + 1
		if rest[i:] != ".." {
			path = path[:i]
		}
	}
	return path
}
