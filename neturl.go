package relurl

import (
	"log/slog"
	"net/url"
)

// URLFromNet returns u's string form, split. net/url keeps RFC 1808's params
// inside its Path, so they come back here as params once more; an empty
// fragment is lost by net/url before this sees it, since
// [net/url.URL.String] writes "#" only for a non-empty fragment.
func URLFromNet(u *url.URL) URL { return Split(u.String()) }

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

// NetURL returns u as a net/url URL, for the APIs that take one (net/http's
// requests): u's href parsed by [net/url.Parse], so that its String is the
// href again, byte for byte, whenever net/url accepts it. It does not for
// what the URL Standard allows and RFC 3986 does not: a non-special URL's
// opaque host with a "%" or a code point RFC 3986 lacks ("sc://a%zz/"), or
// a space or "|" kept in such a host; those give net/url's error.
func (u WebURL) NetURL() (*url.URL, error) { return url.Parse(u.href) }

// WebURLFromNet returns the URL the URL Standard's parser makes of u's
// String. What net/url holds that the Standard has no room for does not
// carry over:
//
//   - a relative reference (no scheme) is an error: a WebURL is absolute;
//   - OmitHost ("http:/x", a special scheme without a host) reads as a
//     host: "http://x/";
//   - RawPath and RawFragment are kept as written, but Path's own
//     encoding is the Standard's: a space is "%20", "%2F" stays encoded;
//   - ForceQuery's empty "?" and Opaque ("mailto:x") do carry over, and
//     default ports, upper-case hosts and "." segments are normalised.
func WebURLFromNet(u *url.URL) (WebURL, error) { return ParseWeb(u.String()) }

// LogValue makes a WebURL log (log/slog) as its href with its password
// replaced by "xxxxx", as [net/url.URL.Redacted] writes it: logs keep no
// credentials.
func (u WebURL) LogValue() slog.Value {
	if u.Password() == "" {
		return slog.StringValue(u.href)
	}
	return slog.StringValue(u.href[:u.userEnd] + ":xxxxx" + u.href[u.hostStart-1:])
}
