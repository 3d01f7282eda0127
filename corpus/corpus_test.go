package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/faulty"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/source"
)

func TestCounts(t *testing.T) {
	for in, want := range map[string]bool{
		"a.html": true, "A.HTM": true, "x.xhtml": true, "m.eml": true, "s.mht": true, "s.mhtml": true,
		"crawl.warc": true, "crawl.warc.gz": true, "notes.txt": true, "notes.pdf": false, "README.md": true, "sitemap.xml.gz": true, "x.gz": false, "html": false,
	} {
		if got := counts(in); got != want {
			t.Errorf("counts(%q) = %v", in, got)
		}
	}
}

// A file below a mapped directory gets the URL and its path, escaped; the
// deepest directory wins; other files get none.
func TestRetrieval(t *testing.T) {
	var o Options
	for _, s := range []string{"docs=https://ex.org/d/", "docs/api=https://api.ex.org"} {
		m, err := source.ParseMap(s)
		if err != nil {
			t.Fatal(err)
		}
		o.Maps = append(o.Maps, m)
	}
	for in, want := range map[string]string{
		"docs/a.html":            "https://ex.org/d/a.html",
		"docs/sub/b c.html":      "https://ex.org/d/sub/b%20c.html",
		"./docs/x/../y.html":     "https://ex.org/d/y.html",
		"docs/api/v1/index.html": "https://api.ex.org/v1/index.html",
		"docsx/a.html":           "",
		"../docs/a.html":         "",
	} {
		if got := o.retrieval(in); got != want {
			t.Errorf("retrieval(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"docs", "=https://x/", "docs=relative/"} {
		if _, err := source.ParseMap(bad); err == nil {
			t.Errorf("source.ParseMap(%q) accepted", bad)
		}
	}
}

// Docs walks inputs in order, directories in lexical order, and Run hands
// the links out in that order whatever the number of workers.
func TestDocsAndRun(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		name := filepath.Join(dir, fmt.Sprintf("d%d", i%3), fmt.Sprintf("p%02d.html", i))
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte(strings.Repeat(fmt.Sprintf(`<a href="%d">`, i), i)), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "skip.pdf"), nil, 0o644)
	o := &Options{Maps: []source.Map{{Dir: dir, URL: "http://h/"}}}
	// Two cores: one worker leaves one to read ahead on, two take both,
	// and read the small files themselves.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	readLater := 0
	run := func(workers int) (string, Stats) {
		readLater = 0
		var out strings.Builder
		var stats Stats
		inputs := slices.Values([]string{dir})
		docs := o.Run(o.Docs(context.Background(), inputs), workers, links.Options{},
			func(d *Doc, o *Output) *links.Handler {
				return &links.Handler{Link: func(l *links.Link) error {
					o.Out = fmt.Appendf(o.Out, "%s %s\n", d.Source, l.URL)
					return nil
				}}
			}, func(printed, _ []byte) bool { out.Write(printed); return true })
		for d := range docs {
			stats.Add(d)
			if d.small {
				readLater++
			}
		}
		return out.String(), stats
	}
	one, stats := run(1)
	if readLater != 0 {
		t.Errorf("1 worker of 2 cores: %d files read by the worker, want 0", readLater)
	}
	for _, workers := range []int{2, 4} {
		if got, _ := run(workers); got != one {
			t.Errorf("%d workers give another output than 1", workers)
		}
		if readLater != 30 {
			t.Errorf("%d workers on 2 cores: %d files read by the workers, want 30", workers, readLater)
		}
	}
	var want strings.Builder // lexical order: d0/p00, d0/p03, …, d1/p01, …
	for d := range 3 {
		for i := d; i < 30; i += 3 {
			for range i {
				fmt.Fprintf(&want, "http://h/d%d/p%02d.html http://h/d%d/%d\n", d, i, d, i)
			}
		}
	}
	if one != want.String() {
		t.Errorf("output is not in lexical order of the files")
	}
	if stats.Documents != 30 || stats.Links != 435 || stats.Skipped[".pdf"] != 1 {
		t.Errorf("stats %s", &stats)
	}
	// Breaking out of the loop stops the run, at once.
	seen := 0
	for range o.Run(o.Docs(context.Background(), slices.Values([]string{dir})), 4, links.Options{},
		func(*Doc, *Output) *links.Handler {
			return &links.Handler{Link: func(*links.Link) error { return nil }}
		}, func(_, _ []byte) bool { return true }) {
		if seen++; seen == 3 {
			break
		}
	}
	if seen != 3 {
		t.Errorf("the run went on after break: %d documents", seen)
	}
	// The files its 4 workers were to read are closed, read or not.
	deadline := time.Now().Add(5 * time.Second)
	for later.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := later.Load(); n != 0 {
		t.Errorf("%d files left open by a run stopped early", n)
	}
}

