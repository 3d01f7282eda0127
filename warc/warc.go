// Package warc reads web archives in the WARC format (ISO 28500: WARC 1.0
// and 1.1), record by record: plain, gzip or zstd (decompressed by
// github.com/klauspost/compress).
//
// A WARC file is a sequence of records, each a version line ("WARC/1.1"),
// named fields as in a MIME header (WARC-Type, WARC-Target-URI,
// Content-Length, ...), a blank line, a content block of Content-Length
// bytes, and two line ends. A file may be stored as it is (.warc) or
// compressed with gzip (.warc.gz) or zstd (.warc.zst, see zstd.go), by
// convention one gzip member or zstd frame per record, so that a record can
// be fetched alone from its byte range: the offset and length that CDX
// indexes and Common Crawl's columnar index hold. A Reader tells the kinds
// apart by their first bytes, and gives each record its byte range in the
// file as stored. A record's header is read up to MaxHeader bytes and its
// block kept up to MaxBlock, so that memory never depends on the file.
//
// Nothing readable is lost to a bad record: a malformed one (no version
// line, an unreadable field, a header over MaxHeader, no valid
// Content-Length, one that runs past its member into the next record, a
// corrupt gzip member or zstd frame) is returned as a *FormatError naming
// its offset, and the next call of Next goes on at the next record (the
// next member or frame, or in an uncompressed file the next version line).
// A file that ends inside a record gives a *FormatError wrapping
// io.ErrUnexpectedEOF, then io.EOF; one that cannot be read on (a disk, a
// network) gives a *FormatError naming the byte offset, then io.EOF.
package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// A Record is one WARC record.
type Record struct {
	Version string               // the version line, such as "WARC/1.1"
	Header  textproto.MIMEHeader // the named fields; Get takes names in any case
	// Offset and Length are the record's bytes in the file as stored:
	// in a .warc.gz, the gzip member that holds it. Length is 0 for a
	// record that shares its gzip member with others (a file compressed as
	// one stream), which no byte range holds alone.
	Offset, Length int64
	// Block is the content block, at most the Reader's MaxBlock bytes of
	// it; Cut says the block was longer and Block holds its start.
	Block []byte
	Cut   bool
}

// Type returns the record's WARC-Type: "response", "request", "resource",
// "metadata", "revisit", "warcinfo", "conversion" or "continuation".
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// TargetURI returns the record's WARC-Target-URI, without the angle
// brackets that GNU Wget writes around it.
func (r *Record) TargetURI() string {
	u := strings.TrimSpace(r.Header.Get("WARC-Target-URI"))
	if strings.HasPrefix(u, "<") && strings.HasSuffix(u, ">") {
		u = u[1 : len(u)-1]
	}
	return u
}

