// Package lines reads text in chunks of whole lines, in constant memory: a
// line longer than a set limit is skipped and reported, never buffered. A
// UTF-8 byte order mark at the start of the text is not part of its first
// line.
//
// A reader hands out many lines at once so that the work on them can be
// shared out; Cut takes them apart.
package lines

import (
	"bytes"
	"fmt"
	"io"
)

// MaxLength is the longest line the relurl command accepts, without its end
// of line: 1 MiB, far above any real URL, small enough to bound memory.
const MaxLength = 1 << 20

// chunkSize is how much a Reader reads at a time, and so about the size of
// a chunk of short lines.
const chunkSize = 64 << 10

// TooLongError reports a line longer than the limit. The line has been
// skipped; reading can go on.
type TooLongError struct {
	Line int // 1-based line number
	Max  int // the limit, in bytes
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("line %d: longer than %d bytes, skipped", e.Line, e.Max)
}

// bom is the UTF-8 byte order mark, U+FEFF.
var bom = []byte("\xef\xbb\xbf")

// Reader returns the lines of an io.Reader in chunks.
type Reader struct {
	r          io.Reader
	max        int
	buf        []byte
	start, end int // buf[start:end] is read and not yet returned
	line       int // lines returned so far
	err        error
	started    bool // the byte order mark has been looked for
}

// NewReader returns a Reader of r's lines that accepts lines of up to max
// bytes, not counting their end of line.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: r, max: max, buf: make([]byte, chunkSize)}
}

// Line returns the number of the last line returned, counting from 1.
func (r *Reader) Line() int { return r.line }

// Next returns the next chunk of whole lines, each with its "\n" but the
// input's last if it has none. The chunk is valid until the next call. At
// the end of the input Next returns io.EOF; where a line is longer than the
// limit, a *TooLongError in its place, and the next call goes on after it.
func (r *Reader) Next() ([]byte, error) {
	if !r.started {
		r.started = true
		for r.end-r.start < len(bom) && r.err == nil {
			r.fill()
		}
		if bytes.HasPrefix(r.buf[r.start:r.end], bom) {
			r.start += len(bom)
		}
	}
	for {
		if i := bytes.LastIndexByte(r.buf[r.start:r.end], '\n'); i >= 0 {
			chunk := r.buf[r.start : r.start+i+1]
			r.start += i + 1
			r.line += bytes.Count(chunk, []byte("\n"))
			return chunk, nil
		}
		// No whole line is buffered: at the end, the rest is the last line.
		if r.err != nil {
			if r.start == r.end {
				return nil, r.err
			}
			chunk := r.buf[r.start:r.end]
			r.start = r.end
			r.line++
			return chunk, nil
		}
		// A line that has outgrown the limit ("\r\n" aside) is skipped.
		if r.end-r.start > r.max+1 {
			r.line++
			return nil, r.skipLine()
		}
		r.fill()
	}
}

// fill reads more input after the part not yet returned, making room first.
func (r *Reader) fill() {
	n := copy(r.buf, r.buf[r.start:r.end])
	r.start, r.end = 0, n
	if r.end == len(r.buf) {
		// One line fills the buffer: grow it, up to what a line may need.
		r.buf = append(r.buf, make([]byte, min(len(r.buf), r.max+2))...)
	}
	var m int
	m, r.err = r.r.Read(r.buf[r.end:])
	r.end += m
}

// skipLine drops input up to and including the next "\n".
func (r *Reader) skipLine() error {
	tooLong := &TooLongError{Line: r.line, Max: r.max}
	for {
		if i := bytes.IndexByte(r.buf[r.start:r.end], '\n'); i >= 0 {
			r.start += i + 1
			return tooLong
		}
		r.start = r.end
		if r.err != nil {
			return tooLong
		}
		r.fill()
	}
}

// Cut returns the first line of chunk, without its "\n" or "\r\n", and the
// lines after it.
func Cut(chunk []byte) (line, rest []byte) {
	line, rest, _ = bytes.Cut(chunk, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest
}