// TestURLs reads a page and an archive by URL with the zero Options (no
// timeout), and names the inputs that fail.
func TestURLs(t *testing.T) {
	record := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/x/\r\nContent-Type: text/html\r\nContent-Length: 15\r\n\r\n<a href=y.html>\r\n\r\n"
	s := faulty.New(map[string][]byte{
		"/page.html": []byte(`<a href="next.html">`),
		"/archive":   []byte(record),
		"/x.warc.gz": nil,
		"/i.png":     []byte("\x89PNG"),
	}, faulty.Faults{})
	defer s.Close()
	o := &Options{HTTP: source.HTTP{Retry: source.Retry{Attempts: 1, MaxWait: time.Second, Base: time.Millisecond}}}
	var got []string
	var stats Stats
	for d := range o.Run(o.Docs(context.Background(), slices.Values([]string{s.URL + "/page.html", s.URL + "/archive", s.URL + "/i.png", s.URL + "/x.warc.gz", s.URL + "/none", "ftp://h/x"})), 2,
		links.Options{},
		func(d *Doc, out *Output) *links.Handler {
			return &links.Handler{Link: func(l *links.Link) error {
				out.Out = fmt.Appendf(out.Out, "%s %s\n", d.Source, l.URL)
				return nil
			}}
		},
		func(out, _ []byte) bool {
			for line := range strings.Lines(string(out)) {
				got = append(got, strings.TrimSuffix(line, "\n"))
			}
			return true
		},
	) {
		stats.Add(d)
		if d.Err != nil {
			got = append(got, "error: "+d.Err.Error())
		}
	}
	// A page that is not HTML gives no links, and is counted as a payload.
	if want := "2 documents (a WARC record)"; !strings.HasPrefix(stats.String(), "2 documents") || stats.Skipped["payload"] != 1 || stats.Failed != 3 {
		t.Errorf("stats %s, want %s…, payload 1, 3 failed", &stats, want)
	}
	want := []string{
		s.URL + "/page.html " + s.URL + "/next.html",
		"http://a.example/x/ http://a.example/x/y.html",
		"error: " + s.URL + "/x.warc.gz: not a WARC archive: it is empty",
		"error: GET " + s.URL + "/none: 404 Not Found",
		"error: ftp://h/x: the ftp scheme is not supported: give a file, - or an http, https or s3 URL",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestStatsString(t *testing.T) {
	tests := []struct {
		s    Stats
		want string
	}{
		{Stats{Documents: 1, Links: 1, Bytes: 100000}, "1 document, 1 link, 0.1 MB"},
		{Stats{Documents: 1, Records: 1, Links: 0}, "1 document (a WARC record), 0 links, 0.0 MB"},
		{Stats{Documents: 2, Records: 2, Links: 5, Failed: 1, Skipped: map[string]int{"request": 2, ".md": 1}}, "2 documents (2 of them WARC records), 5 links, 0.0 MB, 1 failed; skipped, giving no links: .md 1, request 2"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}

// Validate names the field that cannot work, and passes the zero Options
// and every default.
func TestOptionsValidate(t *testing.T) {
	for _, tt := range []struct {
		o     Options
		field string // "" for valid
	}{
		{Options{}, ""},
		{Options{MaxSize: 1, Files: "m", Prefix: "p/", URL: "http://a/", HTTP: source.HTTP{MaxRedirects: 0, Timeout: 0}}, ""},
		{Options{MaxSize: -1}, "MaxSize"},
		{Options{HTTP: source.HTTP{MaxRedirects: -1, Timeout: -time.Second}}, ""}, // none, and no bound
		{Options{HTTP: source.HTTP{Retry: source.Retry{Attempts: -1}}}, "Retry.Attempts"},
		{Options{HTTP: source.HTTP{Retry: source.Retry{MaxWait: -time.Second}}}, "Retry.MaxWait"},
		{Options{Inflaters: -2}, "Inflaters"},
		{Options{Prefix: "p/"}, "Prefix"},
		{Options{URL: "a/b.html"}, "URL"},
	} {
		err := tt.o.Validate()
		var oe *OptionError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%+v: %v, want valid", tt.o, err)
		case tt.field != "" && (!errors.As(err, &oe) || oe.Field != tt.field):
			t.Errorf("%+v: %v, want an *OptionError for %s", tt.o, err, tt.field)
		case tt.field != "" && !strings.HasPrefix(err.Error(), "corpus: "+tt.field+" "):
			t.Errorf("%+v: %q does not name %s first", tt.o, err, tt.field)
		}
	}
}

// With Concurrent, Docs reads several inputs at once and yields the same
// documents in the same order; a consumer that stops early leaves no
// reader behind, and the documents read ahead are closed.
func TestDocsReadAhead(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for d := range 4 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", d))
		os.MkdirAll(sub, 0o755)
		for i := range 20 {
			os.WriteFile(filepath.Join(sub, fmt.Sprintf("p%02d.html", i)), []byte(`<a href="x">`), 0o644)
		}
		inputs = append(inputs, sub)
	}
	inputs = append(inputs, filepath.Join(dir, "missing.html"), filepath.Join(dir, "d1", "p03.html"))
	names := func(concurrent, stopAfter int) []string {
		o := &Options{Concurrent: concurrent, Maps: []source.Map{{Dir: filepath.Join(dir, "d2"), URL: "http://h/"}, {Dir: filepath.Join(dir, "none"), URL: "http://n/"}}}
		var got []string
		for d := range o.Docs(context.Background(), slices.Values(inputs)) {
			got = append(got, fmt.Sprintf("%s %s %v %v", d.Name, d.URL, d.Err != nil, d.Warning != nil))
			d.release()
			if len(got) == stopAfter {
				break
			}
		}
		return got
	}
	one := names(1, -1)
	if len(one) != 4*20+2+1 { // and the unused map's warning
		t.Fatalf("%d documents: %q", len(one), one)
	}
	for _, c := range []int{2, 3, 8} {
		if got := names(c, -1); !slices.Equal(got, one) {
			t.Errorf("Concurrent %d: other documents, or another order:\n%q\nwant\n%q", c, got, one)
		}
	}
	before := runtime.NumGoroutine()
	for range 20 {
		names(4, 5)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after runs stopped early, %d before", n, before)
	}
}

// At most maxLater small files are left open for the workers to read at
// once: those after them are read whole as they are found, and each left
// open is closed once done with. A WARC archive, read as it is found, and
// a file that is no document take none of them.
func TestReadLaterBound(t *testing.T) {
	dir := t.TempDir()
	for i := range maxLater + 20 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%04d.html", i)), []byte(`<a href="x">`), 0o644)
	}
	record := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/x/\r\nContent-Type: text/html\r\nContent-Length: 15\r\n\r\n<a href=y.html>\r\n\r\n"
	os.WriteFile(filepath.Join(dir, "a.warc"), []byte(record), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte("no document"), 0o644) // no extension: read for its format, skipped
	o := &Options{readLater: true}
	var docs []*Doc
	small := 0
	for d := range o.Docs(context.Background(), slices.Values([]string{dir})) {
		docs = append(docs, d)
		switch {
		case d.small:
			small++
		case d.Record == nil && !d.Skipped && d.held == 0:
			t.Fatalf("%s: neither left open nor read whole", d.Name)
		}
	}
	if len(docs) != maxLater+22 || small != maxLater || later.Load() != maxLater {
		t.Errorf("%d documents, %d left open (counted %d), want %d and %d", len(docs), small, later.Load(), maxLater+22, maxLater)
	}
	for _, d := range docs {
		d.release()
	}
	if n := later.Load(); n != 0 {
		t.Errorf("%d files still counted open after all were closed", n)
	}
}

// A worker reads a small file left open whole into its buffer, kept from
// one file to the next; a file that grew is read to its end, and a read
// error comes after the bytes read before it.
func TestWorkerRead(t *testing.T) {
	var w worker
	read := func(content string, size int64, err error) (string, error) {
		var r io.Reader = strings.NewReader(content)
		if err != nil {
			r = io.MultiReader(r, errReader{err})
		}
		d := &Doc{in: bufio.NewReaderSize(r, 16), small: true, size: size}
		w.read(d)
		got, err := io.ReadAll(d.in)
		return string(got), err
	}
	page := strings.Repeat(`<a href="x">`, 100)
	if got, err := read(page, int64(len(page)), nil); got != page || err != nil {
		t.Errorf("a page: %d bytes, %v", len(got), err)
	}
	kept := cap(w.buf)
	if got, err := read(page[:50], 50, nil); got != page[:50] || err != nil || cap(w.buf) != kept {
		t.Errorf("a smaller page: %q, %v, buffer of %d bytes, want the one of %d", got, err, cap(w.buf), kept)
	}
	if got, err := read(page, 10, nil); got != page || err != nil {
		t.Errorf("a page that grew: %d bytes of %d, %v", len(got), len(page), err)
	}
	broken := errors.New("input/output error")
	if got, err := read(page[:30], 100, broken); got != page[:30] || err != broken {
		t.Errorf("a failed read: %q, %v", got, err)
	}
}

// readSmall reads a small regular file whole, in one read where fstat's
// size is right, and to its end where it is not: a file of /proc says it
// is empty and is not.
func TestReadSmall(t *testing.T) {
	files := map[string][]byte{}
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4<<10 - 1, 4 << 10, 4<<10 + 1, 300_000} {
		name := filepath.Join(dir, fmt.Sprint(size))
		data := bytes.Repeat([]byte("<a href=x>"), size/10+1)[:size]
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = data
	}
	if runtime.GOOS == "linux" {
		data, err := os.ReadFile("/proc/self/maps") // differs from one process to the next, but not in its start
		if err == nil && len(data) > 0 {
			files["/proc/self/maps"] = nil
		}
	}
	for name, want := range files {
		f, err := openFile(name)
		if err != nil {
			t.Fatal(err)
		}
		size, ok := f.size()
		if !ok || size > smallFile {
			t.Errorf("%s: not a small file", name)
			continue
		}
		whole, release, readErr := readSmall(f, size)
		switch {
		case readErr != nil:
			t.Errorf("%s: read %v, error %v", name, ok, readErr)
		case want == nil && whole.Len() == 0:
			t.Errorf("%s: nothing read", name)
		case want != nil && !bytes.Equal(whole.Bytes(), want):
			t.Errorf("%s: %d bytes read, want %d", name, whole.Len(), len(want))
		}
		release()
	}
	if _, err := openFile(filepath.Join(dir, "none")); !os.IsNotExist(err) || !strings.Contains(err.Error(), "open ") {
		t.Errorf("a missing file: %v", err)
	}
}

