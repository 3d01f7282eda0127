package warc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"runtime/pprof"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// Parallel inflation of a .warc.gz. Deflate has no lengths: where a gzip
// member ends is known only once it has been decompressed to its end, so
// one member after another is one core's work. But a .warc.gz is one
// member per record, and each member starts with the bytes 1f 8b 08. So
// ahead reads the compressed file a little ahead of the Reader, and every
// runLength bytes it looks for those bytes and sets a goroutine
// decompressing from there, member after member, to runLength bytes
// further: Inflaters runs at once. That is a speculation, checked when
// the Reader reaches each offset: a member is used only if the one before
// it ended exactly there (the Reader asks for the member at the offset
// where the last one ended, and nowhere else). Bytes 1f 8b 08 that are not
// a member (inside compressed data, by chance) give nothing that is ever
// asked for.
//
// A .warc.zst is read the same way: each record is a zstd frame, which
// starts with the bytes 28 b5 2f fd, and its frames are decompressed ahead
// from where those bytes are, each checked and used exactly as a gzip
// member is. (A frame's headers give its length, but only by reading each
// frame's block headers one after another from the file's start: looking
// for the magic bytes lets every goroutine start at once.)
//
// What a speculation cannot settle is read as before, from the compressed
// bytes, one member at a time: a member that is longer than maxInflated
// decompressed or than the bytes read ahead, one that fails to decompress
// (the Reader then reports it as it always did), and whatever lies between
// members. So records, offsets, lengths and errors are the same with any
// number of inflaters; only the time differs. Memory is bounded by
// readAhead compressed bytes and about maxHeld decompressed ones.
const (
	readAhead   = 1 << 20 // compressed bytes read past what the Reader has taken
	minAhead    = 256 << 10
	runLength   = 64 << 10 // compressed bytes a goroutine decompresses, at least
	maxInflated = 1 << 20  // the largest member decompressed ahead
	maxHeld     = 16 << 20
)

// ahead sits between a Reader's file and the file's source. Until start it
// only passes reads on; then it keeps a window of the file from the
// Reader's position to readAhead past it, and inflates members found in
// it.
type ahead struct {
	src       io.Reader
	inflaters int
	on        bool

	// What a member starts with, and how one is decompressed: unpack
	// returns the member at data[0], decompressed, and the length of its
	// compressed bytes.
	magic  []byte
	unpack func(data []byte) (out []byte, n int, err error)

	// buf holds the file's bytes from offset base; cursor is the offset
	// of the next byte handed to Read's caller, and err what src said
	// after the last of buf (io.EOF at its end).
	buf    []byte
	base   int64
	cursor int64
	err    error

	// The run the Reader takes members from, and its next member.
	cur  *run
	next int

	mu      sync.Mutex
	scan    int64          // no run is started before this offset
	runs    map[int64]*run // by offset: runs not yet taken or passed
	running int            // runs under way
	held    int64          // the decompressed bytes of runs not yet passed, and maxInflated a run under way
	used    int            // members taken, for tests
}

// A run is the members decompressed one after another from an offset
// where one may start.
type run struct {
	done    chan struct{} // closed when members is set
	members []inflated
	size    int64 // their bytes, decompressed
	counted bool  // size is in held
}

// An inflated member: its bytes decompressed, and the length of its bytes
// compressed.
type inflated struct {
	at   int64
	data []byte
	n    int
}

func (a *ahead) Read(p []byte) (int, error) {
	if !a.on {
		return a.src.Read(p)
	}
	for a.cursor == a.end() {
		if a.err != nil {
			return 0, a.err
		}
		a.fill()
	}
	if a.err == nil && a.end()-a.cursor < readAhead/2 {
		a.fill()
	}
	n := copy(p, a.buf[a.cursor-a.base:])
	a.cursor += int64(n)
	return n, nil
}

func (a *ahead) end() int64 { return a.base + int64(len(a.buf)) }

// skip passes over n bytes of the window, if it holds them: those of a
// member claimed, which a run inflated from the window.
func (a *ahead) skip(n int64) bool {
	if !a.on || a.cursor+n > a.end() {
		return false
	}
	a.cursor += n
	return true
}

// start begins reading ahead. The Reader has read the file up to offset
// and holds buffered, the bytes before it that it has not used yet: they
// are looked at for members too.
func (a *ahead) start(offset int64, buffered []byte) {
	a.on = true
	a.buf = append(make([]byte, 0, len(buffered)+2*readAhead), buffered...)
	a.base = offset - int64(len(buffered))
	a.cursor, a.scan = offset, a.base
	a.runs = make(map[int64]*run)
	for a.err == nil && a.end()-a.cursor < readAhead/2 {
		a.fill() // so that runs start at the first member
	}
}

// fill reads once from src into the window, then sets inflations going.
// Only the Reader's goroutine calls it; inflations read the bytes before
// the window's end, which fill never writes again: a window that must move
// is copied into a new buffer.
func (a *ahead) fill() {
	live := a.buf[a.cursor-a.base:]
	if cap(a.buf)-len(a.buf) < minRead {
		nb := make([]byte, len(live), len(live)+2*readAhead)
		copy(nb, live)
		a.mu.Lock()
		a.buf, a.base = nb, a.cursor
		a.scan = max(a.scan, a.base)
		a.mu.Unlock()
		live = a.buf
	}
	want := max(minRead, readAhead-len(live))
	tail := a.buf[len(a.buf):min(cap(a.buf), len(a.buf)+want)]
	n, err := a.src.Read(tail)
	a.mu.Lock()
	a.buf = a.buf[:len(a.buf)+n]
	a.err = err
	a.dispatch()
	a.mu.Unlock()
}

