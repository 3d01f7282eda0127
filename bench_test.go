package relurl

import (
	"bufio"
	"compress/gzip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl/rfc1808"
)

// The benchmarks run on real data from ../shared/data (see its README):
// 207,861 (page URL, raw href) pairs from two documentation sites, and
// 48,010 absolute web URLs. Each op is one pair or one URL, taken in turn,
// and each relurl benchmark has its net/url counterpart in the same run:
//
//	go test -run '^$' -bench . -count 10 | tee bench.txt
//	benchstat bench.txt

const dataDir = "../shared/data/"

type pair struct{ base, ref string }

var (
	pairsOnce sync.Once
	pairs     []pair
	pairsErr  error

	urlsOnce sync.Once
	urls     []string
	urlsErr  error
)

func loadPairs(b testing.TB) []pair {
	pairsOnce.Do(func() {
		var f *os.File
		if f, pairsErr = os.Open(dataDir + "doc-links.tsv.gz"); pairsErr != nil {
			return
		}
		defer f.Close()
		var z *gzip.Reader
		if z, pairsErr = gzip.NewReader(f); pairsErr != nil {
			return
		}
		sc := bufio.NewScanner(z)
		for sc.Scan() {
			base, ref, _ := strings.Cut(sc.Text(), "\t")
			pairs = append(pairs, pair{base, ref})
		}
		pairsErr = sc.Err()
	})
	if pairsErr != nil {
		b.Skipf("no benchmark data (%v); it comes with the checkout's ../shared", pairsErr)
	}
	return pairs
}

func loadURLs(b testing.TB) []string {
	urlsOnce.Do(func() {
		var data []byte
		if data, urlsErr = os.ReadFile(dataDir + "urls-kasztp.txt"); urlsErr != nil {
			return
		}
		text := strings.TrimPrefix(string(data), "\uFEFF")
		urls = strings.Fields(text)
	})
	if urlsErr != nil {
		b.Skipf("no benchmark data (%v); it comes with the checkout's ../shared", urlsErr)
	}
	return urls
}

// BenchmarkSplit splits each web URL into its components.
func BenchmarkSplit(b *testing.B) {
	urls := loadURLs(b)
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(rfc1808.Split(urls[i%len(urls)]).Query())
	}
	sink = n
}

// BenchmarkSplitNetURL is BenchmarkSplit's counterpart: url.Parse.
func BenchmarkSplitNetURL(b *testing.B) {
	urls := loadURLs(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u, _ := url.Parse(urls[i%len(urls)])
		sinkURL = u
	}
}

// BenchmarkAppendResolve resolves each href against its page URL into a
// reused buffer, as a crawler or link checker would.
func BenchmarkAppendResolve(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		buf = rfc1808.AppendResolve(buf[:0], p.base, p.ref)
	}
	sink = len(buf)
}

// BenchmarkResolveNetURL does with net/url what BenchmarkAppendResolve does:
// parse both, resolve, and write the result as a string.
func BenchmarkResolveNetURL(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		base, err1 := url.Parse(p.base)
		ref, err2 := url.Parse(p.ref)
		if err1 == nil && err2 == nil {
			sinkString = base.ResolveReference(ref).String()
		}
	}
}

// BenchmarkResolveFloor is the least any resolver must do: append the base
// and the reference into a reused buffer.
func BenchmarkResolveFloor(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		buf = append(append(buf[:0], p.base...), p.ref...)
	}
	sink = len(buf)
}

var (
	sink       int
	sinkString string
	sinkURL    *url.URL
)

// BenchmarkURLAppendResolve is BenchmarkAppendResolve for a caller that
// splits each page's URL once, as a link extractor does: consecutive pairs
// of the data share their page, and the base is split only when it changes.
func BenchmarkURLAppendResolve(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	var base rfc1808.URL
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		if p.base != base.String() {
			base = rfc1808.Split(p.base)
		}
		buf = base.AppendResolve(buf[:0], p.ref)
	}
	sink = len(buf)
}

// BenchmarkAppendResolve3986 is BenchmarkAppendResolve under RFC 3986, the
// RFC net/url implements: the same pairs, the same buffer.
func BenchmarkAppendResolve3986(b *testing.B) {
	pairs := loadPairs(b)
	b.ReportAllocs()
	r := Resolver{Spec: RFC3986}
	buf := make([]byte, 0, 1024)
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		buf = must(r.AppendResolve(buf[:0], p.base, p.ref))
	}
	sink = len(buf)
}

// TestRealPairs3986 resolves the 207,861 real pairs under both RFCs and
// with net/url. RFC 1808 and RFC 3986 agree on every one of them. net/url,
// which implements RFC 3986, agrees with relurl's RFC 3986 mode except where
// it does more or less than resolution, in three ways this test counts; any
// other difference fails it:
//
//   - it drops an empty fragment: its URL cannot record that a "#" was
//     there, so "#" against a page gives the page without it (RFC 3986,
//     Section 5.2.2: T.fragment = R.fragment, defined and empty);
//   - it escapes, when it writes a URL, characters a URI may not hold
//     (non-ASCII letters, ">"), where resolution leaves them as they are;
//   - it rejects a reference with an invalid escape ("%_s").
func TestRealPairs3986(t *testing.T) {
	if testing.Short() {
		t.Skip("207,861 pairs")
	}
	pairs := loadPairs(t)
	r := Resolver{Spec: RFC3986}
	var emptyFragment, escaped, rejected int
	for _, p := range pairs {
		got1808, got3986 := rfc1808.Resolve(p.base, p.ref), resolved(r, p.base, p.ref)
		if got1808 != got3986 {
			t.Errorf("%q against %q: RFC 1808 %q, RFC 3986 %q", p.ref, p.base, got1808, got3986)
		}
		base, err := url.Parse(p.base)
		if err != nil {
			t.Fatalf("net/url cannot parse the page URL %q: %v", p.base, err)
		}
		ref, err := url.Parse(p.ref)
		if err != nil {
			rejected++
			continue
		}
		std := base.ResolveReference(ref).String()
		switch {
		case std == got3986:
		case std+"#" == got3986 && strings.HasSuffix(p.ref, "#"):
			emptyFragment++
		case strings.ContainsFunc(p.ref, func(c rune) bool { return c > '~' || strings.ContainsRune("<>\"{}|\\^` ", c) }):
			escaped++
		default:
			t.Errorf("%q against %q: RFC 3986 %q, net/url %q", p.ref, p.base, got3986, std)
		}
	}
	t.Logf("%d pairs: net/url drops an empty fragment in %d, escapes characters in %d, rejects %d", len(pairs), emptyFragment, escaped, rejected)
}
