package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/bytestr"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/internal/textsafe"
)

const resolveHelp = `
Resolve resolves each reference against the base by RFC 1808, Section 4;
with -spec 3986, by RFC 3986, Section 5.2; with -spec whatwg, by the WHATWG
URL Standard's basic URL parser, as browsers do (-rfc is the same flag as
-spec). It prints one result per line, in order. An empty argument or line
is the empty reference, which resolves to the base itself (without its
fragment under RFC 3986 and the URL Standard).

  relurl resolve BASE REF...     BASE and references as arguments
  relurl resolve -base BASE      references from standard input, one a line
  relurl resolve -pairs          lines "BASE<TAB>REF" from standard input

Lines may end in "\n" or "\r\n", and the last needs no end; a byte order
mark at the start of the input is skipped. Each input line gives exactly
one output line, so that "paste input output" pairs them: a line that
cannot be handled (longer than 1 MiB, a -pairs line without a tab, or a
pair the URL Standard's parser refuses) gives an empty one, and is reported
with its number on standard error; relurl goes on and exits 1 at the end,
or stops at that line with -strict. Memory
stays constant however long the input. Control bytes in a result are
percent-encoded.

Examples:

  $ relurl resolve 'http://a/b/c/d;p?q#f' ../g '?y' ';x'
  http://a/b/g
  http://a/b/c/d;p?y
  http://a/b/c/d;x

  $ grep -o 'href="[^"]*"' page.html | cut -d'"' -f2 |
      relurl resolve -base https://example.org/docs/page.html

  $ relurl resolve -spec whatwg 'HTTP://A:80/b/c' '..\%2e\d e' 'http:g'
  http://a/d%20e
  http://a/b/g

  $ printf 'http://a/b/c\t../d\nhttp://x/y/\tz\n' | relurl resolve -pairs
  http://a/d
  http://x/y/z
`

