package relurl

import (
	"errors"
	"fmt"
	"strings"
)

// A Spec names the standard by which a Resolver reads URLs.
type Spec int

const (
	// RFC1808 is RFC 1808 (1995), Sections 2.4 and 4: this package's
	// default, the zero Spec.
	RFC1808 Spec = iota
	// RFC3986 is RFC 3986 (2005), Section 5.2, which replaced RFC 1808
	// through RFC 2396, and which Go's net/url follows.
	RFC3986
	// WHATWG is the WHATWG URL Standard, which browsers, Node and Deno
	// follow: the basic URL parser of package whatwg.
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
