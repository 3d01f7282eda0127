package whatwg

import (
	"strings"
)

// This file is the URL record of the WHATWG URL Standard (section "URLs")
// and the getters of its API (section "The URL class"): a parsed URL as a
// serialization and the offsets of its parts.

// A URL is a URL record of the WHATWG URL Standard: what a browser's
// `new URL(input, base)` holds. It is kept as its serialization, the href,
// and the offsets of its parts in it, so it is as cheap to copy as a string
// and its components are substrings.
//
// The zero URL is not a URL; get one from [Parse] or [URL.Parse].
type URL struct {
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

// pathEnd is where u's path ends.
func (u *URL) pathEnd() int {
	switch {
	case u.queryStart >= 0:
		return u.queryStart
	case u.fragStart >= 0:
		return u.fragStart
	}
	return len(u.href)
}

// String returns the URL's serialization, its href.
func (u URL) String() string { return u.href }

// IsValid reports whether u is a URL that parsing made, not the zero
// URL: the empty URL, whose every part is empty or absent.
func (u URL) IsValid() bool { return u.href != "" }

// Href is the URL's serialization (the API's href).
func (u URL) Href() string { return u.href }

// Scheme is the URL's scheme, lower case, without the ":".
func (u URL) Scheme() string {
	if u.schemeEnd == 0 {
		return ""
	}
	return u.href[:u.schemeEnd-1]
}

// Protocol is the scheme followed by ":".
func (u URL) Protocol() string { return u.href[:u.schemeEnd] }

// Username is the URL's username, percent-encoded.
func (u URL) Username() string {
	if !u.hasHost {
		return ""
	}
	return u.href[u.schemeEnd+2 : u.userEnd]
}

// Password is the URL's password, percent-encoded.
func (u URL) Password() string {
	if !u.hasHost || u.userEnd >= u.hostStart-1 {
		return ""
	}
	return u.href[u.userEnd+1 : u.hostStart-1]
}

// Host is the hostname and, if the URL has one, ":" and the port.
func (u URL) Host() string {
	if !u.hasHost {
		return ""
	}
	return u.href[u.hostStart:u.pathStart]
}

// Hostname is the serialized host: a domain, an IPv4 address, an IPv6
// address in brackets, an opaque host, or "" for none or the empty host.
func (u URL) Hostname() string { return u.href[u.hostStart:u.hostEnd] }

// HasHost tells a URL whose host is not null: one with "//" after the
// scheme, even if the host is empty ("file:///x").
func (u URL) HasHost() bool { return u.hasHost }

// Port is the port in decimal, or "" when the URL has none (the scheme's
// default port is never kept).
func (u URL) Port() string {
	if u.port < 0 || !u.IsValid() {
		return ""
	}
	return u.href[u.hostEnd+1 : u.pathStart]
}

// Pathname is the URL's path: segments each after a "/", or an opaque path
// as it is.
func (u URL) Pathname() string { return u.href[u.pathStart:u.pathEnd()] }

// HasOpaquePath tells a URL such as "mailto:a@b" whose path is one string
// and not a list of segments; no reference is relative to it but "#...".
func (u URL) HasOpaquePath() bool { return u.opaque }

// Search is "?" and the query, or "" when the query is absent or empty.
func (u URL) Search() string {
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
func (u URL) Hash() string {
	if u.fragStart < 0 || u.fragStart == len(u.href)-1 {
		return ""
	}
	return u.href[u.fragStart:]
}

// Query returns the query and whether there is one ("?" with nothing after
// it is an empty query, not an absent one).
func (u URL) Query() (string, bool) {
	if u.queryStart < 0 || !u.IsValid() {
		return "", false
	}
	return strings.TrimPrefix(u.Search(), "?"), true
}

// Fragment returns the fragment and whether there is one.
func (u URL) Fragment() (string, bool) {
	if u.fragStart < 0 || !u.IsValid() {
		return "", false
	}
	return u.href[u.fragStart+1:], true
}

// MarshalText returns the href; the zero URL's is empty, which
// [URL.UnmarshalText] reads back as the zero URL.
func (u URL) MarshalText() ([]byte, error) { return []byte(u.href), nil }

// AppendText appends the href to b ([encoding.TextAppender]).
func (u URL) AppendText(b []byte) ([]byte, error) { return append(b, u.href...), nil }
