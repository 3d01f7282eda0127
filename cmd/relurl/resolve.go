package main

import (
	"bytes"
	"errors"
	"flag"
	"strconv"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/bytestr"
)

const resolveHelp = `
Resolve resolves each reference against the base by RFC 1808, Section 4 (or
with -rfc 3986, by RFC 3986, Section 5.2), and prints one result per line, in
order. An empty argument or line is the empty
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
	var in pairInput
	in.register(fs)
	r := rfcFlags(fs)
	if code, ok := e.parseFlags(fs, args, resolveHelp); !ok {
		return code
	}
	return e.runPairs("resolve", fs, &in, "", func(dst []byte, base, ref string) []byte {
		return append(r.AppendResolve(dst, base, ref), '\n')
	})
}

// pairInput is where the (base, reference) pairs of resolve and compare
// come from: BASE REF... as arguments, -base BASE with references as
// arguments or on standard input, or lines "BASE<TAB>REF" with -pairs.
type pairInput struct {
	base          string
	pairs, strict bool
}

func (in *pairInput) register(fs *flag.FlagSet) {
	fs.StringVar(&in.base, "base", "", "resolve against `BASE`; read references from standard input unless given as arguments")
	fs.BoolVar(&in.pairs, "pairs", false, "read lines \"BASE<TAB>REF\" from standard input")
	fs.BoolVar(&in.strict, "strict", false, "stop at the first line that cannot be handled")
}

// A pairFunc appends what a command prints for one pair, newline included.
type pairFunc func(dst []byte, base, ref string) []byte

// runPairs prints header, then what f gives for each pair of in, after the
// flags of fs are parsed.
func (e *env) runPairs(cmd string, fs *flag.FlagSet, in *pairInput, header string, f pairFunc) int {
	baseSet := false
	fs.Visit(func(fl *flag.Flag) { baseSet = baseSet || fl.Name == "base" })
	refs := fs.Args()
	switch {
	case in.pairs && baseSet:
		return e.usageError(cmd, "-pairs and -base exclude each other")
	case in.pairs && len(refs) > 0:
		return e.usageError(cmd, "-pairs reads standard input and takes no arguments")
	case !in.pairs && !baseSet && len(refs) == 0:
		return e.usageError(cmd, "missing BASE and REF")
	case !in.pairs && !baseSet && len(refs) == 1:
		return e.usageError(cmd, "missing REF after BASE %q (or use -base to read references from standard input)", refs[0])
	case !in.pairs && !baseSet:
		in.base, refs = refs[0], refs[1:]
	}
	if header != "" {
		if code := e.write(cmd, []byte(header)); code != exitOK {
			return code
		}
	}
	if in.pairs {
		return e.stream(cmd, in.strict, func(o *output, line []byte) error {
			base, ref, ok := bytes.Cut(line, []byte("\t"))
			if !ok {
				return errors.New(`no tab: want "BASE<TAB>REF"`)
			}
			o.out = f(o.out, bytestr.Transient(base), bytestr.Transient(ref))
			return nil
		})
	}
	if len(refs) == 0 {
		return e.stream(cmd, in.strict, func(o *output, ref []byte) error {
			o.out = f(o.out, in.base, bytestr.Transient(ref))
			return nil
		})
	}
	var out []byte
	for _, ref := range refs {
		out = f(out, in.base, ref)
	}
	return e.write(cmd, out)
}

// rfcFlags registers -rfc and -nonstrict on fs and returns the Resolver
// they set.
func rfcFlags(fs *flag.FlagSet) *relurl.Resolver {
	r := &relurl.Resolver{RFC: relurl.RFC1808}
	fs.Var((*rfcValue)(&r.RFC), "rfc", "resolve by RFC `1808` or 3986")
	fs.BoolVar(&r.NonStrict, "nonstrict", false, "with -rfc 3986, read a reference's scheme equal to the base's as absent (Section 5.2.2)")
	return r
}

type rfcValue relurl.RFC

func (v *rfcValue) String() string { return strconv.Itoa(int(*v)) }

func (v *rfcValue) Set(s string) error {
	switch s {
	case "1808":
		*v = rfcValue(relurl.RFC1808)
	case "3986":
		*v = rfcValue(relurl.RFC3986)
	default:
		return errors.New("want 1808 or 3986")
	}
	return nil
}
