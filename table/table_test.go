package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/parquet-go/parquet-go"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/warc"
)

// rows are links of every shape a row can take: resolved or not, refused,
// with text and rel or without, bytes that are not UTF-8, a WARC record's.
func rows() [][]byte {
	page := Doc{Source: "http://example.org/a", Status: 200}
	rec := Doc{Source: "http://example.org/b", Archive: "crawl.warc.gz", Status: 404, Record: &warc.Record{
		Offset: 1234, Length: 567, Cut: true,
		Header: textproto.MIMEHeader{"Warc-Record-Id": {"<urn:uuid:1>"}, "Warc-Date": {"2026-11-25T00:00:00Z"}},
	}}
	b := &links.Base{URL: "http://example.org/a", From: links.FromRetrieval}
	none := &links.Base{}
	var out [][]byte
	for _, c := range []struct {
		doc Doc
		l   links.Link
		url []byte
	}{
		{page, links.Link{Ref: []byte("b"), Element: "a", Attribute: "href", Base: b, Rel: []byte("nofollow"), Text: []byte("Bee")}, []byte("http://example.org/b")},
		{page, links.Link{Ref: []byte("x"), Element: "img", Attribute: "src", Base: none}, nil},
		{page, links.Link{Ref: []byte("http://[::1"), Element: "a", Attribute: "href", Base: b, Err: errors.New("invalid IPv6 address"), Text: []byte{}}, nil},
		{rec, links.Link{Ref: []byte("caf\xe9"), Element: "a", Attribute: "href", Base: b, Part: "1.2", Text: []byte("caf\xe9 \xed\xa0\x80")}, []byte("http://example.org/caf\xe9")},
		{rec, links.Link{Ref: []byte(""), Element: "style", Attribute: "", Base: b}, []byte("http://example.org/a")},
	} {
		out = append(out, NewRows(c.doc).AppendLink(nil, &c.l, c.url))
	}
	return out
}

// want is what each row of rows holds, as relurl links -json prints it
// (nulls as nil).
var want = []map[string]any{
	{"url": "http://example.org/b", "ref": "b", "base": "http://example.org/a", "base_from": "retrieval", "element": "a", "attribute": "href", "rel": "nofollow", "text": "Bee", "source": "http://example.org/a", "status": int64(200)},
	{"ref": "x", "base_from": "none", "element": "img", "attribute": "src", "source": "http://example.org/a", "status": int64(200)},
	{"error": "invalid IPv6 address", "ref": "http://[::1", "base": "http://example.org/a", "base_from": "retrieval", "element": "a", "attribute": "href", "text": "", "source": "http://example.org/a", "status": int64(200)},
	{"url": "http://example.org/caf\uFFFD", "url_base64": "aHR0cDovL2V4YW1wbGUub3JnL2NhZuk=", "ref": "caf\uFFFD", "ref_base64": "Y2Fm6Q==", "base": "http://example.org/a", "base_from": "retrieval", "element": "a", "attribute": "href", "text": "caf\uFFFD \uFFFD\uFFFD\uFFFD", "part": "1.2", "source": "http://example.org/b", "status": int64(404),
		"warc_filename": "crawl.warc.gz", "warc_record_offset": int64(1234), "warc_record_length": int64(567), "warc_record_id": "<urn:uuid:1>", "warc_date": "2026-11-25T00:00:00Z", "truncated": "length"},
	{"url": "http://example.org/a", "ref": "", "base": "http://example.org/a", "base_from": "retrieval", "element": "style", "attribute": "", "source": "http://example.org/b", "status": int64(404),
		"warc_filename": "crawl.warc.gz", "warc_record_offset": int64(1234), "warc_record_length": int64(567), "warc_record_id": "<urn:uuid:1>", "warc_date": "2026-11-25T00:00:00Z", "truncated": "length"},
}

