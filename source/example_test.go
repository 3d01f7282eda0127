package source_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/relurl/relurl/internal/faulty"
	"github.com/relurl/relurl/source"
)

func ExampleWithPrefix() {
	// The lines of Common Crawl's warc.paths.gz are relative.
	fmt.Println(source.WithPrefix("https://data.commoncrawl.org/", "crawl-data/CC-MAIN-2024-10/segments/1/warc/x.warc.gz"))
	fmt.Println(source.WithPrefix("s3://commoncrawl/", "crawl-data/CC-MAIN-2024-10/segments/1/warc/x.warc.gz"))
	fmt.Println(source.WithPrefix("s3://commoncrawl/", "https://elsewhere.example/y.warc.gz"))
	// Output:
	// https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/segments/1/warc/x.warc.gz
	// s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/1/warc/x.warc.gz
	// https://elsewhere.example/y.warc.gz
}

// A server that cuts the connection in the middle of the object: reading
// resumes with a Range request where it broke, and the reader sees the
// whole object once.
func ExampleOptions_Open() {
	archive := bytes.Repeat([]byte("WARC/1.1 ..."), 10000)
	s := faulty.New(map[string][]byte{"/a.warc.gz": archive}, faulty.Faults{CutAfter: 50000, Cuts: 1})
	defer s.Close()

	o := &source.Options{HTTP: source.HTTP{Timeout: 10 * time.Second, Retry: source.Retry{Attempts: 3, MaxWait: 10 * time.Second, Base: time.Millisecond}}}
	obj, err := o.Open(context.Background(), s.URL+"/a.warc.gz", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer obj.Close()
	got, err := io.ReadAll(obj)
	fmt.Println(bytes.Equal(got, archive), err, obj.Resumed())
	// Output: true <nil> 1
}
