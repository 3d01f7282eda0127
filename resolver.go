package relurl

import (
	"net/url"

	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/rfc3986"
	"github.com/relurl/relurl/whatwg"
	"golang.org/x/text/encoding"
)

// A Resolver resolves references by one standard, its Spec, chosen at run
// time. The zero Resolver follows RFC 1808, as package rfc1808 does: it
// splits by Section 2.4 and resolves by Section 4, keeping a ".." that would
// climb above the root.
//
// Under RFC 3986 a reference is split by the regular expression of its
// Appendix B, so ";" is part of the path and a net_loc ("authority") ends at
// the first "/", "?" or "#"; resolution is Section 5.2.2 (strict unless
// NonStrict), with merge (5.2.3) and remove_dot_segments (5.2.4), which
// removes "." and ".." from every path, absolute ones too, and drops ".."
// at the root. Components are "defined" when their delimiter is present,
// however empty: "?" gives an empty query, not the base's.
//
// Under the WHATWG URL Standard, resolution is parsing the reference with
// the base URL, as [whatwg.URL.Parse] does, and gives the serialization of the
// result: normalized as a browser normalizes it. It is the one standard
// under which resolution can fail (a base that is not an absolute URL, a
// host or port the parser refuses); the error says why and where. An empty
// base is no base there: the reference must be an absolute URL, as with
// new URL(ref).
type Resolver struct {
	Spec Spec // RFC1808 (the zero value), RFC3986 or WHATWG
	// NonStrict selects, under RFC 3986, the variant of Section 5.2.2 for
	// old parsers: a reference whose scheme is the base's (compared without
	// regard to case) is read as if it had none, so "http:g" against
	// "http://a/b/c/d;p?q" gives "http://a/b/c/g". It has no effect under
	// RFC 1808, which calls that reading a loophole (Section 5.2), nor under
	// the WHATWG URL Standard, which reads "http:g" so for special schemes
	// and only for them.
	NonStrict bool
	// QueryEncoding, under the WHATWG URL Standard, is the encoding of the
	// document the references come from, when it is not UTF-8: the query
	// of a special URL (but ws: and wss:) is encoded in it before it is
	// percent-encoded, as browsers do (HTML's "encoding-parse a URL"); a
	// code point it lacks is sent as "&#N;". Nil means UTF-8, which is
	// also what UTF-16 documents use. Only references are encoded so; a
	// base URL given as a string is parsed as UTF-8. Take it from
	// webencoding.Get, whose single-byte encodings are the Encoding
	// Standard's, as a browser's are.
	QueryEncoding encoding.Encoding
}

// Resolve returns ref resolved against base by r's standard.
func (r Resolver) Resolve(base, ref string) (string, error) {
	dst, err := r.AppendResolve(make([]byte, 0, len(base)+len(ref)+1), base, ref)
	return bytestr.Owned(dst), err
}

// AppendResolve appends ref resolved against base by r's standard to dst.
// Under the RFCs it makes no allocation when dst has room for the result,
// which is never longer than len(base)+len(ref)+1 bytes, and never fails.
// Under the WHATWG URL Standard it parses base first, into dst's spare
// room, so it makes no allocation for ASCII input when dst has room for
// both; resolving many references against one base is twice as fast with
// [Resolver.Base]. On failure it returns dst unchanged.
func (r Resolver) AppendResolve(dst []byte, base, ref string) ([]byte, error) {
	// A per-reference path, as Base.AppendResolve: it switches itself.
	switch r.Spec {
	case RFC3986:
		return std3986{}.appendResolve(r, dst, base, ref)
	case WHATWG:
		return stdWeb{}.appendResolve(r, dst, base, ref)
	}
	return std1808{}.appendResolve(r, dst, base, ref)
}

// A Base is a base URL made ready, once, to resolve many references by
// one standard: split (RFC 1808, RFC 3986) or parsed (WHATWG). A link
// extractor keeps one per document. Make one with [Resolver.Base]; the zero
// Base is the empty base of RFC 1808, against which every reference
// resolves to itself.
type Base struct {
	// One field for each standard, the other two zero: a union by
	// interface would put an indirect call on the path of every link, and
	// a Base is made once a document, so its size (216 bytes) is paid once
	// a document too.
	r       Resolver
	rfc1808 rfc1808.URL
	rfc3986 rfc3986.URI
	web     whatwg.URL
}

// Base prepares base for resolving references by r's standard. Only the
// WHATWG URL Standard can refuse a base: one the parser fails on, or one
// with no scheme.
func (r Resolver) Base(base string) (Base, error) {
	return r.Spec.standard().prepare(r, base)
}

// Resolve returns ref resolved against b, as [Resolver.Resolve] does, but
// without preparing the base again.
func (b *Base) Resolve(ref string) (string, error) {
	dst, err := b.AppendResolve(make([]byte, 0, len(b.String())+len(ref)+1), ref)
	return bytestr.Owned(dst), err
}

