package rfc1808

import "net/url"

// FromNetURL returns u's string form, split. net/url keeps RFC 1808's params
// inside its Path, so they come back here as params once more; an empty
// fragment is lost by net/url before this sees it, since
// [net/url.URL.String] writes "#" only for a non-empty fragment.
func FromNetURL(u *url.URL) URL { return Split(u.String()) }

// NetURL parses u's string with [net/url.Parse], which follows RFC 3986, not
// RFC 1808, so some things do not carry over:
//
//   - net/url has no params: ";params" stays at the end of its Path.
//   - net/url decodes escapes in Path and rejects some strings relurl splits,
//     such as an invalid escape or a first path segment with a ":" in a
//     relative reference; those give net/url's error.
//   - An empty fragment ("#" at the end) is dropped when the net/url URL is
//     written back, and so is an empty net_loc with nothing after it ("//").
//
// The empty query ("?", kept by ForceQuery) and an empty net_loc before a
// path ("///g") survive the round trip through String.
func (u URL) NetURL() (*url.URL, error) { return url.Parse(u.s) }