// A FormatError reports a record that could not be read, at the offset
// in the file as stored where it starts.
type FormatError struct {
	Offset int64
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("WARC record at offset %d: %v", e.Offset, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// DefaultMaxBlock is the largest content block a Reader keeps by default.
const DefaultMaxBlock = 64 << 20

// A Reader reads the records of a WARC file, compressed or not.
type Reader struct {
	// MaxBlock bounds the bytes of a content block kept in Record.Block;
	// 0 means DefaultMaxBlock. The rest of a longer block is read past.
	MaxBlock int64

	// MaxHeader bounds the bytes of a record's version line and named
	// fields; 0 means DefaultMaxHeader. A longer header is a *FormatError.
	MaxHeader int

	// Inflaters is how many gzip members of a .warc.gz, or zstd frames of
	// a .warc.zst, may be decompressed at once. With more than one,
	// members are found and decompressed ahead of the record being read,
	// in parallel (see inflate.go); the records, offsets and errors are
	// the same as with one, the default. It is read at the first call of
	// Next.
	Inflaters int

	file    *counter      // the file as stored
	ahead   *ahead        // between file and the source: members inflated ahead
	gz      *gzip.Reader  // the member being read, in a gzip file
	member  bytes.Reader  // or the member, inflated ahead
	claimed []byte        // its bytes
	unzip   io.Reader     // gz or &member: what is left of the member
	zst     *zstdFrames   // the frame being read, in a zstd file
	br      *bufio.Reader // the uncompressed bytes: of the member, or of the file
	at      int64         // where the member being read starts; -1 when none is
	sniff   bool          // the file's kind is known
	codec   codec
	done    bool
	header  bytes.Buffer // a record's header, read within MaxHeader
	fields  bytes.Reader // its named fields, for textproto
	fieldsR *bufio.Reader
}

// codec is how a file is stored: as it is, or in gzip members or zstd
// frames, one record (by convention) each.
type codec int

const (
	plainCodec codec = iota
	gzipCodec
	zstdCodec
)

// DefaultMaxHeader is the longest record header read by default: 1 MiB,
// far above any real one (a few hundred bytes).
const DefaultMaxHeader = 1 << 20

// NewReader returns a Reader of the WARC file r.
func NewReader(r io.Reader) *Reader {
	a := &ahead{src: r}
	src := &counting{r: a}
	return &Reader{file: &counter{br: bufio.NewReaderSize(src, 64<<10), src: src}, ahead: a, at: -1}
}

// Next returns the next record, or io.EOF after the last. A *FormatError
// reports a record that could not be read; reading can go on.
func (r *Reader) Next() (*Record, error) {
	if r.done {
		return nil, io.EOF
	}
	if !r.sniff {
		r.sniff = true
		magic, _ := r.file.br.Peek(4)
		switch {
		case bytes.HasPrefix(magic, gzipMagic[:2]):
			r.codec = gzipCodec
			r.ahead.magic, r.ahead.unpack = gzipMagic, unpackGzip
		case isZstd(magic):
			r.codec = zstdCodec
			if err := r.startZstd(); err != nil {
				r.done = true
				return nil, r.fileError(0, err)
			}
			r.ahead.magic, r.ahead.unpack = zstdMagic, r.zst.unpack
		default:
			r.br = r.file.br
		}
		if r.codec != plainCodec && r.Inflaters > 1 {
			r.ahead.inflaters = r.Inflaters
			buffered, _ := r.file.br.Peek(r.file.br.Buffered())
			r.ahead.start(r.file.src.n, buffered)
		}
	}
	if r.codec != plainCodec {
		return r.nextZipped()
	}
	if skipBlankLines(r.br) == io.EOF {
		r.done = true
		return nil, io.EOF
	}
	start := r.file.pos()
	rec, err := r.record(start)
	if err != nil {
		return nil, r.fail(start, err, r.skipToVersionLine)
	}
	skipBlankLines(r.br)
	rec.Length = r.file.pos() - start
	return rec, nil
}

// nextZipped reads the next record of a compressed file.
func (r *Reader) nextZipped() (*Record, error) {
	for r.at < 0 {
		if _, err := r.file.br.Peek(1); err == io.EOF {
			r.done = true
			return nil, io.EOF
		}
		start := r.file.pos()
		if err := r.openMember(); err != nil {
			return nil, r.fail(start, fmt.Errorf("%s: %w", r.unit(), err), func() { r.skipToMember(start) })
		}
		if skipBlankLines(r.br) == io.EOF {
			r.at = -1 // an empty member
		}
	}
	start := r.at
	rec, err := r.record(start)
	if err != nil {
		return nil, r.fail(start, err, r.skipMember)
	}
	if skipBlankLines(r.br) == io.EOF {
		// A member ends with the record: from the member it began in,
		// this is the record's byte range.
		rec.Length = r.file.pos() - start
		r.at = -1
	}
	return rec, nil
}

// unit names what holds a record in a compressed file.
func (r *Reader) unit() string {
	if r.codec == zstdCodec {
		return "zstd frame"
	}
	return "gzip member"
}

// openMember starts reading the gzip member or zstd frame at the file's
// position.
func (r *Reader) openMember() error {
	start := r.file.pos()
	bufSize := 4 << 10
	if data, n, ok := r.ahead.claim(start); ok {
		// Inflated ahead: the compressed bytes are passed over.
		r.file.skip(n, r.ahead)
		r.member.Reset(data)
		r.unzip, r.claimed = &r.member, data
		if r.zst != nil {
			r.zst.frame = frameReader{done: true} // nothing left to skip
		}
	} else if r.codec == zstdCodec {
		dec, err := r.zst.open(r.file.br)
		if err != nil {
			return err
		}
		r.unzip, bufSize = dec, 64<<10
	} else {
		var err error
		if r.gz == nil {
			r.gz, err = gzip.NewReader(r.file.br)
		} else {
			err = r.gz.Reset(r.file.br)
		}
		if err != nil {
			// What is left of the member is its failure, whichever
			// member was read before it (one inflated ahead, or not):
			// skipMember then looks for the next one.
			r.unzip = failedMember{err}
			return err
		}
		r.gz.Multistream(false) // one member at a time: each has its offset
		r.unzip = r.gz
	}
	if r.br == nil {
		r.br = bufio.NewReaderSize(r.unzip, bufSize)
	} else {
		r.br.Reset(r.unzip)
	}
	r.at = start
	return nil
}

// failedMember is a gzip member that could not be opened.
type failedMember struct{ err error }

func (f failedMember) Read([]byte) (int, error) { return 0, f.err }

// read reads len(p) bytes of a record into p, or with p nil reads past n
// bytes. A record may go on in the next gzip member: some writers cut
// members elsewhere than between records.
func (r *Reader) read(p []byte, n int64) error {
	for n > 0 {
		var m int64
		var err error
		if p != nil {
			var k int
			k, err = io.ReadFull(r.br, p[:n])
			m, p = int64(k), p[k:]
		} else {
			m, err = io.CopyN(io.Discard, r.br, n)
		}
		n -= m
		if n == 0 {
			return nil
		}
		if r.codec == plainCodec || (err != io.EOF && err != io.ErrUnexpectedEOF) {
			return io.ErrUnexpectedEOF
		}
		if _, err := r.file.br.Peek(1); err != nil {
			return io.ErrUnexpectedEOF
		}
		member := r.at
		if err := r.openMember(); err != nil {
			return err
		}
		if next, _ := r.br.Peek(5); string(next) == "WARC/" {
			// The next member starts a record: this one's
			// Content-Length runs past its end, and the next record is
			// read from the member that holds it.
			return errPastMember
		}
		r.at = member // the record's offset is where it began
	}
	return nil
}

// errPastMember is a record whose Content-Length runs past the end of its
// gzip member or zstd frame into one that starts the next record.
var errPastMember = errors.New("Content-Length runs past the end of the record's compressed member, into the next record: the record is cut")

// fail returns the error of the record at offset start, after resync
// moves to the next record; a file that ended is done.
func (r *Reader) fail(start int64, err error, resync func()) error {
	if r.file.src.err != nil {
		r.done = true
		return r.fileError(start, r.file.src.err)
	}
	if errors.Is(err, errPastMember) {
		return &FormatError{start, err} // the next record is ready
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		r.done = true
		return &FormatError{start, fmt.Errorf("the file ends inside the record: %w", io.ErrUnexpectedEOF)}
	}
	resync()
	return &FormatError{start, err}
}

// fileError is a failure to read the file itself (a disk, a network),
// which ends it: no record after it can be read.
func (r *Reader) fileError(start int64, err error) error {
	return &FormatError{start, &ReadError{r.file.pos(), err}}
}

// A ReadError is a failure to read the file itself, at the byte offset
// where it stopped, inside a FormatError naming the record: the file ends
// there, and what follows is lost.
type ReadError struct {
	Offset int64
	Err    error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("reading the file at byte offset %d: %v", e.Offset, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// record reads one record from r.br.
func (r *Reader) record(start int64) (*Record, error) {
	r.header.Reset()
	budget := r.MaxHeader
	if budget <= 0 {
		budget = DefaultMaxHeader
	}
	if err := r.headerLine(budget); err != nil {
		return nil, err
	}
	version := strings.TrimRight(r.header.String(), "\r\n")
	if !strings.HasPrefix(version, "WARC/") {
		return nil, fmt.Errorf("%.40q is not a version line (WARC/1.1)", version)
	}
	fields := r.header.Len()
	for {
		n := r.header.Len()
		if err := r.headerLine(budget); err != nil {
			return nil, fmt.Errorf("fields: %w", err)
		}
		if line := r.header.Bytes()[n:]; len(line) == 0 || line[0] == '\n' || line[0] == '\r' && len(line) > 1 && line[1] == '\n' {
			break
		}
	}
	r.fields.Reset(r.header.Bytes()[fields:])
	if r.fieldsR == nil {
		r.fieldsR = bufio.NewReader(&r.fields)
	} else {
		r.fieldsR.Reset(&r.fields)
	}
	header, err := textproto.NewReader(r.fieldsR).ReadMIMEHeader()
	if err != nil {
		if errors.Is(err, io.EOF) || r.atEnd() {
			err = io.ErrUnexpectedEOF // a line cut by the end of the file
		}
		return nil, fmt.Errorf("fields: %w", err)
	}
	length, err := strconv.ParseInt(strings.TrimSpace(header.Get("Content-Length")), 10, 64)
	if err != nil || length < 0 {
		return nil, fmt.Errorf("Content-Length %q: want a number of bytes", header.Get("Content-Length"))
	}
	max := r.MaxBlock
	if max <= 0 {
		max = DefaultMaxBlock
	}
	rec := &Record{Version: version, Header: header, Offset: start}
	if block, ok := r.inMember(min(length, max)); ok {
		rec.Block = block
	} else {
		rec.Block = make([]byte, min(length, max))
		if err := r.read(rec.Block, int64(len(rec.Block))); err != nil {
			return nil, fmt.Errorf("content block: %w", err)
		}
	}
	if length > max {
		rec.Cut = true
		if err := r.read(nil, length-max); err != nil {
			return nil, fmt.Errorf("content block: %w", err)
		}
	}
	return rec, nil
}

// inMember returns the next n bytes of the member being read, and passes
// over them, when it was inflated ahead and holds them all: they are a
// slice of it, not a copy. The Reader's goroutine is the one serial stage
// of reading an archive, and the copy was most of its work.
func (r *Reader) inMember(n int64) ([]byte, bool) {
	if r.unzip != &r.member {
		return nil, false
	}
	buffered := int64(r.br.Buffered())
	at := int64(len(r.claimed)) - int64(r.member.Len()) - buffered
	if n > int64(len(r.claimed))-at {
		return nil, false // the record goes on in the next member
	}
	if n <= buffered {
		r.br.Discard(int(n))
	} else {
		r.br.Discard(int(buffered))
		r.member.Seek(n-buffered, io.SeekCurrent)
	}
	return r.claimed[at : at+n : at+n], true
}

// headerLine appends the next line of a record's header to r.header, and
// fails when the header would grow past budget bytes.
func (r *Reader) headerLine(budget int) error {
	for {
		line, err := r.br.ReadSlice('\n')
		if r.header.Len()+len(line) > budget {
			return fmt.Errorf("the record's header is longer than %d bytes (MaxHeader)", budget)
		}
		r.header.Write(line)
		switch err {
		case nil:
			return nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if r.header.Len() == 0 || r.atEnd() {
				return io.ErrUnexpectedEOF // a line cut by the end of the file
			}
			return nil
		default:
			return err
		}
	}
}

// atEnd reports whether the file has no more bytes: what is being read
// ends (a gzip member may end early, cut), and so does the file.
func (r *Reader) atEnd() bool {
	if _, err := r.br.Peek(1); err == nil {
		return false
	}
	_, err := r.file.br.Peek(1)
	return r.codec == plainCodec || err != nil
}

// skipBlankLines reads past the line ends between records, and returns
// io.EOF at the end of the input.
func skipBlankLines(br *bufio.Reader) error {
	for {
		c, err := br.ReadByte()
		if err != nil {
			return err
		}
		if c != '\r' && c != '\n' {
			return br.UnreadByte()
		}
	}
}

// skipToVersionLine moves an uncompressed file to the next line that
// starts a record.
func (r *Reader) skipToVersionLine() {
	for {
		line, err := r.br.Peek(5)
		if err != nil {
			r.br.Discard(len(line))
			return
		}
		if string(line) == "WARC/" {
			return
		}
		if _, err := r.br.ReadSlice('\n'); err == io.EOF {
			return
		}
	}
}

// skipMember moves a compressed file past the rest of the member being
// read, or if it cannot be decompressed, to the next gzip header.
func (r *Reader) skipMember() {
	start := r.at
	r.at = -1
	if r.codec == zstdCodec {
		if err := r.zst.skip(); err != nil {
			r.skipToMember(start)
		}
		return
	}
	if _, err := io.Copy(io.Discard, r.unzip); err != nil {
		r.skipToMember(start)
	}
}

// skipToMember moves a compressed file to the next bytes that start a
// gzip member (1f 8b 08) or zstd frame, past the one that failed at start.
func (r *Reader) skipToMember(start int64) {
	r.at = -1
	if r.file.pos() == start {
		if _, err := r.file.br.ReadByte(); err != nil {
			return
		}
	}
	magic := gzipMagic
	if r.codec == zstdCodec {
		magic = zstdMagic
	}
	br := r.file.br
	for {
		b, err := br.Peek(max(br.Buffered(), len(magic)))
		if i := bytes.Index(b, magic); i >= 0 {
			r.discard(i)
			return
		}
		if err != nil {
			r.discard(len(b))
			return
		}
		r.discard(len(b) - len(magic) + 1) // a magic may begin in the last bytes
	}
}

var gzipMagic = []byte{0x1f, 0x8b, 8}

func (r *Reader) discard(n int) {
	r.file.br.Discard(n)
}

// counter reads a file through a bufio.Reader, and knows its position:
// the bytes read from the file less those still buffered. Decompressors
// read the bufio.Reader itself, which compress/flate reads byte by byte
// on its fast path, no further than the end of each gzip member.
type counter struct {
	br  *bufio.Reader
	src *counting
}

func (c *counter) pos() int64 { return c.src.n - int64(c.br.Buffered()) }

// skip passes over the n bytes of a member that a inflated ahead: those
// past what br has buffered are still in a's window, and are not copied.
func (c *counter) skip(n int, a *ahead) {
	b := c.br.Buffered()
	if n <= b {
		c.br.Discard(n)
		return
	}
	c.br.Discard(b)
	if a.skip(int64(n - b)) {
		c.src.n += int64(n - b)
	} else {
		c.br.Discard(n - b)
	}
}

// counting counts the bytes read from a file, and keeps the first error
// other than io.EOF: the file could not be read.
type counting struct {
	r   io.Reader
	n   int64
	err error
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}
