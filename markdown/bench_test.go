package markdown

import (
	"testing"

	"github.com/relurl/relurl/internal/docpages"
)

// BenchmarkParse parses the 112 chapters of the Rust book (src/), 1.2 MB,
// and makes their anchors, as relurl check does for each file
// (bench/markdown.sh compares the whole command with lychee).
func BenchmarkParse(b *testing.B) {
	var files [][]byte
	n := 0
	err := docpages.Tarball("../../shared/data/markdown/rust-book-src.tar.gz", "src/", ".md", func(_ string, body []byte) error {
		files = append(files, body)
		n += len(body)
		return nil
	})
	if err != nil {
		b.Skipf("no shared data: %v", err)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, f := range files {
			Parse(f, GitHub).Anchors(GitHub)
		}
	}
}
