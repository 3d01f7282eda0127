package relurl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding"
)

// This file is the WHATWG URL Standard's section "URL parsing": the basic
// URL parser, without a state override (the setters), and the URL
// serializer. The parser walks the state machine's states as functions, one
// per state or group of states, and writes the serialization as it goes.

// A WebURL is a URL record of the WHATWG URL Standard: what a browser's
// `new URL(input, base)` holds. It is kept as its serialization, the href,
// and the offsets of its parts in it, so it is as cheap to copy as a string
// and its components are substrings.
//
// The zero WebURL is not a URL; get one from [ParseWeb] or [WebURL.Parse].
type WebURL struct {
	href string
	// href[:schemeEnd] is "scheme:". With a host, href[schemeEnd:] starts
	// with "//", then the username up to userEnd, ":password" up to
	// hostStart-1 and "@" when there are credentials, the host up to
	// hostEnd and ":port" up to pathStart. The path runs from pathStart to
	// the "?" at queryStart or the "#" at fragStart, each -1 when absent.
	schemeEnd, userEnd, hostStart, hostEnd, pathStart, queryStart, fragStart int
	port                                                                     int32 // -1 for none
	scheme                                                                   webScheme
	hasHost, opaque                                                          bool
}

// webScheme tells the special schemes apart; every other scheme is
// notSpecial.
type webScheme uint8

const (
	notSpecial webScheme = iota
	httpScheme
	httpsScheme
	wsScheme
	wssScheme
	ftpScheme
	fileScheme
)

// schemeOf returns the kind of a lower-case scheme.
func schemeOf(s []byte) webScheme {
	switch string(s) {
	case "http":
		return httpScheme
	case "https":
		return httpsScheme
	case "ws":
		return wsScheme
	case "wss":
		return wssScheme
	case "ftp":
		return ftpScheme
	case "file":
		return fileScheme
	}
	return notSpecial
}

// DefaultPort returns the "default port" of a scheme, in lower case, by the
// URL Standard: 80 for http and ws, 443 for https and wss, 21 for ftp; and
// false for the others, which have none.
func DefaultPort(scheme string) (int, bool) {
	p := schemeOf([]byte(scheme)).defaultPort()
	return p, p >= 0
}

// defaultPort is the scheme's "default port", -1 for none.
func (s webScheme) defaultPort() int {
	switch s {
	case httpScheme, wsScheme:
		return 80
	case httpsScheme, wssScheme:
		return 443
	case ftpScheme:
		return 21
	}
	return -1
}

// ParseWeb parses an absolute URL by the WHATWG URL Standard's basic URL
// parser, with no base: what `new URL(input)` does. When the parser returns
// failure, the error is a [*net/url.Error] wrapping the [*ValidationError]
// that stopped it.
func ParseWeb(input string) (WebURL, error) {
	p := webParser{}
	return p.parseURL(input, nil)
}

// Parse parses ref with u as its base URL by the basic URL parser: what
// `new URL(ref, base)` does, and so how a browser resolves a link.
func (u WebURL) Parse(ref string) (WebURL, error) {
	p := webParser{}
	return p.parseURL(ref, &u)
}

// AppendResolve appends the href of ref parsed against u to dst, as
// [WebURL.Parse] would give it, without building a WebURL. For ASCII input
// it makes no allocation when dst has room. On failure it returns dst
// unchanged and the error.
func (u WebURL) AppendResolve(dst []byte, ref string) ([]byte, error) {
	return appendParse(dst, ref, &u, nil)
}

// appendParse appends the href of ref parsed against base (nil for none)
// to dst, a special URL's query encoded by enc (nil for UTF-8).
func appendParse(dst []byte, ref string, base *WebURL, enc encoding.Encoding) ([]byte, error) {
	p := webParser{buf: dst, enc: enc}
	if !p.parse(ref, base) {
		return dst, p.err(ref)
	}
	return p.buf, nil
}

// CheckWeb parses input, against base when base is not nil, as [ParseWeb]
// and [WebURL.Parse] do, and also returns the validation errors the
// Standard names on the way: the input is not a valid URL string, though
// the parser went on. The offsets are in input as given.
func CheckWeb(input string, base *WebURL) (WebURL, []ValidationError, error) {
	errs := []ValidationError{}
	p := webParser{errs: &errs}
	u, err := p.parseURL(input, base)
	return u, errs, err
}

// A ValidationError is one of the URL Standard's validation errors
// (section "Validation errors"): a name such as "port-invalid" and the byte
// offset in the input where the parser met it. Most do not stop the parser;
// those that make it return failure come back wrapped in the error of
// [ParseWeb] and [WebURL.Parse].
type ValidationError struct {
	Offset int
	Name   string
}

func (e *ValidationError) Error() string {
	msg := fmt.Sprintf("offset %d: %s", e.Offset, e.Name)
	if d := validationErrors[e.Name]; d != "" {
		msg += " (" + d + ")"
	}
	return msg
}

