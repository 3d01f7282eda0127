package whatwg

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/bytestr"
)

// This file is the WHATWG URL Standard's API section, "URL class": its
// setters, each the basic URL parser run with a state override, as a Go
// value type allows them.
//
// A URL is a value, as a string is: it never changes. Each setter
// returns a new URL, so
//
//	url.pathname = "/a b"   // JavaScript
//
// is, in Go,
//
//	u, err = u.WithPathname("/a b")
//
// A value that stays as it is can be shared between goroutines and kept as
// a map key without a copy, and a builder would only add a second type
// with the same rules. A setter costs about one parse: the new URL is
// written and parsed again, which checks it whole, and the result is the
// one allocation.
//
// Where the standard's setter does nothing (a port on a file: URL, a host
// on a URL with an opaque path, a protocol that would change a special URL
// into one that is not) or its parser returns failure (a port of letters,
// a host with a forbidden code point), JavaScript keeps the URL silently;
// these methods return it unchanged and a *SetError that says why, so
// that `u, _ = u.WithPort(v)` does what JavaScript does. One setter
// changes a part before it fails, as the standard's does: WithHost given a
// host and a bad port sets the host and returns an error for the port.

// A SetError tells why a setter left a URL (or part of it) as it was.
type SetError struct {
	Setter string // "protocol", "host", ...
	Value  string // the value given
	Reason string
}

func (e *SetError) Error() string {
	return fmt.Sprintf("set %s to %q: %s", e.Setter, e.Value, e.Reason)
}

// errZero is the error of a setter called on the zero URL, which is no
// URL: the URL API's setters change a URL the parser made, and a URL with
// no scheme is none.
func errZero(setter, value string) *SetError {
	return setError(setter, value, "the zero URL is no URL: parse one first")
}

func setError(setter, value, reason string) *SetError {
	return &SetError{Setter: setter, Value: value, Reason: reason}
}

// urlParts are a URL's parts as serialized, which a setter replaces one of
// and writes back together.
type urlParts struct {
	scheme   string // with its ":"
	kind     webScheme
	opaque   bool
	hasHost  bool
	userinfo string // "user:pass@", or ""
	host     string
	port     string // ":8080", or ""
	path     string // the path as serialized, without the "/." a hostless URL may need
	query    string // "?..." or ""
	fragment string // "#..." or ""
}

func (u URL) parts() urlParts {
	p := urlParts{scheme: u.href[:u.schemeEnd], kind: u.scheme, opaque: u.opaque, hasHost: u.hasHost, path: u.Pathname()}
	if u.hasHost {
		p.userinfo = u.href[u.schemeEnd+2 : u.hostStart]
		p.host = u.href[u.hostStart:u.hostEnd]
		p.port = u.href[u.hostEnd:u.pathStart]
	}
	end := len(u.href)
	if u.fragStart >= 0 {
		p.fragment, end = u.href[u.fragStart:], u.fragStart
	}
	if u.queryStart >= 0 {
		p.query = u.href[u.queryStart:end]
	}
	return p
}

// build writes the parts back into a URL as the URL serializer does, in
// one allocation of the URL's size, its offsets counted as it goes: each
// part is in its serialized form already, which the basic URL parser would
// read back as the same record (TestSettersAgainstNode and FuzzSetters
// check that it does).
func (p *urlParts) build() URL {
	dot := !p.hasHost && !p.opaque && strings.HasPrefix(p.path, "//")
	n := len(p.scheme) + len(p.path) + len(p.query) + len(p.fragment)
	if p.hasHost {
		n += 2 + len(p.userinfo) + len(p.host) + len(p.port)
	} else if dot {
		n += 2
	}
	b := make([]byte, 0, n)
	u := URL{scheme: p.kind, hasHost: p.hasHost, opaque: p.opaque, port: -1, queryStart: -1, fragStart: -1}
	b = append(b, p.scheme...)
	u.schemeEnd = len(b)
	u.userEnd, u.hostStart, u.hostEnd = u.schemeEnd, u.schemeEnd, u.schemeEnd
	if p.hasHost {
		b = append(b, "//"...)
		user := p.userinfo
		if i := strings.IndexAny(user, ":@"); i >= 0 {
			user = user[:i]
		}
		u.userEnd = len(b) + len(user)
		b = append(b, p.userinfo...)
		u.hostStart = len(b)
		b = append(b, p.host...)
		u.hostEnd = len(b)
		if p.port != "" {
			port, _ := strconv.Atoi(p.port[1:])
			u.port = int32(port)
		}
		b = append(b, p.port...)
	} else if dot {
		b = append(b, "/."...) // so that the path is not read as an authority
	}
	u.pathStart = len(b)
	b = append(b, p.path...)
	if p.query != "" {
		u.queryStart = len(b)
		b = append(b, p.query...)
	}
	if p.fragment != "" {
		u.fragStart = len(b)
		b = append(b, p.fragment...)
	}
	u.href = bytestr.Owned(b)
	return u
}

