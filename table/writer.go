package table

import (
	"context"
	"encoding/binary"
	"errors"
	"runtime/pprof"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// A record batch, and so a Parquet row group, ends at BatchRows rows or
// once its values hold BatchBytes bytes, whichever comes first. 64Ki rows
// of wget's crawl's links hold about 24 MB; one long link (a data: URL of
// megabytes) makes a batch of its own.
const (
	BatchRows  = 64 << 10
	BatchBytes = 32 << 20
)

// InFlight is how many batches a Writer lays out and encodes at once
// while Write gathers the next.
const InFlight = 2

// WriterMemory is about the most memory a Writer holds, whatever the
// rows: the batch Write gathers, and InFlight+1 more, laid out and being
// encoded or kept to be reused, each at most BatchBytes of values and as
// much again for its offsets, validity and encoding.
const WriterMemory = BatchBytes + (InFlight+1)*2*BatchBytes

// A Writer turns the rows that Rows.AppendLink encoded into batches of Schema
// and writes them: as an Arrow IPC stream (NewArrow) or as Parquet
// (NewParquet, CreateParquet). Write takes the encoded bytes in any
// pieces; Close writes what is left and ends the stream or file. A Writer
// is not safe for concurrent use: give it the rows in the order wanted.
//
// Write only keeps the bytes and finds where each row ends: a batch's rows
// are laid out in columns and encoded (a Parquet row group's pages made
// and compressed, a column on each of its own goroutines; an Arrow record
// batch's arrays) on goroutines of their own, beside the batches before
// it, and written once the batches before it are: the table is the one a
// single goroutine would make.
type Writer struct {
	// The rows being gathered: whole rows in chunks, then in chunk its
	// first whole bytes, then the start of a row a later Write completes.
	chunks  [][]byte
	chunk   []byte
	whole   int
	rows    int               // whole rows gathered
	sizes   [len(columns)]int // the bytes of each string column's values in them
	size    int               // and of all of them
	written int64             // bytes of whole rows given to Write, for FormatError
	maxRows int               // BatchRows, or fewer for part files of fewer rows
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

// A group is a batch on its way: its rows' bytes, the columns they are
// laid out in, and the sink's encoder of them.
type group struct {
	chunks [][]byte
	rows   int
	sizes  [len(columns)]int
	batch  batch
	enc    encoder
	done   chan struct{} // closed when encode has returned
	err    error         // encode's
}

// A batch holds rows column by column, as Arrow lays them out: for a
// string column, the values' bytes one after the other and the offset
// where each starts; for a number, the values. A null is an empty string
// or a zero, marked not valid.
type batch struct {
	rows int
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

// layOut lays out the group's rows, which Write found whole and measured,
// in columns, each made its size at once, and lets go of their bytes.
func (b *batch) layOut(g *group) {
	b.rows = 0
	for c := range b.cols {
		col := &b.cols[c]
		col.valid = slices.Grow(col.valid[:0], g.rows)
		col.nulls = 0
		if isString[c] {
			col.offsets = append(slices.Grow(col.offsets[:0], g.rows+1), 0)
			col.data = slices.Grow(col.data[:0], g.sizes[c])
		} else {
			col.ints = slices.Grow(col.ints[:0], g.rows)
		}
	}
	for i, chunk := range g.chunks {
		for len(chunk) > 0 {
			chunk = chunk[b.add(chunk):]
		}
		putChunk(g.chunks[i])
		g.chunks[i] = nil
	}
	g.chunks = g.chunks[:0]
}

// Rows wait for their batch in chunks of chunkSize bytes (a row longer
// than that in one of its own), reused: a batch's bytes are never copied
// to grow a buffer, and memory that was touched once is touched again.
const chunkSize = 1 << 20

var chunkPool = sync.Pool{New: func() any { return new([]byte) }}

// getChunk returns an empty chunk of at least n bytes.
func getChunk(n int) []byte {
	if n > chunkSize {
		return make([]byte, 0, n)
	}
	p := chunkPool.Get().(*[]byte)
	if cap(*p) != chunkSize {
		*p = make([]byte, 0, chunkSize)
	}
	return (*p)[:0]
}

func putChunk(b []byte) {
	if cap(b) == chunkSize {
		b = b[:0]
		chunkPool.Put(&b)
	}
}

func newWriter(s sink) *Writer {
	return &Writer{sink: s, maxRows: BatchRows}
}

// Write takes the rows in p (bytes of Rows.AppendLink, in any pieces: a
// row may begin in one Write and end in the next) and sends each batch
// that is full to be laid out, encoded and written.
//
// Rows reach the Writer as bytes, not values, because the workers encode
// them and corpus.Run hands what each document printed to one writer in
// input order, in pieces; an io.Writer is what that ordered output writes
// to.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	total := len(p)
	for len(p) > 0 {
		if len(w.chunk) == cap(w.chunk) {
			w.nextChunk()
		}
		n := copy(w.chunk[len(w.chunk):cap(w.chunk)], p)
		w.chunk, p = w.chunk[:len(w.chunk)+n], p[n:]
		for {
			n, size := rowLen(w.chunk[w.whole:], &w.sizes)
			if n < 0 {
				w.fail(&FormatError{Offset: w.written})
				return 0, w.err
			}
			if n == 0 {
				break
			}
			w.whole += n
			w.written += int64(n)
			w.rows++
			w.size += size
			if w.rows >= w.maxRows || w.size >= BatchBytes {
				if err := w.send(); err != nil {
					return 0, err
				}
			}
		}
	}
	return total, nil
}

// nextChunk begins a chunk, the one being filled being full: its whole
// rows wait in chunks, and the start of the row after them moves to the
// new one, which is twice that row's start if that is more than a chunk.
func (w *Writer) nextChunk() {
	rest := w.chunk[w.whole:]
	next := append(getChunk(2*len(rest)), rest...)
	if w.whole > 0 {
		w.chunks = append(w.chunks, w.chunk[:w.whole])
	} else {
		putChunk(w.chunk)
	}
	w.chunk, w.whole = next, 0
}

// rowLen returns the length of the row that starts data, and the bytes of
// its string values, which it adds to sizes by column: 0 if the row is not
// all there, -1 if data does not start with a row. A number's varint and
// a string's uvarint length take as many bytes as a uvarint of the same
// bits, so one reading measures both.
func rowLen(data []byte, sizes *[len(columns)]int) (n, size int) {
	var lens [len(columns)]int
	i := 0
	for c := range columns {
		if i >= len(data) {
			return 0, 0
		}
		tag := data[i]
		i++
		if tag == tagNull {
			continue
		}
		if tag != tagValue {
			return -1, 0
		}
		v, k := binary.Uvarint(data[i:])
		switch {
		case k < 0:
			return -1, 0
		case k == 0:
			return 0, 0
		}
		i += k
		if isString[c] {
			if v > uint64(len(data)-i) {
				return 0, 0
			}
			i += int(v)
			lens[c] = int(v)
			size += int(v)
		}
	}
	for c, n := range lens {
		sizes[c] += n
	}
	return i, size
}

// add adds the row that starts data, which rowLen found whole, and returns
// its length.
func (b *batch) add(data []byte) int {
	i := 0
	for c := range columns {
		col := &b.cols[c]
		tag := data[i]
		i++
		valid := tag == tagValue
		col.valid = append(col.valid, valid)
		if !valid {
			col.nulls++
		}
		if !isString[c] {
			var v int64
			if valid {
				var k int
				v, k = binary.Varint(data[i:])
				i += k
			}
			col.ints = append(col.ints, v)
			continue
		}
		if valid {
			n, k := binary.Uvarint(data[i:])
			i += k
			col.data = append(col.data, data[i:i+int(n)]...)
			i += int(n)
		}
		col.offsets = append(col.offsets, int32(len(col.data)))
	}
	b.rows++
	return i
}

// string returns the value of string column c in row r.
func (b *batch) string(c, r int) []byte {
	col := &b.cols[c]
	return col.data[col.offsets[r]:col.offsets[r+1]]
}

// send sends the whole rows gathered, as a batch, to be laid out and
// encoded beside the Writer, and writes the oldest batches sent until no
// more than InFlight are being encoded.
func (w *Writer) send() error {
	if w.rows == 0 {
		return nil
	}
	enc, err := w.sink.group(w.rows)
	if err != nil {
		w.fail(err)
		return err
	}
	g := &group{}
	if n := len(w.free); n > 0 {
		g, w.free = w.free[n-1], w.free[:n-1]
	}
	g.chunks = append(append(g.chunks, w.chunks...), w.chunk[:w.whole])
	g.rows, g.sizes, g.enc, g.err, g.done = w.rows, w.sizes, enc, nil, make(chan struct{})
	// The start of a row not yet whole begins the next batch's rows.
	w.chunk = append(getChunk(len(w.chunk)-w.whole), w.chunk[w.whole:]...)
	clear(w.chunks)
	w.chunks, w.whole, w.rows, w.sizes, w.size = w.chunks[:0], 0, 0, [len(columns)]int{}, 0
	go pprof.Do(context.Background(), encodeStage, func(context.Context) {
		defer close(g.done)
		g.batch.layOut(g)
		g.err = g.enc.encode(&g.batch)
	})
	w.flight = append(w.flight, g)
	for len(w.flight) > InFlight {
		if err := w.commit(); err != nil {
			return err
		}
	}
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
	if w.whole < len(w.chunk) {
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