// validationErrors describes each validation error the parser reports.
var validationErrors = map[string]string{
	"domain-percent-encoded":                   "the host has percent-encoded bytes",
	"domain-to-ASCII":                          "UTS #46 ToASCII refuses the domain",
	"host-invalid-code-point":                  "an opaque host holds a forbidden host code point",
	"IPv4-empty-part":                          "an IPv4 address ends with a dot",
	"IPv4-too-few-parts":                       "an IPv4 address has fewer than four parts",
	"IPv4-too-many-parts":                      "an IPv4 address has more than four parts",
	"IPv4-non-numeric-part":                    "an IPv4 address part is not a number",
	"IPv4-non-decimal-part":                    "an IPv4 address part is octal or hexadecimal",
	"IPv4-out-of-range-part":                   "an IPv4 address part is too large",
	"IPv6-unclosed":                            "an IPv6 address has no closing bracket",
	"IPv6-invalid-compression":                 "an IPv6 address starts with a single colon",
	"IPv6-too-many-pieces":                     "an IPv6 address has more than eight pieces",
	"IPv6-multiple-compression":                "an IPv6 address has more than one \"::\"",
	"IPv6-invalid-code-point":                  "an IPv6 address holds a character that does not belong",
	"IPv6-too-few-pieces":                      "an IPv6 address without \"::\" has fewer than eight pieces",
	"IPv4-in-IPv6-too-many-pieces":             "an IPv6 address with IPv4 has too many pieces",
	"IPv4-in-IPv6-invalid-code-point":          "the IPv4 part of an IPv6 address is malformed",
	"IPv4-in-IPv6-out-of-range-part":           "an IPv4 part of an IPv6 address is above 255",
	"IPv4-in-IPv6-too-few-parts":               "the IPv4 part of an IPv6 address has fewer than four parts",
	"invalid-URL-unit":                         "a character that is not a URL code point, or a \"%\" without two hex digits",
	"special-scheme-missing-following-solidus": "a special scheme is not followed by \"//\"",
	"missing-scheme-non-relative-URL":          "no scheme, and no base URL a reference can be relative to",
	"invalid-reverse-solidus":                  "\"\\\" where a special URL wants \"/\"",
	"invalid-credentials":                      "the URL has a username or password",
	"host-missing":                             "a special URL, or one with credentials or a port, has no host",
	"port-out-of-range":                        "the port is above 65535",
	"port-invalid":                             "the port is not a number",
	"file-invalid-Windows-drive-letter":        "a relative file URL starts with a Windows drive letter",
	"file-invalid-Windows-drive-letter-host":   "a file URL's host is a Windows drive letter",
}

// webParser is one run of the basic URL parser. It appends the URL's
// serialization to buf, from o on, and keeps the offsets of its parts (in
// buf) as it goes.
type webParser struct {
	in      string // the input after clean-up
	base    WebURL // the base URL, a copy (a pointer here would make every base escape)
	hasBase bool
	enc     encoding.Encoding // for the queries of special URLs but ws and wss; nil for UTF-8
	buf     []byte
	o       int

	schemeEnd, userEnd, hostStart, hostEnd, pathStart, queryStart, fragStart int
	port                                                                     int
	scheme                                                                   webScheme
	hasHost, opaque                                                          bool

	// For CheckWeb and Explain only: the validation errors, the input as
	// given (offsets are in it) and the account of each step.
	errs    *[]ValidationError
	orig    string
	lead    int  // bytes removed before the cleaned-up input
	removed bool // tabs or newlines removed from it
	failure *ValidationError
	trace   func(string)
}

func (p *webParser) parseURL(input string, base *WebURL) (WebURL, error) {
	p.buf = make([]byte, 0, len(input)+16)
	if !p.parse(input, base) {
		return WebURL{}, p.err(input)
	}
	// The buffer is the URL's own: its href can be it, without a copy.
	return p.record(ownString(p.buf)), nil
}

// err is the error of a parse that returned failure.
func (p *webParser) err(input string) error {
	f := p.failure
	if f == nil {
		f = &ValidationError{Name: "failure"}
	}
	return &url.Error{Op: "parse", URL: input, Err: f}
}

// record returns the URL the parser wrote, with href the text of
// p.buf[p.o:].
func (p *webParser) record(href string) WebURL {
	o := p.o
	if !p.hasHost {
		p.userEnd, p.hostStart, p.hostEnd = p.schemeEnd, p.schemeEnd, p.schemeEnd
	}
	off := func(i int) int {
		if i < 0 {
			return -1
		}
		return i - o
	}
	return WebURL{
		href:      href,
		schemeEnd: p.schemeEnd - o, userEnd: p.userEnd - o, hostStart: p.hostStart - o,
		hostEnd: p.hostEnd - o, pathStart: p.pathStart - o,
		queryStart: off(p.queryStart), fragStart: off(p.fragStart),
		port: int32(p.port), scheme: p.scheme, hasHost: p.hasHost, opaque: p.opaque,
	}
}

// appendResolveWeb appends to dst ref parsed against base, both strings,
// with no allocation when dst has room: the base is parsed into dst's free
// space, the reference after it, and the result moved down over the base.
// An empty base is no base.
func appendResolveWeb(dst []byte, base, ref string, enc encoding.Encoding) ([]byte, error) {
	if base == "" {
		return appendParse(dst, ref, nil, enc)
	}
	b := webParser{buf: dst}
	if !b.parse(base, nil) {
		return dst, b.err(base)
	}
	baseURL := b.record(unsafe.String(unsafe.SliceData(b.buf[b.o:]), len(b.buf)-b.o))
	r := webParser{buf: b.buf, enc: enc}
	if !r.parse(ref, &baseURL) {
		return dst, r.err(ref)
	}
	n := copy(r.buf[b.o:], r.buf[r.o:])
	return r.buf[:b.o+n], nil
}

