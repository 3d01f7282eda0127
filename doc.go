/*
Package relurl resolves relative URLs by the standard a caller chooses at run
time: RFC 1808, the founding text of relative URLs; RFC 3986, which Go's
net/url follows; or the WHATWG URL Standard, which browsers follow. Each
standard is a package of its own, which can be used alone:

	rfc1808.Resolve("http://a/b/c/d;p?q", "../../../g h") // "http://a/../g h"
	rfc3986.Resolve("http://a/b/c/d;p?q", "../../../g h") // "http://a/g h"
	u, _ := whatwg.Parse("http://a/b/c/d;p?q")
	v, _ := u.Parse("../../../g h")                       // "http://a/g%20h"

This package is for a program that lets its user choose, as relurl's
command does with -spec: a [Resolver], whose Spec is [RFC1808] (the zero
value, as the founding text), [RFC3986] or [WHATWG], resolves by that
standard, with one signature for all three. [Resolver.Base] prepares a
document's base URL once for its many links, and [Base.AppendResolve]
resolves each into a reused buffer with no allocation.

	r := relurl.Resolver{Spec: relurl.WHATWG}
	base, err := r.Base(pageURL)
	...
	for _, href := range hrefs {
		buf, err = base.AppendResolve(buf[:0], href)
		...
	}

Under the WHATWG URL Standard a Resolver also encodes a query in the
document's own encoding, as browsers do ([Resolver.QueryEncoding]).

# Going the other way, and saying why

[Resolver.Relative] finds the shortest reference that resolves against a
base to exactly a given URL, the inverse of resolution: the checker of a
round trip, and what a tool that writes links needs. [Resolver.Explain]
returns the trace of a resolution, step by step in the standard's own
terms, with each rewrite of the path; for the RFCs it is a literal
implementation of the algorithm, and the fast resolvers are tested against
it.

# Documents and their base URLs

Section 3 of RFC 1808, how a document's base URL is established, and
extracting a document's links and resolving them, HTML and MIME alike, are
the job of package [github.com/relurl/relurl/links].
*/
package relurl
