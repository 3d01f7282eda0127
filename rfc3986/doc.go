/*
Package rfc3986 implements URI references as RFC 3986 defines them, the
standard Go's net/url follows: the split of its Appendix B, resolution by
Section 5.2, and validation against the grammar of its Appendix A.

	rfc3986.Resolve("http://a/b/c/d;p?q", "../../../g") // "http://a/g"

A [URI] is a reference split into its five components, scheme, authority,
path, query and fragment, each "defined" when its delimiter is present
however empty: "?" has an empty query, which resolution keeps, where an
absent query inherits the base's. Splitting never fails, never copies and
loses nothing, so a URI gives back the string it was made from byte for
byte, as [net/netip.Addr] gives its address.

	u := rfc3986.Split("http://a/b/c/d;p?q#f")
	u.Authority() // "a"
	u.Path()      // "/b/c/d;p": RFC 3986 has no params
	u.Query()     // "q"

Resolution is Section 5.2.2, strict unless asked otherwise
([URI.ResolveNonStrict]), with merge (5.2.3) and remove_dot_segments
(5.2.4), which removes "." and ".." from every path, absolute ones too, and
drops a ".." at the root. It agrees with net/url's ResolveReference on
every reference net/url accepts; unlike net/url it keeps an empty fragment
or authority, decodes nothing and never fails. [URI.AppendResolve] resolves
the links of one document into a reused buffer with no allocation.

[Validate] checks a string against the URI-reference rule of Appendix A,
strictly: a space, a byte outside ASCII or a "%" not followed by two hex
digits is an error naming its byte offset and the rule it breaks.

Package [github.com/relurl/relurl/rfc1808] is the standard RFC 3986
replaced, which keeps params and surplus ".." segments; package
[github.com/relurl/relurl/whatwg] is what browsers do.
*/
package rfc3986
