package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Sniff reports whether the input r starts a WARC file, by its content
// alone: "WARC/", or a gzip member or zstd frame that decompresses to it,
// or warc-zstd's dictionary frame. It returns a reader of the whole input,
// which reads on where Sniff looked.
func Sniff(r io.Reader) (*bufio.Reader, bool) {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 512 {
		br = bufio.NewReaderSize(r, 512)
	}
	prefix, _ := br.Peek(512)
	switch {
	case bytes.HasPrefix(prefix, []byte("WARC/")):
		return br, true
	case bytes.HasPrefix(prefix, gzipMagic[:2]):
		z, err := gzip.NewReader(bytes.NewReader(prefix))
		if err != nil {
			return br, false
		}
		return br, startsWARC(z)
	case len(prefix) >= 4 && isZstd(prefix):
		if len(prefix) >= 8 && uint32(prefix[0])|uint32(prefix[1])<<8|uint32(prefix[2])<<16|uint32(prefix[3])<<24 == dictMagic {
			return br, true // the signature of warc-zstd
		}
		// A zstd block may take 128 KiB before its first byte decodes.
		big := bufio.NewReaderSize(br, 256<<10)
		prefix, _ = big.Peek(256 << 10)
		z, err := zstd.NewReader(bytes.NewReader(prefix), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxWindow))
		if err != nil {
			return big, false
		}
		defer z.Close()
		return big, startsWARC(z)
	}
	return br, false
}

// CouldStart reports whether an input whose first bytes are prefix could
// start a WARC file: false when Sniff would surely say it does not, by its
// first byte alone, neither "W" nor the first of a gzip member's or a zstd
// frame's (a skippable one's too). A docs tree's pages, which start with
// "<", a byte order mark or a space, are told apart without Sniff.
func CouldStart(prefix []byte) bool {
	if len(prefix) == 0 {
		return false
	}
	// A skippable frame's first byte is 0x50 to 0x5f, "W" among them.
	c := prefix[0]
	return c == gzipMagic[0] || c == zstdMagic[0] || c&0xf0 == skippableMagic&0xf0
}

func startsWARC(r io.Reader) bool {
	var start [5]byte
	n, _ := io.ReadFull(r, start[:])
	return string(start[:n]) == "WARC/"
}
