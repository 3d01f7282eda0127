package main

import (
	"errors"
	"flag"
	"fmt"
	"sync/atomic"

	"github.com/relurl/relurl"
)

const validateHelp = `
Validate checks each URL against the grammar of RFC 1808, Section 2.2. It
prints nothing and exits 0 when all are valid; otherwise it prints a line
"URL: offset N: message" on standard error for each invalid one, and exits 1.
With "-" as the only argument, it reads URLs from standard input, one a line.

Examples:

  $ relurl validate 'http://a/b;p?q' '../g'
  $ relurl validate 'http://a/b c'
  http://a/b c: offset 10: " " is not allowed in path (pchar)
  $ relurl validate -q - < urls.txt || echo 'some are invalid'
`

func runValidate(e *env, args []string) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	quiet := fs.Bool("q", false, "print nothing; only the exit status tells")
	if code, ok := e.parseFlags(fs, args, validateHelp); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return e.usageError("validate", "missing URL (or - to read standard input)")
	}
	// report appends the report on s to msg and tells whether s is valid.
	report := func(msg []byte, s string) ([]byte, bool) {
		_, err := relurl.Validate(s)
		var serr *relurl.SyntaxError
		if !errors.As(err, &serr) {
			return msg, true
		}
		if !*quiet {
			msg = fmt.Appendf(msg, "%s: %v\n", s, serr)
		}
		return msg, false
	}
	if fs.NArg() == 1 && fs.Arg(0) == "-" {
		// Invalid lines are reported as they come; the status is known
		// only at the end, so it is kept per worker and gathered here.
		var invalid atomic.Bool
		status := e.stream("validate", false, func() lineFunc {
			return func(o *output, line []byte) error {
				var ok bool
				if o.msg, ok = report(o.msg, string(line)); !ok {
					invalid.Store(true)
				}
				return nil
			}
		})
		if invalid.Load() {
			status = exitInvalid
		}
		return status
	}
	var msg []byte
	status := exitOK
	for _, s := range fs.Args() {
		var ok bool
		if msg, ok = report(msg, s); !ok {
			status = exitInvalid
		}
	}
	e.stderr.Write(msg)
	return status
}
