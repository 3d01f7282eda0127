package whatwg

import (
	"iter"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/bytestr"
	"golang.org/x/text/encoding"
)

// This file is the WHATWG URL Standard's application/x-www-form-urlencoded
// section (its parser and serializer) and its URLSearchParams class.

// SearchParams is a query as the URL Standard's URLSearchParams holds it:
// an ordered list of name-value pairs, duplicates and all, as a form or a
// URL's query gives them. Where net/url.Values is a map (its order lost,
// its Encode sorted by name), SearchParams keeps the pairs in the order
// they came, and parses and serializes as browsers do: "+" is a space, a
// "%" not followed by two hex digits stays as it is (net/url refuses the
// whole query), ";" is not a separator, and the serializer writes a space
// as "+" and encodes the application/x-www-form-urlencoded percent-encode
// set, "*" left as it is and "~" encoded, where net/url does the opposite.
//
// The zero SearchParams is empty and ready to use. Its methods have the
// names of URLSearchParams's, in Go's case. Those that read it take a
// SearchParams value, so that u.SearchParams().Get("q") works; those that
// change it take a pointer.
type SearchParams struct {
	list []queryPair
	// raw, when not "", is what list serializes to: the query parsed,
	// when it was written as the serializer writes (the usual case), until
	// a method changes the list. String then has nothing to do.
	raw string
}

// queryPair is one name-value pair of a SearchParams, both decoded.
type queryPair struct {
	Name, Value string
}

// ParseSearchParams parses a query by the application/x-www-form-urlencoded
// parser, as new URLSearchParams(query) does: a leading "?" is dropped,
// the pairs are split at "&" (empty ones skipped) and each at its first
// "=", "+" is a space, and percent-encoded bytes are decoded and read as
// UTF-8, a U+FFFD for each maximal subpart of what is not.
//
// A URL's own query is read without dropping anything: the query of
// "http://h/??a=b" is "?a=b", whose first name is "?a". URL's
// SearchParams reads it so, as the URL's searchParams does.
func ParseSearchParams(query string) SearchParams {
	return parseForm(strings.TrimPrefix(query, "?"))
}

// parseForm is the application/x-www-form-urlencoded parser.
func parseForm(query string) SearchParams {
	var q SearchParams
	if query == "" {
		return q
	}
	q.list = make([]queryPair, 0, strings.Count(query, "&")+1)
	// One pass finds the pairs, the "=" of each, and whether a name or a
	// value holds a byte that decoding or serializing changes: most hold
	// none, and are their own decoding and serialization.
	canonical := true
	start, eq := 0, -1
	special := false     // the name or value being read holds a byte of the form set
	nameSpecial := false // the name of the pair being read does
	for i := 0; ; i++ {
		if i < len(query) {
			// "&" and "=" are in the form set too: one test passes over
			// every other byte.
			c := query[i]
			if encodeTable[c]&formSet == 0 {
				continue
			}
			if c != '&' {
				if c == '=' && eq < 0 {
					eq, nameSpecial, special = i, special, false
				} else {
					special = true
				}
				continue
			}
		}
		// The pair query[start:i] ends.
		switch {
		case i == start:
			canonical = false // an empty pair, skipped
		case eq < 0:
			name := query[start:i]
			if special {
				name, _ = formDecode(name)
			}
			q.list = append(q.list, queryPair{Name: name})
			canonical = false // serialized with an "="
		default:
			name, value := query[start:eq], query[eq+1:i]
			if nameSpecial {
				name, _ = formDecode(name)
			}
			if special {
				value, _ = formDecode(value)
			}
			q.list = append(q.list, queryPair{name, value})
			canonical = canonical && !nameSpecial && !special
		}
		if i >= len(query) {
			break
		}
		start, eq, special, nameSpecial = i+1, -1, false, false
	}
	if canonical && query[len(query)-1] != '&' {
		q.raw = query
	}
	return q
}

// formDecode is one name or value of the parser: "+" to space, then
// percent-decoding, then UTF-8 decoding without BOM. It also reports
// whether s is plain, holding no byte the serializer would write
// otherwise: then s is its own serialization, and its own decoding.
func formDecode(s string) (string, bool) {
	i := 0
	for i < len(s) && encodeTable[s[i]]&formSet == 0 {
		i++
	}
	if i == len(s) {
		return s, true
	}
	for i < len(s) && s[i] != '+' && s[i] != '%' && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s, false // bytes to encode, but none to decode
	}
	b := appendPercentDecoded(append(make([]byte, 0, len(s)), s[:i]...), s[i:], true)
	if !utf8.Valid(b) {
		return utf8Decode(string(b)), false
	}
	return bytestr.Owned(b), false
}

// SearchParams returns u's query as search parameters, as the URL's
// searchParams attribute holds it.
func (u URL) SearchParams() SearchParams {
	q, _ := u.Query()
	return parseForm(q)
}

