/*
Package whatwg implements the WHATWG URL Standard, the one browsers follow:
its basic URL parser, which resolves a reference against its base as it
parses and normalizes what it parses, the URL API's getters and setters,
URLSearchParams, and the validation errors the Standard names.

	page, _ := whatwg.Parse("HTTPS://Example.COM:443/a/b")
	u, _ := page.Parse(`..\%2e\c d`)
	u.Href() // "https://example.com/c%20d"

[Parse] and [URL.Parse] are "new URL(input)" and "new URL(ref, base)",
section by section: the clean-up of the input, the states of "URL
parsing", host parsing (section "Host parsing": IPv4 in all its forms,
IPv6, domains through UTS #46 on the tables of Unicode 17.0, opaque
hosts), the percent-encode sets, and the URL serializer. A [URL] is a
value, as [net/netip.Addr] is: it keeps the href and the offsets of its
components, which its methods give as the Standard's API does (Href,
Protocol, Username, Password, Host, Hostname, Port, Pathname, Search, Hash,
Origin). Its zero value is no URL: every method works on it,
[URL.IsValid] reports false, its setters but WithHref return an error (a
pathname alone would be an href with no scheme), and its text is empty,
which [URL.UnmarshalText] reads back as the zero URL.

The parser can fail (a base that is not absolute, a bad host or port); the
error is a [*net/url.Error] wrapping a [ValidationError], the Standard's
name for what stopped it and its byte offset. The Standard names many more
validation errors that do not stop the parser; [Check] returns them with
the URL, and [Validate] alone.

The setters of the URL API ([URL.WithHref], [URL.WithProtocol], …,
[URL.WithHash]) return a new URL, leaving the one they were called on as it
was; [URL.SearchParams] and [URL.WithSearchParams] are URLSearchParams.
[URL.AppendResolve] resolves the links of one document into a reused
buffer, with no allocation for ASCII input; [AppendResolve] does the same
with the base a string. The domain algorithms of section "IDNA" are
[DomainToASCII] and [DomainToUnicode].

Packages [github.com/relurl/relurl/rfc1808] and
[github.com/relurl/relurl/rfc3986] are the RFCs, which resolve without
normalizing; package [github.com/relurl/relurl] chooses between the three
at run time.
*/
package whatwg
