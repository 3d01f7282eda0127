package warc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// testRecords are records of every size a block has, HTML among them.
func testRecords() []string {
	var recs []string
	for i := range 12 {
		body := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>page %d</title>%s", i, strings.Repeat(fmt.Sprintf(`<a href="p%d.html">link</a>`, i), i*i*40))
		recs = append(recs, fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.org/p%d.html\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, len(body), body))
	}
	return recs
}

// dictFrame is warc-zstd's dictionary frame: a skippable frame of magic
// 0x184D2A5D holding dict.
func dictFrame(dict []byte) []byte {
	frame := binary.LittleEndian.AppendUint32(nil, dictMagic)
	frame = binary.LittleEndian.AppendUint32(frame, uint32(len(dict)))
	return append(frame, dict...)
}

// zstdFramed compresses each record into a frame of its own, with dict if
// any, after the dictionary frame (its dictionary itself compressed when
// packDict is set).
func zstdFramed(t testing.TB, dict []byte, packDict bool, records ...string) []byte {
	var out []byte
	opts := []zstd.EOption{zstd.WithEncoderConcurrency(1)}
	if dict != nil {
		stored := dict
		if packDict {
			enc, _ := zstd.NewWriter(nil)
			stored = enc.EncodeAll(dict, nil)
		}
		out = dictFrame(stored)
		opts = append(opts, zstd.WithEncoderDict(dict))
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		out = enc.EncodeAll([]byte(r), out)
	}
	return out
}

func buildDict(t testing.TB, records []string) []byte {
	var samples [][]byte
	for _, r := range records {
		samples = append(samples, []byte(r))
	}
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 1234, Contents: samples, History: []byte(strings.Join(records[:3], ""))})
	if err != nil {
		t.Fatal(err)
	}
	return dict
}

