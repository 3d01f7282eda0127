// Package whatwghook lets package relurl reach the parts of package whatwg
// that are not whatwg's API: parsing with a document's query encoding
// (HTML's "encoding-parse a URL", which relurl.Resolver's QueryEncoding
// asks for) and the parser's account of its states, which
// relurl.Resolver.Explain gives. Package whatwg sets the variables when it
// is initialized, before any importer of it runs.
//
// Two are typed any because their types name whatwg.URL, which this
// package, imported by whatwg, cannot; relurl asserts their types once.
package whatwghook

import "golang.org/x/text/encoding"

var (
	// AppendResolve appends ref parsed against base, both strings, to dst;
	// an empty base is no base. enc is the query encoding; nil is UTF-8.
	AppendResolve func(dst []byte, base, ref string, enc encoding.Encoding) ([]byte, error)

	// AppendParse is a
	//	func(dst []byte, ref string, base *whatwg.URL, enc encoding.Encoding) ([]byte, error)
	// that appends ref parsed against the parsed base to dst.
	AppendParse any

	// Trace is a
	//	func(ref string, base *whatwg.URL, step func(string)) (whatwg.URL, error)
	// that parses ref against base and calls step with each state the
	// parser enters and what it did there, as "state: text".
	Trace any
)