// parse runs the parser on input against base (nil for none) and reports
// whether it succeeded.
func (p *webParser) parse(input string, base *WebURL) bool {
	if base != nil && base.href == "" {
		base = nil // the zero WebURL is no URL
	}
	if base != nil {
		p.base, p.hasBase = *base, true
	}
	p.o, p.port, p.queryStart, p.fragStart = len(p.buf), -1, -1, -1
	p.in = p.cleanUp(input)
	ok := p.schemeStart(p.in)
	if !ok {
		p.buf = p.buf[:p.o]
		return false
	}
	// The URL serializer writes "/." before a path that would otherwise
	// read as a host: "web+demo:/.//not-a-host/".
	if !p.hasHost && !p.opaque && len(p.buf)-p.pathStart > 1 && p.buf[p.pathStart] == '/' && p.buf[p.pathStart+1] == '/' {
		p.buf = append(p.buf, 0, 0)
		copy(p.buf[p.pathStart+2:], p.buf[p.pathStart:])
		p.buf[p.pathStart], p.buf[p.pathStart+1] = '/', '.'
		p.pathStart += 2
		if p.queryStart >= 0 {
			p.queryStart += 2
		}
		if p.fragStart >= 0 {
			p.fragStart += 2
		}
		p.note("serializer: \"/.\" written before the path, which starts with \"//\" and would read as a host")
	}
	return true
}

// cleanUp removes leading and trailing C0 controls and spaces and every
// tab and newline, as the parser's first steps do.
func (p *webParser) cleanUp(s string) string {
	p.orig = s
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	p.lead = i
	if i > 0 || j < len(s) {
		p.warn(-1, "invalid-URL-unit")
		if p.trace != nil {
			p.note("clean-up: leading and trailing C0 controls and spaces removed: %q", s[:i]+s[j:])
		}
	}
	t := s[i:j]
	if !hasTabOrNewline(t) {
		return t
	}
	p.removed = true
	b := make([]byte, 0, len(t))
	for k := 0; k < len(t); k++ {
		if c := t[k]; c == '\t' || c == '\n' || c == '\r' {
			if p.errs != nil || p.trace != nil {
				p.in = ""
				p.warn(-(i + k + 1), "invalid-URL-unit")
			}
			continue
		}
		b = append(b, t[k])
	}
	if p.trace != nil {
		p.note("clean-up: tabs and newlines removed: %q", b)
	}
	return string(b)
}