// TestZstd reads the same records as plain WARC, gzip members and zstd
// frames with and without a dictionary: the same records, and byte ranges
// that tile the file, each of which decompresses alone to its record.
func TestZstd(t *testing.T) {
	records := testRecords()
	dict := buildDict(t, records)
	files := map[string][]byte{
		"plain":                   []byte(strings.Join(records, "")),
		"gzip":                    gzipped(records...),
		"zstd":                    zstdFramed(t, nil, false, records...),
		"zstd, dictionary":        zstdFramed(t, dict, false, records...),
		"zstd, packed dictionary": zstdFramed(t, dict, true, records...),
		"zstd, skippable frames between": func() []byte {
			var b []byte
			for _, r := range records {
				b = append(b, 0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z')
				b = append(b, zstdFramed(t, nil, false, r)...)
			}
			return b
		}(),
	}
	for name, file := range files {
		t.Run(name, func(t *testing.T) {
			if _, ok := Sniff(bytes.NewReader(file)); !ok {
				t.Error("Sniff does not see a WARC")
			}
			recs, errs := readAll(t, NewReader(bytes.NewReader(file)))
			if len(errs) > 0 || len(recs) != len(records) {
				t.Fatalf("%d records, errors %v", len(recs), errs)
			}
			dec, _ := zstd.NewReader(nil, zstd.WithDecoderDicts(dict))
			for i, rec := range recs {
				if want := records[i]; !strings.Contains(want, string(rec.Block)) || rec.TargetURI() != fmt.Sprintf("http://example.org/p%d.html", i) {
					t.Errorf("record %d: %s", i, rec.TargetURI())
				}
				if !strings.HasPrefix(name, "zstd") {
					continue
				}
				frame := file[rec.Offset : rec.Offset+rec.Length]
				got, err := dec.DecodeAll(frame, nil)
				if err != nil || string(got) != records[i] {
					t.Errorf("record %d: its range %d+%d decompresses to %d bytes, %v", i, rec.Offset, rec.Length, len(got), err)
				}
			}
			last := recs[len(recs)-1]
			if name != "plain" && last.Offset+last.Length != int64(len(file)) {
				t.Errorf("the last record ends at %d, the file at %d", last.Offset+last.Length, len(file))
			}
		})
	}
}

// TestZstdInflatersSame: a .warc.zst read with frames decompressed ahead,
// in parallel, gives the same records, offsets and errors as one read
// frame by frame, whatever lies in it; and most frames are decompressed
// ahead.
func TestZstdInflatersSame(t *testing.T) {
	var many []string
	for i := range 2000 {
		many = append(many, record("resource", strings.Repeat(fmt.Sprintf("<a href=%d>", i), i%300)))
	}
	good := zstdFramed(t, nil, false, record("resource", "<a href=x>"))
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)-3] ^= 0xff // its content checksum
	long := record("resource", strings.Repeat("<a href=y>", maxInflated/5))
	split := record("resource", "0123456789")
	dict := buildDict(t, testRecords())
	cases := map[string][]byte{
		"many small frames":                zstdFramed(t, nil, false, many...),
		"a dictionary":                     zstdFramed(t, dict, true, append(testRecords(), many[:300]...)...),
		"a frame over maxInflated":         bytes.Join([][]byte{good, zstdFramed(t, nil, false, long), good}, nil),
		"magic bytes in a frame's content": bytes.Join([][]byte{good, zstdFramed(t, nil, false, record("resource", strings.Repeat("\x28\xb5\x2f\xfd", 5000))), good}, nil),
		"a corrupt frame":                  bytes.Join([][]byte{good, corrupt, good}, nil),
		"garbage between frames":           bytes.Join([][]byte{good, []byte("garbage\x28\xb5\x2f\xfd"), good}, nil),
		"skippable frames between":         bytes.Join([][]byte{good, {0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'}, good}, nil),
		"a cut file":                       func() []byte { f := zstdFramed(t, nil, false, many[:50]...); return append(f, good[:len(good)/2]...) }(),
		"a record across two frames":       bytes.Join([][]byte{good, zstdFramed(t, nil, false, split[:60], split[60:]), good}, nil),
		"only a magic":                     zstdMagic,
	}
	for name, file := range cases {
		t.Run(name, func(t *testing.T) { sameWithInflaters(t, file, 1<<16) })
	}

	mostAhead(t, cases["a dictionary"], 312, 290)
}

// TestZstdCLI reads frames written by the zstd command, one a record, with
// a dictionary the command trained: relurl reads what the reference
// implementation writes. .ci/run installs zstd.
func TestZstdCLI(t *testing.T) {
	zstdCmd, err := exec.LookPath("zstd")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs the zstd command: .ci/run installs it")
		}
		t.Skip("no zstd command (Debian's zstd package)")
	}
	dir := t.TempDir()
	records := testRecords()
	var samples []string
	for i := range 40 {
		name := filepath.Join(dir, fmt.Sprintf("sample%d", i))
		os.WriteFile(name, []byte(records[i%len(records)]+strings.Repeat("<p>", i)), 0o644)
		samples = append(samples, name)
	}
	dictFile := filepath.Join(dir, "dict")
	if out, err := exec.Command(zstdCmd, append([]string{"-q", "--train", "--maxdict=4096", "-o", dictFile}, samples...)...).CombinedOutput(); err != nil {
		t.Fatalf("zstd --train: %v\n%s", err, out)
	}
	dict, _ := os.ReadFile(dictFile)
	file := dictFrame(dict)
	for i, r := range records {
		in := filepath.Join(dir, fmt.Sprintf("r%d", i))
		os.WriteFile(in, []byte(r), 0o644)
		frame, err := exec.Command(zstdCmd, "-q", "-c", "-D", dictFile, in).Output()
		if err != nil {
			t.Fatal(err)
		}
		file = append(file, frame...)
	}
	recs, errs := readAll(t, NewReader(bytes.NewReader(file)))
	if len(errs) > 0 || len(recs) != len(records) {
		t.Fatalf("%d records, errors %v", len(recs), errs)
	}
	// And the command decompresses each range alone.
	rec := recs[5]
	frameFile := filepath.Join(dir, "frame.zst")
	os.WriteFile(frameFile, file[rec.Offset:rec.Offset+rec.Length], 0o644)
	out, err := exec.Command(zstdCmd, "-q", "-d", "-c", "-D", dictFile, frameFile).Output()
	if err != nil || string(out) != records[5] {
		t.Errorf("zstd -d of record 5's range: %v", err)
	}
}

