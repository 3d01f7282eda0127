package relurl

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/encoding"
)

// A Spec names the standard by which a [Resolver] reads URLs.
type Spec int

const (
	// RFC1808 is RFC 1808 (1995), Sections 2.4 and 4: this package's
	// default, the zero Spec.
	RFC1808 Spec = iota
	// RFC3986 is RFC 3986 (2005), Section 5.2, which replaced RFC 1808
	// through RFC 2396, and which Go's net/url follows.
	RFC3986
	// WHATWG is the WHATWG URL Standard, which browsers, Node and Deno
	// follow: the basic URL parser of [ParseWeb] and [WebURL.Parse].
	WHATWG
)

// String returns the standard's name: "RFC 1808", "RFC 3986" or "WHATWG
// URL Standard".
func (s Spec) String() string {
	switch s {
	case RFC1808:
		return "RFC 1808"
	case RFC3986:
		return "RFC 3986"
	case WHATWG:
		return "WHATWG URL Standard"
	}
	return fmt.Sprintf("Spec(%d)", int(s))
}

// MarshalText gives the spec as ParseSpec reads it: "1808", "3986" or
// "whatwg".
func (s Spec) MarshalText() ([]byte, error) {
	switch s {
	case RFC1808:
		return []byte("1808"), nil
	case RFC3986:
		return []byte("3986"), nil
	case WHATWG:
		return []byte("whatwg"), nil
	}
	return nil, fmt.Errorf("relurl: unknown %v", s)
}

// UnmarshalText is ParseSpec.
func (s *Spec) UnmarshalText(text []byte) error {
	v, err := ParseSpec(string(text))
	*s = v
	return err
}

// ParseSpec reads a spec by its name, in any case: "1808" or "rfc1808",
// "3986" or "rfc3986", "whatwg" or "url" (the URL Standard's short name).
func ParseSpec(name string) (Spec, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "1808", "rfc1808":
		return RFC1808, nil
	case "3986", "rfc3986":
		return RFC3986, nil
	case "whatwg", "url":
		return WHATWG, nil
	}
	return RFC1808, errors.New("want 1808, 3986 or whatwg (or rfc1808, rfc3986, url)")
}

// A Resolver resolves references by one standard, its Spec. The zero
// Resolver follows RFC 1808, as the package-level functions do.
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
// the base URL, as [WebURL.Parse] does, and gives the serialization of the
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
	return ownString(dst), err
}

// AppendResolve appends ref resolved against base by r's standard to dst.
// Under the RFCs it makes no allocation when dst has room for the result,
// which is never longer than len(base)+len(ref)+1 bytes, and never fails.
// Under the WHATWG URL Standard it parses base first, into dst's spare
// room, so it makes no allocation for ASCII input when dst has room for
// both; resolving many references against one base is twice as fast with
// [Resolver.Base]. On failure it returns dst unchanged.
func (r Resolver) AppendResolve(dst []byte, base, ref string) ([]byte, error) {
	switch r.Spec {
	case RFC3986:
		var b, t uri
		b.split(base)
		t.split(ref)
		return appendResolve3986(dst, &b, &t, r.NonStrict), nil
	case WHATWG:
		return appendResolveWeb(dst, base, ref, r.QueryEncoding)
	}
	return AppendResolve(dst, base, ref), nil
}

// A BaseURL is a base URL made ready, once, to resolve many references by
// one standard: split (RFC 1808, RFC 3986) or parsed (WHATWG). A link
// extractor keeps one per document. Make one with [Resolver.Base].
type BaseURL struct {
	r       Resolver
	rfc1808 URL
	rfc3986 uri
	web     WebURL
}

// Base prepares base for resolving references by r's standard. Only the
// WHATWG URL Standard can refuse a base: one the parser fails on, or one
// with no scheme.
func (r Resolver) Base(base string) (BaseURL, error) {
	b := BaseURL{r: r}
	switch r.Spec {
	case RFC3986:
		b.rfc3986.split(base)
	case WHATWG:
		u, err := ParseWeb(base)
		if err != nil {
			return BaseURL{}, err
		}
		b.web = u
	default:
		b.rfc1808 = Split(base)
	}
	return b, nil
}

// String returns the base URL: as given under the RFCs, serialized under
// the WHATWG URL Standard.
func (b *BaseURL) String() string {
	switch b.r.Spec {
	case RFC3986:
		return b.rfc3986.s
	case WHATWG:
		return b.web.href
	}
	return b.rfc1808.s
}

// AppendResolve appends ref resolved against b to dst, as
// [Resolver.AppendResolve] does, but without preparing the base again. For
// ASCII input it makes no allocation when dst has room.
func (b *BaseURL) AppendResolve(dst []byte, ref string) ([]byte, error) {
	switch b.r.Spec {
	case RFC3986:
		var t uri
		t.split(ref)
		return appendResolve3986(dst, &b.rfc3986, &t, b.r.NonStrict), nil
	case WHATWG:
		return appendParse(dst, ref, &b.web, b.r.QueryEncoding)
	}
	return b.rfc1808.AppendResolve(dst, ref), nil
}

// Components lists the components of s that are present under r's
// standard, in order, each with its value however empty: RFC 1808's six
// (Section 2.4, "net_loc"), RFC 3986's five (Appendix B, "authority"), or
// the non-null ones of the URL record the WHATWG URL Standard's parser
// makes of s, which must then be an absolute URL.
func (r Resolver) Components(s string) ([]Part, error) {
	switch r.Spec {
	case RFC3986:
		return split3986(s).parts(), nil
	case WHATWG:
		u, err := ParseWeb(s)
		if err != nil {
			return nil, err
		}
		return webParts(u), nil
	}
	return parts1808(Split(s)), nil
}
