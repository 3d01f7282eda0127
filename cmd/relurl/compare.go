package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/rfc1808"
)

const compareHelp = `
Compare resolves each reference by RFC 1808, by RFC 3986, by the WHATWG URL
Standard (as browsers do) and by Go's net/url (which implements RFC 3986
with exceptions), and prints the four side by side with a mark: "same" when
all agree, else the columns that part from the largest group that agrees
("whatwg", "rfc1808,whatwg", ...; on a tie, the group of the leftmost
column is the one kept), or "all differ". A failure is "error: " and why.
Input is as for resolve: BASE REF..., -base BASE with references as
arguments or on standard input, or -pairs.

Output is tab-separated, after a header row (ref, rfc1808, rfc3986, whatwg,
net/url, mark); with -markdown a table; with -json one object per line with
the fields ref, rfc1808, rfc3986, whatwg, net_url and mark. -diff keeps
only the references where they differ.

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
	header := "ref\trfc1808\trfc3986\twhatwg\tnet/url\tmark\n"
	var skipped func(int, error) []byte
	switch {
	case *markdown:
		header = "| reference | RFC 1808 | RFC 3986 | WHATWG | net/url | |\n| --- | --- | --- | --- | --- | --- |\n"
		skipped = func(n int, _ error) []byte {
			return fmt.Appendf(nil, "| (line %d: too long, skipped) | | | | | |\n", n)
		}
	case *asJSON:
		header = ""
		skipped = skippedJSON(true)
	}
	return e.runPairs("compare", fs, &in, header, skipped, func(o *ordered.Output, _ int, base, ref string) error {
		c := comparison{
			Ref:     ref,
			RFC1808: rfc1808.Resolve(base, ref),
			RFC3986: resolveOrError(relurl.RFC3986, base, ref),
			WHATWG:  resolveOrError(relurl.WHATWG, base, ref),
			NetURL:  netURLResolve(base, ref),
		}
		c.Mark = differs(c.RFC1808, c.RFC3986, c.WHATWG, c.NetURL)
		switch {
		case *diff && c.Mark == "same":
		case *asJSON:
			o.Out = jsonline.Append(o.Out, c)
		case *markdown:
			cell := func(s string) string { return "`" + strings.ReplaceAll(printable(s), "|", `\|`) + "`" }
			r := cell(ref)
			if ref == "" {
				r = "(empty)"
			}
			o.Out = fmt.Appendf(o.Out, "| %s | %s | %s | %s | %s | %s |\n", r, cell(c.RFC1808), cell(c.RFC3986), cell(c.WHATWG), cell(c.NetURL), c.Mark)
		default:
			o.Out = fmt.Appendf(o.Out, "%s\t%s\t%s\t%s\t%s\t%s\n", printable(ref), printable(c.RFC1808), printable(c.RFC3986), printable(c.WHATWG), printable(c.NetURL), c.Mark)
		}
		return nil
	})
}

// comparison is one reference resolved four ways: a line of compare.
type comparison struct {
	Ref     string `json:"ref"`
	RFC1808 string `json:"rfc1808"`
	RFC3986 string `json:"rfc3986"`
	WHATWG  string `json:"whatwg"`
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

// resolveOrError resolves ref against base by spec, or says why it
// cannot.
func resolveOrError(spec relurl.Spec, base, ref string) string {
	u, err := relurl.Resolver{Spec: spec}.Resolve(base, ref)
	if err != nil {
		return "error: " + err.Error()
	}
	return u
}

// differs names the results that part from the largest group of equal
// ones, in the order rfc1808, rfc3986, whatwg, net/url.
func differs(results ...string) string {
	names := []string{"rfc1808", "rfc3986", "whatwg", "net/url"}
	keep, size := 0, 0
	for i, r := range results {
		n := 0
		for _, o := range results {
			if o == r {
				n++
			}
		}
		if n > size {
			keep, size = i, n
		}
	}
	switch size {
	case len(results):
		return "same"
	case 1:
		return "all differ"
	}
	var apart []string
	for i, r := range results {
		if r != results[keep] {
			apart = append(apart, names[i])
		}
	}
	return strings.Join(apart, ",")
}