// TestHostile: archives made to hurt. Each problem is a *FormatError at
// the record's offset, and the good records after it are read.
func TestHostile(t *testing.T) {
	one, two := record("resource", "one"), record("resource", "two")
	lying := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 10000000000\r\n\r\nshort\r\n\r\n"
	longHeader := "WARC/1.1\r\nWARC-Type: resource\r\nX-Long: " + strings.Repeat("x", 2<<20) + "\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	longVersion := "WARC/1.1" + strings.Repeat("1", 2<<20) + "\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	tests := []struct {
		name  string
		file  []byte
		types string
		errs  string
	}{
		{"gzip, a Content-Length past the member", gzipped(one, lying, two), "resource resource", "Content-Length runs past the end of the record's compressed member"},
		{"zstd, a Content-Length past the frame", zstdFramed(t, nil, false, one, lying, two), "resource resource", "Content-Length runs past the end of the record's compressed member"},
		{"plain, a header of 2 MiB", []byte(one + longHeader + two), "resource resource", "header is longer than 1048576 bytes"},
		{"gzip, a header of 2 MiB", gzipped(one, longHeader, two), "resource resource", "header is longer than 1048576 bytes"},
		{"zstd, a version line of 2 MiB", zstdFramed(t, nil, false, one, longVersion, two), "resource resource", "header is longer than 1048576 bytes"},
		{"zstd, a frame with a reserved block type", append(append(zstdFramed(t, nil, false, one), 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x07, 0x00, 0x00), zstdFramed(t, nil, false, two)...), "resource resource", "reserved block type"},
		{"zstd, a dictionary frame too large", append(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, dictMagic), 1<<30), zstdFramed(t, nil, false, one)...), "", "a dictionary of 1073741824 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkOneError(t, tt.file, tt.types, tt.errs) })
	}
}

// failing reads n bytes of r, then fails.
type failing struct {
	r *bytes.Reader
	n int
}

func (f *failing) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, fmt.Errorf("connection reset by peer")
	}
	p = p[:min(len(p), f.n)]
	n, err := f.r.Read(p)
	f.n -= n
	return n, err
}

// A file that cannot be read on is an error that says so, and the end:
// not a record cut short by the end of the file.
func TestReadError(t *testing.T) {
	file := gzipped(testRecords()...)
	recs, errs := readAll(t, NewReader(&failing{bytes.NewReader(file), len(file) / 2}))
	if len(recs) == 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), fmt.Sprintf("reading the file at byte offset %d: connection reset by peer", len(file)/2)) {
		t.Errorf("%d records, errors %v", len(recs), errs)
	}
}

// CouldStart rules out what Sniff would, by the first byte, and nothing
// Sniff would see as a WARC (FuzzReader holds it to that on every input).
func TestCouldStart(t *testing.T) {
	for _, c := range []struct {
		prefix string
		want   bool
	}{
		{"WARC/1.1\r\n", true},
		{string(gzipped(record("resource", "abc"))), true},
		{string(zstdFramed(t, nil, false, record("resource", "abc"))), true},
		{"\x5a\x2a\x4d\x18", true}, // a skippable zstd frame
		{"Welcome", true},          // not a WARC, but Sniff must say so
		{"<!doctype html>", false},
		{"\ufeff<html>", false},
		{"  <p>", false},
		{"# Title", false},
		{"", false},
	} {
		if got := CouldStart([]byte(c.prefix)); got != c.want {
			t.Errorf("CouldStart(%q) = %v, want %v", c.prefix[:min(len(c.prefix), 8)], got, c.want)
		}
		if _, sniffed := Sniff(strings.NewReader(c.prefix)); sniffed && !c.want {
			t.Errorf("Sniff sees a WARC in %q", c.prefix)
		}
	}
}