// hasTabOrNewline reports whether s holds a tab, LF or CR: eight bytes at
// a time, by the word-at-a-time test for a byte below 0x0e, then exactly.
func hasTabOrNewline(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		if (w-0x0e*ones)&^w&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// at is the offset in the cleaned-up input of its suffix s.
func (p *webParser) at(s string) int { return len(p.in) - len(s) }

// warn records a validation error at offset i of the cleaned-up input (or,
// for i < 0, at offset -i-1 of the input as given).
func (p *webParser) warn(i int, name string) {
	if p.errs == nil && p.trace == nil {
		return
	}
	e := ValidationError{Offset: p.origOffset(i), Name: name}
	if p.errs != nil {
		if n := len(*p.errs); n == 0 || (*p.errs)[n-1] != e {
			*p.errs = append(*p.errs, e)
		}
	}
	if p.trace != nil {
		p.note("validation error: %s at offset %d (%s)", name, e.Offset, validationErrors[name])
	}
}

// fail records the validation error that makes the parser return failure,
// and returns false.
func (p *webParser) fail(i int, name string) bool {
	if p.failure == nil {
		p.failure = &ValidationError{Offset: p.origOffset(i), Name: name}
	}
	p.warn(i, name)
	return false
}

// origOffset maps an offset in the cleaned-up input to one in the input as
// given: past the leading bytes removed, and past each tab and newline
// removed before it.
func (p *webParser) origOffset(i int) int {
	if i < 0 {
		return -i - 1
	}
	o := p.lead + i
	if !p.removed {
		return o
	}
	o = p.lead
	for k := 0; o < len(p.orig); o++ {
		if c := p.orig[o]; c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if k == i {
			break
		}
		k++
	}
	return o
}

func (p *webParser) note(format string, args ...any) {
	if p.trace != nil {
		p.trace(fmt.Sprintf(format, args...))
	}
}

// schemeStart is the scheme start and scheme states.
func (p *webParser) schemeStart(s string) bool {
	i := 0
	if s != "" && isAlpha(s[0]) {
		for i = 1; i < len(s) && isSchemeByte(s[i]); i++ {
		}
	}
	if i == 0 || i == len(s) || s[i] != ':' {
		return p.noScheme(s)
	}
	start := len(p.buf)
	for k := 0; k < i; k++ {
		c := s[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		p.buf = append(p.buf, c)
	}
	p.scheme = schemeOf(p.buf[start:])
	p.buf = append(p.buf, ':')
	p.schemeEnd = len(p.buf)
	if p.trace != nil {
		kind := "special"
		if p.scheme == notSpecial {
			kind = "not special"
		}
		p.note("scheme state: scheme %q (%s)", p.buf[start:p.schemeEnd-1], kind)
	}
	rest := s[i+1:]
	switch {
	case p.scheme == fileScheme:
		if !strings.HasPrefix(rest, "//") {
			p.warn(p.at(rest), "special-scheme-missing-following-solidus")
		}
		return p.file(rest)
	case p.scheme != notSpecial && p.hasBase && p.base.Scheme() == string(p.buf[start:p.schemeEnd-1]):
		// The special relative or authority state: "http:g" against an
		// http base is relative.
		if strings.HasPrefix(rest, "//") {
			return p.ignoreSlashes(rest[2:])
		}
		p.warn(p.at(rest), "special-scheme-missing-following-solidus")
		p.note("special relative or authority state: no \"//\", so relative to the base, whose scheme is the same")
		return p.relative(rest)
	case p.scheme != notSpecial:
		if strings.HasPrefix(rest, "//") {
			return p.ignoreSlashes(rest[2:])
		}
		p.warn(p.at(rest), "special-scheme-missing-following-solidus")
		return p.ignoreSlashes(rest)
	case strings.HasPrefix(rest, "//"):
		return p.authority(rest[2:])
	case strings.HasPrefix(rest, "/"):
		p.pathStart = len(p.buf)
		return p.path(rest[1:])
	}
	p.opaque = true
	p.pathStart = len(p.buf)
	p.note("opaque path state: no \"/\" after the scheme of a URL that is not special")
	return p.opaquePath(rest)
}

func isSchemeByte(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.'
}

// noScheme is the no scheme state: a reference without a scheme, made
// whole by the base.
func (p *webParser) noScheme(s string) bool {
	b := &p.base
	if !p.hasBase || b.opaque && (s == "" || s[0] != '#') {
		return p.fail(0, "missing-scheme-non-relative-URL")
	}
	p.buf = append(p.buf, b.href[:b.schemeEnd]...)
	p.schemeEnd, p.scheme = len(p.buf), b.scheme
	if p.trace != nil {
		p.note("no scheme state: no scheme, so the scheme %q is the base's", b.Scheme())
	}
	if b.opaque {
		p.opaque = true
		p.copyPath()
		p.copyQuery()
		return p.fragment(s[1:])
	}
	if b.scheme == fileScheme {
		return p.file(s)
	}
	return p.relative(s)
}

// copyAuthority copies the base's credentials, host and port.
func (p *webParser) copyAuthority() {
	b := &p.base
	if !b.hasHost {
		p.userEnd, p.hostStart, p.hostEnd = len(p.buf), len(p.buf), len(p.buf)
		return
	}
	shift := len(p.buf) - b.schemeEnd
	p.buf = append(p.buf, b.href[b.schemeEnd:b.pathStart]...)
	p.hasHost, p.port = true, int(b.port)
	p.userEnd, p.hostStart, p.hostEnd = b.userEnd+shift, b.hostStart+shift, b.hostEnd+shift
}

// copyPath copies the base's path.
func (p *webParser) copyPath() {
	b := &p.base
	p.pathStart = len(p.buf)
	p.buf = append(p.buf, b.href[b.pathStart:b.pathEnd()]...)
}

// copyQuery copies the base's query, if it has one.
func (p *webParser) copyQuery() {
	b := &p.base
	if b.queryStart < 0 {
		return
	}
	end := len(b.href)
	if b.fragStart >= 0 {
		end = b.fragStart
	}
	p.queryStart = len(p.buf)
	p.buf = append(p.buf, b.href[b.queryStart:end]...)
}

// relative is the relative state: what the reference does not give comes
// from the base.
func (p *webParser) relative(s string) bool {
	if s != "" && s[0] == '/' || p.isSpecial() && p.slashFirst(s) {
		return p.relativeSlash(s[1:])
	}
	if inherited, ok := p.inherit(s); inherited {
		return ok
	}
	p.shorten()
	if p.trace != nil {
		p.note("relative state: the host is the base's, and the path the base's without its last segment: %q", p.buf[p.pathStart:])
	}
	return p.path(s)
}

// inherit copies the base's host and path, as the relative state and the
// file state do, and then, when the reference is empty, a query or a
// fragment, finishes the parse: it reports whether it did, and the result.
func (p *webParser) inherit(s string) (finished, ok bool) {
	p.copyAuthority()
	p.copyPath()
	if s == "" {
		p.copyQuery()
		p.note("relative state: the empty reference is the base, without its fragment")
		return true, true
	}
	switch s[0] {
	case '?':
		p.note("relative state: the host and path are the base's, the query the reference's")
		return true, p.query(s[1:])
	case '#':
		p.copyQuery()
		p.note("relative state: all but the fragment is the base's")
		return true, p.fragment(s[1:])
	}
	return false, true
}

// slashFirst reports whether s starts with "/" or "\\", which are one in a
// special URL, with an invalid-reverse-solidus validation error for "\\".
func (p *webParser) slashFirst(s string) bool {
	if s == "" || s[0] != '/' && s[0] != '\\' {
		return false
	}
	if s[0] == '\\' {
		p.warn(p.at(s), "invalid-reverse-solidus")
	}
	return true
}

// relativeSlash is the relative slash state: after a "/" at the start of
// a reference.
func (p *webParser) relativeSlash(s string) bool {
	switch {
	case p.isSpecial() && p.slashFirst(s):
		p.note("relative slash state: two slashes start a host: only the scheme is the base's")
		return p.ignoreSlashes(s[1:])
	case s != "" && s[0] == '/':
		p.note("relative slash state: two slashes start a host: only the scheme is the base's")
		return p.authority(s[1:])
	}
	p.copyAuthority()
	p.pathStart = len(p.buf)
	p.note("relative slash state: an absolute path, with the base's host")
	return p.path(s)
}

func (p *webParser) isSpecial() bool { return p.scheme != notSpecial }

// ignoreSlashes is the special authority ignore slashes state.
func (p *webParser) ignoreSlashes(s string) bool {
	for s != "" && (s[0] == '/' || s[0] == '\\') {
		p.warn(p.at(s), "special-scheme-missing-following-solidus")
		s = s[1:]
	}
	return p.authority(s)
}

// authority is the authority, host and port states: credentials up to the
// last "@", a host, a port. One pass finds the authority's end, its last
// "@" and the first ":" after it outside brackets.
func (p *webParser) authority(s string) bool {
	p.hasHost = true
	p.buf = append(p.buf, '/', '/')
	start := len(p.buf)
	special := p.isSpecial()
	end, lastAt, colon, inside := 0, -1, -1, false
	for ; end < len(s); end++ {
		c := s[end]
		if !authorityBytes[c] {
			continue
		}
		if c == '/' || c == '?' || c == '#' || c == '\\' && special {
			break
		}
		switch c {
		case '@':
			lastAt, colon, inside = end, -1, false
		case '[':
			inside = true
		case ']':
			inside = false
		case ':':
			if colon < 0 && !inside {
				colon = end
			}
		}
	}
	p.userEnd, p.hostStart = start, start
	hostAt := 0
	if lastAt >= 0 {
		if p.errs != nil || p.trace != nil {
			for i := 0; i <= lastAt; i++ {
				if s[i] == '@' {
					p.warn(p.at(s)+i, "invalid-credentials")
				}
			}
		}
		if lastAt+1 == end {
			return p.fail(p.at(s)+lastAt, "host-missing")
		}
		user, pass, _ := strings.Cut(s[:lastAt], ":")
		p.buf = appendEncoded(p.buf, user, userinfoSet)
		p.userEnd = len(p.buf)
		if pass != "" {
			p.buf = appendEncoded(append(p.buf, ':'), pass, userinfoSet)
		}
		if len(p.buf) > start {
			p.buf = append(p.buf, '@')
		}
		p.hostStart = len(p.buf)
		hostAt = lastAt + 1
		if p.trace != nil {
			p.note("authority state: credentials %q written %q", s[:lastAt], p.buf[start:p.hostStart])
		}
	}
	host, port := s[hostAt:end], ""
	if colon >= 0 {
		host, port = s[hostAt:colon], s[colon+1:end]
	}
	if host == "" && (colon >= 0 || special) {
		return p.fail(p.at(s)+hostAt, "host-missing")
	}
	var ok bool
	if p.buf, ok = p.appendHost(p.buf, host, p.at(s)+hostAt, !special); !ok {
		return false
	}
	p.hostEnd = len(p.buf)
	if colon >= 0 && !p.writePort(port, p.at(s)+colon+1) {
		return false
	}
	if p.trace != nil {
		p.note("host state: host %q", p.buf[p.hostStart:p.hostEnd])
	}
	return p.pathStartState(s[end:])
}

// authorityBytes marks the bytes the authority state looks at.
var authorityBytes = [256]bool{'/': true, '?': true, '#': true, '\\': true, '@': true, '[': true, ']': true, ':': true}

// writePort is the port state on the digits after the host's ":".
func (p *webParser) writePort(s string, at int) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return p.fail(at+i, "port-invalid")
		}
		if n = n*10 + int(s[i]-'0'); n > 65535 {
			return p.fail(at, "port-out-of-range")
		}
	}
	if s == "" {
		return true
	}
	if n == p.scheme.defaultPort() {
		if p.trace != nil {
			p.note("port state: port %s is the scheme's default, so none is written", s)
		}
		return true
	}
	p.port = n
	p.buf = strconv.AppendInt(append(p.buf, ':'), int64(n), 10)
	if p.trace != nil && string(p.buf[p.hostEnd+1:]) != s {
		p.note("port state: port %q written %s", s, p.buf[p.hostEnd+1:])
	}
	return true
}

