package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const shared = "../../shared/data/warc/"

// readAll reads every record of r, and the errors between them.
func readAll(t testing.TB, r *Reader) (recs []*Record, errs []error) {
	t.Helper()
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, errs
		}
		if err != nil {
			var ferr *FormatError
			if !errors.As(err, &ferr) {
				t.Fatalf("error %T %v, want a *FormatError", err, err)
			}
			errs = append(errs, err)
		} else {
			recs = append(recs, rec)
		}
		if i > 1<<20 {
			t.Fatal("no end")
		}
	}
}

func openShared(t *testing.T, name string) *os.File {
	f, err := os.Open(shared + name)
	if err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestSharedFiles reads every small WARC of the shared data, real captures
// and malformed variants, and pins what each gives.
func TestSharedFiles(t *testing.T) {
	tests := []struct {
		file   string
		types  string // the records' types, then "!" for each error, in order
		ranges string // each record's Offset+Length
	}{
		{"example.warc.gz", "warcinfo warcinfo response request revisit request", "0+353 353+431 784+1228 2012+609 2621+586 3207+609"},
		{"example-digest.warc", "request request request request", "0+922 922+918 1840+918 2758+914"},
		{"example-iana.org-chunked.warc", "warcinfo response request", "0+405 405+7974 8379+452"},
		{"example-resource.warc.gz", "warcinfo warcinfo resource", "0+361 361+441 802+977"},
		{"example-space-in-target-uri.warc.gz", "warcinfo resource", "0+241 241+342"},
		{"example-wget-bad-target-uri.warc.gz", "warcinfo request response metadata resource resource", "0+410 410+414 824+1154 1978+317 2295+386 2681+586"},
		// Five records in one gzip member: no byte range holds one alone.
		{"example-bad-non-chunked.warc.gz", "warcinfo warcinfo response request revisit request", "0+0 0+0 0+0 0+0 0+0 0+2113"},
		// A record cut across two gzip members is read whole.
		{"example-wrong-chunks.warc.gz", "response request", "0+1130 1130+445"},
		// The response's block is followed by bytes that are not a record.
		{"example-trunc.warc", "warcinfo warcinfo response ! request", "0+488 488+709 1197+1363 2566+804"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := NewReader(openShared(t, tt.file))
			var types, ranges []string
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					types = append(types, "!")
					continue
				}
				types = append(types, rec.Type())
				ranges = append(ranges, fmt.Sprintf("%d+%d", rec.Offset, rec.Length))
			}
			if got := strings.Join(types, " "); got != tt.types {
				t.Errorf("types %q, want %q", got, tt.types)
			}
			if got := strings.Join(ranges, " "); got != tt.ranges {
				t.Errorf("ranges %q, want %q", got, tt.ranges)
			}
		})
	}
}

// TestDocsCrawl reads the 3,652 records of wget's crawl, each its own gzip
// member: the offsets of its 1,824 responses are those of wget's CDX, and
// the byte ranges tile the file.
func TestDocsCrawl(t *testing.T) {
	f := openShared(t, "docs-crawl.warc.gz")
	recs, errs := readAll(t, NewReader(f))
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	count := map[string]int{}
	offsets := map[string]int64{}
	var end int64
	for _, rec := range recs {
		count[rec.Type()]++
		if rec.Offset != end || rec.Length <= 0 {
			t.Fatalf("record %s at %d+%d, want it at %d", rec.Header.Get("WARC-Record-ID"), rec.Offset, rec.Length, end)
		}
		end += rec.Length
		if rec.Type() == "response" {
			offsets[rec.Header.Get("WARC-Record-ID")] = rec.Offset
		}
	}
	if fi, _ := f.Stat(); end != fi.Size() {
		t.Errorf("the records end at %d, the file at %d", end, fi.Size())
	}
	if want := "map[metadata:1 request:1824 resource:2 response:1824 warcinfo:1]"; fmt.Sprint(count) != want {
		t.Errorf("records %v, want %s", count, want)
	}
	if u := recs[2].TargetURI(); !strings.HasPrefix(u, "http://127.0.0.1:18555/") {
		t.Errorf("target URI %q: the angle brackets wget writes are not removed", u)
	}

	cdx := openShared(t, "docs-crawl.cdx")
	sc := bufio.NewScanner(cdx)
	sc.Scan() // the header line
	n := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		off, err := strconv.ParseInt(fields[8], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := offsets[fields[10]]; !ok || got != off {
			t.Errorf("response %s at %d, the CDX says %d", fields[10], got, off)
		}
		n++
	}
	if n != 1824 {
		t.Errorf("%d CDX lines, want 1824", n)
	}
}

func record(typ, block string) string {
	return fmt.Sprintf("WARC/1.1\r\nWARC-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", typ, len(block), block)
}

func gzipped(members ...string) []byte {
	var b bytes.Buffer
	for _, m := range members {
		z := gzip.NewWriter(&b)
		io.WriteString(z, m)
		z.Close()
	}
	return b.Bytes()
}

