package whatwg

import (
	"log/slog"
	"net/url"
)

// NetURL returns u as a net/url URL, for the APIs that take one (net/http's
// requests): u's href parsed by [net/url.Parse], so that its String is the
// href again, byte for byte, whenever net/url accepts it. It does not for
// what the URL Standard allows and RFC 3986 does not: a non-special URL's
// opaque host with a "%" or a code point RFC 3986 lacks ("sc://a%zz/"), or
// a space or "|" kept in such a host; those give net/url's error.
func (u URL) NetURL() (*url.URL, error) { return url.Parse(u.href) }

// FromNetURL returns the URL the URL Standard's parser makes of u's
// String. What net/url holds that the Standard has no room for does not
// carry over:
//
//   - a relative reference (no scheme) is an error: a URL is absolute;
//   - OmitHost ("http:/x", a special scheme without a host) reads as a
//     host: "http://x/";
//   - RawPath and RawFragment are kept as written, but Path's own
//     encoding is the Standard's: a space is "%20", "%2F" stays encoded;
//   - ForceQuery's empty "?" and Opaque ("mailto:x") do carry over, and
//     default ports, upper-case hosts and "." segments are normalised.
func FromNetURL(u *url.URL) (URL, error) { return Parse(u.String()) }

// LogValue makes a URL log (log/slog) as its href with its password
// replaced by "xxxxx", as [net/url.URL.Redacted] writes it: logs keep no
// credentials.
func (u URL) LogValue() slog.Value {
	if u.Password() == "" {
		return slog.StringValue(u.href)
	}
	return slog.StringValue(u.href[:u.userEnd] + ":xxxxx" + u.href[u.hostStart-1:])
}