// String returns the base URL: as given under the RFCs, serialized under
// the WHATWG URL Standard.
func (b *Base) String() string {
	return b.r.Spec.standard().baseString(b)
}

// AppendResolve appends ref resolved against b to dst, as
// [Resolver.AppendResolve] does, but without preparing the base again. For
// ASCII input it makes no allocation when dst has room.
func (b *Base) AppendResolve(dst []byte, ref string) ([]byte, error) {
	// The one path taken for every link of a document switches itself:
	// through standard, the interface call costs it 4-6% (measured with
	// bench/before-after.sh).
	switch b.r.Spec {
	case RFC3986:
		return std3986{}.appendResolveBase(b, dst, ref)
	case WHATWG:
		return stdWeb{}.appendResolveBase(b, dst, ref)
	}
	return std1808{}.appendResolveBase(b, dst, ref)
}

// Components lists the components of s that are present under r's
// standard, in order, each with its value however empty: RFC 1808's six
// (Section 2.4, "net_loc"), RFC 3986's five (Appendix B, "authority"), or
// the non-null ones of the URL record the WHATWG URL Standard's parser
// makes of s, which must then be an absolute URL.
func (r Resolver) Components(s string) ([]Part, error) {
	return r.Spec.standard().components(s)
}

// Validate checks s against the grammar of r's RFC: under RFC 1808, as the
// package-level [Validate] does (without the form); under RFC 3986, the
// URI-reference rule of its Appendix A. The error, as Validate's, is a
// [*net/url.Error] wrapping a [*SyntaxError] that names the first byte that
// breaks the grammar.
//
// Under RFC 3986, s is split by Appendix B, then each part is checked:
// the scheme (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )); the authority's
// userinfo, host (an IP-literal in brackets, IPv6 or IPvFuture, or a
// reg-name, which covers IPv4 addresses) and port (digits); the path; the
// query and fragment (pchar, "/" and "?"). A relative reference whose first
// segment holds a ":" (which path-noscheme forbids) splits with a scheme,
// and fails as one. pchar is unreserved ("~" among
// them), sub-delims, ":", "@" and percent-encodings; anything else,
// non-ASCII bytes included, must be percent-encoded.
func (r Resolver) Validate(s string) error {
	return r.Spec.standard().validate(s)
}

// Explain resolves ref against base by r's standard (an RFC's algorithm,
// step by step, or the URL Standard's parser, state by state) and returns
// the account of it. Its Result is what Resolve returns.
func (r Resolver) Explain(base, ref string) Trace {
	return r.Spec.standard().explain(r, base, ref)
}

// sections cuts s where Relative looks, by r's standard.
func (r Resolver) sections(s string) sections { return r.Spec.standard().sections(s) }

// standard is what a Resolver asks of the standard it follows. Each of the
// three implements it over its own files, and this file is the one place
// that chooses between them: everything else asks r.Spec.standard(), but
// for the two paths taken once for each reference, Resolver.AppendResolve
// and Base.AppendResolve, which call the implementations themselves.
type standard interface {
	appendResolve(r Resolver, dst []byte, base, ref string) ([]byte, error)
	prepare(r Resolver, base string) (Base, error)
	appendResolveBase(b *Base, dst []byte, ref string) ([]byte, error)
	baseString(b *Base) string
	components(s string) ([]Part, error)
	validate(s string) error
	explain(r Resolver, base, ref string) Trace
	sections(s string) sections
}

func (s Spec) standard() standard {
	switch s {
	case RFC3986:
		return std3986{}
	case WHATWG:
		return stdWeb{}
	}
	return std1808{}
}

// std1808 is RFC 1808: Split (Section 2.4), resolution (Section 4), the
// grammar (Section 2.2).
type std1808 struct{}

func (std1808) appendResolve(_ Resolver, dst []byte, base, ref string) ([]byte, error) {
	return rfc1808.AppendResolve(dst, base, ref), nil
}

func (std1808) prepare(r Resolver, base string) (Base, error) {
	return Base{r: r, rfc1808: rfc1808.Split(base)}, nil
}

func (std1808) appendResolveBase(b *Base, dst []byte, ref string) ([]byte, error) {
	return b.rfc1808.AppendResolve(dst, ref), nil
}

func (std1808) baseString(b *Base) string                  { return b.rfc1808.String() }
func (std1808) components(s string) ([]Part, error)        { return parts1808(rfc1808.Split(s)), nil }
func (std1808) explain(_ Resolver, base, ref string) Trace { return explain1808(base, ref) }

func (std1808) validate(s string) error {
	_, err := rfc1808.Validate(s)
	return err
}

func (std1808) sections(s string) sections {
	e := ends1808Of(rfc1808.Split(s))
	return sections{s, [3]int{e.scheme, e.netLoc, e.path}, []int{e.path, e.params, e.query}}
}