const minRead = 64 << 10

// dispatch starts runs at the member starts after scan, while there is
// room: cores and memory. a.mu is held.
func (a *ahead) dispatch() {
	end := a.end()
	limit := end - minAhead // a run is started when this much follows it
	if a.err != nil {
		limit = end
	}
	for a.scan < limit && a.running < a.inflaters && a.held+maxInflated <= maxHeld {
		i := bytes.Index(a.buf[a.scan-a.base:], a.magic)
		if i < 0 {
			a.scan = max(a.scan, end-int64(len(a.magic)-1)) // a start may straddle the end
			return
		}
		at := a.scan + int64(i)
		if at >= limit {
			a.scan = at
			return
		}
		a.scan = at + runLength
		r := &run{done: make(chan struct{})}
		a.runs[at] = r
		a.running++
		a.held += maxInflated
		data := a.buf[at-a.base : len(a.buf) : len(a.buf)]
		go pprof.Do(context.Background(), inflateStage, func(context.Context) { a.inflate(r, at, data) })
	}
}

// inflateStage labels the inflaters' goroutines in CPU profiles.
var inflateStage = pprof.Labels("stage", "inflate")

var gzipReaders sync.Pool

// inflate decompresses the member that may start at data[0], at offset
// at, and those after it, up to the first that starts runLength bytes
// after at or later, or the first that cannot be decompressed whole.
func (a *ahead) inflate(r *run, at int64, data []byte) {
	for from := 0; from < runLength && from < len(data) && r.size < maxHeld/4; {
		out, n, err := a.unpack(data[from:])
		if err != nil {
			break
		}
		r.members = append(r.members, inflated{at + int64(from), out, n})
		r.size += int64(len(out))
		from += n
	}
	a.mu.Lock()
	a.running--
	a.held -= maxInflated
	if a.runs[at] == r {
		a.held += r.size
		r.counted = true
	}
	a.dispatch()
	a.mu.Unlock()
	close(r.done)
}

// unpackGzip decompresses the gzip member at data[0], up to maxInflated
// bytes.
func unpackGzip(data []byte) ([]byte, int, error) {
	br := bytes.NewReader(data)
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(br)
	} else {
		err = zr.Reset(br)
	}
	if err != nil {
		return nil, 0, err
	}
	defer gzipReaders.Put(zr)
	zr.Multistream(false) // one member: it ends where it ends
	out, err := readAtMost(zr, make([]byte, 0, sizeHint(data)), maxInflated)
	if err != nil {
		return nil, 0, err
	}
	// compress/flate reads a bytes.Reader byte by byte, never past the
	// member's end.
	return out, len(data) - br.Len(), nil
}

// sizeHint guesses the size of the member at b[0], decompressed: a member
// ends with its size (ISIZE, RFC 1952), so if the next member starts where
// the next magic bytes are, those are the four bytes before them.
func sizeHint(b []byte) int {
	if i := bytes.Index(b[min(len(b), len(gzipMagic)):], gzipMagic); i >= 8 {
		next := len(gzipMagic) + i
		if n := binary.LittleEndian.Uint32(b[next-4 : next]); n < maxInflated {
			return int(n) + 1 // + 1: the end is seen without growing
		}
	}
	return 32 << 10
}

// readAtMost appends r to out up to its end, failing if it holds more
// than max bytes.
func readAtMost(r io.Reader, out []byte, max int) ([]byte, error) {
	for {
		if len(out) == cap(out) {
			if len(out) > max {
				return nil, errTooLong
			}
			out = append(out, 0)[:len(out)]
		}
		n, err := r.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err == io.EOF {
			if len(out) > max {
				return nil, errTooLong
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

var errTooLong = errors.New("longer than maxInflated")

// claim returns the member at offset, decompressed, with the length of its
// compressed bytes, if a speculation there succeeded. Only the Reader's
// goroutine calls it, with offsets that only grow: runs before offset are
// dropped, as no member starts there.
func (a *ahead) claim(offset int64) (data []byte, n int, ok bool) {
	if !a.on {
		return nil, 0, false
	}
	if a.cur != nil && a.next < len(a.cur.members) && a.cur.members[a.next].at == offset {
		m := a.cur.members[a.next]
		a.next++
		a.used++
		return m.data, m.n, true
	}
	a.mu.Lock()
	for at, r := range a.runs {
		if at < offset || r == a.cur {
			a.drop(at, r)
		}
	}
	a.cur, a.next = a.runs[offset], 0
	if a.cur == nil {
		// The Reader is ahead of the runs: they start after it.
		a.scan = max(a.scan, offset+1)
		a.dispatch()
	}
	a.mu.Unlock()
	if a.cur == nil {
		return nil, 0, false
	}
	<-a.cur.done
	return a.claim(offset)
}

// drop forgets the run at offset. a.mu is held.
func (a *ahead) drop(offset int64, r *run) {
	delete(a.runs, offset)
	if r.counted {
		a.held -= r.size
		r.counted = false
	}
}
