// Package warczstd rewrites a .warc.gz as a .warc.zst by the IIPC's
// warc-zstd proposal, for tests and benchmarks: each record one zstd
// frame, compressed with a dictionary trained on the records, which a
// leading skippable frame (magic 0x184D2A5D) holds.
package warczstd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/relurl/relurl/warc"
)

// FromGzip returns the records of the .warc.gz gz as a .warc.zst.
func FromGzip(gz []byte) ([]byte, error) {
	r := warc.NewReader(bytes.NewReader(gz))
	var records [][]byte
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		z, err := gzip.NewReader(bytes.NewReader(gz[rec.Offset : rec.Offset+rec.Length]))
		if err != nil {
			return nil, fmt.Errorf("the record at %d: %w", rec.Offset, err)
		}
		raw, err := io.ReadAll(z)
		if err != nil {
			return nil, fmt.Errorf("the record at %d: %w", rec.Offset, err)
		}
		records = append(records, raw)
	}
	var history []byte
	var samples [][]byte
	for _, rec := range records[:min(len(records), 100)] {
		history = append(history, rec[:min(len(rec), 300)]...)
		samples = append(samples, rec[:min(len(rec), 8192)])
	}
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 7, Contents: samples, History: history})
	if err != nil {
		return nil, err
	}
	out := binary.LittleEndian.AppendUint32(nil, 0x184D2A5D)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(dict)))
	out = append(out, dict...)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDict(dict), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	for _, rec := range records {
		out = enc.EncodeAll(rec, out)
	}
	return out, nil
}
