package warc_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/relurl/relurl/warc"
)

// Reading the records of an archive: their types, targets and byte ranges.
func ExampleReader() {
	archive := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: <http://example.org/>\r\n" +
		"Content-Type: text/html\r\nContent-Length: 17\r\n\r\n<a href=\"x\">x</a>\r\n\r\n"
	r := warc.NewReader(strings.NewReader(archive))
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Print(err) // a malformed record: the next is read
			continue
		}
		fmt.Println(rec.Type(), rec.TargetURI(), rec.Offset, rec.Length, rec.Header.Get("Content-Type"))
	}
	// Output:
	// resource http://example.org/ 0 139 text/html
}