// pathStartState is the path start state, after a host.
func (p *webParser) pathStartState(s string) bool {
	p.pathStart = len(p.buf)
	if p.isSpecial() {
		if p.slashFirst(s) {
			s = s[1:]
		}
		return p.path(s)
	}
	if s == "" {
		return true
	}
	switch s[0] {
	case '?':
		return p.query(s[1:])
	case '#':
		return p.fragment(s[1:])
	case '/':
		s = s[1:]
	}
	return p.path(s)
}

// path is the path state: one segment at a time, each written "/segment"
// after the path so far, percent-encoded in the same pass that finds its
// end; then "." and ".." are taken out, and a Windows drive letter
// normalised, from the segment as written in the input.
func (p *webParser) path(s string) bool {
	special := p.isSpecial()
	for {
		at := len(p.buf)
		empty := at == p.pathStart // the path so far, before this segment
		p.buf = append(p.buf, '/')
		end, run := 0, 0 // the segment ends at end; s[run:end] is not yet written
		for ; end < len(s); end++ {
			c := s[end]
			t := pathBytes[c]
			if t == 0 {
				continue
			}
			if t&endsSegment != 0 {
				break
			}
			if t&backslash != 0 {
				if special {
					break
				}
				continue
			}
			p.buf = append(p.buf, s[run:end]...)
			n := 1
			if c < utf8.RuneSelf {
				p.buf = appendPercentByte(p.buf, c)
			} else {
				_, n = utf8.DecodeRuneInString(s[end:])
				p.buf = appendEncoded(p.buf, s[end:end+n], pathSet)
			}
			run = end + n
			end += n - 1
		}
		p.buf = append(p.buf, s[run:end]...)
		seg := s[:end]
		slash := end < len(s) && (s[end] == '/' || s[end] == '\\')
		if slash && s[end] == '\\' {
			p.warn(p.at(s)+end, "invalid-reverse-solidus")
		}
		if len(seg) <= 6 && (seg != "" && (seg[0] == '.' || seg[0] == '%') || len(seg) == 2) {
			p.dotOrDrive(seg, at, empty, slash)
		}
		if p.errs != nil {
			p.checkUnits(seg, p.at(s))
		}
		if p.trace != nil && needsEncoding(seg, pathSet) {
			p.note("path state: segment %q percent-encoded to %q (path percent-encode set)", seg, p.buf[at+1:])
		}
		if end == len(s) {
			return true
		}
		switch s[end] {
		case '?':
			return p.query(s[end+1:])
		case '#':
			return p.fragment(s[end+1:])
		}
		s = s[end+1:]
	}
}

