package rfc1808

import "strings"

// SchemeCategory is one of the syntactic categories of schemes that
// RFC 1808, Section 2.3 names.
type SchemeCategory int

const (
	// SchemeUnknown is any scheme Section 2.3 does not name.
	SchemeUnknown SchemeCategory = iota
	// SchemeNeverRelative schemes are never used with relative URLs:
	// mailto, news, telnet.
	SchemeNeverRelative
	// SchemeOwnReserved schemes may use reserved characters for purposes
	// outside the generic-RL syntax; relative URLs work with them when the
	// base follows generic-RL: gopher, prospero, wais.
	SchemeOwnReserved
	// SchemeGenericRL schemes can always be parsed with the generic-RL
	// syntax: file, ftp, http, nntp.
	SchemeGenericRL
)

// String returns a short name for c: "unknown", "never-relative",
// "own-reserved" or "generic-RL".
func (c SchemeCategory) String() string {
	switch c {
	case SchemeNeverRelative:
		return "never-relative"
	case SchemeOwnReserved:
		return "own-reserved"
	case SchemeGenericRL:
		return "generic-RL"
	}
	return "unknown"
}

// SchemeCategoryOf returns the category Section 2.3 puts scheme in,
// comparing names without regard to case (Section 2.1 of RFC 1738):
// "HTTP" is "http". The scheme is given without its colon, as
// [URL.Scheme] returns it. Section 2.3 lists only the schemes RFC 1738
// defined; https and the others that came later are SchemeUnknown.
func SchemeCategoryOf(scheme string) SchemeCategory {
	for _, s := range schemeCategories {
		if strings.EqualFold(scheme, s.name) {
			return s.category
		}
	}
	return SchemeUnknown
}

var schemeCategories = [...]struct {
	name     string
	category SchemeCategory
}{
	{"mailto", SchemeNeverRelative},
	{"news", SchemeNeverRelative},
	{"telnet", SchemeNeverRelative},
	{"gopher", SchemeOwnReserved},
	{"prospero", SchemeOwnReserved},
	{"wais", SchemeOwnReserved},
	{"file", SchemeGenericRL},
	{"ftp", SchemeGenericRL},
	{"http", SchemeGenericRL},
	{"nntp", SchemeGenericRL},
}