// readArrow reads an Arrow IPC stream back as rows of column name to value.
func readArrow(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	rd, err := ipc.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Release()
	if !rd.Schema().Equal(Schema) {
		t.Fatalf("schema %s, want %s", rd.Schema(), Schema)
	}
	var got []map[string]any
	for rd.Next() {
		rec := rd.RecordBatch()
		for i := range int(rec.NumRows()) {
			row := map[string]any{}
			for c, f := range columns {
				col := rec.Column(c)
				if col.IsNull(i) {
					continue
				}
				switch col := col.(type) {
				case *array.String:
					row[f.Name] = col.Value(i)
				case *array.Int32:
					row[f.Name] = int64(col.Value(i))
				case *array.Int64:
					row[f.Name] = col.Value(i)
				}
			}
			got = append(got, row)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

func equalRows(t *testing.T, got, want []map[string]any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("rows:\n got %s\nwant %s", g, w)
	}
}

func TestArrowRows(t *testing.T) {
	var out bytes.Buffer
	w := NewArrow(&out)
	for _, r := range rows() {
		if _, err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	equalRows(t, readArrow(t, &out), want)
}

// TestWriteInPieces gives the Writer the rows cut at every byte: a row
// begun in one Write ends in the next.
func TestWriteInPieces(t *testing.T) {
	all := bytes.Join(rows(), nil)
	for cut := range len(all) {
		var out bytes.Buffer
		w := NewArrow(&out)
		if _, err := w.Write(all[:cut]); err != nil {
			t.Fatal(cut, err)
		}
		if _, err := w.Write(all[cut:]); err != nil {
			t.Fatal(cut, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(cut, err)
		}
		if got := readArrow(t, &out); len(got) != len(want) {
			t.Fatalf("cut at %d: %d rows, want %d", cut, len(got), len(want))
		}
	}
}

func TestFormatError(t *testing.T) {
	all := bytes.Join(rows(), nil)
	var fe *FormatError

	w := NewArrow(io.Discard)
	_, err := w.Write(append(all[:len(all):len(all)], 7))
	if !errors.As(err, &fe) || fe.Offset != int64(len(all)) {
		t.Errorf("a bad tag after the rows: %v, want a FormatError at %d", err, len(all))
	}

	w = NewArrow(io.Discard)
	w.Write(all[:len(all)-1])
	if err := w.Close(); !errors.As(err, &fe) || !strings.Contains(err.Error(), "not an encoded row") {
		t.Errorf("a row cut at Close: %v, want a FormatError", err)
	}
}

// readParquet reads a Parquet file back with parquet-go's own reader.
func readParquet(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[parquetRow](f)
	defer r.Close()
	if got, want := r.Schema().String(), parquetSchema().String(); got != want {
		t.Fatalf("schema %s, want %s", got, want)
	}
	buf := make([]parquetRow, r.NumRows())
	n, err := r.Read(buf)
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, row := range buf[:n] {
		j, _ := json.Marshal(row)
		m := map[string]any{}
		d := json.NewDecoder(bytes.NewReader(j))
		d.UseNumber()
		d.Decode(&m)
		out := map[string]any{}
		for _, f := range columns {
			for k, v := range m {
				if strings.EqualFold(strings.ReplaceAll(f.Name, "_", ""), k) && v != nil {
					if n, ok := v.(json.Number); ok {
						v, _ = n.Int64()
					}
					out[f.Name] = v
				}
			}
		}
		got = append(got, out)
	}
	return got
}

func TestParquetFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.parquet")
	w, err := CreateParquet(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows() {
		w.Write(r)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the file has its name before Close")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	equalRows(t, readParquet(t, path), want)
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestParquetParts writes 2,500 rows as parts of at most 1,000 each.
func TestParquetParts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "links")
	w, err := CreateParquet(dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	one := rows()[0]
	for range 2500 {
		w.Write(one)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, SuccessFile)); err != nil {
		t.Errorf("no %s marker after Close: %v", SuccessFile, err)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "part-*"))
	var sizes []int
	for _, p := range parts {
		sizes = append(sizes, len(readParquet(t, p)))
	}
	if len(parts) != 3 || filepath.Base(parts[2]) != "part-00002.parquet" || sizes[0] != 1000 || sizes[1] != 1000 || sizes[2] != 500 {
		t.Errorf("parts %v of %v rows, want part-00000..2 of 1000, 1000, 500", parts, sizes)
	}
	if _, err := CreateParquet(dir, 1000); err == nil || !strings.Contains(err.Error(), "already holds a table") {
		t.Errorf("a directory with parts: %v, want refused", err)
	}

	// A run that fails midway leaves the parts it finished and no marker:
	// its reader knows the table is not whole.
	failed := filepath.Join(t.TempDir(), "failed")
	w, _ = CreateParquet(failed, 1000)
	for range 1500 {
		w.Write(one)
	}
	w.Write([]byte{0xff}) // not a row: the Writer fails
	w.Close()
	if _, err := os.Stat(filepath.Join(failed, SuccessFile)); err == nil {
		t.Errorf("a failed run has its %s marker", SuccessFile)
	}
	if hidden, _ := filepath.Glob(filepath.Join(failed, ".*")); len(hidden) > 0 {
		t.Errorf("a failed run left %q", hidden)
	}

	// No rows at all: one empty part that holds the schema.
	empty := filepath.Join(t.TempDir(), "none")
	w, _ = CreateParquet(empty, 1000)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readParquet(t, filepath.Join(empty, "part-00000.parquet")); len(got) != 0 {
		t.Errorf("%d rows, want 0", len(got))
	}
}

// TestInOrder: batches encoded at once, InFlight and more, are written in
// the order of their rows: as the row groups of one file, and as part
// files, each whole.
func TestInOrder(t *testing.T) {
	const batches, per = 4*InFlight + 1, 7
	l := links.Link{Ref: []byte("r"), Element: "a", Attribute: "href", Base: &links.Base{}}
	write := func(w *Writer) {
		t.Helper()
		for i := range batches * per {
			if _, err := w.Write(NewRows(Doc{Source: "s", Status: i + 1}).AppendLink(nil, &l, nil)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	statuses := func(path string) []int64 {
		var s []int64
		for _, row := range readParquet(t, path) {
			s = append(s, row["status"].(int64))
		}
		return s
	}
	numbers := func(from, n int) []int64 {
		var s []int64
		for i := range n {
			s = append(s, int64(from+i))
		}
		return s
	}

	file := filepath.Join(t.TempDir(), "links.parquet")
	w, err := CreateParquet(file, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.maxRows = per
	write(w)
	if got := statuses(file); !equalInts(got, numbers(1, batches*per)) {
		t.Errorf("one file: rows of status %v, want 1 to %d in order", got, batches*per)
	}

	dir := filepath.Join(t.TempDir(), "links")
	if w, err = CreateParquet(dir, per); err != nil {
		t.Fatal(err)
	}
	write(w)
	for p := range batches {
		got := statuses(filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", p)))
		if want := numbers(p*per+1, per); !equalInts(got, want) {
			t.Errorf("part %d: rows of status %v, want %v", p, got, want)
		}
	}
}

// TestManyRows: rows of every length, more than fill a chunk several
// times over, in pieces of every size, read back each as it was written.
func TestManyRows(t *testing.T) {
	const n = 20000
	var all []byte
	for i := range n {
		l := links.Link{Ref: bytes.Repeat([]byte{'a' + byte(i%26)}, i%700), Element: "a", Attribute: "href", Base: &links.Base{}}
		all = NewRows(Doc{Source: "s", Status: i + 1}).AppendLink(all, &l, nil)
	}
	var out bytes.Buffer
	w := NewArrow(&out)
	for p, size := all, 1; len(p) > 0; size = size*3 + 1 {
		k := min(len(p), size%(3*chunkSize))
		if _, err := w.Write(p[:k]); err != nil {
			t.Fatal(err)
		}
		p = p[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := readArrow(t, &out)
	if len(got) != n {
		t.Fatalf("%d rows, want %d", len(got), n)
	}
	for i, row := range got {
		if row["status"] != int64(i+1) || len(row["ref"].(string)) != i%700 {
			t.Fatalf("row %d: status %v, ref of %d bytes; want %d, %d", i, row["status"], len(row["ref"].(string)), i+1, i%700)
		}
	}
}

// barrierSink's batches are encoded only once InFlight of them are being
// encoded at the same time: a Writer that encoded one batch at a time
// would never end them (the test gives up after a minute).
type barrierSink struct {
	all     chan struct{} // closed when InFlight encodes have begun
	begun   atomic.Int32
	closing sync.Once
}

func (s *barrierSink) group(int) (encoder, error) { return s, nil }
func (s *barrierSink) close() error               { return nil }
func (s *barrierSink) abort()                     {}
func (s *barrierSink) commit() error              { return nil }

func (s *barrierSink) encode(*batch) error {
	if s.begun.Add(1) >= InFlight {
		s.closing.Do(func() { close(s.all) })
	}
	select {
	case <-s.all:
		return nil
	case <-time.After(time.Minute):
		return errors.New("batches encoded one at a time")
	}
}

// TestEncodedAtOnce: a Writer encodes InFlight batches at the same time,
// beside the one it gathers.
func TestEncodedAtOnce(t *testing.T) {
	w := newWriter(&barrierSink{all: make(chan struct{})})
	w.maxRows = 1
	for range 2 * InFlight {
		if _, err := w.Write(rows()[0]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// failWriter fails every write after the first n bytes.
type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// TestWriteFailed: a write that fails, in any batch of those at once, is
// Close's error.
func TestWriteFailed(t *testing.T) {
	one := rows()[0]
	for _, tc := range []struct {
		name string
		w    func(io.Writer) *Writer
	}{{"arrow", NewArrow}, {"parquet", NewParquet}} {
		w := tc.w(&failWriter{n: 1000})
		var err error
		for i := 0; i < (InFlight+2)*BatchRows && err == nil; i++ {
			_, err = w.Write(one)
		}
		if err == nil {
			err = w.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: %v, want disk full", tc.name, err)
		}
	}
}

// TestParquetFailed: a Writer that fails leaves no file behind.
func TestParquetFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "links.parquet")
	w, _ := CreateParquet(path, 0)
	w.Write(rows()[0])
	w.Write([]byte{9})
	if err := w.Close(); err == nil {
		t.Fatal("Close after bad bytes: no error")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(left) > 0 {
		t.Errorf("files left: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) > 0 {
		t.Errorf("files left: %v", left)
	}
}

// TestBatches: a batch ends at BatchRows rows, and a long value makes
// one of its own; what is read back is what was written.
func TestBatches(t *testing.T) {
	doc := Doc{Source: "s"}
	long := links.Link{Ref: bytes.Repeat([]byte("x"), BatchBytes+1), Element: "img", Attribute: "src", Base: &links.Base{}}
	short := links.Link{Ref: []byte("y"), Element: "a", Attribute: "href", Base: &links.Base{}}
	var out bytes.Buffer
	w := NewArrow(&out)
	for i := range 2 * BatchRows {
		l := &short
		if i == 5 {
			l = &long
		}
		w.Write(NewRows(doc).AppendLink(nil, l, nil))
	}
	w.Close()
	rd, err := ipc.NewReader(&out)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for rd.Next() {
		sizes = append(sizes, rd.RecordBatch().NumRows())
	}
	if want := []int64{6, BatchRows, BatchRows - 6}; !equalInts(sizes, want) {
		t.Errorf("batches of %v rows, want %v", sizes, want)
	}
}

func equalInts(a, b []int64) bool {
	return len(a) == len(b) && string(arrow.Int64Traits.CastToBytes(a)) == string(arrow.Int64Traits.CastToBytes(b))
}

func FuzzWriter(f *testing.F) {
	f.Add(bytes.Join(rows(), nil))
	f.Add([]byte{1, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200})
	f.Fuzz(func(t *testing.T, data []byte) {
		w := NewArrow(io.Discard)
		w.Write(data)
		w.Close()
	})
}

// TestParquetSchema: the Parquet file's columns are Schema's, in order.
func TestParquetSchema(t *testing.T) {
	var names []string
	for _, f := range parquetSchema().Fields() {
		names = append(names, f.Name())
	}
	var want []string
	for _, f := range columns {
		want = append(want, f.Name)
	}
	if got, want := strings.Join(names, ","), strings.Join(want, ","); got != want {
		t.Errorf("Parquet columns\n%s\nArrow columns\n%s", got, want)
	}
}

// TestAppendJSONString: what encoding/json writes, with HTML escaping off,
// for every byte alone and in company, U+2028, U+2029 and bytes that are
// not UTF-8 (each a U+FFFD).
func TestAppendJSONString(t *testing.T) {
	var inputs []string
	for c := range 256 {
		inputs = append(inputs, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"bc")
	}
	inputs = append(inputs, "", "plain text", "\u2028\u2029", "caf\xc3", "\xff\xfe", "é€😀", `"quoted" \back\`, "<a>&amp;</a>")
	for _, s := range inputs {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		got := appendJSONString(nil, s)
		var gotS, wantS string
		if err := json.Unmarshal(got, &gotS); err != nil || json.Unmarshal(want.Bytes(), &wantS) != nil || gotS != wantS {
			t.Errorf("appendJSONString(%q) = %s (%v), want %s", s, got, err, want.String())
		}
		// Byte for byte but for \b and \f, which it writes as \u0008 and
		// \u000c, as encoding/json did before Go 1.22.
		if !strings.ContainsAny(s, "\b\f") && string(got)+"\n" != want.String() {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want.String())
		}
	}
}

// TestAppendLinkAllocs: encoding a link allocates nothing once the
// document's columns are encoded (valid's type switch included).
func TestAppendLinkAllocs(t *testing.T) {
	doc := Doc{Source: "http://example.org/a", Status: 200}
	rows := NewRows(doc)
	l := links.Link{Ref: []byte("b.html"), Element: "a", Attribute: "href", Base: &links.Base{URL: doc.Source, From: links.FromRetrieval}, Text: []byte("Bee")}
	url := []byte("http://example.org/b.html")
	dst := rows.AppendLink(make([]byte, 0, 4096), &l, url)
	if n := testing.AllocsPerRun(100, func() { dst = rows.AppendLink(dst[:0], &l, url) }); n != 0 {
		t.Errorf("%v allocations a link, want 0", n)
	}
}
