package whatwg

import (
	"strings"

	"golang.org/x/net/publicsuffix"
)

// PublicSuffix returns the public suffix of u's host, as the URL
// Standard's "public suffix" of a host defines it (Section 3.5, "Host
// miscellaneous"): the part of a domain that the Public Suffix List names
// (golang.org/x/net/publicsuffix, ICANN and private sections, "*" for a
// name it lacks), such as "com" or "github.io". It returns "" for a URL
// whose host is not a domain: none, an IP address, or a non-special URL's
// opaque host.
func (u URL) PublicSuffix() string {
	host, dot, ok := u.domain()
	if !ok {
		return ""
	}
	suffix, _ := publicsuffix.PublicSuffix(host)
	return suffix + dot
}

// RegistrableDomain returns the registrable domain of u's host, as the URL
// Standard defines it: its public suffix and the label before it, such as
// "example.com" for "www.example.com" and "whatwg.github.io" for itself.
// It returns "" where the Standard's is null: a host that is not a domain,
// or is a public suffix ("com", "github.io"). Crawlers use it to tell a
// site's own links from others.
func (u URL) RegistrableDomain() string {
	host, dot, ok := u.domain()
	if !ok {
		return ""
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return "" // the host is a public suffix
	}
	return d + dot
}

// domain returns u's host if it is a domain, without a trailing dot, and
// that dot.
func (u URL) domain() (host, dot string, ok bool) {
	host = u.Hostname()
	if !u.hasHost || u.scheme == notSpecial || host == "" || host[0] == '[' || isIPv4(host) {
		return "", "", false
	}
	if strings.HasSuffix(host, ".") {
		host, dot = host[:len(host)-1], "."
	}
	return host, dot, host != ""
}

// isIPv4 reports whether a special URL's host, as serialized, is an IPv4
// address: four decimal numbers, which a domain cannot end in.
func isIPv4(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	return last != "" && strings.Trim(last, "0123456789") == ""
}
