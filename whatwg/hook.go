package whatwg

import "github.com/relurl/relurl/internal/whatwghook"

func init() {
	whatwghook.AppendResolve = appendResolveWeb
	whatwghook.AppendParse = appendParse
	whatwghook.Trace = trace
}

// trace parses ref against base with the parser's account of each state
// handed to step, for relurl.Resolver.Explain; it also gathers the
// validation errors, which the account names.
func trace(ref string, base *URL, step func(string)) (URL, error) {
	p := webParser{webReport: webReport{errs: new([]ValidationError)}}
	p.trace = step
	return p.parseURL(ref, base)
}