// scratch holds a part being made, until build copies it.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// withScratch calls f with an empty scratch buffer, and returns what f
// returns after putting the buffer back.
func withScratch(f func(buf *[]byte) (URL, error)) (URL, error) {
	buf := scratch.Get().(*[]byte)
	*buf = (*buf)[:0]
	u, err := f(buf)
	if cap(*buf) <= 64<<10 {
		scratch.Put(buf)
	}
	return u, err
}

// withoutTabs removes every ASCII tab and newline, as the basic URL parser
// does first.
func withoutTabs(s string) string {
	if !ascii.HasTabOrNewline(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

// cannotHaveCredentialsOrPort is the standard's "cannot have a
// username/password/port": a URL without a host, with the empty host, or
// of the file scheme.
func (u URL) cannotHaveCredentialsOrPort() bool {
	return !u.hasHost || u.hostStart == u.hostEnd || u.scheme == fileScheme
}

// With returns u with the attribute of the URL API named setter ("href",
// "protocol", "username", "password", "host", "hostname", "port",
// "pathname", "search" or "hash") set to value, as url[setter] = value
// sets it in JavaScript.
func (u URL) With(setter, value string) (URL, error) {
	switch setter {
	case "href":
		return u.WithHref(value)
	case "protocol":
		return u.WithProtocol(value)
	case "username":
		return u.WithUsername(value)
	case "password":
		return u.WithPassword(value)
	case "host":
		return u.WithHost(value)
	case "hostname":
		return u.WithHostname(value)
	case "port":
		return u.WithPort(value)
	case "pathname":
		return u.WithPathname(value)
	case "search":
		return u.WithSearch(value)
	case "hash":
		return u.WithHash(value)
	}
	return u, setError(setter, value, "the URL API has no such attribute")
}

// WithHref returns the URL that value parses to, as the href setter sets
// it: the whole URL, by the basic URL parser, without a base.
func (u URL) WithHref(value string) (URL, error) {
	v, err := Parse(value)
	if err != nil {
		return u, err
	}
	return v, nil
}

// WithProtocol returns u with the scheme that value, with or without its
// ":", names ("https", "https:"): the protocol setter. A special scheme
// (http, https, ws, wss, ftp, file) cannot become one that is not, nor the
// other way; a URL with credentials or a port cannot become a file URL,
// nor a file URL with an empty host anything else. A default port of the
// new scheme is dropped.
func (u URL) WithProtocol(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("protocol", value)
	}
	in := withoutTabs(value)
	i := 0
	for i < len(in) && isSchemeByte(in[i]) && (i > 0 || ascii.IsAlpha(in[i])) {
		i++
	}
	switch {
	case i == 0:
		return u, setError("protocol", value, "a scheme starts with an ASCII letter")
	case i < len(in) && in[i] != ':':
		return u, setError("protocol", value, fmt.Sprintf("%q cannot be in a scheme", in[i]))
	}
	return withScratch(func(buf *[]byte) (URL, error) {
		b := append(*buf, in[:i]...)
		for j, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[j] = c + 'a' - 'A'
			}
		}
		kind := schemeOf(b)
		switch {
		case (u.scheme == notSpecial) != (kind == notSpecial):
			return u, setError("protocol", value, "a special scheme and one that is not cannot replace each other")
		case kind == fileScheme && (u.hostStart > u.schemeEnd+2 || u.port >= 0):
			return u, setError("protocol", value, "a URL with credentials or a port cannot be a file URL")
		case u.scheme == fileScheme && u.hostStart == u.hostEnd:
			return u, setError("protocol", value, "a file URL with an empty host keeps its scheme")
		}
		*buf = append(b, ':')
		p := u.parts()
		p.scheme, p.kind = bytestr.Transient(*buf), kind
		if int(u.port) == kind.defaultPort() {
			p.port = ""
		}
		return p.build(), nil
	})
}

