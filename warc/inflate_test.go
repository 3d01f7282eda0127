package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// outcome is everything a Reader gives, as text: each record's range,
// version, fields and block, and each error, in order.
func outcome(t testing.TB, r *Reader) []string {
	t.Helper()
	var out []string
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "error: "+err.Error())
		} else {
			out = append(out, fmt.Sprintf("%d+%d %s %v cut=%v %q", rec.Offset, rec.Length, rec.Version, rec.Header, rec.Cut, rec.Block))
		}
		if i > 1<<20 {
			t.Fatal("no end")
		}
	}
}

// sameWithInflaters reads file with one inflater and with several, through
// readers that hand out the bytes whole, in halves and one at a time, and
// fails on any difference.
func sameWithInflaters(t *testing.T, file []byte, maxBlock int64) {
	t.Helper()
	read := func(n int, src io.Reader) []string {
		r := NewReader(src)
		r.Inflaters, r.MaxBlock = n, maxBlock
		return outcome(t, r)
	}
	want := read(1, bytes.NewReader(file))
	for _, n := range []int{2, 4} {
		for name, src := range map[string]io.Reader{
			"whole":     bytes.NewReader(file),
			"halves":    iotest.HalfReader(bytes.NewReader(file)),
			"one byte":  iotest.OneByteReader(bytes.NewReader(file)),
			"read fail": io.MultiReader(bytes.NewReader(file[:len(file)/2]), iotest.ErrReader(io.ErrClosedPipe)),
		} {
			if name == "one byte" && len(file) > 1<<20 {
				continue
			}
			w := want
			if name == "read fail" {
				w = read(1, io.MultiReader(bytes.NewReader(file[:len(file)/2]), iotest.ErrReader(io.ErrClosedPipe)))
			}
			got := read(n, src)
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%d inflaters, %s: %d results, want %d", n, name, len(got), len(w))
				for i := range min(len(got), len(w)) {
					if got[i] != w[i] {
						t.Errorf("result %d:\n got %.300s\nwant %.300s", i, got[i], w[i])
						break
					}
				}
			}
		}
	}
}

// member is s as one gzip member, at the given level.
func member(s string, level int) []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, level)
	io.WriteString(z, s)
	z.Close()
	return b.Bytes()
}

// TestInflatersSame: a .warc.gz read with members inflated ahead, in
// parallel, gives the same records, offsets and errors as one read member
// by member, whatever lies in it.
func TestInflatersSame(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	noise := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return string(b)
	}
	many := func(n int) []byte {
		var b bytes.Buffer
		for i := range n {
			b.Write(member(record("resource", strings.Repeat(fmt.Sprintf("<a href=%d>", i), i%300)), gzip.DefaultCompression))
		}
		return b.Bytes()
	}
	good := member(record("resource", "<a href=x>"), gzip.DefaultCompression)
	// A member stored without compression whose block holds a whole gzip
	// member: a speculation there succeeds, and must never be used.
	inner := string(member(record("resource", "inner"), gzip.DefaultCompression))
	nested := member(record("resource", "before"+inner+"after"), gzip.NoCompression)
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)-6] ^= 0xff // its CRC-32
	cases := map[string][]byte{
		"many small members":                        many(2000),
		"a member inside a member":                  bytes.Join([][]byte{good, nested, good, nested}, nil),
		"magic bytes in stored data":                bytes.Join([][]byte{good, member(record("resource", strings.Repeat("\x1f\x8b\x08\x00", 5000)), gzip.NoCompression), good}, nil),
		"a member over maxInflated":                 bytes.Join([][]byte{good, member(record("resource", strings.Repeat("<a href=y>", maxInflated/5)), gzip.BestSpeed), good}, nil),
		"a member longer than the bytes read ahead": bytes.Join([][]byte{good, member(record("resource", noise(3*readAhead)), gzip.BestSpeed), good}, nil),
		"a corrupt member":                          bytes.Join([][]byte{good, corrupt, good}, nil),
		"garbage between members":                   bytes.Join([][]byte{good, []byte("garbage\x1f\x8b"), good}, nil),
		"a cut file":                                append(many(50), good[:len(good)/2]...),
		"a record across two members":               bytes.Join([][]byte{good, member(record("resource", "0123456789")[:60], 6), member(record("resource", "0123456789")[60:], 6), good}, nil),
		"only a magic":                              gzipMagic,
	}
	if b, err := os.ReadFile(shared + "docs-crawl.warc.gz"); err == nil {
		cases["wget's crawl"] = b
	}
	for name, file := range cases {
		t.Run(name, func(t *testing.T) { sameWithInflaters(t, file, 1<<16) })
	}

	// The speculations are used: most members are inflated ahead.
	mostAhead(t, cases["many small members"], 2000, 1900)
}

// mostAhead reads file with two inflaters, and fails unless it gives want
// records, at least least of them inflated ahead.
func mostAhead(t *testing.T, file []byte, want, least int) {
	t.Helper()
	r := NewReader(bytes.NewReader(file))
	r.Inflaters = 2
	if n := len(outcome(t, r)); n != want || r.ahead.used < least {
		t.Errorf("%d records, %d of them inflated ahead; want %d, at least %d", n, r.ahead.used, want, least)
	}
}
