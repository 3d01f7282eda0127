package table

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewArrow returns a Writer of an Arrow IPC stream (the "streaming
// format") to out: pyarrow.ipc.open_stream, DuckDB's and Polars' readers
// take it from a pipe. Each batch is a record batch.
func NewArrow(out io.Writer) *Writer {
	return newWriter(&streamSink{w: ipc.NewWriter(out, ipc.WithSchema(Schema))})
}

type streamSink struct {
	w *ipc.Writer
}

// An arrowGroup is a batch as a record batch, which lends the batch's own
// buffers to its arrays, without a copy.
type arrowGroup struct {
	sink *streamSink
	rec  arrow.RecordBatch
}

func (s *streamSink) group(int) (encoder, error) { return &arrowGroup{sink: s}, nil }

func (g *arrowGroup) encode(b *batch) error {
	var arrays [len(columns)]arrow.Array
	for c, f := range columns {
		col := &b.cols[c]
		validity := validityBitmap(col)
		var data arrow.ArrayData
		switch f.Type.ID() {
		case arrow.STRING:
			data = array.NewData(f.Type, b.rows, []*memory.Buffer{validity,
				memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(col.offsets)),
				memory.NewBufferBytes(col.data)}, nil, col.nulls, 0)
		case arrow.INT32:
			ints := make([]int32, len(col.ints))
			for i, v := range col.ints {
				ints[i] = int32(v)
			}
			data = array.NewData(f.Type, b.rows, []*memory.Buffer{validity,
				memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(ints))}, nil, col.nulls, 0)
		default:
			data = array.NewData(f.Type, b.rows, []*memory.Buffer{validity,
				memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(col.ints))}, nil, col.nulls, 0)
		}
		arrays[c] = array.MakeFromData(data)
		data.Release()
	}
	g.rec = array.NewRecordBatch(Schema, arrays[:], int64(b.rows))
	for _, a := range arrays {
		a.Release()
	}
	return nil
}

// commit writes the record batch to the stream: the IPC writer has
// written the batch's buffers when it returns.
func (g *arrowGroup) commit() error {
	err := g.sink.w.Write(g.rec)
	g.rec.Release()
	g.rec = nil
	return err
}

// validityBitmap is Arrow's validity bitmap of a column, nil when it has
// no null.
func validityBitmap(col *column) *memory.Buffer {
	if col.nulls == 0 {
		return nil
	}
	bits := make([]byte, bitutil.BytesForBits(int64(len(col.valid))))
	for i, ok := range col.valid {
		if ok {
			bitutil.SetBit(bits, i)
		}
	}
	return memory.NewBufferBytes(bits)
}

func (s *streamSink) close() error { return s.w.Close() }
func (s *streamSink) abort()       { s.w.Close() }