// dotOrDrive undoes the writing at at of a short segment that is "." or
// "..", in any of their spellings, and normalises a file URL's first
// segment when it is a Windows drive letter. slash tells whether a "/"
// follows the segment: a dot segment at the end leaves an empty one.
func (p *webParser) dotOrDrive(seg string, at int, empty, slash bool) {
	switch {
	case isDoubleDot(seg):
		p.buf = p.buf[:at]
		p.shorten()
		if p.trace != nil {
			p.note("path state: %q pops the last segment; the path is now %q", seg, p.buf[p.pathStart:])
		}
	case isSingleDot(seg):
		p.buf = p.buf[:at]
		if p.trace != nil {
			p.note("path state: %q is dropped", seg)
		}
	case p.scheme == fileScheme && empty && isDriveLetter(seg):
		if seg[1] == '|' && p.trace != nil {
			p.note("path state: Windows drive letter %q written %q", seg, seg[:1]+":")
		}
		p.buf[at+2] = ':'
		return
	default:
		return
	}
	if !slash {
		p.buf = append(p.buf, '/')
	}
}

// pathBytes classifies bytes for the path state: those that end a segment
// in every URL, "\\", which ends one in a special URL, and those the path
// percent-encode set holds.
var pathBytes = func() (t [256]uint8) {
	for c := range t {
		if encodeTable[c]&pathSet != 0 {
			t[c] |= encodesInPath
		}
	}
	t['/'] |= endsSegment
	t['?'] |= endsSegment
	t['#'] |= endsSegment
	t['\\'] |= backslash
	return t
}()

const (
	endsSegment = 1 << iota
	backslash   // ends a segment of a special URL
	encodesInPath
)

// shorten is "shorten a URL's path": drop its last segment, unless it is a
// file URL's only segment and a drive letter.
func (p *webParser) shorten() {
	path := p.buf[p.pathStart:]
	if p.scheme == fileScheme && len(path) == 3 && isAlpha(path[1]) && path[2] == ':' {
		return
	}
	if i := bytes.LastIndexByte(path, '/'); i >= 0 {
		p.buf = p.buf[:p.pathStart+i]
	}
}

// isSingleDot tells "." and "%2e", the "single-dot URL path segment".
func isSingleDot(s string) bool {
	return s == "." || len(s) == 3 && strings.EqualFold(s, "%2e")
}

// isDoubleDot tells "..", ".%2e", "%2e." and "%2e%2e", the "double-dot URL
// path segment", in any case.
func isDoubleDot(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return strings.EqualFold(s, ".%2e") || strings.EqualFold(s, "%2e.")
	case 6:
		return strings.EqualFold(s, "%2e%2e")
	}
	return false
}

// isDriveLetter tells a "Windows drive letter": an ASCII letter and ":" or
// "|".
func isDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

