package uts46

import (
	"encoding/json"
	"os"
	"testing"

	"golang.org/x/net/idna"
)

// BenchmarkToASCII converts the non-ASCII domains of web-platform-tests'
// toascii.json and IdnaTestV2.json that the URL Standard accepts, with the
// lenient options of the host parser; its sub-benchmark xnet is the
// yardstick, golang.org/x/net/idna's profile of the same flags (on its
// older Unicode tables) on the same domains. With -count, Go runs the two
// in turn.
func BenchmarkToASCII(b *testing.B) {
	var domains []string
	for _, name := range []string{"toascii.json", "IdnaTestV2.json"} {
		data, err := os.ReadFile("../../testdata/wpt/" + name)
		if err != nil {
			b.Fatalf("no %s (%v)", name, err)
		}
		var cases []json.RawMessage
		if err := json.Unmarshal(data, &cases); err != nil {
			b.Fatal(err)
		}
		for _, raw := range cases {
			var c struct {
				Input  string
				Output *string
			}
			if json.Unmarshal(raw, &c) == nil && c.Output != nil && !isASCII(c.Input) {
				domains = append(domains, c.Input)
			}
		}
	}
	xnet := idna.New(idna.MapForLookup(), idna.BidiRule(), idna.CheckJoiners(true),
		idna.CheckHyphens(false), idna.StrictDomainName(false), idna.Transitional(false),
		idna.VerifyDNSLength(false))
	b.Run("uts46", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			s, _ := ToASCII(domains[i%len(domains)], Options{})
			sink += len(s)
		}
	})
	b.Run("xnet", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			s, _ := xnet.ToASCII(domains[i%len(domains)])
			sink += len(s)
		}
	})
}

var sink int
