// Command neturl-host is a yardstick for "relurl url -get '{host}'": the
// same filter written the obvious way with net/url, as a Go user would
// write it without relurl. It reads one URL a line and prints its
// Hostname(), or an empty line where net/url cannot parse it. It is a
// benchmark helper, not part of relurl.
package main

import (
	"bufio"
	"net/url"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	for in.Scan() {
		if u, err := url.Parse(in.Text()); err == nil {
			out.WriteString(u.Hostname())
		}
		out.WriteByte('\n')
	}
}
