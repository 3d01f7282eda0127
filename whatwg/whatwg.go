package whatwg

import (
	"errors"
	"unsafe"

	"golang.org/x/text/encoding"
)

// This file is the entry points of the WHATWG URL Standard's part of the
// package: parsing (Parse, URL.Parse, Check, Validate) and
// resolving, over the basic URL parser of webparser.go, and the one getter
// that needs the parser, Origin.

// Parse parses an absolute URL by the WHATWG URL Standard's basic URL
// parser, with no base: what `new URL(input)` does. When the parser returns
// failure, the error is a [*net/url.Error] wrapping the [*ValidationError]
// that stopped it.
func Parse(input string) (URL, error) {
	p := webParser{}
	return p.parseURL(input, nil)
}

// MustParse is Parse for a URL known to be valid, in tests and
// package variables: it panics if input does not parse.
func MustParse(input string) URL {
	u, err := Parse(input)
	if err != nil {
		panic(err)
	}
	return u
}

// Parse parses ref with u as its base URL by the basic URL parser: what
// `new URL(ref, base)` does, and so how a browser resolves a link.
func (u URL) Parse(ref string) (URL, error) {
	p := webParser{}
	return p.parseURL(ref, &u)
}

// AppendResolve appends the href of ref parsed against u to dst, as
// [URL.Parse] would give it, without building a URL. For ASCII input
// it makes no allocation when dst has room. On failure it returns dst
// unchanged and the error.
func (u URL) AppendResolve(dst []byte, ref string) ([]byte, error) {
	return appendParse(dst, ref, &u, nil)
}

// appendParse appends the href of ref parsed against base (nil for none)
// to dst, a special URL's query encoded by enc (nil for UTF-8).
func appendParse(dst []byte, ref string, base *URL, enc encoding.Encoding) ([]byte, error) {
	if base != nil {
		if out, ok := appendSimple(dst, ref, base); ok {
			return out, nil
		}
	}
	p := webParser{buf: dst, enc: enc}
	if !p.parse(ref, base) {
		return dst, p.err(ref)
	}
	return p.buf, nil
}

// A Parser is the basic URL parser with the inputs the Standard gives it
// beyond the input and the base. Its zero value is the parser of [Parse]
// and [URL.Parse].
type Parser struct {
	// QueryEncoding is the encoding the query of a special URL is
	// percent-encoded in: HTML's "encoding-parse a URL" hands the parser
	// the document's encoding (windows-1252, Shift_JIS, ...), so that a
	// link's query is sent as the page's form would send it, a character
	// the encoding lacks as "&#N;". Nil is UTF-8, as for `new URL`.
	QueryEncoding encoding.Encoding

	// Trace, when not nil, is called with each state the parser enters
	// and what it did there, as "state: text", and with each validation
	// error it meets: the parser's account of its work, which
	// relurl.Resolver.Explain shows.
	Trace func(step string)
}

// Parse parses ref against base by the basic URL parser, as [URL.Parse]
// does (and as [Parse] does when base is nil), with p's query encoding
// and trace.
func (p Parser) Parse(ref string, base *URL) (URL, error) {
	w := webParser{enc: p.QueryEncoding}
	if p.Trace != nil {
		w.errs = new([]ValidationError) // the account names them
		w.trace = p.Trace
	}
	return w.parseURL(ref, base)
}

// AppendResolve appends the href of ref parsed against base (nil for no
// base) to dst, as [Parser.Parse] would give it, without building a URL.
// On failure it returns dst unchanged and the error. The trace is not
// called.
func (p Parser) AppendResolve(dst []byte, ref string, base *URL) ([]byte, error) {
	return appendParse(dst, ref, base, p.QueryEncoding)
}

// AppendResolveString is [AppendResolve] with p's query encoding: the base
// a string (empty for none), parsed into dst's free space, so that ASCII
// input makes no allocation when dst has room.
func (p Parser) AppendResolveString(dst []byte, base, ref string) ([]byte, error) {
	return appendResolveWeb(dst, base, ref, p.QueryEncoding)
}

// Check parses input, against base when base is not nil, as [Parse]
// and [URL.Parse] do, and also returns the validation errors the
// Standard names on the way: the input is not a valid URL string, though
// the parser went on. The offsets are in input as given.
func Check(input string, base *URL) (URL, []ValidationError, error) {
	errs := []ValidationError{}
	p := webParser{webReport: webReport{errs: &errs}}
	u, err := p.parseURL(input, base)
	return u, errs, err
}

// AppendResolve appends to dst the href of ref parsed against base, both
// strings: new URL(ref, base).href, as [Parse] and [URL.Parse] would give
// it, without building a URL. An empty base is no base. For ASCII input it
// makes no allocation when dst has room for both: the base is parsed into
// dst's free space, the reference after it, and the result moved down over
// the base. On failure it returns dst unchanged and the error, for the
// base or the reference. To resolve many references against one base,
// parse the base once and use [URL.AppendResolve].
func AppendResolve(dst []byte, base, ref string) ([]byte, error) {
	return appendResolveWeb(dst, base, ref, nil)
}

// appendResolveWeb is AppendResolve, a special URL's query (of the
// reference, not the base) encoded by enc (nil for UTF-8).
func appendResolveWeb(dst []byte, base, ref string, enc encoding.Encoding) ([]byte, error) {
	if base == "" {
		return appendParse(dst, ref, nil, enc)
	}
	p := webParser{buf: dst}
	if !p.parse(base, nil) {
		return dst, p.err(base)
	}
	baseURL := p.record(unsafe.String(unsafe.SliceData(p.buf[p.o:]), len(p.buf)-p.o))
	at := p.o
	p.again(enc)
	if !p.parse(ref, &baseURL) {
		return dst, p.err(ref)
	}
	n := copy(p.buf[at:], p.buf[p.o:])
	return p.buf[:at+n], nil
}

// Validate returns the validation errors the WHATWG URL Standard's
// parser meets in s: an absolute URL or, when it has no scheme, a reference,
// checked against an http URL as the links of web pages are. None means
// that s is valid as far as the parser can tell. The error is the failure,
// when the parser returns one.
func Validate(s string) ([]ValidationError, error) {
	_, errs, err := Check(s, nil)
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Name == "missing-scheme-non-relative-URL" {
		_, errs, err = Check(s, &referenceBase)
	}
	return errs, err
}

// referenceBase is the base against which a reference is checked when no
// base is given.
var referenceBase, _ = Parse("http://example.com/")

// Origin is the serialization of the URL's origin (section "Origin"):
// "scheme://host[:port]" for http, https, ws, wss and ftp, that of the URL
// in the path of a blob URL when it is http or https, and "null", an
// opaque origin, for every other URL.
func (u URL) Origin() string {
	switch u.scheme {
	case httpScheme, httpsScheme, wsScheme, wssScheme, ftpScheme:
		return u.href[:u.schemeEnd] + "//" + u.Host()
	}
	if u.Scheme() == "blob" {
		if inner, err := Parse(u.Pathname()); err == nil && (inner.scheme == httpScheme || inner.scheme == httpsScheme) {
			return inner.Origin()
		}
	}
	return "null"
}

// UnmarshalText parses text as an absolute URL with [Parse]; empty text
// is the zero URL, as [URL.MarshalText] writes it.
func (u *URL) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*u = URL{} // the zero URL's text, from MarshalText
		return nil
	}
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}
