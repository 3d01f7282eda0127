package warc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// A .warc.zst file follows the IIPC's warc-zstd proposal: each record is
// one zstd frame (RFC 8878), so that a record can be fetched alone from
// its byte range, as with gzip; and the file may start with a skippable
// frame of magic 0x184D2A5D holding the dictionary the frames were
// compressed with (itself compressed with zstd or not). Decompression is
// github.com/klauspost/compress/zstd's; this file only finds where each
// frame ends, from the sizes in its frame and block headers, so that a
// record's offset and length are those of its frame as stored.

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// Skippable frames have the magics 0x184D2A50 to 0x184D2A5F; warc-zstd's
// dictionary frame is 0x184D2A5D.
const (
	skippableMask  = 0xfffffff0
	skippableMagic = 0x184d2a50
	dictMagic      = 0x184d2a5d
	// maxDict bounds a dictionary: real ones are a few hundred kilobytes.
	maxDict = 64 << 20
	// maxWindow bounds the memory a frame may ask the decoder for.
	maxWindow = 256 << 20
)

func isZstd(magic []byte) bool {
	if len(magic) < 4 {
		return false
	}
	m := binary.LittleEndian.Uint32(magic)
	return bytes.Equal(magic[:4], zstdMagic) || m&skippableMask == skippableMagic
}

// zstdFrames reads a zstd file frame by frame.
type zstdFrames struct {
	dec   *zstd.Decoder
	frame frameReader
	// ahead decompresses the frames found ahead (Reader.Inflaters), as
	// many at once as there are inflaters, each to at most maxInflated
	// bytes.
	ahead *zstd.Decoder
}

// startZstd reads the dictionary frame at the start of a zstd file, if
// there is one, and makes the decoder.
func (r *Reader) startZstd() error {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderLowmem(true)}
	head, _ := r.file.br.Peek(8)
	if len(head) == 8 && binary.LittleEndian.Uint32(head) == dictMagic {
		size := binary.LittleEndian.Uint32(head[4:])
		if size > maxDict {
			return fmt.Errorf("a dictionary of %d bytes: over the bound of %d", size, maxDict)
		}
		dict := make([]byte, 8+int(size))
		if _, err := io.ReadFull(r.file.br, dict); err != nil {
			return fmt.Errorf("the dictionary frame: %w", io.ErrUnexpectedEOF)
		}
		dict = dict[8:]
		if bytes.HasPrefix(dict, zstdMagic) {
			plain, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxDict))
			if err != nil {
				return err
			}
			dict, err = plain.DecodeAll(dict, nil)
			plain.Close()
			if err != nil {
				return fmt.Errorf("the dictionary frame: %w", err)
			}
		}
		opts = append(opts, zstd.WithDecoderDicts(dict))
	}
	dec, err := zstd.NewReader(nil, opts...)
	if err != nil {
		return fmt.Errorf("the dictionary: %w", err)
	}
	r.zst = &zstdFrames{dec: dec}
	if r.Inflaters > 1 {
		opts = append(opts, zstd.WithDecoderConcurrency(r.Inflaters), zstd.WithDecoderMaxMemory(maxInflated))
		if r.zst.ahead, err = zstd.NewReader(nil, opts...); err != nil {
			return err
		}
	}
	return nil
}

// unpack decompresses the frame at data[0], whose length its frame and
// block headers give.
func (z *zstdFrames) unpack(data []byte) ([]byte, int, error) {
	br := bytes.NewReader(data)
	f := frameReader{r: br}
	if err := f.header(); err != nil {
		return nil, 0, err
	}
	if _, err := io.Copy(io.Discard, &f); err != nil {
		return nil, 0, err
	}
	n := len(data) - br.Len()
	out, err := z.ahead.DecodeAll(data[:n], nil)
	return out, n, err
}

// open starts decompressing the frame at file's position, past any
// skippable frames.
func (z *zstdFrames) open(file *bufio.Reader) (io.Reader, error) {
	for {
		head, err := file.Peek(8)
		if len(head) < 4 {
			return nil, io.ErrUnexpectedEOF
		}
		if m := binary.LittleEndian.Uint32(head); m&skippableMask != skippableMagic {
			break
		}
		if err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		size := int64(binary.LittleEndian.Uint32(head[4:]))
		if _, err := io.CopyN(io.Discard, file, 8+size); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
	}
	z.frame = frameReader{r: file}
	if err := z.frame.header(); err != nil {
		return nil, err
	}
	if err := z.dec.Reset(&z.frame); err != nil {
		return nil, err
	}
	return z.dec, nil
}

// skip reads past the rest of the frame being read, without decompressing.
func (z *zstdFrames) skip() error {
	_, err := io.Copy(io.Discard, &z.frame)
	return err
}

// frameReader passes on the bytes of one zstd frame and no more: its
// header, each block (its 3-byte header gives its size), the checksum.
type frameReader struct {
	r       io.Reader
	pending []byte // header bytes to pass on first
	buf     [18]byte
	left    int64 // bytes of the current block's content left
	last    bool  // the current block is the frame's last
	check   bool  // the frame ends with a 4-byte checksum
	done    bool
}

var errFrame = errors.New("not a zstd frame")

// header reads the frame header (RFC 8878, 3.1.1.1) and the first block's.
func (f *frameReader) header() error {
	h := f.buf[:0]
	var b [6]byte
	if _, err := io.ReadFull(f.r, b[:5]); err != nil {
		return io.ErrUnexpectedEOF
	}
	if !bytes.Equal(b[:4], zstdMagic) {
		return errFrame
	}
	desc := b[4]
	h = append(h, b[:5]...)
	single := desc&0x20 != 0
	f.check = desc&0x04 != 0
	n := 0
	if !single {
		n++ // window descriptor
	}
	n += [4]int{0, 1, 2, 4}[desc&3]    // dictionary ID
	fcs := [4]int{0, 2, 4, 8}[desc>>6] // frame content size
	if desc>>6 == 0 && single {
		fcs = 1
	}
	n += fcs
	if desc&0x08 != 0 {
		return fmt.Errorf("%w: a reserved bit is set", errFrame)
	}
	rest := make([]byte, n)
	if _, err := io.ReadFull(f.r, rest); err != nil {
		return io.ErrUnexpectedEOF
	}
	f.pending = append(h, rest...)
	return f.block()
}

// block reads the next block header into pending.
func (f *frameReader) block() error {
	var b [3]byte
	if _, err := io.ReadFull(f.r, b[:]); err != nil {
		return io.ErrUnexpectedEOF
	}
	v := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
	f.last = v&1 != 0
	size := int64(v >> 3)
	switch (v >> 1) & 3 {
	case 1: // RLE: one byte, repeated size times
		size = 1
	case 3:
		return fmt.Errorf("%w: a reserved block type", errFrame)
	}
	f.left = size
	f.pending = append(f.pending, b[:]...)
	return nil
}

func (f *frameReader) Read(p []byte) (int, error) {
	if len(f.pending) > 0 {
		n := copy(p, f.pending)
		f.pending = f.pending[n:]
		return n, nil
	}
	if f.left == 0 {
		switch {
		case f.done:
			return 0, io.EOF
		case f.last:
			f.done = true
			if f.check {
				f.left = 4
				f.check = false
				break
			}
			return 0, io.EOF
		default:
			if err := f.block(); err != nil {
				return 0, err
			}
			return f.Read(p)
		}
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= int64(n)
	if err == io.EOF && f.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}
