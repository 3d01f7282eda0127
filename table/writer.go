package table

import (
	"encoding/binary"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

// A record batch, and so a Parquet row group, ends at BatchRows rows or
// once its values hold BatchBytes bytes, whichever comes first: the memory
// a Writer holds. 64Ki rows of links is about 10 MB; one long link (a
// data: URL of megabytes) makes a batch of its own.
const (
	BatchRows  = 64 << 10
	BatchBytes = 32 << 20
)

// A Writer turns the rows that Rows.AppendLink encoded into batches of Schema
// and writes them: as an Arrow IPC stream (NewArrow) or as Parquet
// (NewParquet, CreateParquet). Write takes the encoded bytes in any
// pieces; Close writes what is left and ends the stream or file. A Writer
// is not safe for concurrent use: give it the rows in the order wanted.
type Writer struct {
	batch   batch
	pending []byte // the start of a row that a later Write completes
	written int64  // bytes given to Write and decoded, for FormatError
	sink    sink
	err     error
}

// A sink takes whole batches: an IPC stream, a Parquet file, a directory
// of Parquet part files. The batch is the sink's only while write runs.
type sink interface {
	write(*batch) error
	close() error
	abort() // after an error: leave nothing half written behind
}

// A batch holds rows column by column, as Arrow lays them out: for a
// string column, the values' bytes one after the other and the offset
// where each starts; for a number, the values. A null is an empty string
// or a zero, marked not valid.
type batch struct {
	maxRows int // BatchRows, or fewer for part files of fewer rows
	rows    int
	size    int // bytes of string values
	cols    [len(columns)]column
}

type column struct {
	valid   []bool
	nulls   int
	offsets []int32 // strings: rows+1 of them, from 0
	data    []byte
	ints    []int64 // numbers
}

// columns are Schema's fields, which Schema.Fields copies at each call.
var columns = [20]arrow.Field(Schema.Fields())

func (b *batch) reset() {
	b.rows, b.size = 0, 0
	for c := range b.cols {
		col := &b.cols[c]
		col.valid, col.nulls, col.data, col.ints = col.valid[:0], 0, col.data[:0], col.ints[:0]
		col.offsets = append(col.offsets[:0], 0)
	}
}

func (b *batch) full() bool { return b.rows >= b.maxRows || b.size >= BatchBytes }

func newWriter(s sink) *Writer {
	w := &Writer{sink: s}
	w.batch.maxRows = BatchRows
	w.batch.reset()
	return w
}

// Write decodes the rows in p (bytes of Rows.AppendLink, in any pieces: a row
// may begin in one Write and end in the next) and adds them to the table,
// writing a batch whenever one is full.
//
// Rows reach the Writer as bytes, not values, because the workers encode
// them and corpus.Run hands what each document printed to one writer in
// input order, in pieces; an io.Writer is what that ordered output writes
// to.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	data := p
	if len(w.pending) > 0 {
		w.pending = append(w.pending, p...)
		data = w.pending
	}
	for len(data) > 0 {
		n, ok := rowLen(data)
		if n < 0 {
			w.fail(&FormatError{Offset: w.written})
			return 0, w.err
		}
		if !ok {
			break
		}
		w.batch.add(data[:n])
		w.written += int64(n)
		data = data[n:]
		if w.batch.full() {
			if err := w.flush(); err != nil {
				return 0, err
			}
		}
	}
	w.pending = append(w.pending[:0], data...)
	return len(p), nil
}

// rowLen returns the length of the row that starts data, and whether it is
// all there; -1 if data does not start with a row. A number's varint and a
// string's uvarint length take as many bytes as a uvarint of the same
// bits, so one reading measures both.
func rowLen(data []byte) (int, bool) {
	i := 0
	for _, f := range columns {
		if i >= len(data) {
			return 0, false
		}
		tag := data[i]
		i++
		if tag == tagNull {
			continue
		}
		if tag != tagValue {
			return -1, false
		}
		n, size := binary.Uvarint(data[i:])
		switch {
		case size < 0:
			return -1, false
		case size == 0:
			return 0, false
		}
		i += size
		if f.Type.ID() == arrow.STRING {
			if n > uint64(len(data)-i) {
				return 0, false
			}
			i += int(n)
		}
	}
	return i, true
}

// add adds the row in data, which rowLen found whole.
func (b *batch) add(data []byte) {
	i := 0
	for c, f := range columns {
		col := &b.cols[c]
		tag := data[i]
		i++
		col.valid = append(col.valid, tag == tagValue)
		if tag == tagNull {
			col.nulls++
		}
		if f.Type.ID() != arrow.STRING {
			var v int64
			if tag == tagValue {
				var size int
				v, size = binary.Varint(data[i:])
				i += size
			}
			col.ints = append(col.ints, v)
			continue
		}
		if tag == tagValue {
			n, size := binary.Uvarint(data[i:])
			i += size
			col.data = append(col.data, data[i:i+int(n)]...)
			i += int(n)
			b.size += int(n)
		}
		col.offsets = append(col.offsets, int32(len(col.data)))
	}
	b.rows++
}

// string returns the value of string column c in row r.
func (b *batch) string(c, r int) []byte {
	col := &b.cols[c]
	return col.data[col.offsets[r]:col.offsets[r+1]]
}

// flush writes the rows held as a batch.
func (w *Writer) flush() error {
	if w.batch.rows == 0 {
		return nil
	}
	if err := w.sink.write(&w.batch); err != nil {
		w.fail(err)
		return err
	}
	w.batch.reset()
	return nil
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
		w.sink.abort()
	}
}

// Close writes the rows left and ends the stream or file; a file made by
// CreateParquet gets its name. Bytes of a row not ended are an error.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if len(w.pending) > 0 {
		w.fail(&FormatError{Offset: w.written})
		return w.err
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.sink.close(); err != nil {
		w.err = err
		return err
	}
	w.err = errors.New("table: Writer closed")
	return nil
}