// With the workers on every core, a small file is left for its worker to
// read, once its first bytes (by pread) rule out a WARC archive; one
// whose first byte does not is told apart as before: the same documents,
// links and errors as with one worker, which reads ahead.
func TestReadLaterSniff(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a.html":  "<a href=a>",
		"b.md":    "Welcome, see [b](b)", // "W": read as a WARC would be, and is none
		"c.html":  "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/x/\r\nContent-Type: text/html\r\nContent-Length: 15\r\n\r\n<a href=y.html>\r\n\r\n",
		"d":       "<a href=d>", // no extension: a document by its content
		"e.html":  "",
		"f.warc":  "<html>",
		"g.xhtml": "\ufeff<a href=g>",
		"h":       "\x00\x01", // no extension, and no document: skipped
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := &Options{Maps: []source.Map{{Dir: dir, URL: "http://h/"}}}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	run := func(workers int) (got []string, left, skipped int) {
		docs := o.Run(o.Docs(context.Background(), slices.Values([]string{dir})), workers, links.Options{},
			func(d *Doc, out *Output) *links.Handler {
				return &links.Handler{Link: func(l *links.Link) error {
					out.Out = fmt.Appendf(out.Out, "%s %s\n", d.Source, l.URL)
					return nil
				}}
			}, func(printed, _ []byte) bool { got = append(got, string(printed)); return true })
		for d := range docs {
			if d.Err != nil {
				got = append(got, strings.ReplaceAll(d.Err.Error(), dir, "DIR"))
			}
			if d.small {
				left++
			}
			if d.Skipped {
				skipped++
			}
		}
		return got, left, skipped
	}
	want := []string{
		"http://h/a.html http://h/a\n",
		"http://h/b.md http://h/b\n",
		"http://a.example/x/ http://a.example/x/y.html\n",
		"http://h/d http://h/d\n",
		"DIR/f.warc: not a WARC archive: it starts with \"<html>\", not WARC/ (plain, gzip or zstd)",
		"http://h/g.xhtml http://h/g\n",
	}
	for _, workers := range []int{1, 2} {
		got, left, skipped := run(workers)
		got = slices.DeleteFunc(got, func(s string) bool { return s == "" }) // e.html's
		if !slices.Equal(got, want) {
			t.Errorf("%d workers:\n%q\nwant\n%q", workers, got, want)
		}
		// Read by the workers: all but the archive, f.warc and h.
		if wantLeft := map[int]int{1: 0, 2: 5}[workers]; left != wantLeft || skipped != 1 {
			t.Errorf("%d workers: %d files read by the workers, want %d; %d skipped, want 1", workers, left, wantLeft, skipped)
		}
	}
}

// A rawFile reads as an os.File does: pread leaves the offset where it
// was, the end is io.EOF, a read error names the file, and a second Close
// is an error, not the close of a descriptor the process opened since.
func TestRawFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "p.html")
	if err := os.WriteFile(name, []byte("<a href=x>"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var head [4]byte
	if n, err := f.ReadAt(head[:], 0); n != 4 || err != nil || string(head[:]) != "<a h" {
		t.Errorf("ReadAt: %d %v %q", n, err, head)
	}
	if all, err := io.ReadAll(f); string(all) != "<a href=x>" || err != nil {
		t.Errorf("read after ReadAt: %q %v", all, err)
	}
	if n, err := f.ReadAt(head[:], 8); n != 2 || err != io.EOF {
		t.Errorf("ReadAt at the end: %d %v", n, err)
	}
	if size, regular := f.size(); size != 10 || !regular {
		t.Errorf("size %d, regular %v", size, regular)
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("a second Close: %v", err)
	}
	d, err := openFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, regular := d.size(); regular {
		t.Error("a directory is a regular file")
	}
	if _, err := d.Read(head[:]); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("reading a directory: %v", err)
	}
}