// WithSearchParams returns u with the query q serializes to, as the
// URLSearchParams update steps set it: no query at all when q is empty.
// The zero URL, which is no URL, stays the zero URL.
func (u URL) WithSearchParams(q SearchParams) URL {
	if !u.IsValid() {
		return u
	}
	p := u.parts()
	p.query = ""
	if len(q.list) > 0 {
		p.query = "?" + q.String()
	}
	return p.build()
}

// Len returns the number of pairs.
func (q SearchParams) Len() int { return len(q.list) }

// Get returns the value of the first pair named name, and whether there is
// one.
func (q SearchParams) Get(name string) (string, bool) {
	for _, p := range q.list {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// GetAll returns the values of the pairs named name, in order.
func (q SearchParams) GetAll(name string) []string {
	var values []string
	for _, p := range q.list {
		if p.Name == name {
			values = append(values, p.Value)
		}
	}
	return values
}

// Has reports whether a pair is named name.
func (q SearchParams) Has(name string) bool {
	_, ok := q.Get(name)
	return ok
}

// HasValue reports whether a pair is named name and has the value value:
// has(name, value).
func (q SearchParams) HasValue(name, value string) bool {
	return slices.Contains(q.list, queryPair{name, value})
}

// Append adds the pair name=value at the end.
func (q *SearchParams) Append(name, value string) {
	q.raw = ""
	q.list = append(q.list, queryPair{name, value})
}

// Set gives the first pair named name the value value and removes the
// others named so, or appends name=value if there is none.
func (q *SearchParams) Set(name, value string) {
	q.raw = ""
	first := -1
	kept := q.list[:0]
	for _, p := range q.list {
		if p.Name == name {
			if first >= 0 {
				continue
			}
			first, p.Value = len(kept), value
		}
		kept = append(kept, p)
	}
	clear(q.list[len(kept):])
	q.list = kept
	if first < 0 {
		q.Append(name, value)
	}
}

// Clone returns a copy of q whose changes do not change q: a SearchParams
// copied by assignment shares its pairs, as a slice does.
func (q SearchParams) Clone() SearchParams { return SearchParams{slices.Clone(q.list), q.raw} }

// Delete removes every pair named name.
func (q *SearchParams) Delete(name string) {
	q.raw = ""
	q.list = slices.DeleteFunc(q.list, func(p queryPair) bool { return p.Name == name })
}

// DeleteValue removes every pair named name with the value value:
// delete(name, value).
func (q *SearchParams) DeleteValue(name, value string) {
	q.raw = ""
	q.list = slices.DeleteFunc(q.list, func(p queryPair) bool { return p.Name == name && p.Value == value })
}

// Sort sorts the pairs by name, stably (pairs of one name keep their
// order), comparing names by their UTF-16 code units as the standard
// says: "\uFFFD" sorts after "😀", whose UTF-16 form starts with a
// surrogate, though its code point is greater.
func (q *SearchParams) Sort() {
	q.raw = ""
	slices.SortStableFunc(q.list, func(a, b queryPair) int { return compareUTF16(a.Name, b.Name) })
}

// compareUTF16 compares a and b by their UTF-16 code units.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			return int(utf16Key(ra)) - int(utf16Key(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// utf16Key orders code points as their first UTF-16 code units do, and
// those that share one (beyond U+FFFF) by code point.
func utf16Key(r rune) int64 {
	if r < 0x10000 {
		return int64(r) << 20
	}
	return int64(0xd800+(r-0x10000)>>10)<<20 | int64(r&0xfffff)
}

// All returns an iterator over the pairs, in order.
func (q SearchParams) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for _, p := range q.list {
			if !yield(p.Name, p.Value) {
				return
			}
		}
	}
}

// String serializes the pairs by the application/x-www-form-urlencoded
// serializer, in UTF-8: "name=value" joined by "&", a space written "+"
// and the application/x-www-form-urlencoded percent-encode set encoded.
func (q SearchParams) String() string {
	if q.raw != "" {
		return q.raw
	}
	n := 0
	for _, p := range q.list {
		n += len(p.Name) + len(p.Value) + 2
	}
	return bytestr.Owned(q.AppendEncoded(make([]byte, 0, n+n/4), nil))
}

// AppendEncoded appends the pairs serialized in the encoding enc (nil for
// UTF-8), as a form of a page in a legacy encoding is submitted: a code
// point enc lacks is written as "&#N;", percent-encoded.
func (q SearchParams) AppendEncoded(dst []byte, enc encoding.Encoding) []byte {
	for i, p := range q.list {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = appendFormEncoded(dst, p.Name, enc)
		dst = append(dst, '=')
		dst = appendFormEncoded(dst, p.Value, enc)
	}
	return dst
}

// appendFormEncoded is the urlencoded serializer's percent-encoding of one
// name or value, in enc (nil for UTF-8); formSet's encoders write a space
// as "+" (spaceAsPlus).
func appendFormEncoded(dst []byte, s string, enc encoding.Encoding) []byte {
	if enc == nil {
		return appendEncoded(dst, s, formSet)
	}
	return appendEncodedIn(dst, s, formSet, enc)
}
