package table

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/relurl/relurl/internal/safefile"
)

// parquetRow gives the Parquet file its schema: Schema's columns in the
// same order, each optional, and dictionary encoding ("dict") for the
// columns whose values repeat from row to row (a page's source and base
// and its record's fields; the few names of elements, attributes and
// base layers), not for those that mostly differ (url, ref, text). Values
// are never read from it: batches are written column by column.
type parquetRow struct {
	URL              *string `parquet:"url,optional"`
	URLBase64        *string `parquet:"url_base64,optional"`
	Error            *string `parquet:"error,optional,dict"`
	Ref              *string `parquet:"ref,optional"`
	RefBase64        *string `parquet:"ref_base64,optional"`
	Base             *string `parquet:"base,optional,dict"`
	BaseFrom         *string `parquet:"base_from,optional,dict"`
	Element          *string `parquet:"element,optional,dict"`
	Attribute        *string `parquet:"attribute,optional,dict"`
	Rel              *string `parquet:"rel,optional,dict"`
	Text             *string `parquet:"text,optional"`
	Part             *string `parquet:"part,optional,dict"`
	Source           *string `parquet:"source,optional,dict"`
	Status           *int32  `parquet:"status,optional"`
	WARCFilename     *string `parquet:"warc_filename,optional,dict"`
	WARCRecordOffset *int64  `parquet:"warc_record_offset,optional"`
	WARCRecordLength *int64  `parquet:"warc_record_length,optional"`
	WARCRecordID     *string `parquet:"warc_record_id,optional,dict"`
	WARCDate         *string `parquet:"warc_date,optional,dict"`
	Truncated        *string `parquet:"truncated,optional,dict"`
}

// parquetSchema is made at first use: the reflection it takes is no cost
// of a run that writes no Parquet.
var parquetSchema = sync.OnceValue(func() *parquet.Schema { return parquet.SchemaOf(parquetRow{}) })

// valueChunk is how many values of a column go to parquet-go at once.
const valueChunk = 1024

// NewParquet returns a Writer of one Parquet file to out, written from
// start to end (out need not seek: a pipe will do), compressed with zstd.
// Each batch is a row group.
func NewParquet(out io.Writer) *Writer {
	return newWriter(newParquetSink(out, nil))
}

// newParquetSink writes each column chunk's statistics and the page
// index (each page's bounds and nulls), which readers skip row groups and
// pages by, but not the statistics in each page's header, which the page
// index replaced (parquet-format's PageIndex.md): parquet-go computes a
// page's bounds again for them, and that was 7% of the encoding.
func newParquetSink(out io.Writer, file *safefile.File) *parquetSink {
	w := parquet.NewGenericWriter[any](out, parquetSchema(),
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.CreatedBy("relurl", "", ""),
		parquet.DataPageStatistics(false))
	return &parquetSink{w: w, file: file}
}

type parquetSink struct {
	w    *parquet.GenericWriter[any]
	file *safefile.File  // when the sink owns the file
	free []*parquetGroup // row groups committed, to reuse
}

// A parquetGroup is a row group being encoded: parquet-go's writer of a
// row group that can be made beside others and committed in order.
type parquetGroup struct {
	sink   *parquetSink
	rg     *parquet.ConcurrentRowGroupWriter
	values [len(columns)][]parquet.Value
}

func (s *parquetSink) group(int) (encoder, error) {
	if n := len(s.free); n > 0 {
		g := s.free[n-1]
		s.free = s.free[:n-1]
		return g, nil
	}
	return &parquetGroup{sink: s, rg: s.w.BeginRowGroup()}, nil
}

