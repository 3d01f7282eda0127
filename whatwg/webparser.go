package whatwg

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/bytestr"
	"golang.org/x/text/encoding"
)

// This file is the WHATWG URL Standard's section "URL parsing": the basic
// URL parser, without a state override (the setters), and the URL
// serializer. The parser walks the state machine's states as functions, one
// per state or group of states, and writes the serialization as it goes.

// webParser is one run of the basic URL parser. It appends the URL's
// serialization to buf, from o on, and keeps the offsets of its parts (in
// buf) as it goes.
type webParser struct {
	in      string // the input after clean-up
	base    URL    // the base URL, a copy (a pointer here would make every base escape)
	hasBase bool
	enc     encoding.Encoding // for the queries of special URLs but ws and wss; nil for UTF-8
	buf     []byte
	o       int

	schemeEnd, userEnd, hostStart, hostEnd, pathStart, queryStart, fragStart int
	port                                                                     int
	scheme                                                                   webScheme
	hasHost, opaque                                                          bool

	webReport // what Check and Explain ask for; empty for a plain parse
}

func (p *webParser) parseURL(input string, base *URL) (URL, error) {
	p.buf = make([]byte, 0, len(input)+16)
	if !p.parse(input, base) {
		return URL{}, p.err(input)
	}
	// The buffer is the URL's own: its href can be it, without a copy.
	return p.record(bytestr.Owned(p.buf)), nil
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
func (p *webParser) record(href string) URL {
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
	return URL{
		href:      href,
		schemeEnd: p.schemeEnd - o, userEnd: p.userEnd - o, hostStart: p.hostStart - o,
		hostEnd: p.hostEnd - o, pathStart: p.pathStart - o,
		queryStart: off(p.queryStart), fragStart: off(p.fragStart),
		port: int32(p.port), scheme: p.scheme, hasHost: p.hasHost, opaque: p.opaque,
	}
}

// again readies p, which has parsed successfully, to parse once more, its
// output after the first's in p.buf, with enc: it sets what parse does not
// set itself as a new webParser has it. Zeroing a whole new parser instead
// cost a string base's resolution 4% (the parser is some 290 bytes).
// TestAgain holds it to a new parser.
func (p *webParser) again(enc encoding.Encoding) {
	p.enc, p.hasBase = enc, false
	p.schemeEnd, p.userEnd, p.hostStart, p.hostEnd, p.pathStart = 0, 0, 0, 0, 0
	p.scheme, p.hasHost, p.opaque = notSpecial, false, false
	p.removed, p.failure = false, nil
}

// parse runs the parser on input against base (nil for none) and reports
// whether it succeeded.
func (p *webParser) parse(input string, base *URL) bool {
	if base != nil && base.href == "" {
		base = nil // the zero URL is no URL
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
	if !ascii.HasTabOrNewline(t) {
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

// at is the offset in the cleaned-up input of its suffix s.
func (p *webParser) at(s string) int { return len(p.in) - len(s) }

// schemeStart is the scheme start and scheme states.
func (p *webParser) schemeStart(s string) bool {
	i := 0
	if s != "" && ascii.IsAlpha(s[0]) {
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
	return ascii.IsAlpha(c) || ascii.IsDigit(c) || c == '+' || c == '-' || c == '.'
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
scan:
	for ; end < len(s); end++ {
		// The bytes that mark nothing, in a loop of their own: the
		// compiler makes it tighter than a continue in the outer one.
		for !authorityBytes[s[end]] {
			if end++; end == len(s) {
				break scan
			}
		}
		c := s[end]
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
	if p.buf, ok = (hostParser{&p.webReport}).appendHost(p.buf, host, p.at(s)+hostAt, !special); !ok {
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
		if !ascii.IsDigit(s[i]) {
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
	segment:
		for ; end < len(s); end++ {
			for pathBytes[s[end]] == 0 { // as in authority: a loop of its own
				if end++; end == len(s) {
					break segment
				}
			}
			c := s[end]
			t := pathBytes[c]
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
	if p.scheme == fileScheme && len(path) == 3 && ascii.IsAlpha(path[1]) && path[2] == ':' {
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
	return len(s) == 2 && ascii.IsAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

// drivePath reports whether a path's first segment is a normalized Windows
// drive letter ("/C:"), which shortening a file URL's path keeps and a
// file URL relative to it inherits.
func drivePath(path string) bool {
	return len(path) >= 3 && ascii.IsAlpha(path[1]) && path[2] == ':' && (len(path) == 3 || path[3] == '/')
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
		if first := b.href[b.pathStart:b.pathEnd()]; !startsWithDriveLetter(s) && drivePath(first) {
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
		if p.buf, ok = (hostParser{&p.webReport}).appendHost(p.buf, host, p.at(s), false); !ok {
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
