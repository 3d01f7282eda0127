/*
Package rfc1808 implements relative URLs exactly as RFC 1808 defines them:
splitting a URL into its six components, checking it against the RFC's
grammar, and resolving a relative reference against the base URL of its
document.

	rfc1808.Resolve("http://a/b/c/d;p?q#f", "../g") // "http://a/b/g"

A Go programmer coming from net/url, note first: [Resolve] keeps a ".."
that would climb above the root, as the RFC says: "../../../g" against
"http://a/b/c/d;p?q" is "http://a/../g", where net/url's ResolveReference
(RFC 3986) gives "http://a/g". Package
[github.com/relurl/relurl/rfc3986] resolves as net/url does, package
[github.com/relurl/relurl/whatwg] as browsers do, and package
[github.com/relurl/relurl] chooses between the three at run time.

# RFC 1808 in brief

RFC 1808 (June 1995) is the first standard for relative URLs. It sees every
URL that follows the "generic-RL" syntax as up to six components
(Section 2.1):

	<scheme>://<net_loc>/<path>;<params>?<query>#<fragment>

Any of them but the path may be absent, and the path may be empty. A
reference such as "../g?y" has no scheme and is relative: it means
something only against the base URL of the document it appears in, which
Section 3 establishes (the document's own declaration, such as HTML's BASE
element; else the entity that encloses it; else the URL it was retrieved
from; else none). Section 4 then gives the algorithm that turns the pair
into an absolute URL, and Section 5 a list of 39 examples that any
implementation must reproduce.
# Splitting

[Split] breaks a string into components by the rules of Section 2.4, in the
RFC's order: the fragment after the first "#", then a scheme before the first
":" if only scheme characters precede it, then a net_loc after "//" up to the
next "/", then a query after the first "?", then params after the first ";".
What is left is the path, and whether a "/" preceded it is remembered.
Splitting never fails and never copies: a [URL] holds the original string and
the offsets of its components, and [URL.String] gives the string back
unchanged, so an empty component ("?" with nothing after it) stays distinct
from an absent one.

	u := rfc1808.Split("http://a/b/c/d;p?q#f")
	u.Scheme()   // "http"
	u.NetLoc()   // "a"
	u.Path()     // "b/c/d", and u.AbsPath() is true
	u.Params()   // "p"
	u.Query()    // "q"
	u.Fragment() // "f"

# Validating

[Validate] checks a string against the BNF of Section 2.2 and tells its form:
generic-RL, another absoluteURL, net_path, abs_path or rel_path. It is strict:
spaces, controls, bytes outside ASCII and the "national" and "punctuation"
characters must be escaped as "%" hex hex. Its errors are [*net/url.Error]
values, as net/url's are, wrapping a [*SyntaxError] that gives the byte
offset, the offending text and the rule:

	parse "http://a/b c": offset 10: " " is not allowed in path (pchar)

Resolution does not require valid input; it works on any pair of strings,
so a link checker can resolve first and validate what it reports.

[SchemeCategoryOf] tells which of the categories of Section 2.3 a scheme
falls in: never used with relative URLs (mailto, news, telnet), using reserved
characters of its own (gopher, prospero, wais), always generic-RL (file, ftp,
http, nntp), or unknown.
# Resolving

[Resolve] and [AppendResolve] follow Section 4 step by step:

  - Step 1: with an empty base, the reference is the result.
  - Step 2: an empty reference is the base, fragment and all (2a); a
    reference with a scheme is the result as it is (2b); otherwise it takes
    the base's scheme (2c).
  - Step 3: a reference with a non-empty net_loc is complete; otherwise it
    takes the base's net_loc.
  - Step 4: a path that starts with "/" is complete.
  - Step 5: an empty path takes the base's path, and the base's params and
    query unless the reference has its own.
  - Step 6: otherwise the last segment of the base's path is replaced by the
    reference's path, and "." and ".." segments are removed: "./" (6a), a
    trailing "." (6b), "<segment>/../" repeatedly from the left (6c) and a
    trailing "<segment>/.." (6d), where <segment> is never "..".
  - Step 7: the components are put back together.

A caller resolving the many links of one document splits its base once and
uses [URL.AppendResolve], which, like [AppendResolve], makes no allocation when
the buffer it is given has room:

	base := rfc1808.Split(pageURL)
	var buf []byte
	for _, href := range hrefs {
		buf = base.AppendResolve(buf[:0], href)
		...
	}

# Where the RFC leaves room

The RFC's words leave a few cases open; relurl decides them as documented on
[URL.AppendResolve]. In short: "non-empty" means non-empty, so "?" or "//"
inherit the base's query or net_loc while "#" keeps its empty fragment; a
reference with any scheme, even the base's, is returned unchanged; ".." never
climbs above the root and never cancels another ".."; a base with a net_loc
and no path is taken to have the path "/"; nothing is decoded or normalised.
# RFC 1808 and RFC 3986

RFC 1808 was replaced by RFC 2396 and then RFC 3986, which Go's net/url
follows. The two agree on most references, but not on all of them. Of the 39
examples of Section 5, net/url gives five other results:

	reference       RFC 1808              RFC 3986 (net/url)
	;x              http://a/b/c/d;x      http://a/b/c/;x
	../../../g      http://a/../g         http://a/g
	../../../../g   http://a/../../g      http://a/g
	/./g            http://a/./g          http://a/g
	/../g           http://a/../g         http://a/g

RFC 3986 has no params, so ";x" is a path segment that replaces "d;p"; and it
removes dot segments from every path, absolute ones too, dropping ".." at the
root, where RFC 1808 leaves an absolute path alone and keeps surplus "..".
Package [github.com/relurl/relurl/rfc3986] resolves by RFC 3986 instead,
exactly and as fast, so that one program can tell what a reference means
under each and where they part; net/url does the same but for an empty
fragment or authority, which it cannot represent. [URL.NetURL] and
[FromNetURL] convert to and from [net/url.URL].
*/
package rfc1808
