// Package edit edits and formats URLs as curl's trurl does, by the WHATWG
// URL Standard (its setters, whatwg.URL's With methods) or by RFC 3986
// (a component replaced by the RFC's syntax, the whole checked again).
//
// An Edit is a list of operations applied in a fixed order, as trurl
// applies its options: resolve a redirect, set components, append path
// segments, trim query pairs, replace query pairs, append query pairs,
// sort the query. Format then
// writes a URL by a template such as "{host}{path}", and JSON gives all
// its components.
//
// The components have trurl's names: scheme, user, password, host, port,
// path, query, fragment, and url for the whole. The URL API's names are
// accepted too: protocol, username, hostname, pathname, search, hash and
// href. host is the hostname, without the port, as trurl has it.
package edit

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/whatwg"
)

// components are the components an Edit sets and a template gets, in the
// order JSON writes them.
var components = []string{"scheme", "user", "password", "host", "port", "path", "query", "fragment"}

// apiNames are the URL API's setters of trurl's components; trurl's host
// is the hostname.
var apiNames = map[string]string{
	"url": "href", "scheme": "protocol", "user": "username", "password": "password", "host": "hostname",
	"port": "port", "path": "pathname", "query": "search", "fragment": "hash",
}

// aliases are the URL API's names of trurl's components.
var aliases = map[string]string{
	"protocol": "scheme", "username": "user", "hostname": "host", "pathname": "path",
	"search": "query", "hash": "fragment", "href": "url",
}

// canonical returns the component a name names, and whether it names one.
func canonical(name string) (string, bool) {
	name = strings.ToLower(name)
	if a, ok := aliases[name]; ok {
		return a, true
	}
	if name == "url" {
		return name, true
	}
	for _, c := range components {
		if c == name {
			return c, true
		}
	}
	return "", false
}

// An Edit is what to do to each URL.
type Edit struct {
	Spec        relurl.Spec // relurl.WHATWG or relurl.RFC3986
	Redirect    string      // a reference to resolve against the URL first, if not ""
	Set         []Assignment
	AppendPath  []string // path segments to append, each percent-encoded
	AppendQuery []string // "name=value" pairs to append to the query
	QTrim       []string // query names to remove: path.Match patterns ("utm_*")
	// Replace holds "name=value" pairs that replace the query's pairs of
	// that name (the first takes the value, the others go), as
	// URLSearchParams's set does; a name the query lacks is left out.
	// ForceReplace does the same, and appends a name the query lacks.
	Replace      []string
	ForceReplace []string
	SortQuery    bool
	KeepPort     bool // keep a port that is the scheme's default, written or set, as trurl's --keep-port does
	// GuessScheme gives an input without a scheme the one trurl and curl
	// guess for it (see GuessScheme) before it is parsed.
	GuessScheme bool
	// CurlOnly refuses a URL whose scheme libcurl does not support
	// (trurl's --curl): one of CurlSchemes.
	CurlOnly bool
	// QuerySeparator, if not 0, separates the query's pairs instead of
	// "&", for the operations on them and for reading them (URL.Query),
	// as trurl's --query-separator does: "a=b;c=d" with ";".
	QuerySeparator byte
}

// An Assignment is one component and its new value; IfAbsent sets it only
// on a URL that lacks the component.
type Assignment struct {
	Component, Value string
	IfAbsent         bool
}