// WithUsername returns u with the username value, percent-encoded: the
// username setter. A URL without a host, with the empty host, or of the
// file scheme cannot have one.
func (u URL) WithUsername(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("username", value)
	}
	if u.cannotHaveCredentialsOrPort() {
		return u, setError("username", value, "a URL without a host (or with the empty host, or a file URL) has no username")
	}
	return u.withUserinfo(value, u.Password())
}

// WithPassword returns u with the password value, percent-encoded: the
// password setter, with the username's conditions.
func (u URL) WithPassword(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("password", value)
	}
	if u.cannotHaveCredentialsOrPort() {
		return u, setError("password", value, "a URL without a host (or with the empty host, or a file URL) has no password")
	}
	return u.withUserinfo(u.Username(), value)
}

// withUserinfo returns u with the credentials user and pass, each
// percent-encoded by the userinfo set: u's own, already encoded, stay as
// they are, since the set holds no "%".
func (u URL) withUserinfo(user, pass string) (URL, error) {
	return withScratch(func(buf *[]byte) (URL, error) {
		b := appendEncoded(*buf, user, userinfoSet)
		if pass != "" {
			b = appendEncoded(append(b, ':'), pass, userinfoSet)
		}
		if len(b) > 0 {
			b = append(b, '@')
		}
		*buf = b
		p := u.parts()
		p.userinfo = bytestr.Transient(b)
		return p.build(), nil
	})
}

// WithHost returns u with the host, and the port if value has one, that
// value gives ("example.com:8080"): the host setter, the host state with
// a state override. What follows the host and port ("/", "?", "#") is
// ignored. A URL with an opaque path has no host to set; a special URL
// cannot have the empty host, nor a URL with credentials or a port.
func (u URL) WithHost(value string) (URL, error) { return u.withHost("host", value) }

// WithHostname returns u with the host that value gives: the hostname
// setter, as WithHost but refusing a port.
func (u URL) WithHostname(value string) (URL, error) { return u.withHost("hostname", value) }

func (u URL) withHost(setter, value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero(setter, value)
	}
	if u.opaque {
		return u, setError(setter, value, "a URL with an opaque path has no host")
	}
	in := withoutTabs(value)
	if u.scheme == fileScheme {
		// The file host state: up to the path, query or fragment.
		end := strings.IndexAny(in, "/\\?#")
		if end < 0 {
			end = len(in)
		}
		return withScratch(func(buf *[]byte) (URL, error) {
			if end > 0 {
				var hp webReport
				var ok bool
				if *buf, ok = (hostParser{&hp}).appendHost(*buf, in[:end], 0, false); !ok {
					return u, setError(setter, value, hp.reason())
				}
			}
			p := u.parts()
			if p.host = bytestr.Transient(*buf); p.host == "localhost" {
				p.host = ""
			}
			return p.build(), nil
		})
	}
	special := u.scheme != notSpecial
	end, colon, inside := len(in), -1, false
scan:
	for i := 0; i < len(in); i++ {
		switch c := in[i]; {
		case c == ':' && !inside:
			colon = i
			end = i
			break scan
		case c == '/' || c == '?' || c == '#' || c == '\\' && special:
			end = i
			break scan
		case c == '[':
			inside = true
		case c == ']':
			inside = false
		}
	}
	buffer := in[:end]
	switch {
	case colon >= 0 && buffer == "":
		return u, setError(setter, value, "no host before the port")
	case colon >= 0 && setter == "hostname":
		return u, setError(setter, value, "a hostname has no port")
	case colon < 0 && special && buffer == "":
		return u, setError(setter, value, "a special URL cannot have the empty host")
	case colon < 0 && buffer == "" && (u.hostStart > u.schemeEnd+2 || u.port >= 0):
		return u, setError(setter, value, "a URL with credentials or a port cannot have the empty host")
	}
	return withScratch(func(buf *[]byte) (URL, error) {
		var hp webReport
		b, ok := (hostParser{&hp}).appendHost(*buf, buffer, 0, !special)
		if !ok {
			return u, setError(setter, value, hp.reason())
		}
		p := u.parts()
		p.hasHost = true
		if colon < 0 {
			*buf = b
			p.host = bytestr.Transient(b)
			return p.build(), nil
		}
		// The port state, with the state override: digits, then anything.
		hostLen := len(b)
		digits := in[colon+1:]
		n := 0
		for n < len(digits) && ascii.IsDigit(digits[n]) {
			n++
		}
		b, reason := u.appendPort(b, digits[:n])
		*buf = b
		p.host = bytestr.Transient(b[:hostLen])
		if reason == "" {
			p.port = bytestr.Transient(b[hostLen:])
			return p.build(), nil
		}
		// The host is set, as the standard sets it before the port fails.
		return p.build(), setError(setter, value, reason+"; the host is set, the port kept")
	})
}

