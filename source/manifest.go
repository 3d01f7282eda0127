package source

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/relurl/relurl/internal/lines"
)

// Manifest yields the inputs a manifest lists, one a line, as crawls
// publish them: Common Crawl's warc.paths.gz holds paths such as
// crawl-data/CC-MAIN-2024-10/segments/.../x.warc.gz, relative to
// https://data.commoncrawl.org/ or s3://commoncrawl/. The manifest is any
// input Open takes (a file, "-", a URL, an S3 object), compressed with gzip
// or zstd or not, whatever its name. Each line is joined to prefix by
// WithPrefix; empty lines are skipped. A line too long to be a name
// (lines.MaxLength) is yielded as an error naming its number, and reading
// goes on; a manifest that cannot be read ends with an error.
func (o *Options) Manifest(ctx context.Context, name, prefix string, stdin io.Reader) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		obj, err := o.Open(ctx, name, stdin)
		if err != nil {
			yield("", err)
			return
		}
		defer obj.Close()
		r, err := Decompress(obj)
		if err != nil {
			yield("", fmt.Errorf("%s: %w", name, err))
			return
		}
		lr := lines.NewReader(r, lines.MaxLength)
		n := 0 // the number of the line last read
		for {
			chunk, err := lr.Next()
			if err == io.EOF {
				return
			}
			var long *lines.TooLongError
			if errors.As(err, &long) {
				n = long.Line
				if !yield("", fmt.Errorf("%s: %w", name, err)) {
					return
				}
				continue
			}
			if err != nil {
				yield("", fmt.Errorf("%s: line %d: %w", name, lr.Line()+1, err))
				return
			}
			for len(chunk) > 0 {
				var line []byte
				line, chunk = lines.Cut(chunk)
				n++
				switch {
				case len(line) > lines.MaxLength: // a chunk may hold one: the reader leaves the check to us
					if !yield("", fmt.Errorf("%s: %w", name, &lines.TooLongError{Line: n, Max: lines.MaxLength})) {
						return
					}
				case len(line) > 0:
					if !yield(WithPrefix(prefix, string(line)), nil) {
						return
					}
				}
			}
		}
	}
}

// WithPrefix returns name below prefix: name itself when it is a URL or an
// absolute path, or prefix is empty; else prefix and name joined by one
// "/". So WithPrefix("https://data.commoncrawl.org/", "crawl-data/x.warc.gz")
// is "https://data.commoncrawl.org/crawl-data/x.warc.gz".
func WithPrefix(prefix, name string) string {
	if prefix == "" || IsURL(name) || strings.HasPrefix(name, "/") {
		return name
	}
	return strings.TrimSuffix(prefix, "/") + "/" + name
}

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Decompress returns r decompressed when its first bytes say it is gzip
// (every member) or zstd, else r as it is.
func Decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		return gzip.NewReader(br)
	case bytes.HasPrefix(magic, zstdMagic):
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return z.IOReadCloser(), nil
	}
	return br, nil
}