// ParseAssignment parses "component=value", and trurl's two other forms:
// "component?=value" sets the component only where the URL lacks it, and
// "component:=value" gives the value as it is to be written, which is what
// "=" does here anyway: the URL Standard's setters percent-encode only
// what the component cannot hold, leaving a "%20" as it is (where trurl's
// "=" encodes the value whole).
func ParseAssignment(s string) (Assignment, error) {
	name, value, ok := strings.Cut(s, "=")
	var a Assignment
	for { // "?=", ":=", and both: "?:="
		if n, found := strings.CutSuffix(name, "?"); found {
			name, a.IfAbsent = n, true
		} else if n, found := strings.CutSuffix(name, ":"); found {
			name = n
		} else {
			break
		}
	}
	c, known := canonical(name)
	switch {
	case !ok:
		return Assignment{}, fmt.Errorf("%q: want COMPONENT=VALUE", s)
	case !known:
		return Assignment{}, fmt.Errorf("%q: no component %q (want one of %s, url)", s, name, strings.Join(components, ", "))
	}
	a.Component, a.Value = c, value
	return a, nil
}

// Append adds to e what trurl's --append takes: a path segment
// ("path=SEGMENT") or a query pair ("query=NAME=VALUE") to append. A
// component to set is an [Assignment], which [ParseAssignment] makes of
// trurl's --set syntax, added to e.Set.
func (e *Edit) Append(s string) error {
	what, value, _ := strings.Cut(s, "=")
	switch what {
	case "path":
		e.AppendPath = append(e.AppendPath, value)
	case "query":
		e.AppendQuery = append(e.AppendQuery, value)
	default:
		return fmt.Errorf("%q: want path=SEGMENT or query=NAME=VALUE", s)
	}
	return nil
}

// A URL is a parsed URL that an Edit changes.
type URL struct {
	spec relurl.Spec
	web  whatwg.URL
	rfc  rfcURL
	sep  byte // the query's separator, when an Edit gave one other than "&"
	// keptPort is, with Edit.KeepPort, the scheme's default port the URL
	// was given (written in it, set, or left by a change of scheme),
	// which the URL Standard drops: trurl's --keep-port writes it.
	keptPort string
}

// Parse parses s by spec: an absolute URL.
func Parse(spec relurl.Spec, s string) (URL, error) {
	if spec == relurl.WHATWG {
		w, err := whatwg.Parse(s)
		return URL{spec: spec, web: w}, err
	}
	r, err := parseRFC(s)
	return URL{spec: spec, rfc: r}, err
}

// Apply parses s and applies e to it.
func (e *Edit) Apply(s string) (URL, error) {
	u, guessed, err := e.parse(s)
	if err == nil {
		err = e.checkScheme(&u)
	}
	if err != nil {
		return URL{}, err
	}
	u.sep = e.QuerySeparator
	if e.KeepPort && u.spec == relurl.WHATWG && u.web.Port() == "" {
		u.keptPort = writtenPort(s)
	}
	if e.Redirect != "" {
		if err := u.resolve(e.Redirect); err != nil {
			return URL{}, fmt.Errorf("redirect to %q: %w", e.Redirect, err)
		}
	}
	for _, a := range e.Set {
		// A guessed scheme is no scheme of the input's: "?=" sets it.
		if a.IfAbsent && u.Has(a.Component) && !(guessed && a.Component == "scheme") {
			continue
		}
		if err := u.set(a.Component, a.Value, e.KeepPort); err != nil {
			return URL{}, err
		}
	}
	for _, seg := range e.AppendPath {
		p := u.Get("path", false)
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		if err := u.Set("path", p+escapeSegment(seg)); err != nil {
			return URL{}, err
		}
	}
	if len(e.AppendQuery) > 0 || len(e.QTrim) > 0 || len(e.Replace) > 0 || len(e.ForceReplace) > 0 || e.SortQuery {
		q := u.Query()
		// trurl trims the query before it appends: an appended pair
		// stays, whatever its name.
		for _, pattern := range e.QTrim {
			for _, name := range names(&q) {
				if ok, _ := path.Match(pattern, name); ok {
					q.Delete(name)
				}
			}
		}
		for i, pair := range append(e.Replace, e.ForceReplace...) {
			name, value, _ := strings.Cut(pair, "=")
			if q.Has(name) || i >= len(e.Replace) {
				q.Set(name, value)
			}
		}
		for _, pair := range e.AppendQuery {
			name, value, _ := strings.Cut(pair, "=")
			q.Append(name, value)
		}
		if e.SortQuery {
			q.Sort()
		}
		if err := u.Set("query", u.joinPairs(q.String())); err != nil {
			return URL{}, err
		}
	}
	if e.Spec == relurl.RFC3986 && !e.KeepPort {
		u.rfc.dropDefaultPort()
	}
	if err := e.checkScheme(&u); err != nil {
		return URL{}, err
	}
	return u, nil
}