// startsWithDriveLetter is "starts with a Windows drive letter".
func startsWithDriveLetter(s string) bool {
	if len(s) < 2 || !isDriveLetter(s[:2]) {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// opaquePath is the opaque path state.
func (p *webParser) opaquePath(s string) bool {
	end := strings.IndexAny(s, "?#")
	if end < 0 {
		end = len(s)
	}
	seg := s[:end]
	if p.errs != nil {
		p.checkUnits(seg, p.at(s))
	}
	p.buf = appendEncoded(p.buf, seg, c0ControlSet)
	if end < len(s) && end > 0 && seg[end-1] == ' ' {
		// A space right before "?" or "#" is encoded, so that it survives
		// the trimming of a later parse.
		p.buf = append(p.buf[:len(p.buf)-1], "%20"...)
	}
	if end == len(s) {
		return true
	}
	if s[end] == '?' {
		return p.query(s[end+1:])
	}
	return p.fragment(s[end+1:])
}

// query is the query state, in UTF-8.
func (p *webParser) query(s string) bool {
	p.queryStart = len(p.buf)
	p.buf = append(p.buf, '?')
	end := strings.IndexByte(s, '#')
	if end < 0 {
		end = len(s)
	}
	set := querySet
	if p.isSpecial() {
		set = specialQuerySet
	}
	if p.errs != nil {
		p.checkUnits(s[:end], p.at(s))
	}
	if p.enc != nil && p.isSpecial() && p.scheme != wsScheme && p.scheme != wssScheme {
		p.buf = appendEncodedIn(p.buf, s[:end], set, p.enc)
	} else {
		p.buf = appendEncoded(p.buf, s[:end], set)
	}
	if p.trace != nil && needsEncoding(s[:end], set) {
		p.note("query state: %q percent-encoded to %q", s[:end], p.buf[p.queryStart+1:])
	}
	if end == len(s) {
		return true
	}
	return p.fragment(s[end+1:])
}

// fragment is the fragment state.
func (p *webParser) fragment(s string) bool {
	p.fragStart = len(p.buf)
	p.buf = append(p.buf, '#')
	if p.errs != nil {
		p.checkUnits(s, p.at(s))
	}
	p.buf = appendEncoded(p.buf, s, fragmentSet)
	if p.trace != nil && needsEncoding(s, fragmentSet) {
		p.note("fragment state: %q percent-encoded to %q", s, p.buf[p.fragStart+1:])
	}
	return true
}

// file is the file state; the scheme "file:" is written.
func (p *webParser) file(s string) bool {
	p.scheme = fileScheme
	if p.slashFirst(s) {
		return p.fileSlash(s[1:])
	}
	if b := &p.base; p.hasBase && b.scheme == fileScheme {
		if inherited, ok := p.inherit(s); inherited {
			return ok
		}
		if !startsWithDriveLetter(s) {
			p.shorten()
		} else {
			p.warn(p.at(s), "file-invalid-Windows-drive-letter")
			p.buf = p.buf[:p.pathStart]
		}
		return p.path(s)
	}
	p.emptyHost()
	p.pathStart = len(p.buf)
	return p.path(s)
}

// emptyHost writes the empty host of a file URL.
func (p *webParser) emptyHost() {
	p.hasHost = true
	p.buf = append(p.buf, '/', '/')
	p.userEnd, p.hostStart, p.hostEnd = len(p.buf), len(p.buf), len(p.buf)
}

// fileSlash is the file slash state.
func (p *webParser) fileSlash(s string) bool {
	if p.slashFirst(s) {
		return p.fileHost(s[1:])
	}
	if b := &p.base; p.hasBase && b.scheme == fileScheme {
		p.copyAuthority()
		p.pathStart = len(p.buf)
		if first := b.href[b.pathStart:b.pathEnd()]; !startsWithDriveLetter(s) &&
			len(first) >= 3 && isAlpha(first[1]) && first[2] == ':' && (len(first) == 3 || first[3] == '/') {
			p.buf = append(p.buf, first[:3]...)
		}
	} else {
		p.emptyHost()
		p.pathStart = len(p.buf)
	}
	return p.path(s)
}

// fileHost is the file host state.
func (p *webParser) fileHost(s string) bool {
	end := 0
	for end < len(s) && s[end] != '/' && s[end] != '\\' && s[end] != '?' && s[end] != '#' {
		end++
	}
	host := s[:end]
	p.emptyHost()
	if isDriveLetter(host) {
		p.warn(p.at(s), "file-invalid-Windows-drive-letter-host")
		p.pathStart = len(p.buf)
		return p.path(s)
	}
	if host != "" {
		var ok bool
		if p.buf, ok = p.appendHost(p.buf, host, p.at(s), false); !ok {
			return false
		}
		if string(p.buf[p.hostStart:]) == "localhost" {
			p.note("file host state: \"localhost\" is the empty host")
			p.buf = p.buf[:p.hostStart]
		}
		p.hostEnd = len(p.buf)
	}
	return p.pathStartState(s[end:])
}

// checkUnits records an invalid-URL-unit validation error for each code
// point of s, which starts at offset at, that is neither a URL code point
// nor a "%" followed by two hex digits.
func (p *webParser) checkUnits(s string, at int) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				p.warn(at+i, "invalid-URL-unit")
			}
		} else if !isURLCodePoint(r) || r == utf8.RuneError && n == 1 {
			p.warn(at+i, "invalid-URL-unit")
		}
		i += n
	}
}

// isURLCodePoint tells the "URL code points": ASCII alphanumerics, the
// punctuation !$&'()*+,-./:;=?@_~, and every scalar value from U+00A0 on
// that is not a noncharacter.
func isURLCodePoint(r rune) bool {
	if r < utf8.RuneSelf {
		return isAlpha(byte(r)) || isDigit(byte(r)) || strings.ContainsRune("!$&'()*+,-./:;=?@_~", r)
	}
	if r < 0xa0 || 0xd800 <= r && r <= 0xdfff || 0xfdd0 <= r && r <= 0xfdef || r&0xfffe == 0xfffe {
		return false
	}
	return r <= 0x10fffd
}

// pathEnd is where u's path ends.
func (u *WebURL) pathEnd() int {
	switch {
	case u.queryStart >= 0:
		return u.queryStart
	case u.fragStart >= 0:
		return u.fragStart
	}
	return len(u.href)
}

