package main

import (
	"flag"
	"fmt"
	"sync/atomic"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/internal/textsafe"
	"github.com/relurl/relurl/whatwg"
)

const relativeHelp = `
Relative prints, for each TARGET, the shortest reference that resolves
against BASE to exactly TARGET (by RFC 1808; with -spec 3986 by RFC 3986;
with -spec whatwg by the WHATWG URL Standard): the inverse of resolve.
Among references of the same length it prefers one within the same
document ("#frag", "?query"), then a path relative to the base's directory,
then an absolute path, a network path, and the absolute URL. A first
segment with a colon is written "./this:that" (RFC 1808,
Section 5.3).

Input is as for resolve: BASE TARGET... as arguments, -base BASE with
targets as arguments or on standard input, or -pairs with lines
"BASE<TAB>TARGET"; each input line gives one output line.

A TARGET no reference reaches is printed unchanged and reported on
standard error, and the exit status is then 1: one that is not absolute;
under RFC 3986, a path with dot segments; under the URL Standard, a URL
that is not as its parser writes it (such as "HTTP://A"), or a base the
parser refuses.

Examples:

  $ relurl relative 'http://a/b/c/d;p?q' http://a/b/g 'http://a/b/c/d;p?y' \
      http://a/b/c/this:that
  ../g
  ?y
  ./this:that

  $ relurl relative -spec whatwg 'https://a/b/c/d' https://a/b/e%20f https://x/
  ../e%20f
  //x/

  $ printf 'http://a/b/c\thttp://a/d\n' | relurl relative -pairs
  /d
`

func runRelative(e *env, args []string) int {
	fs := flag.NewFlagSet("relative", flag.ContinueOnError)
	var in pairInput
	in.register(fs)
	r := specFlags(fs)
	if code, ok := e.parseFlags(fs, args, relativeHelp); !ok {
		return code
	}
	if code, ok := e.checkSpec("relative", r); !ok {
		return code
	}
	var unreachable atomic.Bool // workers of stream set it concurrently
	status := e.runPairs("relative", fs, &in, "", nil, func(o *ordered.Output, line int, base, target string) error {
		ref, ok := r.Relative(base, target)
		if !ok {
			where := ""
			if line > 0 {
				where = fmt.Sprintf("line %d: ", line)
			}
			o.Err = fmt.Appendf(o.Err, "relurl relative: %sno reference resolves against %s to %s under %s%s\n", where, printable(base), printable(target), specName(r.Spec), serializedHint(r.Spec, target))
			unreachable.Store(true)
		}
		start := len(o.Out)
		o.Out = textsafe.EndURLLine(append(o.Out, ref...), start)
		return nil
	})
	if unreachable.Load() {
		status = worse(status, exitFailed)
	}
	return status
}

// serializedHint says, under the URL Standard, what a target that is not
// in its serialized form serializes as: the parser only ever gives that
// form, so no reference resolves to the target as written.
func serializedHint(spec relurl.Spec, target string) string {
	if spec != relurl.WHATWG {
		return ""
	}
	if u, err := whatwg.Parse(target); err == nil && u.String() != target {
		return fmt.Sprintf(": the Standard writes the target %s; ask for that", printable(u.String()))
	}
	return ""
}

// specName names a standard in a sentence: "RFC 3986", "the WHATWG URL
// Standard".
func specName(s relurl.Spec) string {
	if s == relurl.WHATWG {
		return "the " + s.String()
	}
	return s.String()
}