// appendPort appends the serialized port (":8080", or nothing for the
// scheme's default) of the digits of a port, or tells why they are none.
func (u URL) appendPort(dst []byte, digits string) ([]byte, string) {
	if digits == "" {
		return dst, "a port is digits"
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		if n = n*10 + int(digits[i]-'0'); n > 65535 {
			return dst, "a port is at most 65535"
		}
	}
	if n == u.scheme.defaultPort() {
		return dst, ""
	}
	return strconv.AppendInt(append(dst, ':'), int64(n), 10), ""
}

// reason tells why the host parser failed, from its validation error.
func (p *webReport) reason() string {
	if p.failure != nil {
		return p.failure.Error()
	}
	return "the host does not parse"
}

// WithPort returns u with the port of value's leading digits ("8080",
// "8080/x"); "" removes the port: the port setter. The scheme's default
// port is no port. A URL without a host, with the empty host, or of the
// file scheme cannot have one.
func (u URL) WithPort(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("port", value)
	}
	if u.cannotHaveCredentialsOrPort() {
		return u, setError("port", value, "a URL without a host (or with the empty host, or a file URL) has no port")
	}
	if value == "" {
		p := u.parts()
		p.port = ""
		return p.build(), nil
	}
	in := withoutTabs(value)
	n := 0
	for n < len(in) && ascii.IsDigit(in[n]) {
		n++
	}
	return withScratch(func(buf *[]byte) (URL, error) {
		b, reason := u.appendPort(*buf, in[:n])
		if reason != "" {
			return u, setError("port", value, reason)
		}
		*buf = b
		p := u.parts()
		p.port = bytestr.Transient(b)
		return p.build(), nil
	})
}

// WithPathname returns u with the path value gives: the pathname setter,
// the path start state with a state override, so "?" and "#" are part of
// the path, percent-encoded, and "." and ".." segments are resolved. A URL
// with an opaque path (mailto:, data:) keeps it.
func (u URL) WithPathname(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("pathname", value)
	}
	if u.opaque {
		return u, setError("pathname", value, "a URL with an opaque path keeps it")
	}
	in := withoutTabs(value)
	return withScratch(func(buf *[]byte) (URL, error) {
		// The parser's path state writes the path; "?" and "#", which
		// would end it there and not here, are encoded first, as the
		// state override has them encoded.
		p := webParser{buf: *buf, scheme: u.scheme, hasHost: u.hasHost, port: -1, queryStart: -1, fragStart: -1}
		v := in
		if strings.ContainsAny(v, "?#") {
			v = strings.NewReplacer("?", "%3F", "#", "%23").Replace(v)
		}
		p.in = v
		switch {
		case u.scheme == notSpecial && v == "" && !u.hasHost:
			p.buf = append(p.buf, '/') // the empty segment the state override appends
		default:
			p.pathStartState(v)
		}
		*buf = p.buf
		q := u.parts()
		q.path = bytestr.Transient(p.buf)
		return q.build(), nil
	})
}

// WithSearch returns u with the query value gives, with or without its
// "?"; "" removes the query: the search setter. It is percent-encoded
// as the query state encodes it, "#" included.
func (u URL) WithSearch(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("search", value)
	}
	if value == "" {
		p := u.parts()
		p.query = ""
		return p.build(), nil
	}
	set := querySet
	if u.scheme != notSpecial {
		set = specialQuerySet
	}
	return withScratch(func(buf *[]byte) (URL, error) {
		*buf = appendEncoded(append(*buf, '?'), withoutTabs(strings.TrimPrefix(value, "?")), set)
		p := u.parts()
		p.query = bytestr.Transient(*buf)
		return p.build(), nil
	})
}

// WithHash returns u with the fragment value gives, with or without its
// "#"; "" removes the fragment: the hash setter.
func (u URL) WithHash(value string) (URL, error) {
	if !u.IsValid() {
		return u, errZero("hash", value)
	}
	if value == "" {
		p := u.parts()
		p.fragment = ""
		return p.build(), nil
	}
	return withScratch(func(buf *[]byte) (URL, error) {
		*buf = appendEncoded(append(*buf, '#'), withoutTabs(strings.TrimPrefix(value, "#")), fragmentSet)
		p := u.parts()
		p.fragment = bytestr.Transient(*buf)
		return p.build(), nil
	})
}
