package main

import (
	"bytes"
	"errors"
	"flag"
	"unsafe"

	"github.com/relurl/relurl"
)

const resolveHelp = `
Resolve resolves each reference against the base by RFC 1808, Section 4, and
prints one result per line, in order. An empty argument or line is the empty
reference, which resolves to the base itself.

  relurl resolve BASE REF...     BASE and references as arguments
  relurl resolve -base BASE      references from standard input, one a line
  relurl resolve -pairs          lines "BASE<TAB>REF" from standard input

Lines may end in "\n" or "\r\n", and the last needs no end. A line longer
than 1 MiB, or a -pairs line without a tab, is reported with its number on
standard error and skipped; relurl goes on and exits 1 at the end, or stops
at once with -strict. Memory stays constant however long the input.

Examples:

  $ relurl resolve 'http://a/b/c/d;p?q#f' ../g '?y' ';x'
  http://a/b/g
  http://a/b/c/d;p?y
  http://a/b/c/d;x

  $ grep -o 'href="[^"]*"' page.html | cut -d'"' -f2 |
      relurl resolve -base https://example.org/docs/page.html

  $ printf 'http://a/b/c\t../d\nhttp://x/y/\tz\n' | relurl resolve -pairs
  http://a/d
  http://x/y/z
`

func runResolve(e *env, args []string) int {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	base := fs.String("base", "", "resolve against `BASE`; read references from standard input unless given as arguments")
	pairs := fs.Bool("pairs", false, "read lines \"BASE<TAB>REF\" from standard input")
	strict := fs.Bool("strict", false, "stop at the first line that cannot be handled")
	if code, ok := e.parseFlags(fs, args, resolveHelp); !ok {
		return code
	}
	baseSet := false
	fs.Visit(func(f *flag.Flag) { baseSet = baseSet || f.Name == "base" })
	refs := fs.Args()

	switch {
	case *pairs && baseSet:
		return e.usageError("resolve", "-pairs and -base exclude each other")
	case *pairs && len(refs) > 0:
		return e.usageError("resolve", "-pairs reads standard input and takes no arguments")
	case *pairs:
		return e.stream("resolve", *strict, resolvePairs)
	case !baseSet && len(refs) == 0:
		return e.usageError("resolve", "missing BASE and REF")
	case !baseSet && len(refs) == 1:
		return e.usageError("resolve", "missing REF after BASE %q (or use -base to read references from standard input)", refs[0])
	case !baseSet:
		*base, refs = refs[0], refs[1:]
	}

	u := relurl.Split(*base)
	if len(refs) == 0 {
		return e.stream("resolve", *strict, func() lineFunc {
			return func(o *output, ref []byte) error {
				o.out = append(u.AppendResolve(o.out, transient(ref)), '\n')
				return nil
			}
		})
	}
	var out []byte
	for _, ref := range refs {
		out = append(u.AppendResolve(out, ref), '\n')
	}
	return e.write("resolve", out)
}

// resolvePairs resolves lines "BASE<TAB>REF", splitting the base again only
// when it changes: the lines of one page come together.
func resolvePairs() lineFunc {
	var base relurl.URL
	return func(o *output, line []byte) error {
		b, ref, ok := bytes.Cut(line, []byte("\t"))
		if !ok {
			return errors.New(`no tab: want "BASE<TAB>REF"`)
		}
		if string(b) != base.String() {
			base = relurl.Split(string(b))
		}
		o.out = append(base.AppendResolve(o.out, transient(ref)), '\n')
		return nil
	}
}

// transient returns b as a string without copying it, for a call that does
// not keep the string, such as AppendResolve. Copying each line would cost
// as much as resolving it.
func transient(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
