package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"

	"github.com/relurl/relurl"
)

const compareHelp = `
Compare resolves each reference by RFC 1808, by RFC 3986 and by Go's
net/url (which implements RFC 3986), and prints the three side by side with
a mark where they differ: "same", or which of them stands apart ("rfc1808",
"rfc3986", "net/url") or "all differ". Input is as for resolve: BASE REF...,
-base BASE with references as arguments or on standard input, or -pairs.

Output is tab-separated (REF, RFC 1808, RFC 3986, net/url, mark), or with
-markdown a table; -diff keeps only the references where they differ.

Examples:

  $ relurl compare 'http://a/b/c/d;p?q' ';x' '../../../g' 'g'
  $ grep -v '^#' testdata/rfc1808-examples.tsv | cut -f2 |
      relurl compare -diff -markdown -base 'http://a/b/c/d;p?q#f'
`

func runCompare(e *env, args []string) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var in pairInput
	in.register(fs)
	markdown := fs.Bool("markdown", false, "print a Markdown table")
	diff := fs.Bool("diff", false, "print only the references whose results differ")
	if code, ok := e.parseFlags(fs, args, compareHelp); !ok {
		return code
	}
	header := ""
	if *markdown {
		header = "| reference | RFC 1808 | RFC 3986 | net/url | |\n| --- | --- | --- | --- | --- |\n"
	}
	return e.runPairs("compare", fs, &in, header, func(dst []byte, base, ref string) []byte {
		r1808 := relurl.Resolve(base, ref)
		r3986 := relurl.Resolver{RFC: relurl.RFC3986}.Resolve(base, ref)
		stdlib := netURLResolve(base, ref)
		mark := differs(r1808, r3986, stdlib)
		switch {
		case *diff && mark == "same":
			return dst
		case *markdown:
			cell := func(s string) string { return "`" + strings.ReplaceAll(s, "|", `\|`) + "`" }
			if ref == "" {
				return fmt.Appendf(dst, "| (empty) | %s | %s | %s | %s |\n", cell(r1808), cell(r3986), cell(stdlib), mark)
			}
			return fmt.Appendf(dst, "| %s | %s | %s | %s | %s |\n", cell(ref), cell(r1808), cell(r3986), cell(stdlib), mark)
		}
		return fmt.Appendf(dst, "%s\t%s\t%s\t%s\t%s\n", ref, r1808, r3986, stdlib, mark)
	})
}

// netURLResolve resolves as a Go program does with net/url, or says why it
// cannot.
func netURLResolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return "error: " + err.Error()
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "error: " + err.Error()
	}
	return b.ResolveReference(r).String()
}

// differs names which of three results stands apart.
func differs(r1808, r3986, stdlib string) string {
	switch {
	case r1808 == r3986 && r3986 == stdlib:
		return "same"
	case r3986 == stdlib:
		return "rfc1808"
	case r1808 == stdlib:
		return "rfc3986"
	case r1808 == r3986:
		return "net/url"
	}
	return "all differ"
}