// checkScheme refuses, with CurlOnly, a scheme libcurl does not support:
// the input's, and the one the edits leave.
func (e *Edit) checkScheme(u *URL) error {
	if scheme := strings.ToLower(u.Get("scheme", false)); e.CurlOnly && !slices.Contains(CurlSchemes, scheme) {
		return fmt.Errorf("scheme %q: libcurl does not support it", scheme)
	}
	return nil
}

// CurlSchemes are the URL schemes libcurl supports, as curl's README of
// 2026 lists its protocols: the schemes Edit.CurlOnly accepts.
var CurlSchemes = []string{"dict", "file", "ftp", "ftps", "gopher", "gophers", "http", "https",
	"imap", "imaps", "ldap", "ldaps", "mqtt", "mqtts", "pop3", "pop3s", "rtsp", "scp", "sftp",
	"smb", "smbs", "smtp", "smtps", "telnet", "tftp", "ws", "wss"}

// curlPorts are the default ports of libcurl's schemes (their IANA
// assignments), which trurl writes for "default:port": the URL Standard
// knows those of its special schemes alone.
var curlPorts = map[string]int{"dict": 2628, "ftp": 21, "ftps": 990, "gopher": 70, "gophers": 70,
	"http": 80, "https": 443, "imap": 143, "imaps": 993, "ldap": 389, "ldaps": 636, "mqtt": 1883,
	"mqtts": 8883, "pop3": 110, "pop3s": 995, "rtsp": 554, "scp": 22, "sftp": 22, "smb": 445,
	"smbs": 445, "smtp": 25, "smtps": 465, "telnet": 23, "tftp": 69, "ws": 80, "wss": 443}

// parse parses s, with the scheme GuessScheme gives it if e asks, and
// reports whether it did. When that fails, and so does s as it is, the
// error is s's, which names what the user wrote.
func (e *Edit) parse(s string) (u URL, guessed bool, err error) {
	if g := GuessScheme(s); e.GuessScheme && g != s {
		u, err := Parse(e.Spec, g)
		if err != nil {
			if _, err0 := Parse(e.Spec, s); err0 != nil {
				return URL{}, false, err0
			}
		}
		return u, true, err
	}
	u, err = Parse(e.Spec, s)
	return u, false, err
}

// GuessScheme returns s with the scheme curl (and so trurl) guesses for
// it when it has none: "http://" before it, or the scheme its host's first
// label names: ftp, dict, ldap, imap, smtp and pop3 ("ftp.example.com"
// is ftp://ftp.example.com/). s has none when no scheme starts it
// ("example.com/x", "[::1]"), and also when what would be its scheme is a
// host with a dot, or localhost, before a port ("example.com:29",
// "localhost:8080/x"), which the URL Standard and RFC 3986 would take for
// a scheme and a path. Anything else is returned as it is.
func GuessScheme(s string) string {
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if colon := strings.IndexByte(s, ':'); colon >= 0 && isScheme(s[:colon]) {
		name := s[:colon]
		port, _, _ := strings.Cut(s[colon+1:], "/")
		port, _, _ = strings.Cut(port, "?")
		port, _, _ = strings.Cut(port, "#")
		hostLike := strings.Contains(name, ".") || strings.EqualFold(name, "localhost")
		if !hostLike || strings.Trim(port, "0123456789") != "" {
			return s // a scheme
		}
	}
	scheme := "http"
	label, _, _ := strings.Cut(host, ".")
	switch l := strings.ToLower(label); l {
	case "ftp", "dict", "ldap", "imap", "smtp", "pop3":
		if strings.Contains(host, ".") {
			scheme = l
		}
	}
	return scheme + "://" + s
}