// String returns the URL's serialization, its href.
func (u WebURL) String() string { return u.href }

// Href is the URL's serialization (the API's href).
func (u WebURL) Href() string { return u.href }

// Scheme is the URL's scheme, lower case, without the ":".
func (u WebURL) Scheme() string {
	if u.schemeEnd == 0 {
		return ""
	}
	return u.href[:u.schemeEnd-1]
}

// Protocol is the scheme followed by ":".
func (u WebURL) Protocol() string { return u.href[:u.schemeEnd] }

// Username is the URL's username, percent-encoded.
func (u WebURL) Username() string {
	if !u.hasHost {
		return ""
	}
	return u.href[u.schemeEnd+2 : u.userEnd]
}

// Password is the URL's password, percent-encoded.
func (u WebURL) Password() string {
	if !u.hasHost || u.userEnd >= u.hostStart-1 {
		return ""
	}
	return u.href[u.userEnd+1 : u.hostStart-1]
}

// Host is the hostname and, if the URL has one, ":" and the port.
func (u WebURL) Host() string {
	if !u.hasHost {
		return ""
	}
	return u.href[u.hostStart:u.pathStart]
}

// Hostname is the serialized host: a domain, an IPv4 address, an IPv6
// address in brackets, an opaque host, or "" for none or the empty host.
func (u WebURL) Hostname() string { return u.href[u.hostStart:u.hostEnd] }

// HasHost tells a URL whose host is not null: one with "//" after the
// scheme, even if the host is empty ("file:///x").
func (u WebURL) HasHost() bool { return u.hasHost }

// Port is the port in decimal, or "" when the URL has none (the scheme's
// default port is never kept).
func (u WebURL) Port() string {
	if u.port < 0 {
		return ""
	}
	return u.href[u.hostEnd+1 : u.pathStart]
}

// Pathname is the URL's path: segments each after a "/", or an opaque path
// as it is.
func (u WebURL) Pathname() string { return u.href[u.pathStart:u.pathEnd()] }

// HasOpaquePath tells a URL such as "mailto:a@b" whose path is one string
// and not a list of segments; no reference is relative to it but "#...".
func (u WebURL) HasOpaquePath() bool { return u.opaque }

// Search is "?" and the query, or "" when the query is absent or empty.
func (u WebURL) Search() string {
	if u.queryStart < 0 {
		return ""
	}
	end := len(u.href)
	if u.fragStart >= 0 {
		end = u.fragStart
	}
	if end-u.queryStart == 1 {
		return ""
	}
	return u.href[u.queryStart:end]
}

// Hash is "#" and the fragment, or "" when the fragment is absent or empty.
func (u WebURL) Hash() string {
	if u.fragStart < 0 || u.fragStart == len(u.href)-1 {
		return ""
	}
	return u.href[u.fragStart:]
}

// Query returns the query and whether there is one ("?" with nothing after
// it is an empty query, not an absent one).
func (u WebURL) Query() (string, bool) {
	if u.queryStart < 0 {
		return "", false
	}
	return strings.TrimPrefix(u.Search(), "?"), true
}

// Fragment returns the fragment and whether there is one.
func (u WebURL) Fragment() (string, bool) {
	if u.fragStart < 0 {
		return "", false
	}
	return u.href[u.fragStart+1:], true
}

// Origin is the serialization of the URL's origin (section "Origin"):
// "scheme://host[:port]" for http, https, ws, wss and ftp, that of the URL
// in the path of a blob URL when it is http or https, and "null", an
// opaque origin, for every other URL.
func (u WebURL) Origin() string {
	switch u.scheme {
	case httpScheme, httpsScheme, wsScheme, wssScheme, ftpScheme:
		return u.href[:u.schemeEnd] + "//" + u.Host()
	}
	if u.Scheme() == "blob" {
		if inner, err := ParseWeb(u.Pathname()); err == nil && (inner.scheme == httpScheme || inner.scheme == httpsScheme) {
			return inner.Origin()
		}
	}
	return "null"
}

// MarshalText returns the href.
func (u WebURL) MarshalText() ([]byte, error) { return []byte(u.href), nil }

// UnmarshalText parses text as an absolute URL with [ParseWeb].
func (u *WebURL) UnmarshalText(text []byte) error {
	v, err := ParseWeb(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// ValidateWeb returns the validation errors the WHATWG URL Standard's
// parser meets in s: an absolute URL or, when it has no scheme, a reference,
// checked against an http URL as the links of web pages are. None means
// that s is valid as far as the parser can tell. The error is the failure,
// when the parser returns one.
func ValidateWeb(s string) ([]ValidationError, error) {
	_, errs, err := CheckWeb(s, nil)
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Name == "missing-scheme-non-relative-URL" {
		_, errs, err = CheckWeb(s, &referenceBase)
	}
	return errs, err
}

// validateWeb is Resolver.Validate under the WHATWG URL Standard: the first
// validation error of s.
func validateWeb(s string) error {
	errs, err := ValidateWeb(s)
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return &url.Error{Op: "parse", URL: s, Err: &errs[0]}
	}
	return nil
}

// referenceBase is the base against which a reference is checked when no
// base is given.
var referenceBase, _ = ParseWeb("http://example.com/")