// ends1808 holds where each component of an RFC 1808 split ends, with its
// delimiters, as offsets into the string: s[:scheme] is "scheme:",
// s[scheme:netLoc] "//net_loc", s[netLoc:path] the path with its "/",
// s[path:params] ";params", s[params:query] "?query", s[query:] "#fragment".
type ends1808 struct{ scheme, netLoc, path, params, query int }

func ends1808Of(u rfc1808.URL) ends1808 {
	var e ends1808
	e.scheme = partLen(u.Scheme(), u.HasScheme())
	e.netLoc = e.scheme
	if u.HasNetLoc() {
		e.netLoc += 2 + len(u.NetLoc())
	}
	e.path = e.netLoc + len(u.Path())
	if u.AbsPath() {
		e.path++ // the "/" Path leaves out; path1808 would allocate it
	}
	e.params = e.path + partLen(u.Params(), u.HasParams())
	e.query = e.params + partLen(u.Query(), u.HasQuery())
	return e
}

// partLen is the length of a component with its delimiter, if present.
func partLen(value string, present bool) int {
	if !present {
		return 0
	}
	return 1 + len(value)
}

// std3986 is RFC 3986: the split of Appendix B, resolution (Section 5.2),
// the grammar of Appendix A.
type std3986 struct{}

func (std3986) appendResolve(r Resolver, dst []byte, base, ref string) ([]byte, error) {
	// Split and the Append methods inline: the base is split into this
	// frame and handed on by pointer, as RFC 1808's is.
	if r.NonStrict {
		return rfc3986.Split(base).AppendResolveNonStrict(dst, ref), nil
	}
	return rfc3986.Split(base).AppendResolve(dst, ref), nil
}

func (std3986) prepare(r Resolver, base string) (Base, error) {
	return Base{r: r, rfc3986: rfc3986.Split(base)}, nil
}

func (std3986) appendResolveBase(b *Base, dst []byte, ref string) ([]byte, error) {
	if b.r.NonStrict {
		return b.rfc3986.AppendResolveNonStrict(dst, ref), nil
	}
	return b.rfc3986.AppendResolve(dst, ref), nil
}

func (std3986) baseString(b *Base) string           { return b.rfc3986.String() }
func (std3986) components(s string) ([]Part, error) { return split3986(s).parts(), nil }
func (std3986) validate(s string) error             { return rfc3986.Validate(s) }

func (std3986) explain(r Resolver, base, ref string) Trace {
	return explain3986(base, ref, r.NonStrict)
}

func (std3986) sections(s string) sections {
	u := rfc3986.Split(s)
	schemeEnd := partLen(u.Scheme(), u.HasScheme())
	authEnd := schemeEnd
	if u.HasAuthority() {
		authEnd += 2 + len(u.Authority())
	}
	pathEnd := authEnd + len(u.Path())
	queryEnd := pathEnd + partLen(u.Query(), u.HasQuery())
	return sections{s, [3]int{schemeEnd, authEnd, pathEnd}, []int{pathEnd, queryEnd}}
}

// stdWeb is the WHATWG URL Standard: the basic URL parser, which resolves
// as it parses, and its validation errors.
type stdWeb struct{}

func (stdWeb) appendResolve(r Resolver, dst []byte, base, ref string) ([]byte, error) {
	return whatwg.Parser{QueryEncoding: r.QueryEncoding}.AppendResolveString(dst, base, ref)
}

func (stdWeb) prepare(r Resolver, base string) (Base, error) {
	u, err := whatwg.Parse(base)
	if err != nil {
		return Base{}, err
	}
	return Base{r: r, web: u}, nil
}

func (stdWeb) appendResolveBase(b *Base, dst []byte, ref string) ([]byte, error) {
	return whatwg.Parser{QueryEncoding: b.r.QueryEncoding}.AppendResolve(dst, ref, &b.web)
}

func (stdWeb) baseString(b *Base) string                  { return b.web.Href() }
func (stdWeb) explain(_ Resolver, base, ref string) Trace { return explainWeb(base, ref) }

func (stdWeb) validate(s string) error {
	errs, err := whatwg.Validate(s)
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return &url.Error{Op: "parse", URL: s, Err: errs[0]}
	}
	return nil
}

func (stdWeb) components(s string) ([]Part, error) {
	u, err := whatwg.Parse(s)
	if err != nil {
		return nil, err
	}
	return webParts(u), nil
}

func (stdWeb) sections(s string) sections {
	u, _ := whatwg.Parse(s) // s is a serialization, which parses
	f, hasFragment := u.Fragment()
	q, hasQuery := u.Query()
	frag := len(s) - partLen(f, hasFragment)
	pathEnd := frag - partLen(q, hasQuery)
	pathStart := pathEnd - len(u.Pathname())
	return sections{s, [3]int{len(u.Protocol()), pathStart, pathEnd}, []int{pathEnd, frag}}
}
