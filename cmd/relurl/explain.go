package main

import (
	"flag"

	"github.com/relurl/relurl/internal/jsonline"
)

const explainHelp = `
Explain resolves REF against BASE and prints how, step by step: how both
were split (RFC 1808, Section 2.4; or RFC 3986, Appendix B), which step of
the algorithm ended it, what was inherited from the base, each rewrite of the
path (Steps 6a to 6d; or Section 5.2.4's rules A to E), and the result. With
-json the trace is one JSON object.

With -spec whatwg it parses BASE, then REF against it, by the WHATWG URL
Standard's basic URL parser and tells, in the Standard's terms, each step
that changed something: the clean-up of the input, the states that decide
(special relative or authority, opaque path, ...), the host's way through
IPv4, IPv6 or UTS #46, each percent-encoding, each dot segment popped, and
each validation error with its byte offset in REF. When the parser fails,
the trace ends in "failure:" and explain exits 1.

Examples:

  $ relurl explain 'http://a/b/c/d;p?q#f' ../../../g
  $ relurl explain -spec 3986 'http://a/b/c/d;p?q' ../../../g
  $ relurl explain -spec whatwg 'http://a/b/c' '\\Bücher.example\a/%2e%2E/d e'
  $ relurl explain -json 'http://a/b/c/d;p?q#f' '?y' | jq -r '.steps[].step'
`

func runExplain(e *env, args []string) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	r := specFlags(fs)
	asJSON := fs.Bool("json", false, "print the trace as one JSON object")
	if code, ok := e.parseFlags(fs, args, explainHelp); !ok {
		return code
	}
	if code, ok := e.checkSpec("explain", r); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return e.usageError("explain", "want BASE and REF (an empty REF is '')")
	}
	trace := r.Explain(fs.Arg(0), fs.Arg(1))
	out := []byte(trace.String())
	if *asJSON {
		out = jsonline.Append(nil, trace)
	}
	if code := e.write(out); code != exitOK || trace.Error == "" {
		return code
	}
	return exitFailed
}
