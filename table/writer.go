package table

import (
	"context"
	"encoding/binary"
	"errors"
	"runtime/pprof"

	"github.com/apache/arrow-go/v18/arrow"
)

// A record batch, and so a Parquet row group, ends at BatchRows rows or
// once its values hold BatchBytes bytes, whichever comes first. 64Ki rows
// of links is about 10 MB; one long link (a data: URL of megabytes) makes
// a batch of its own.
const (
	BatchRows  = 64 << 10
	BatchBytes = 32 << 20
)

// InFlight is how many batches a Writer encodes at once while it lays out
// the next: with that one, the memory a Writer holds is InFlight+1
// batches and their encoding.
const InFlight = 2

// A Writer turns the rows that Rows.AppendLink encoded into batches of Schema
// and writes them: as an Arrow IPC stream (NewArrow) or as Parquet
// (NewParquet, CreateParquet). Write takes the encoded bytes in any
// pieces; Close writes what is left and ends the stream or file. A Writer
// is not safe for concurrent use: give it the rows in the order wanted.
//
// Write lays the rows out in columns, a batch at a time. A full batch is
// encoded (a Parquet row group's pages made and compressed, a column on
// each of its own goroutines; an Arrow record batch's arrays made) beside
// the Writer, which goes on with the next, and written once the batches
// before it are: the table is the one a single goroutine would make.
type Writer struct {
	cur     *group // the batch being laid out
	pending []byte // the start of a row that a later Write completes
	written int64  // bytes given to Write and laid out, for FormatError
	maxRows int    // BatchRows, or fewer for part files of fewer rows
	sink    sink
	flight  []*group // batches being encoded, oldest first
	free    []*group // written, to reuse
	err     error
}

// A sink takes whole batches, in order: an IPC stream, a Parquet file, a
// directory of Parquet part files.
type sink interface {
	// group begins the next batch, of rows rows, on the Writer's goroutine.
	group(rows int) (encoder, error)
	close() error
	abort() // after an error: leave nothing half written behind
}

// An encoder encodes one batch (encode, on a goroutine of its own, beside
// other batches' encoders) and writes it where its sink writes (commit,
// on the Writer's goroutine, in the order the batches were begun). The
// batch is the encoder's from encode until commit returns.
type encoder interface {
	encode(*batch) error
	commit() error
}

// A group is a batch on its way: its columns and the sink's encoder of
// them.
type group struct {
	batch batch
	enc   encoder
	done  chan struct{} // closed when encode has returned
	err   error         // encode's
}

// A batch holds rows column by column, as Arrow lays them out: for a
// string column, the values' bytes one after the other and the offset
// where each starts; for a number, the values. A null is an empty string
// or a zero, marked not valid.
type batch struct {
	rows int
	size int // bytes of string values
	cols [len(columns)]column
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

// isString says which columns are strings (the others are numbers), once:
// asking a field's type is a dynamic call, too costly for each value.
var isString = func() (is [len(columns)]bool) {
	for c, f := range columns {
		is[c] = f.Type.ID() == arrow.STRING
	}
	return is
}()

func (b *batch) reset() {
	b.rows, b.size = 0, 0
	for c := range b.cols {
		col := &b.cols[c]
		col.valid, col.nulls, col.data, col.ints = col.valid[:0], 0, col.data[:0], col.ints[:0]
		col.offsets = append(col.offsets[:0], 0)
	}
}

func newWriter(s sink) *Writer {
	w := &Writer{sink: s, maxRows: BatchRows, cur: &group{}}
	w.cur.batch.reset()
	return w
}

// Write lays out the rows in p (bytes of Rows.AppendLink, in any pieces: a
// row may begin in one Write and end in the next) and sends each batch
// that is full to be encoded and written.
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
		b := &w.cur.batch
		n := b.add(data)
		if n < 0 {
			w.fail(&FormatError{Offset: w.written})
			return 0, w.err
		}
		if n == 0 {
			break
		}
		w.written += int64(n)
		data = data[n:]
		if b.rows >= w.maxRows || b.size >= BatchBytes {
			if err := w.send(); err != nil {
				return 0, err
			}
		}
	}
	w.pending = append(w.pending[:0], data...)
	return len(p), nil
}

