package whatwg

import (
	"slices"
	"strings"
)

// AppendSURT appends to dst the SURT ("Sort-friendly URI Reordering
// Transform") form of u, the key of the CDX indexes of web archives (the
// Wayback Machine's, Common Crawl's "urlkey", pywb's), as their default
// canonicalization writes it:
//
//   - the scheme, the credentials and the fragment are dropped, and so is
//     a default port (the URL Standard has already dropped it);
//   - a domain's labels are reversed and joined by commas, without a
//     leading "www" label ("www", "www2", ...): "com,example";
//   - a port that is not the default follows as ":8080", then ")";
//   - the path and query follow in lower case, the query's parameters
//     sorted and an empty query dropped: "/a/b?x=1&y=2".
//
// So "https://www.Example.com/A/b?y=2&x=1#f" is "com,example)/a/b?x=1&y=2".
// An IP address is written as it is, and a URL without a host (mailto:,
// data:) is its whole href in lower case. Session IDs, which some
// canonicalizers also remove, are kept.
func (u URL) AppendSURT(dst []byte) []byte {
	if !u.hasHost || u.Hostname() == "" {
		return append(dst, strings.ToLower(u.href[:u.fragEndOrLen()])...)
	}
	host := u.Hostname()
	if _, _, ok := u.domain(); ok {
		labels := strings.Split(strings.TrimSuffix(host, "."), ".")
		if len(labels) > 2 && strings.TrimRight(labels[0], "0123456789") == "www" {
			labels = labels[1:]
		}
		for i := len(labels) - 1; i >= 0; i-- {
			dst = append(dst, labels[i]...)
			if i > 0 {
				dst = append(dst, ',')
			}
		}
	} else {
		dst = append(dst, host...)
	}
	if p := u.Port(); p != "" {
		dst = append(append(dst, ':'), p...)
	}
	dst = append(dst, ')')
	dst = append(dst, strings.ToLower(u.Pathname())...)
	if q, ok := u.Query(); ok && q != "" {
		params := strings.Split(strings.ToLower(q), "&")
		slices.Sort(params)
		dst = append(append(dst, '?'), strings.Join(params, "&")...)
	}
	return dst
}

// fragEndOrLen returns where u's fragment starts, "#" included, or the
// length of its href.
func (u URL) fragEndOrLen() int {
	if u.fragStart >= 0 {
		return u.fragStart
	}
	return len(u.href)
}
