package corpus

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/faulty"
	"github.com/relurl/relurl/links"
)

const docsCrawl = "../../shared/data/warc/docs-crawl.warc.gz"

// Streaming an archive over HTTP against reading it from disk at the same
// rate: wget's crawl (13.6 MB) served on loopback at 100 MB/s, and the
// same bytes handed out at 100 MB/s from memory, each extracted on 2
// workers. The ratio of the two is the cost of HTTP and of the stream's
// retry machinery (go test -run '^$' -bench Stream -count 10 ./corpus).

// paced hands out r's bytes at rate bytes per second.
type paced struct {
	r     io.Reader
	rate  float64
	start time.Time
	n     int
}

func (p *paced) Read(b []byte) (int, error) {
	if p.start.IsZero() {
		p.start = time.Now()
	}
	b = b[:min(len(b), 1<<20)]
	n, err := p.r.Read(b)
	p.n += n
	time.Sleep(time.Until(p.start.Add(time.Duration(float64(p.n) / p.rate * float64(time.Second)))))
	return n, err
}

func runArchive(b *testing.B, o *Options, input string) {
	var linksSeen int
	docs := o.Run(o.Docs(context.Background(), slices.Values([]string{input})), 2, links.Options{},
		func(d *Doc, out *Output) *links.Handler {
			return &links.Handler{Link: func(*links.Link) error { return nil }}
		}, func(_, _ []byte) bool { return true })
	for d := range docs {
		if d.Err != nil {
			b.Fatal(d.Err)
		}
		linksSeen += d.Links
	}
	if linksSeen != 215993 {
		b.Fatalf("%d links", linksSeen)
	}
}

func crawl(b *testing.B) []byte {
	file, err := os.ReadFile(docsCrawl)
	if err != nil {
		b.Skipf("no shared data (%v)", err)
	}
	b.SetBytes(int64(len(file)))
	return file
}

func BenchmarkStreamHTTP(b *testing.B) {
	file := crawl(b)
	s := faulty.New(map[string][]byte{"/crawl.warc.gz": file}, faulty.Faults{BytesPerSecond: 100e6})
	defer s.Close()
	for b.Loop() {
		runArchive(b, &Options{}, s.URL+"/crawl.warc.gz")
	}
}

func BenchmarkStreamFile(b *testing.B) {
	file := crawl(b)
	for b.Loop() {
		runArchive(b, &Options{Stdin: &paced{r: bytes.NewReader(file), rate: 100e6}}, "-")
	}
}
