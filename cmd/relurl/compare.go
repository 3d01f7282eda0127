package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/ordered"
)

const compareHelp = `
Compare resolves each reference by RFC 1808, by RFC 3986 and by Go's
net/url (which implements RFC 3986), and prints the three side by side with
a mark where they differ: "same", or which of them stands apart ("rfc1808",
"rfc3986", "net/url") or "all differ". Input is as for resolve: BASE REF...,
-base BASE with references as arguments or on standard input, or -pairs.

Output is tab-separated, after a header row (ref, rfc1808, rfc3986,
net/url, mark); with -markdown a table; with -json one object per line with
the fields ref, rfc1808, rfc3986, net_url and mark. -diff keeps only the
references where they differ.

Examples:

  $ relurl compare 'http://a/b/c/d;p?q' ';x' '../../../g' 'g'
  $ grep -v '^#' testdata/rfc1808-examples.tsv | cut -f2 |
      relurl compare -diff -markdown -base 'http://a/b/c/d;p?q#f'
  $ relurl compare -json -base 'http://a/b/c/d;p?q' '?y' | jq -r .mark
`

func runCompare(e *env, args []string) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var in pairInput
	in.register(fs)
	markdown := fs.Bool("markdown", false, "print a Markdown table")
	asJSON := fs.Bool("json", false, "print one JSON object per reference")
	diff := fs.Bool("diff", false, "print only the references whose results differ")
	if code, ok := e.parseFlags(fs, args, compareHelp); !ok {
		return code
	}
	if *markdown && *asJSON {
		return e.usageError("compare", "-markdown and -json exclude each other")
	}
	header := "ref\trfc1808\trfc3986\tnet/url\tmark\n"
	switch {
	case *markdown:
		header = "| reference | RFC 1808 | RFC 3986 | net/url | |\n| --- | --- | --- | --- | --- |\n"
	case *asJSON:
		header = ""
	}
	return e.runPairs("compare", fs, &in, header, func(o *ordered.Output, base, ref string) error {
		c := comparison{
			Ref:     ref,
			RFC1808: relurl.Resolve(base, ref),
			RFC3986: relurl.Resolver{RFC: relurl.RFC3986}.Resolve(base, ref),
			NetURL:  netURLResolve(base, ref),
		}
		c.Mark = differs(c.RFC1808, c.RFC3986, c.NetURL)
		switch {
		case *diff && c.Mark == "same":
		case *asJSON:
			o.Out = appendJSON(o.Out, c)
		case *markdown:
			cell := func(s string) string { return "`" + strings.ReplaceAll(printable(s), "|", `\|`) + "`" }
			r := cell(ref)
			if ref == "" {
				r = "(empty)"
			}
			o.Out = fmt.Appendf(o.Out, "| %s | %s | %s | %s | %s |\n", r, cell(c.RFC1808), cell(c.RFC3986), cell(c.NetURL), c.Mark)
		default:
			o.Out = fmt.Appendf(o.Out, "%s\t%s\t%s\t%s\t%s\n", printable(ref), printable(c.RFC1808), printable(c.RFC3986), printable(c.NetURL), c.Mark)
		}
		return nil
	})
}

// comparison is one reference resolved three ways: a line of compare.
type comparison struct {
	Ref     string `json:"ref"`
	RFC1808 string `json:"rfc1808"`
	RFC3986 string `json:"rfc3986"`
	NetURL  string `json:"net_url"`
	Mark    string `json:"mark"`
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