// isScheme reports whether s is a scheme by its grammar: a letter, then
// letters, digits, "+", "-" and ".".
func isScheme(s string) bool {
	if s == "" || !('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// names returns the distinct names of q.
func names(q *whatwg.SearchParams) []string {
	var list []string
	seen := map[string]bool{}
	for name := range q.All() {
		if !seen[name] {
			seen[name] = true
			list = append(list, name)
		}
	}
	return list
}

// escapeSegment percent-encodes a path segment, as trurl's --append path
// does: everything but the unreserved characters of RFC 3986.
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func (u *URL) resolve(ref string) error {
	if u.spec == relurl.WHATWG {
		w, err := u.web.Parse(ref)
		if err == nil {
			u.web = w
		}
		return err
	}
	s, err := relurl.Resolver{Spec: relurl.RFC3986}.Resolve(u.rfc.String(), ref)
	if err != nil {
		return err
	}
	r, err := parseRFC(s)
	if err == nil {
		u.rfc = r
	}
	return err
}

// Set sets a component (trurl's name or the URL API's) to value: by the
// URL Standard's setter, or by RFC 3986's syntax, checked. A value the
// standard's setter ignores is an error that says why.
func (u *URL) Set(component, value string) error { return u.set(component, value, false) }

// set is Set, keeping with keepPort a default port that the URL Standard's
// port or protocol setter drops.
func (u *URL) set(component, value string, keepPort bool) error {
	c, ok := canonical(component)
	if !ok {
		return fmt.Errorf("no component %q", component)
	}
	if u.spec == relurl.WHATWG && keepPort {
		before := u.Get("port", false)
		if err := u.set(component, value, false); err != nil {
			return err
		}
		switch {
		case u.web.Port() != "":
			u.keptPort = ""
		case c == "port":
			u.keptPort = ""
			if n, err := strconv.Atoi(value); err == nil && n >= 0 && n <= 65535 {
				u.keptPort = strconv.Itoa(n)
			}
		case c == "scheme":
			u.keptPort = before
		case c == "url":
			u.keptPort = writtenPort(value) // the new URL's
		}
		return nil
	}
	if u.spec != relurl.WHATWG {
		return u.rfc.set(c, value)
	}
	w, err := u.web.With(apiNames[c], value)
	if err != nil {
		return err
	}
	u.web = w
	return nil
}

// Get returns a component: decoded (percent-decoding; for the query, "+"
// is a space too), or as it is in the URL. For the URL Standard, port is
// "" for the scheme's default.
func (u *URL) Get(component string, decoded bool) string {
	c := component
	if !isCanonical(c) {
		c, _ = canonical(component)
	}
	var v string
	if u.spec == relurl.WHATWG {
		w := u.web
		switch c {
		case "url":
			if u.keptPort != "" {
				return withPort(w.Href(), u.keptPort)
			}
			return w.Href()
		case "scheme":
			v = w.Scheme()
		case "user":
			v = w.Username()
		case "password":
			v = w.Password()
		case "host":
			v = w.Hostname()
		case "port":
			v = cmp.Or(w.Port(), u.keptPort)
		case "path":
			v = w.Pathname()
		case "query":
			v, _ = w.Query()
		case "fragment":
			v, _ = w.Fragment()
		}
	} else {
		if c == "url" {
			return u.rfc.String()
		}
		v = u.rfc.get(c)
	}
	if decoded && c != "scheme" && c != "port" {
		if c == "query" {
			v = strings.ReplaceAll(v, "+", " ") // before decoding: "%2B" stays "+"
		}
		v = whatwg.PercentDecode(v)
	}
	return v
}

// isCanonical reports whether c is a canonical component name.
func isCanonical(c string) bool {
	switch c {
	case "url", "scheme", "user", "password", "host", "port", "path", "query", "fragment":
		return true
	}
	return false
}

// Has reports whether the URL has the component, however empty.
func (u *URL) Has(component string) bool {
	c, _ := canonical(component)
	if u.spec != relurl.WHATWG {
		return u.rfc.has(c)
	}
	w := u.web
	switch c {
	case "host":
		return w.HasHost()
	case "user", "password":
		return u.Get(c, false) != "" // the URL Standard has no empty credentials
	case "port":
		return w.Port() != "" || u.keptPort != ""
	case "query":
		_, ok := w.Query()
		return ok
	case "fragment":
		_, ok := w.Fragment()
		return ok
	}
	return true
}

// writtenPort returns the port written in the URL s ("0443" as "443"),
// "" if none: what the URL Standard drops when it is the default.
func writtenPort(s string) string {
	_, rest, ok := strings.Cut(s, "//")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#\\"); i >= 0 {
		rest = rest[:i]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if i := strings.LastIndexByte(rest, ']'); i >= 0 {
		rest = rest[i+1:]
	}
	_, port, ok := strings.Cut(rest, ":")
	n, err := strconv.Atoi(port)
	if !ok || err != nil || n < 0 || n > 65535 {
		return ""
	}
	return strconv.Itoa(n)
}

// withPort writes ":port" after the host of the URL s, which has none.
func withPort(s, port string) string {
	_, end, ok := hostSpan(s)
	if !ok {
		return s
	}
	return s[:end] + ":" + port + s[end:]
}

// String returns the URL.
func (u *URL) String() string { return u.Get("url", false) }

// DefaultPort returns the port of the URL's scheme ("443" for https, "143"
// for imap: the URL Standard's, else libcurl's), "" if it has none.
func (u *URL) DefaultPort() string {
	scheme := strings.ToLower(u.Get("scheme", false))
	if p, ok := whatwg.DefaultPort(scheme); ok {
		return strconv.Itoa(p)
	}
	if p, ok := curlPorts[scheme]; ok {
		return strconv.Itoa(p)
	}
	return ""
}

// Query returns the URL's query as search parameters, as a URL's
// searchParams holds them: a "?" the query starts with is a name's. With
// a query separator, its pairs are separated by that, and an "&" is a
// name's or a value's.
func (u *URL) Query() whatwg.SearchParams {
	q := u.Get("query", false)
	if u.sep != 0 && u.sep != '&' {
		q = strings.ReplaceAll(strings.ReplaceAll(q, "&", "%26"), string(u.sep), "&")
	}
	// ParseSearchParams drops one leading "?", as the URLSearchParams
	// constructor does: the one put before the query is that one.
	return whatwg.ParseSearchParams("?" + q)
}

// joinPairs writes a query that SearchParams serialized with the URL's
// separator: each "&" of it is one, since a name's or a value's "&" is
// "%26".
func (u *URL) joinPairs(q string) string {
	if u.sep == 0 || u.sep == '&' {
		return q
	}
	return strings.ReplaceAll(q, "&", string(u.sep))
}

// hostUnicode returns a host in Unicode, its Punycode labels decoded by
// the URL Standard's "domain to Unicode"; a host without one is left as it
// is (RFC hosts keep their case).
func hostUnicode(host string) string {
	if !strings.Contains(host, "xn--") {
		return host
	}
	return whatwg.DomainToUnicode(host)
}

// hostASCII returns a host in ASCII, its Unicode labels encoded by the URL
// Standard's "domain to ASCII", as its host parser writes it; a host that
// fails there is left as it is.
func hostASCII(host string) string {
	if s, err := whatwg.DomainToASCII(host); err == nil {
		return s
	}
	return host
}