// encode encodes the batch as the row group's pages, its columns in
// parallel: each column's encoding and compression is a job of its own.
func (g *parquetGroup) encode(b *batch) error {
	writers := g.rg.ColumnWriters()
	errs := make([]error, len(columns))
	var wg sync.WaitGroup
	for c := range columns {
		wg.Go(func() {
			// In chunks: a parquet.Value holds a pointer, and a batch's
			// worth of them would keep the garbage collector busy.
			values := g.values[c]
			for r := 0; r < b.rows && errs[c] == nil; r += valueChunk {
				values = appendValues(values[:0], b, c, r, min(r+valueChunk, b.rows))
				_, errs[c] = writers[c].WriteRowValues(values)
			}
			clear(values[:cap(values)]) // let go of the batch's bytes
			g.values[c] = values[:0]
			if errs[c] == nil {
				// The last page too, here rather than in commit.
				errs[c] = writers[c].Flush()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// appendValues appends the values of column c in rows from to to.
// Making a parquet.Value (Value.Level is not inlined) costs more than
// comparing a string with the one before it, which in a column of the
// document's (source, the WARC record's) is most often the same: its
// value is then used again.
func appendValues(values []parquet.Value, b *batch, c, from, to int) []parquet.Value {
	col := &b.cols[c]
	null := parquet.NullValue().Level(0, 0, c)
	switch kind := columns[c].Type.ID(); {
	case kind == arrow.STRING:
		var last []byte
		var lastValue parquet.Value
		for r := from; r < to; r++ {
			if !col.valid[r] {
				values = append(values, null)
				continue
			}
			s := b.string(c, r)
			if r == from || len(s) != len(last) || string(s) != string(last) {
				last, lastValue = s, parquet.ByteArrayValue(s).Level(0, 1, c)
			}
			values = append(values, lastValue)
		}
	case kind == arrow.INT32:
		for r := from; r < to; r++ {
			if col.valid[r] {
				values = append(values, parquet.Int32Value(int32(col.ints[r])).Level(0, 1, c))
			} else {
				values = append(values, null)
			}
		}
	default:
		for r := from; r < to; r++ {
			if col.valid[r] {
				values = append(values, parquet.Int64Value(col.ints[r]).Level(0, 1, c))
			} else {
				values = append(values, null)
			}
		}
	}
	return values
}

// commit writes the row group's pages to the file.
func (g *parquetGroup) commit() error {
	_, err := g.rg.Commit()
	g.sink.free = append(g.sink.free, g)
	return err
}

func (s *parquetSink) close() error {
	err := s.w.Close()
	if s.file == nil {
		return err
	}
	if err != nil {
		s.file.Abort()
		return fmt.Errorf("writing %s: %w", s.file.Name(), err)
	}
	if err := s.file.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", s.file.Name(), err)
	}
	return nil
}

func (s *parquetSink) abort() {
	s.w.Close()
	if s.file != nil {
		s.file.Abort()
	}
}

// CreateParquet returns a Writer of Parquet to path. With partRows 0, path
// is one file; otherwise it is a directory (made if missing) of part files
// part-00000.parquet, part-00001.parquet, … of at most partRows rows each,
// as Spark writes a table, and an empty file _SUCCESS written last, once
// every part is whole, as Hadoop and Spark mark a table complete: a
// reader requires it, since a run that was stopped leaves the parts it
// finished. A file appears under its name only once it is whole: until
// then it is written as a hidden temporary file beside it, removed if the
// Writer fails (package safefile).
func CreateParquet(path string, partRows int64) (*Writer, error) {
	if partRows <= 0 {
		f, err := safefile.Create(path)
		if err != nil {
			return nil, err
		}
		return newWriter(newParquetSink(f, f)), nil
	}
	if err := os.MkdirAll(path, 0o777); err != nil {
		return nil, err
	}
	existing, _ := filepath.Glob(filepath.Join(path, "part-*.parquet"))
	if _, err := os.Lstat(filepath.Join(path, SuccessFile)); err == nil {
		existing = append(existing, filepath.Join(path, SuccessFile))
	}
	if len(existing) > 0 {
		return nil, fmt.Errorf("%s already holds a table (%s): give an empty or new directory", path, filepath.Base(existing[0]))
	}
	w := newWriter(&partsSink{dir: path, max: partRows})
	w.maxRows = int(min(partRows, BatchRows))
	return w, nil
}

// partsSink writes a directory of part files, each at most max rows.
type partsSink struct {
	dir  string
	max  int64
	n    int   // part files begun
	rows int64 // rows in the current one
	cur  *parquetSink
	open []*parquetSink // parts begun and not yet closed, the current one last
}

// A partGroup is a row group that begins a part file: the part before it
// is closed, once its last row group is written, as this one is
// committed.
type partGroup struct {
	encoder
	s    *partsSink
	prev *parquetSink
}

func (g *partGroup) commit() error {
	if err := g.s.closePart(g.prev); err != nil {
		return err
	}
	return g.encoder.commit()
}

func (s *partsSink) group(rows int) (encoder, error) {
	// A batch never spans two parts: Writer keeps batches at most max rows.
	if s.cur != nil && s.rows+int64(rows) <= s.max {
		s.rows += int64(rows)
		return s.cur.group(rows)
	}
	prev := s.cur
	if err := s.next(); err != nil {
		return nil, err
	}
	s.rows = int64(rows)
	enc, err := s.cur.group(rows)
	if err != nil || prev == nil {
		return enc, err
	}
	return &partGroup{encoder: enc, s: s, prev: prev}, nil
}

// next begins the next part file.
func (s *partsSink) next() error {
	f, err := safefile.Create(filepath.Join(s.dir, fmt.Sprintf("part-%05d.parquet", s.n)))
	if err != nil {
		return err
	}
	s.cur = newParquetSink(f, f)
	s.open = append(s.open, s.cur)
	s.n++
	return nil
}

// closePart ends part p, which the Writer has written all of.
func (s *partsSink) closePart(p *parquetSink) error {
	s.open = slices.DeleteFunc(s.open, func(q *parquetSink) bool { return q == p })
	return p.close()
}

// SuccessFile is the file that marks a directory of part files complete.
const SuccessFile = "_SUCCESS"

func (s *partsSink) close() error {
	if s.cur == nil {
		// No row at all: one empty part, so that the table and its schema
		// exist for its reader.
		if err := s.next(); err != nil {
			return err
		}
	}
	if err := s.closePart(s.cur); err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(s.dir, SuccessFile), nil)
}

func (s *partsSink) abort() {
	for _, p := range s.open {
		p.abort()
	}
	s.open = nil
}
