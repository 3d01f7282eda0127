package whatwg

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/conformance"
)

var sink int

// BenchmarkParseIDN parses URLs whose hosts are not ASCII, which take
// the host parser through UTS #46: "https://HOST/" for each domain of
// web-platform-tests' toascii.json and IdnaTestV2.json that the Standard
// accepts.
func BenchmarkParseIDN(b *testing.B) {
	var urls []string
	for _, name := range []string{"toascii.json", "IdnaTestV2.json"} {
		cases, err := conformance.WPT[struct {
			Input  string
			Output *string
		}](name)
		if err != nil {
			b.Skipf("no %s (%v)", name, err)
		}
		for _, c := range cases {
			if c.Output != nil && !isASCII(c.Input) && !strings.ContainsAny(c.Input, ":/?#\\") {
				urls = append(urls, "https://"+c.Input+"/")
			}
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u, _ := Parse(urls[i%len(urls)])
		sink = len(u.href)
	}
}