// add adds the row that starts data and returns its length: 0, with
// nothing added, if the row is not all there, and -1 if data does not
// start with a row.
func (b *batch) add(data []byte) int {
	i := 0
	for c := range columns {
		col := &b.cols[c]
		if i >= len(data) {
			b.unadd(c)
			return 0
		}
		tag := data[i]
		i++
		if tag == tagNull {
			col.valid = append(col.valid, false)
			col.nulls++
			if isString[c] {
				col.offsets = append(col.offsets, int32(len(col.data)))
			} else {
				col.ints = append(col.ints, 0)
			}
			continue
		}
		if tag != tagValue {
			b.unadd(c)
			return -1
		}
		// A number's varint and a string's uvarint length take as many
		// bytes as a uvarint of the same bits.
		n, size := binary.Uvarint(data[i:])
		if size <= 0 {
			b.unadd(c)
			if size < 0 { // longer than 64 bits
				return -1
			}
			return 0
		}
		if !isString[c] {
			v, _ := binary.Varint(data[i:])
			i += size
			col.valid = append(col.valid, true)
			col.ints = append(col.ints, v)
			continue
		}
		i += size
		if n > uint64(len(data)-i) {
			b.unadd(c)
			return 0
		}
		col.valid = append(col.valid, true)
		col.data = append(col.data, data[i:i+int(n)]...)
		col.offsets = append(col.offsets, int32(len(col.data)))
		b.size += int(n)
		i += int(n)
	}
	b.rows++
	return i
}

// unadd takes back the values of the row not all there that add added to
// the columns before column end.
func (b *batch) unadd(end int) {
	r := b.rows
	for c := range end {
		col := &b.cols[c]
		if !col.valid[r] {
			col.nulls--
		}
		col.valid = col.valid[:r]
		if isString[c] {
			b.size -= int(col.offsets[r+1] - col.offsets[r])
			col.offsets = col.offsets[:r+1]
			col.data = col.data[:col.offsets[r]]
		} else {
			col.ints = col.ints[:r]
		}
	}
}

// string returns the value of string column c in row r.
func (b *batch) string(c, r int) []byte {
	col := &b.cols[c]
	return col.data[col.offsets[r]:col.offsets[r+1]]
}

// send sends the batch laid out to be encoded, beside the Writer, and
// writes the oldest batches sent until no more than InFlight are being
// encoded.
func (w *Writer) send() error {
	g := w.cur
	if g.batch.rows == 0 {
		return nil
	}
	enc, err := w.sink.group(g.batch.rows)
	if err != nil {
		w.fail(err)
		return err
	}
	g.enc, g.err, g.done = enc, nil, make(chan struct{})
	go pprof.Do(context.Background(), encodeStage, func(context.Context) {
		defer close(g.done)
		g.err = g.enc.encode(&g.batch)
	})
	w.flight = append(w.flight, g)
	for len(w.flight) > InFlight {
		if err := w.commit(); err != nil {
			return err
		}
	}
	if n := len(w.free); n > 0 {
		w.cur, w.free = w.free[n-1], w.free[:n-1]
	} else {
		// A batch like the one sent, made its size at once rather than
		// grown: growing tens of megabytes copies and touches them many
		// times over.
		w.cur = &group{}
		for c := range w.cur.batch.cols {
			col, like := &w.cur.batch.cols[c], &g.batch.cols[c]
			col.valid = make([]bool, 0, len(like.valid))
			col.offsets = make([]int32, 0, len(like.offsets))
			col.data = make([]byte, 0, len(like.data))
			col.ints = make([]int64, 0, len(like.ints))
		}
	}
	w.cur.batch.reset()
	return nil
}

// encodeStage labels the CPU profile's samples of encoding, as the
// commands' other stages are (read, inflate, work, write).
var encodeStage = pprof.Labels("stage", "encode")

// commit waits for the oldest batch being encoded and writes it.
func (w *Writer) commit() error {
	g := w.flight[0]
	<-g.done
	w.flight = w.flight[1:]
	err := g.err
	if err == nil {
		err = g.enc.commit()
	}
	g.enc = nil
	w.free = append(w.free, g)
	if err != nil {
		w.fail(err)
	}
	return err
}

// fail keeps the Writer's first error and, once no batch is being
// encoded, has the sink remove what it wrote.
func (w *Writer) fail(err error) {
	if w.err != nil {
		return
	}
	w.err = err
	for _, g := range w.flight {
		<-g.done
	}
	w.flight = nil
	w.sink.abort()
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
	if err := w.send(); err != nil {
		return err
	}
	for len(w.flight) > 0 {
		if err := w.commit(); err != nil {
			return err
		}
	}
	if err := w.sink.close(); err != nil {
		w.err = err
		return err
	}
	w.err = errors.New("table: Writer closed")
	return nil
}