func runResolve(e *env, args []string) int {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	var in pairInput
	in.register(fs)
	r := specFlags(fs)
	if code, ok := e.parseFlags(fs, args, resolveHelp); !ok {
		return code
	}
	if code, ok := e.checkSpec("resolve", r); !ok {
		return code
	}
	resolve := resolveFunc(*r)
	return e.runPairs("resolve", fs, &in, "", nil, func(o *ordered.Output, _ int, base, ref string) error {
		start := len(o.Out)
		out, err := resolve(o.Out, base, ref)
		if err != nil {
			return err
		}
		o.Out = textsafe.EndURLLine(out, start)
		return nil
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
	fs.StringVar(&in.base, "base", "", "resolve against `BASE`: references from the arguments, else standard input")
	fs.BoolVar(&in.pairs, "pairs", false, "read lines \"BASE<TAB>REF\" from standard input")
	fs.BoolVar(&in.strict, "strict", false, "stop at the first line that cannot be handled")
}

// A pairFunc appends what a command prints for one pair to o, newline
// included, or returns an error for a pair it cannot handle. line is the
// pair's line on standard input, 0 for arguments: a message of its own
// names it.
type pairFunc func(o *ordered.Output, line int, base, ref string) error

// runPairs prints header, then what f gives for each pair of in, after the
// flags of fs are parsed.
func (e *env) runPairs(cmd string, fs *flag.FlagSet, in *pairInput, header string, skipped func(int, error) []byte, f pairFunc) int {
	baseSet := false
	fs.Visit(func(fl *flag.Flag) { baseSet = baseSet || fl.Name == "base" })
	refs := fs.Args()
	stdin := len(refs) > 0 && refs[len(refs)-1] == "-" // "-": the references are on standard input
	if stdin {
		refs = refs[:len(refs)-1]
	}
	switch {
	case stdin && (baseSet || in.pairs) && len(refs) > 0, stdin && !baseSet && !in.pairs && len(refs) != 1:
		return e.usageError(cmd, `"-" reads the references from standard input, and stands alone after BASE`)
	case in.pairs && baseSet:
		return e.usageError(cmd, "-pairs and -base exclude each other")
	case in.pairs && len(refs) > 0:
		return e.usageError(cmd, "-pairs reads standard input and takes no arguments")
	case !in.pairs && !baseSet && len(refs) == 0:
		return e.usageError(cmd, "missing BASE and REF")
	case !in.pairs && !baseSet && len(refs) == 1 && !stdin:
		return e.usageError(cmd, "missing REF after BASE %q (or - to read references from standard input)", refs[0])
	case !in.pairs && !baseSet:
		in.base, refs = refs[0], refs[1:]
	}
	if code := e.write([]byte(header)); code != exitOK {
		return code
	}
	s := streamer{cmd: cmd, strict: in.strict, failed: []byte("\n"), skipped: skipped}
	if in.pairs {
		s.f = func(o *ordered.Output, n int, line []byte) error {
			base, ref, ok := bytes.Cut(line, []byte("\t"))
			if !ok {
				return errors.New(`no tab: want "BASE<TAB>REF"`)
			}
			return f(o, n, bytestr.Transient(base), bytestr.Transient(ref))
		}
		return e.stream(s)
	}
	if len(refs) == 0 {
		s.f = func(o *ordered.Output, n int, ref []byte) error {
			return f(o, n, in.base, bytestr.Transient(ref))
		}
		return e.stream(s)
	}
	var o ordered.Output
	status := exitOK
	for _, ref := range refs {
		if err := f(&o, 0, in.base, ref); err != nil {
			o.Err = fmt.Appendf(o.Err, "relurl %s: %s\n", cmd, printable(err.Error()))
			o.Out = append(o.Out, '\n')
			status = exitFailed
		}
	}
	e.stderr.Write(o.Err)
	return worse(status, e.write(o.Out))
}

// checkSpec refuses -nonstrict where it means nothing: anywhere but under
// RFC 3986. It returns the exit status of that usage error and false.
func (e *env) checkSpec(cmd string, r *relurl.Resolver) (int, bool) {
	if r.NonStrict && r.Spec != relurl.RFC3986 {
		return e.usageError(cmd, "-nonstrict reads RFC 3986's Section 5.2.2 for old parsers: it needs -spec 3986"), false
	}
	return exitOK, true
}

// specFlag registers -spec, and its alias -rfc, on fs to set s. The alias
// stays: scripts written before -spec named the standard use it, and one
// more spelling of one flag costs a reader nothing.
func specFlag(fs *flag.FlagSet, s *relurl.Spec) {
	fs.TextVar(s, "spec", relurl.RFC1808, "by RFC `1808`, RFC 3986 or the URL Standard (whatwg)")
	fs.TextVar(s, "rfc", relurl.RFC1808, "the same as -spec")
}

// documentSpec makes the URL Standard the default of fs's -spec (and
// -rfc), registered as specFlag does: the document commands (links, base,
// check, rewrite) resolve a document's links as a browser does, the string
// commands by RFC 1808.
func documentSpec(fs *flag.FlagSet, s *relurl.Spec) {
	*s = relurl.WHATWG
	for _, name := range []string{"spec", "rfc"} {
		fs.Lookup(name).DefValue = "whatwg"
	}
}

// specFlags registers -spec, -rfc and -nonstrict on fs and returns the
// Resolver they set.
func specFlags(fs *flag.FlagSet) *relurl.Resolver {
	r := &relurl.Resolver{}
	specFlag(fs, &r.Spec)
	fs.BoolVar(&r.NonStrict, "nonstrict", false, "with -spec 3986: a scheme equal to the base's is read as absent (5.2.2)")
	return r
}

// resolveFunc returns a function that appends ref resolved against base
// by r. The first base it sees is prepared once and kept, so that
// references against one base (the usual case) do not parse it again; it
// is safe for concurrent use.
func resolveFunc(r relurl.Resolver) func(dst []byte, base, ref string) ([]byte, error) {
	var once sync.Once
	var first string
	var prepared relurl.Base
	var preparedErr error
	return func(dst []byte, base, ref string) ([]byte, error) {
		once.Do(func() {
			first = strings.Clone(base)
			prepared, preparedErr = r.Base(first)
			if preparedErr != nil {
				preparedErr = fmt.Errorf("base %q: %w", first, preparedErr)
			}
		})
		if base != first {
			out, err := r.AppendResolve(dst, base, ref)
			if err != nil {
				if _, berr := r.Base(base); berr != nil {
					err = fmt.Errorf("base %q: %w", base, berr) // the base failed, not the reference
				}
			}
			return out, err
		}
		if preparedErr != nil {
			return dst, preparedErr
		}
		return prepared.AppendResolve(dst, ref)
	}
}