// Malformed records are errors at their offsets, and the records after
// them are read, compressed or not.
func TestMalformed(t *testing.T) {
	one, two := record("resource", "one"), record("resource", "two")
	noLength := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\nabc\r\n\r\n"
	noVersion := "HTTP/1.1 200 OK\r\n\r\n"
	good := gzipped(one)
	tests := []struct {
		name  string
		file  []byte
		types string
		errs  string
	}{
		{"plain, a bad Content-Length", []byte(one + noLength + two), "resource resource", `Content-Length "x"`},
		{"plain, no version line", []byte(noVersion + one), "resource", "is not a version line"},
		{"gzip, a bad member between good ones", append(append(append([]byte{}, good...), gzipped(noLength)...), gzipped(two)...), "resource resource", `Content-Length "x"`},
		{"gzip, garbage between members", append(append(append([]byte{}, good...), []byte("\x1f\x8bjunk junk")...), gzipped(two)...), "resource resource", "gzip member"},
		{"plain, cut short", []byte(one + two[:30]), "resource", "ends inside the record"},
		{"gzip, cut short", append(append([]byte{}, good...), gzipped(two)[:20]...), "resource", "ends inside the record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkOneError(t, tt.file, tt.types, tt.errs) })
	}
}

// checkOneError reads file, and wants records of types (space-separated)
// and one error saying errs.
func checkOneError(t *testing.T, file []byte, types, errs string) {
	t.Helper()
	recs, got := readAll(t, NewReader(bytes.NewReader(file)))
	var have []string
	for _, rec := range recs {
		have = append(have, rec.Type())
	}
	if strings.Join(have, " ") != types {
		t.Errorf("records %q, want %q", have, types)
	}
	if len(got) != 1 || !strings.Contains(got[0].Error(), errs) {
		t.Errorf("errors %v, want one saying %q", got, errs)
	}
}

// A block longer than MaxBlock is cut, and the next record is read.
func TestMaxBlock(t *testing.T) {
	for _, file := range [][]byte{
		[]byte(record("resource", strings.Repeat("x", 100)) + record("request", "y")),
		gzipped(record("resource", strings.Repeat("x", 100)), record("request", "y")),
	} {
		r := NewReader(bytes.NewReader(file))
		r.MaxBlock = 10
		recs, errs := readAll(t, r)
		if len(errs) > 0 || len(recs) != 2 || !recs[0].Cut || string(recs[0].Block) != "xxxxxxxxxx" || recs[1].Cut || string(recs[1].Block) != "y" {
			t.Errorf("records %v, errors %v", recs, errs)
		}
	}
}

// FuzzReader: any input ends, without a panic, in records and errors whose
// offsets only grow, and the same with gzip members inflated ahead.
func FuzzReader(f *testing.F) {
	f.Add([]byte(record("resource", "abc") + record("request", "")))
	f.Add(gzipped(record("resource", "abc"), "junk", record("request", "x")))
	f.Add(zstdFramed(f, nil, false, record("resource", "abc"), record("request", "x")))
	f.Add(zstdFramed(f, buildDict(f, testRecords()), true, testRecords()[:2]...))
	for _, name := range []string{"example.warc.gz", "example-trunc.warc", "example-wrong-chunks.warc.gz"} {
		if b, err := os.ReadFile(shared + name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		if _, ok := Sniff(bytes.NewReader(file)); ok && !CouldStart(file[:min(len(file), 512)]) {
			t.Fatalf("Sniff sees a WARC that CouldStart rules out: %q", file[:min(len(file), 16)])
		}
		one := NewReader(bytes.NewReader(file))
		one.MaxBlock = 1 << 16
		two := NewReader(bytes.NewReader(file))
		two.MaxBlock, two.Inflaters = 1<<16, 2
		if a, b := outcome(t, one), outcome(t, two); !slices.Equal(a, b) {
			t.Fatalf("one inflater:\n%q\ntwo:\n%q", a, b)
		}
		r := NewReader(bytes.NewReader(file))
		r.MaxBlock = 1 << 16
		last := int64(-1)
		for i := 0; ; i++ {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			var off int64
			var ferr *FormatError
			switch {
			case errors.As(err, &ferr):
				off = ferr.Offset
			case err != nil:
				t.Fatalf("error %T %v", err, err)
			default:
				off = rec.Offset
				if rec.Length < 0 || rec.Offset+rec.Length > int64(len(file)) {
					t.Fatalf("record at %d+%d in %d bytes", rec.Offset, rec.Length, len(file))
				}
			}
			if off < last || off > int64(len(file)) {
				t.Fatalf("offset %d after %d, in %d bytes", off, last, len(file))
			}
			last = off
			if i > len(file)+2 {
				t.Fatal("more records and errors than bytes")
			}
		}
	})
}

// BenchmarkReader reads every record of wget's crawl, 13.6 MB compressed,
// 71.5 MB of records; bytes per second are the uncompressed records'.
// Inflaters=1 is one member after another; Inflaters=2 inflates them
// ahead, on two cores.
func BenchmarkReader(b *testing.B) {
	file, err := os.ReadFile(shared + "docs-crawl.warc.gz")
	if err != nil {
		b.Skipf("no shared data (%v)", err)
	}
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("Inflaters=%d", n), func(b *testing.B) {
			b.SetBytes(71527356)
			for b.Loop() {
				r := NewReader(bytes.NewReader(file))
				r.Inflaters = n
				for {
					if _, err := r.Next(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
