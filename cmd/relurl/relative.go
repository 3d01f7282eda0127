package main

import (
	"flag"
	"fmt"
)

const relativeHelp = `
Relative prints, for each TARGET, the shortest reference that resolves
against BASE to exactly TARGET (by RFC 1808, or with -rfc 3986 by RFC 3986):
the inverse of resolve. Among references of the same length it prefers one
within the same document ("#frag", "?query"), then a path relative to the
base's directory, then an absolute path, a network path, and the absolute
URL. A first segment with a colon is written "./this:that" (RFC 1808,
Section 5.3).

A TARGET no reference reaches (not absolute, or under RFC 3986 a path with
dot segments) is printed unchanged and reported on standard error; the exit
status is then 1.

Examples:

  $ relurl relative 'http://a/b/c/d;p?q' http://a/b/g 'http://a/b/c/d;p?y' http://a/b/c/this:that
  ../g
  ?y
  ./this:that
`

func runRelative(e *env, args []string) int {
	fs := flag.NewFlagSet("relative", flag.ContinueOnError)
	r := rfcFlags(fs)
	if code, ok := e.parseFlags(fs, args, relativeHelp); !ok {
		return code
	}
	if fs.NArg() < 2 {
		return e.usageError("relative", "want BASE and at least one TARGET")
	}
	base := fs.Arg(0)
	var out []byte
	status := exitOK
	for _, target := range fs.Args()[1:] {
		ref, ok := r.Relative(base, target)
		if !ok {
			fmt.Fprintf(e.stderr, "relurl relative: no reference resolves against %s to %s under RFC %d\n", base, target, r.RFC)
			status = exitInvalid
		}
		out = append(append(out, ref...), '\n')
	}
	return max(status, e.write("relative", out))
}
