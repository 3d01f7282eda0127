package main

import (
	"flag"
	"fmt"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/whatwg"
)

const validateHelp = `
Validate checks each URL against the grammar of RFC 1808, Section 2.2, or
with -spec 3986 against RFC 3986's URI-reference (Appendix A), which allows
"~" and IP literals where RFC 1808 does not. It exits 0 when all are valid
and 4 when some are not (1 when a line could not be read).

With -spec whatwg it parses each URL by the WHATWG URL Standard (a
reference without a scheme against an http URL, as the links of web pages
are) and lists every validation error the parser meets, each with its byte
offset and its name in the Standard ("invalid-credentials", "port-invalid",
"IPv4-non-decimal-part", ...), one a line; a URL the parser refuses is
invalid too. With -json, "error" is the first of them and
"validation_errors" lists them all.

For each invalid URL it prints "URL: offset N: message" on standard error,
or with "-" "line N: URL: offset N: message"; -q prints nothing. With
-print-valid it prints the valid URLs on standard output, a filter; with
-json one object per URL on standard output: line (on standard input, else
null), url, valid and error (offset, text, rule, message), and nothing on
standard error. With "-" as the only argument, it reads URLs from standard
input, one a line; a byte order mark at its start is skipped.

Examples:

  $ relurl validate 'http://a/b;p?q' '../g'
  $ relurl validate 'http://a/b c'
  http://a/b c: offset 10: " " is not allowed in path (pchar)
  $ relurl validate -q - < urls.txt || echo 'some are invalid'
  $ relurl validate -spec 3986 -print-valid - < urls.txt > valid.txt
  $ relurl validate -spec whatwg -json - < urls.txt |
      jq -r '.validation_errors[].name' | sort | uniq -c
`

func runValidate(e *env, args []string) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	quiet := fs.Bool("q", false, "print nothing on standard error; only the exit status tells")
	printValid := fs.Bool("print-valid", false, "print the valid URLs on standard output")
	asJSON := fs.Bool("json", false, "print one JSON object per URL on standard output")
	r := &relurl.Resolver{}
	specFlag(fs, &r.Spec)
	if code, ok := e.parseFlags(fs, args, validateHelp); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return e.usageError("validate", "missing URL (or - to read standard input)")
	}
	if *asJSON && *printValid {
		return e.usageError("validate", "-json and -print-valid exclude each other")
	}
	var skipped func(int, error) []byte
	if *asJSON {
		skipped = skippedJSON(false)
	}
	if r.Spec == relurl.WHATWG {
		return e.eachURL("validate", fs.Args(), exitFound, skipped, func(o *ordered.Output, line int, s string) bool {
			return validateWeb(o, line, s, *asJSON, *printValid, *quiet)
		})
	}
	return e.eachURL("validate", fs.Args(), exitFound, skipped, func(o *ordered.Output, line int, s string) bool {
		serr := syntaxError(r.Validate(s))
		valid := serr == nil
		switch {
		case *asJSON:
			v := validation{URL: s, URLBase64: exactBytes(s), Valid: valid, Error: serr}
			if line > 0 {
				v.Line = &line
			}
			o.Out = jsonline.Append(o.Out, v)
		case valid && *printValid:
			o.Out = append(append(o.Out, printable(s)...), '\n')
		case !valid && !*quiet:
			if line > 0 {
				o.Err = fmt.Appendf(o.Err, "line %d: ", line)
			}
			o.Err = fmt.Appendf(o.Err, "%s: %s\n", printable(s), printable(serr.Message))
		}
		return valid
	})
}

// validation is the JSON form of one URL checked.
type validation struct {
	Line      *int         `json:"line"`
	URL       string       `json:"url"`
	URLBase64 *string      `json:"url_base64,omitempty"`
	Valid     bool         `json:"valid"`
	Error     *parseErrorJ `json:"error"`
}

// validateWeb checks s as validate -spec whatwg does and reports whether it
// is valid.
func validateWeb(o *ordered.Output, line int, s string, asJSON, printValid, quiet bool) bool {
	errs, err := whatwg.Validate(s) // a failure is among errs too
	valid := len(errs) == 0 && err == nil
	switch {
	case asJSON:
		v := webValidation{validation: validation{URL: s, URLBase64: exactBytes(s), Valid: valid}, Errors: []webErrorJ{}}
		if line > 0 {
			v.Line = &line
		}
		for _, e := range errs {
			v.Errors = append(v.Errors, webErrorJ{e.Offset, e.Name, e.Error()})
		}
		if !valid {
			e := errs[0]
			text := s[min(e.Offset, len(s)):min(e.Offset+1, len(s))]
			v.Error = &parseErrorJ{e.Offset, text, exactBytes(text), e.Name, e.Error()}
		}
		o.Out = jsonline.Append(o.Out, v)
	case valid && printValid:
		o.Out = append(append(o.Out, printable(s)...), '\n')
	case !valid && !quiet:
		// Each error's line repeats the URL: a line of random bytes has
		// an error every few bytes, and all of them would print the
		// square of its length.
		for i, e := range errs {
			if line > 0 {
				o.Err = fmt.Appendf(o.Err, "line %d: ", line)
			}
			if i == maxErrorsShown {
				o.Err = fmt.Appendf(o.Err, "%s: and %d more validation errors (-json lists every one)\n", printable(s), len(errs)-i)
				break
			}
			o.Err = fmt.Appendf(o.Err, "%s: %s\n", printable(s), printable(e.Error()))
		}
	}
	return valid
}

// maxErrorsShown is how many validation errors of one URL validate
// prints as text.
const maxErrorsShown = 10

// webValidation is the JSON form of one URL checked by the URL Standard.
type webValidation struct {
	validation
	Errors []webErrorJ `json:"validation_errors"`
}
