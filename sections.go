package relurl

import "strings"

// This file is what Relative needs of a URL, whichever standard split it:
// where its scheme, authority and path end, and the tails that follow.

// The sections of a URL that Relative compares, in order: each ends where
// the next begins, and what follows the path is the tail.
const (
	secScheme    = iota // "scheme:"
	secAuthority        // "//net_loc" under RFC 1808, "//authority" under RFC 3986
	secPath             // the path, with its leading "/"
)

// sections is a URL string cut where Relative looks: each standard's
// split says where (see the standard type's sections method).
type sections struct {
	s   string
	end [3]int // where scheme, authority and path end
	// ends of what follows the path, each a starting point of a tail:
	// params, query, fragment (RFC 1808) or query, fragment (RFC 3986)
	tailStarts []int
}

func (x sections) prefix(section int) string { return x.s[:x.end[section]] }
func (x sections) path() string              { return x.s[x.end[secAuthority]:x.end[secPath]] }

// tails returns the references made of what follows the path, from each
// starting point: ";x?y#f", "?y#f", "#f" (or "").
func (x sections) tails() []string {
	var refs []string
	for _, i := range x.tailStarts {
		refs = append(refs, x.s[i:])
	}
	return refs
}

// dir returns the base's directory: its path up to its last "/", or "/"
// for an empty path after an authority.
func (x sections) dir() string {
	p := x.path()
	if p == "" && x.end[secAuthority] > x.end[secScheme] {
		return "/"
	}
	return p[:strings.LastIndexByte(p, '/')+1]
}
