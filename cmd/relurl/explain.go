package main

import "flag"

const explainHelp = `
Explain resolves REF against BASE and prints how, step by step: how both
were split (RFC 1808, Section 2.4; or RFC 3986, Appendix B), which step of
the algorithm ended it, what was inherited from the base, each rewrite of the
path (Steps 6a to 6d; or Section 5.2.4's rules A to E), and the result. With
-json the trace is one JSON object.

Examples:

  $ relurl explain 'http://a/b/c/d;p?q#f' ../../../g
  $ relurl explain -rfc 3986 'http://a/b/c/d;p?q' ../../../g
  $ relurl explain -json 'http://a/b/c/d;p?q#f' '?y' | jq -r '.steps[].step'
`

func runExplain(e *env, args []string) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	r := rfcFlags(fs)
	asJSON := fs.Bool("json", false, "print the trace as one JSON object")
	if code, ok := e.parseFlags(fs, args, explainHelp); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return e.usageError("explain", "want BASE and REF (an empty REF is '')")
	}
	trace := r.Explain(fs.Arg(0), fs.Arg(1))
	if *asJSON {
		return e.write(appendJSON(nil, trace))
	}
	return e.write([]byte(trace.String()))
}
