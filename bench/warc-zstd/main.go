// Command warc-zstd rewrites a .warc.gz as a .warc.zst, one zstd frame a
// record with a trained dictionary (package internal/warczstd), for the
// benchmarks of .warc.zst archives.
//
//	go run ./bench/warc-zstd IN.warc.gz OUT.warc.zst
package main

import (
	"fmt"
	"os"

	"github.com/relurl/relurl/internal/safefile"
	"github.com/relurl/relurl/internal/warczstd"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: warc-zstd IN.warc.gz OUT.warc.zst")
		os.Exit(2)
	}
	gz, err := os.ReadFile(os.Args[1])
	if err == nil {
		var zst []byte
		if zst, err = warczstd.FromGzip(gz); err == nil {
			err = safefile.WriteFile(os.Args[2], zst)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "warc-zstd:", err)
		os.Exit(1)
	}
}
