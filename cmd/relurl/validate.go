package main

import (
	"errors"
	"flag"
	"fmt"

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
	return e.eachURL("validate", fs.Args(), func(o *output, s string) bool {
		_, err := relurl.Validate(s)
		var serr *relurl.SyntaxError
		if !errors.As(err, &serr) {
			return true
		}
		if !*quiet {
			o.msg = fmt.Appendf(o.msg, "%s: %v\n", s, serr)
		}
		return false
	})
}
