// Command neturl-resolve is the yardstick for "relurl resolve -pairs": the
// same filter written the obvious way with net/url, as a user would write it
// without relurl. It reads lines "BASE<TAB>REF" and prints
// base.ResolveReference(ref) for each, or an empty line where net/url cannot
// parse one of the two. It is a benchmark helper, not part of relurl.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	var (
		lastBase string
		base     *url.URL
		baseErr  error
	)
	for in.Scan() {
		b, r, _ := bytes.Cut(bytes.TrimSuffix(in.Bytes(), []byte("\r")), []byte("\t"))
		if string(b) != lastBase || base == nil {
			lastBase = string(b)
			base, baseErr = url.Parse(lastBase)
		}
		ref, err := url.Parse(string(r))
		if baseErr == nil && err == nil {
			out.WriteString(base.ResolveReference(ref).String())
		}
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "neturl-resolve:", err)
		os.Exit(1)
	}
}
