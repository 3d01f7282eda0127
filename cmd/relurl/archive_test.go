package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/relurl/relurl/internal/faulty"
	"github.com/relurl/relurl/internal/warczstd"
)

// These tests read archives where crawls keep them: over HTTP from a
// server that fails as loaded servers do, compressed with zstd, listed in
// gzip manifests, and hostile.

const docsCrawl = "../../../shared/data/warc/docs-crawl.warc.gz"

// docsCrawlTSV is relurl links -tsv over the local archive: what every
// other way of reading it must give, byte for byte.
var docsCrawlTSV = sync.OnceValues(func() (string, error) {
	if _, err := os.Stat(docsCrawl); err != nil {
		return "", err
	}
	out, err := exec.Command(relurlBin, "links", "-tsv", docsCrawl).Output()
	return string(out), err
})

func localCrawl(t *testing.T) (file []byte, tsv string) {
	t.Helper()
	tsv, err := docsCrawlTSV()
	if err != nil {
		t.Skipf("no shared data (%v)", err)
	}
	file, err = os.ReadFile(docsCrawl)
	if err != nil {
		t.Fatal(err)
	}
	return file, tsv
}

// TestArchiveOverHTTP reads wget's crawl (13.6 MB, 3,652 records) from a
// loopback server that cuts connections in the middle of records, answers
// 503 SlowDown at random and, in one run, ignores Range: every link comes
// out exactly once, as from the local file, and the exit status is 0.
func TestArchiveOverHTTP(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	file, want := localCrawl(t)
	tests := []struct {
		name   string
		path   string
		faults faulty.Faults
	}{
		{"no faults, a name that says nothing", "/download", faulty.Faults{}},
		{"cut mid-record 6 times, resumed by Range", "/crawl/docs.warc.gz", faulty.Faults{CutAfter: 4 << 20, Cuts: 6, Seed: 1}},
		{"cut, and 503 SlowDown a quarter of the time", "/crawl/docs.warc.gz", faulty.Faults{CutAfter: 4 << 20, Cuts: 6, Unavailable: 0.25, Seed: 2}},
		{"cut, and Range ignored: re-read and skipped", "/crawl/docs.warc.gz", faulty.Faults{CutAfter: 13 << 20, Cuts: 2, IgnoreRange: true, Seed: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := faulty.New(map[string][]byte{tt.path: file}, tt.faults)
			defer s.Close()
			r := relurlRun(t, nil, "links", "-tsv", "-retries", "20", s.URL+tt.path)
			requests, cut, refused, ranges := s.Stats()
			t.Logf("%d requests: %d cut, %d refused, %d with Range", requests, cut, refused, ranges)
			if r.code != 0 || r.stdout != want {
				t.Errorf("exit %d, %d bytes of links, want the local file's %d; stderr:\n%s", r.code, len(r.stdout), len(want), r.stderr)
			}
			if tt.faults.CutAfter > 0 && (cut == 0 || ranges == 0) {
				t.Errorf("%d cuts, %d range requests: the faults did not happen", cut, ranges)
			}
		})
	}
}

// TestArchiveStreamed: an archive four times the crawl (54 MB compressed,
// 280 MB of records) read over HTTP in the memory of a few records.
func TestArchiveStreamed(t *testing.T) {
	file, want := localCrawl(t)
	s := faulty.New(map[string][]byte{"/big.warc.gz": bytes.Repeat(file, 4)}, faulty.Faults{CutAfter: 20 << 20, Cuts: 2, Seed: 9})
	defer s.Close()
	var out bytes.Buffer
	code, maxRSS, stderr := relurlMeasured(t, nil, &out, "links", "-tsv", s.URL+"/big.warc.gz")
	if code != 0 || out.String() != strings.Repeat(want, 4) {
		t.Errorf("exit %d, %d bytes of links, want %d; stderr:\n%s", code, out.Len(), 4*len(want), stderr)
	}
	// 89 MiB by the tree builder alone; the fast path's recorder (links,
	// up to 4 MiB of each document read at once) and the garbage it
	// leaves add about 10 MiB, none of it growing with the archive.
	if maxRSS > 120<<10 {
		t.Errorf("peak RSS %d MiB for an archive of %d MB: it grows with the archive", maxRSS>>10, 4*len(file)>>20)
	}
	t.Logf("peak RSS %d MiB", maxRSS>>10)
}

// TestArchiveFailures: a server that keeps failing loses the archive, and
// says which and where, with exit status 1; the records before a cut
// still give their links.
func TestArchiveFailures(t *testing.T) {
	file, want := localCrawl(t)
	down := faulty.New(map[string][]byte{"/a.warc.gz": file}, faulty.Faults{Unavailable: 1})
	defer down.Close()
	cutter := faulty.New(map[string][]byte{"/a.warc.gz": file}, faulty.Faults{CutAfter: 5 << 20, Seed: 7})
	defer cutter.Close()

	r := relurlRun(t, nil, "links", "-tsv", "-retries", "2", "-retry-max-wait", "10s", down.URL+"/a.warc.gz")
	check(t, r, "", "relurl links: GET "+down.URL+"/a.warc.gz: 503 Service Unavailable (3 tries)\n", 1)

	r = relurlRun(t, nil, "links", "-tsv", "-retries", "0", cutter.URL+"/a.warc.gz")
	said := regexp.MustCompile(`(?m)^relurl links: GET ` + regexp.QuoteMeta(cutter.URL) + `/a.warc.gz at byte offset \d+: unexpected EOF, in the WARC record at offset \d+$`)
	if r.code != 1 || !strings.HasPrefix(want, r.stdout) || len(r.stdout) < 1000 || !said.MatchString(r.stderr) {
		t.Errorf("cut, no retries: exit %d, %d bytes of links; stderr:\n%s", r.code, len(r.stdout), r.stderr)
	}
	t.Logf("cut, no retries:\n%s", r.stderr)

	// Cut, then 503 at every try: not an end of file, a loss all the same.
	var first sync.Once
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		cut := false
		first.Do(func() { cut = true })
		if !cut {
			http.Error(w, "SlowDown", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(file)))
		w.Write(file[:4<<20])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	defer busy.Close()
	r = relurlRun(t, nil, "links", "-tsv", "-retries", "2", "-retry-max-wait", "10s", busy.URL+"/a.warc.gz")
	said = regexp.MustCompile(`(?m)^relurl links: GET ` + regexp.QuoteMeta(busy.URL) + `/a.warc.gz at byte offset 4194304: 503 Service Unavailable \(3 tries\), in the WARC record at offset \d+$`)
	if r.code != 1 || !strings.HasPrefix(want, r.stdout) || !said.MatchString(r.stderr) {
		t.Errorf("cut, then 503: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// TestZstdArchive: the crawl as .warc.zst with a dictionary gives the same
// links, from a file and over HTTP, and each record's byte range in -json
// is its frame.
func TestZstdArchive(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	file, want := localCrawl(t)
	zst, err := warczstd.FromGzip(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "docs-crawl.warc.zst")
	os.WriteFile(name, zst, 0o644)
	s := faulty.New(map[string][]byte{"/docs-crawl.warc.zst": zst}, faulty.Faults{CutAfter: 3 << 20, Cuts: 3, Seed: 5})
	defer s.Close()
	t.Logf("%d bytes as .warc.gz, %d as .warc.zst with a dictionary", len(file), len(zst))
	// -j 1 reads the frames one after another; -j 4 decompresses them
	// ahead, four at once.
	for _, in := range []string{name, s.URL + "/docs-crawl.warc.zst"} {
		for _, j := range []string{"1", "4"} {
			r := relurlRun(t, nil, "links", "-tsv", "-j", j, in)
			if r.code != 0 || r.stdout != want {
				t.Errorf("%s, -j %s: exit %d, %d bytes of links, want %d; stderr:\n%s", in, j, r.code, len(r.stdout), len(want), r.stderr)
			}
		}
	}
}

// TestManifestPrefix: a gzip-compressed manifest of relative paths, as
// Common Crawl's warc.paths.gz, with -prefix, archives local and remote.
func TestManifestPrefix(t *testing.T) {
	file, want := localCrawl(t)
	s := faulty.New(map[string][]byte{"/crawl-data/CC-TEST/docs.warc.gz": file, "/crawl-data/CC-TEST/warc.paths.gz": gzipText("crawl-data/CC-TEST/docs.warc.gz\ncrawl-data/CC-TEST/docs.warc.gz\n")}, faulty.Faults{})
	defer s.Close()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "warc.paths.gz")
	os.WriteFile(manifest, gzipText("crawl-data/CC-TEST/docs.warc.gz\n"), 0o644)

	r := relurlRun(t, nil, "links", "-tsv", "-prefix", s.URL+"/", "-files", manifest)
	check(t, r, want, "relurl links: 1824 documents (1824 of them WARC records), 215993 links, 69.7 MB; skipped, giving no links: metadata 1, payload 2, request 1824, warcinfo 1\n", 0)

	// The manifest itself by URL, two lines: the archive twice.
	r = relurlRun(t, nil, "links", "-tsv", "-prefix", s.URL, "-files", s.URL+"/crawl-data/CC-TEST/warc.paths.gz")
	if r.code != 0 || r.stdout != want+want {
		t.Errorf("a manifest by URL: exit %d, %d bytes; stderr:\n%s", r.code, len(r.stdout), r.stderr)
	}
	// A missing manifest, and -prefix without -files.
	r = relurlRun(t, nil, "links", "-files", s.URL+"/none.gz")
	check(t, r, "", "relurl links: manifest: GET "+s.URL+"/none.gz: 404 Not Found\n", 1)
	r = relurlRun(t, nil, "links", "-prefix", "x", docsCrawl)
	check(t, r, "", "relurl links: -prefix is for the lines of -files…", 2)
}

func gzipText(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	io.WriteString(z, s)
	z.Close()
	return b.Bytes()
}

// gzipMember compresses one record as a gzip member.
func gzipMember(record string) []byte { return gzipText(record) }

func warcRecord(typ, target, contentType, block string) string {
	return fmt.Sprintf("WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", typ, target, contentType, len(block), block)
}

// TestHostileArchives: archives made to hurt, each read in bounded memory,
// each problem a warning or error naming the archive and the offset, the
// good records after it read, and the exit status saying what was lost.
func TestHostileArchives(t *testing.T) {
	t.Parallel() // a long test: beside the others, on a machine of few cores (see TestMain)
	// The README's bound for links: 3 × -max-size (64 MiB) plus 55 MB.
	const readmeBound = (3*64<<20 + 50e6) >> 20
	if testing.Short() {
		t.Skip("gigabytes decompressed")
	}
	good := warcRecord("response", "http://good.example/", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"after.html\">")
	goodMember := gzipMember(good)

	// A payload of 1 MB that decodes to 1 GB of zeros.
	var bomb bytes.Buffer
	z, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 1024 {
		z.Write(zeros)
	}
	z.Close()
	bombRecord := warcRecord("response", "http://bomb.example/", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"+bomb.String())

	// 4 KB of .warc.gz that decodes to 1 GB of links.
	var links bytes.Buffer
	z, _ = gzip.NewWriterLevel(&links, gzip.BestCompression)
	fmt.Fprintf(z, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://links.example/\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", 1<<30)
	chunk := bytes.Repeat([]byte("<a href=x>"), 1<<16)
	for range (1 << 30) / len(chunk) {
		z.Write(chunk)
	}
	z.Write(make([]byte, (1<<30)%len(chunk)))
	io.WriteString(z, "\r\n\r\n")
	z.Close()

	lying := gzipMember("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://lies.example/\r\nContent-Type: text/html\r\nContent-Length: 10000000000\r\n\r\n<a href=lie>\r\n\r\n")
	hugeHeader := gzipMember("WARC/1.1\r\nWARC-Type: resource\r\nX-Big: " + strings.Repeat("h", 100<<20) + "\r\nContent-Length: 1\r\n\r\nx\r\n\r\n")

	dir := t.TempDir()
	write := func(name string, parts ...[]byte) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, bytes.Join(parts, nil), 0o644)
		return path
	}
	tests := []struct {
		name, file string
		stdout     string
		stderr     []string // each a part of standard error
		code       int
		maxRSSMiB  int64
		args       []string // before the file
	}{
		{"a gzip bomb in a payload", write("bomb.warc.gz", gzipMember(bombRecord), goodMember), "http://good.example/after.html\n",
			[]string{"bomb.warc.gz, WARC record at offset 0: http://bomb.example/: the payload decodes to more than the size limit of 67108864 bytes: links from its first 67108864 bytes only", "; lost: 0 unreadable, 1 read in part"}, 1, readmeBound, nil},
		{"a record of 1 GB of links", write("links.warc.gz", links.Bytes(), goodMember), "*",
			[]string{"links.warc.gz, WARC record at offset 0: its block is longer than the size limit of 67108864 bytes: links from its first 67108864 bytes only", "; lost: 0 unreadable, 1 read in part"}, 1, readmeBound, nil},
		{"a record of 1 GB of links, -max-size 128 MiB", filepath.Join(dir, "links.warc.gz"), "*",
			[]string{"links.warc.gz, WARC record at offset 0: its block is longer than the size limit of 134217728 bytes: links from its first 134217728 bytes only", "; lost: 0 unreadable, 1 read in part"}, 1, (3*128<<20 + 50e6) >> 20, []string{"-max-size", "134217728"}},
		{"a Content-Length that lies", write("lying.warc.gz", goodMember, lying, goodMember), "http://good.example/after.html\nhttp://good.example/after.html\n",
			[]string{fmt.Sprintf("lying.warc.gz: WARC record at offset %d: content block: Content-Length runs past the end of the record's compressed member, into the next record: the record is cut", len(goodMember)), "; lost: 1 unreadable, 0 read in part"}, 1, 100, nil},
		{"a header line of 100 MB", write("header.warc.gz", goodMember, hugeHeader, goodMember), "http://good.example/after.html\nhttp://good.example/after.html\n",
			[]string{fmt.Sprintf("header.warc.gz: WARC record at offset %d: fields: the record's header is longer than 1048576 bytes", len(goodMember)), "; lost: 1 unreadable, 0 read in part"}, 1, 100, nil},
		{"an empty .warc.gz", write("empty.warc.gz"), "", []string{"empty.warc.gz: not a WARC archive: it is empty"}, 1, 100, nil},
		{"a .warc.gz of nothing", write("nothing.warc.gz", gzipText("")), "", []string{"nothing.warc.gz: not a WARC archive: it starts with"}, 1, 100, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			code, maxRSS, stderr := relurlMeasured(t, nil, &out, append(append([]string{"links"}, tt.args...), tt.file)...)
			if code != tt.code || tt.stdout != "*" && out.String() != tt.stdout {
				t.Errorf("exit %d, stdout %.200q", code, out.String())
			}
			for _, part := range tt.stderr {
				if !strings.Contains(stderr, part) {
					t.Errorf("stderr does not say %q:\n%.2000s", part, stderr)
				}
			}
			if maxRSS > tt.maxRSSMiB<<10 {
				t.Errorf("peak RSS %d MiB, over %d MiB", maxRSS>>10, tt.maxRSSMiB)
			}
			t.Logf("peak RSS %d MiB", maxRSS>>10)
		})
	}
}

// TestElementsRedirects: -elements names redirects as "http", one name set
// for elements and redirects: -elements img gives no redirect, -elements
// http gives the redirects alone.
func TestElementsRedirects(t *testing.T) {
	_, _ = localCrawl(t)
	redirects := relurlRun(t, nil, "links", "-json", "-elements", "http", docsCrawl)
	n := 0
	for line := range strings.Lines(redirects.stdout) {
		if !strings.Contains(line, `"element":"http","attribute":"location"`) {
			t.Fatalf("-elements http gives %s", line)
		}
		n++
	}
	img := relurlRun(t, nil, "links", "-json", "-elements", "img", docsCrawl)
	if n != 60 || redirects.code != 0 || img.code != 0 || strings.Contains(img.stdout, `"element":"http"`) || !strings.Contains(img.stdout, `"element":"img"`) {
		t.Errorf("%d redirects (want 60), exit %d; -elements img: exit %d, with redirects %v", n, redirects.code, img.code, strings.Contains(img.stdout, `"element":"http"`))
	}
	r := relurlRun(t, nil, "links", "-elements", "a,bogus", docsCrawl)
	check(t, r, "", `relurl links: -elements: "bogus" is not one of a,area,audio,blockquote,body,button,del,embed,form,frame,iframe,image,img,input,ins,link,meta,object,q,script,source,table,tbody,td,tfoot,th,thead,tr,track,video,style,http`+"\n…", 2)
	r = relurlRun(t, nil, "links", "-elements", "a@src", docsCrawl)
	check(t, r, "", `relurl links: -elements: "a@src": <a> has no link attribute "src"; it has href, ping, xlink:href`+"\n…", 2)
}

// TestLossRule: one rule for every archive, as the README says: a record
// skipped or read only in part is a warning naming the archive and the
// offset, the summary counts it, and the exit status is 1; what loses
// nothing (a payload that is not HTML, a request, a revisit) exits 0.
func TestLossRule(t *testing.T) {
	response := func(target, header, body string) string {
		return warcRecord("response", target, "application/http; msgtype=response", "HTTP/1.1 200 OK\r\n"+header+"\r\n"+body)
	}
	good := gzipMember(response("http://good.example/", "Content-Type: text/html\r\n", `<a href="after.html">`))
	var corrupt bytes.Buffer // a gzip member whose deflate stream is garbage
	corrupt.Write(gzipMember(response("http://corrupt.example/", "Content-Type: text/html\r\n", strings.Repeat("<a href=x>", 100)))[:10])
	corrupt.Write(bytes.Repeat([]byte{0xff, 0x00, 0x13}, 50))
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	io.WriteString(z, strings.Repeat(`<a href="zipped.html">`, 1000))
	z.Close()
	badGzipBody := gz.Bytes()[:gz.Len()/2] // a content coding cut short
	enc, _ := zstd.NewWriter(nil)
	zgood := enc.EncodeAll([]byte(response("http://good.example/", "Content-Type: text/html\r\n", `<a href="after.html">`)), nil)
	zbad := enc.EncodeAll([]byte(response("http://z.example/", "Content-Type: text/html\r\n", "<a href=z>")), nil)
	zbad[len(zbad)/2] ^= 0xff

	tests := []struct {
		name    string
		archive []byte
		links   int
		lost    string // the summary's count of losses; "" for none
	}{
		{"a corrupt gzip member", bytes.Join([][]byte{good, corrupt.Bytes(), good}, nil), 2, "lost: 1 unreadable, 0 read in part"},
		{"a broken chunked body", bytes.Join([][]byte{good, gzipMember(response("http://chunk.example/", "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n", "5\r\n<a hr\r\nzz\r\nef=x>\r\n0\r\n\r\n")), good}, nil), 2, "lost: 0 unreadable, 1 read in part"},
		{"a gzip payload cut short", bytes.Join([][]byte{good, gzipMember(response("http://gz.example/", "Content-Type: text/html\r\nContent-Encoding: gzip\r\n", string(badGzipBody))), good}, nil), -1, "lost: 0 unreadable, 1 read in part"},
		{"a br payload", bytes.Join([][]byte{good, gzipMember(response("http://br.example/", "Content-Type: text/html\r\nContent-Encoding: br\r\n", "\x1b\x03")), good}, nil), 2, "lost: 1 unreadable, 0 read in part"},
		{"an HTTP status line that does not parse", bytes.Join([][]byte{good, gzipMember(warcRecord("response", "http://st.example/", "application/http; msgtype=response", "HTTP/1.1 OK\r\n\r\n<a href=x>")), good}, nil), 2, "lost: 1 unreadable, 0 read in part"},
		{"a Content-Length that is not a number", bytes.Join([][]byte{good, gzipMember("WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: ten\r\n\r\n<a href=x>\r\n\r\n"), good}, nil), 2, "lost: 1 unreadable, 0 read in part"},
		{"garbage between plain records", []byte(response("http://good.example/", "Content-Type: text/html\r\n", `<a href="after.html">`) + "\x00garbage\r\n\r\n" + response("http://good.example/", "Content-Type: text/html\r\n", `<a href="after.html">`)), 2, "lost: 1 unreadable, 0 read in part"},
		{"a corrupt zstd frame", bytes.Join([][]byte{zgood, zbad, zgood}, nil), 2, "lost: 1 unreadable, 0 read in part"},
		{"nothing lost: an image, a request, a revisit", bytes.Join([][]byte{good,
			gzipMember(response("http://img.example/x.png", "Content-Type: image/png\r\n", "\x89PNG")),
			gzipMember(warcRecord("request", "http://good.example/", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n")),
			gzipMember(warcRecord("revisit", "http://good.example/", "application/http; msgtype=response", "HTTP/1.1 200 OK\r\n\r\n")),
			good}, nil), 2, ""},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(dir, fmt.Sprintf("%d.warc.gz", i))
			os.WriteFile(name, tt.archive, 0o644)
			r := relurlRun(t, nil, "links", name)
			n := strings.Count(r.stdout, "\n")
			wantCode := 0
			if tt.lost != "" {
				wantCode = 1
			}
			summary := r.stderr[strings.LastIndex(strings.TrimSuffix(r.stderr, "\n"), "\n")+1:]
			if r.code != wantCode || tt.links >= 0 && n != tt.links || tt.lost != "" && !strings.Contains(summary, tt.lost) ||
				tt.lost == "" && strings.Contains(summary, "lost:") || !strings.Contains(r.stdout, "http://good.example/after.html") {
				t.Errorf("exit %d (want %d), %d links (want %d); stderr:\n%s", r.code, wantCode, n, tt.links, r.stderr)
			}
			if tt.lost != "" && !strings.Contains(r.stderr, name+", WARC record at offset ") && !strings.Contains(r.stderr, name+": WARC record at offset ") {
				t.Errorf("no warning names the archive and the offset:\n%s", r.stderr)
			}
		})
	}
}

// TestArchivesReadAtOnce: two archives served over loopback, each at the
// same throttled rate, read with -j 2 take about the time of one, not of
// two, and give the links in the same order as with -j 1. (The margin is
// generous: the wait is the throttle's, which a busy machine does not
// lengthen; the speed figures are the benchmarks'.)
func TestArchivesReadAtOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	archive := func(site string) []byte {
		var b bytes.Buffer
		for i := range 12 {
			var page strings.Builder
			page.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
			for j := range 8 {
				fmt.Fprintf(&page, "<p>%x <a href=\"p%d-%d.html\">%d</a>", rng.Uint64(), i, j, j)
				for range 40 {
					fmt.Fprintf(&page, " %x", rng.Uint32()) // text that does not compress
				}
			}
			b.Write(gzipMember(warcRecord("response", fmt.Sprintf("http://%s/%d.html", site, i), "application/http; msgtype=response", page.String())))
		}
		return b.Bytes()
	}
	a, b := archive("a.example"), archive("b.example")
	const rate = 24 << 10 // each archive takes about a second
	s := faulty.New(map[string][]byte{"/a.warc.gz": a, "/b.warc.gz": b}, faulty.Faults{BytesPerSecond: rate})
	defer s.Close()
	t.Logf("two archives of %d and %d bytes at %d bytes a second each", len(a), len(b), rate)
	run := func(jobs string) (result, time.Duration) {
		start := time.Now()
		r := relurlRun(t, nil, "links", "-tsv", "-j", jobs, s.URL+"/a.warc.gz", s.URL+"/b.warc.gz")
		return r, time.Since(start)
	}
	one, oneTook := run("1")
	two, twoTook := run("2")
	t.Logf("-j 1: %v, -j 2: %v", oneTook.Round(time.Millisecond), twoTook.Round(time.Millisecond))
	if one.code != 0 || strings.Count(one.stdout, "\n") != 2*12*8 {
		t.Fatalf("-j 1: exit %d, %d lines; stderr:\n%s", one.code, strings.Count(one.stdout, "\n"), one.stderr)
	}
	if two.stdout != one.stdout {
		t.Errorf("-j 2 gives other links, or in another order, than -j 1")
	}
	if twoTook > oneTook*3/4 {
		t.Errorf("-j 2 took %v, -j 1 %v: the archives were not read at once", twoTook, oneTook)
	}
}

// TestCPUProfile: RELURL_CPUPROFILE writes a CPU profile of the run, whose
// samples carry their goroutine's stage, and replaces a file at its name
// only once the profile is whole.
func TestCPUProfile(t *testing.T) {
	// An archive of its own, a WARC of 2,000 gzip members (28 MB of
	// HTML), so that the run takes long enough to be sampled, anywhere.
	dir := t.TempDir()
	archive := filepath.Join(dir, "pages.warc.gz")
	var page strings.Builder
	for i := range 200 {
		fmt.Fprintf(&page, "<p><a href=\"../p%d.html\">page %d</a> <img src=\"i%d.png\" srcset=\"a.png 1x, b.png 2x\">\n", i, i, i)
	}
	var warc bytes.Buffer
	for i := range 2000 {
		warc.Write(gzipMember(warcRecord("response", fmt.Sprintf("http://site.example/d/%d.html", i), "application/http; msgtype=response",
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"+page.String())))
	}
	if err := os.WriteFile(archive, warc.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cpu.pprof")
	os.WriteFile(path, []byte("an older file"), 0o644)
	cmd := exec.Command(relurlBin, "links", "-tsv", "-j", "2", archive)
	cmd.Env = append(os.Environ(), "RELURL_CPUPROFILE="+path)
	if out, err := cmd.Output(); err != nil || len(out) == 0 {
		t.Fatalf("relurl links: %v, %d bytes out", err, len(out))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the profile is not gzip-compressed, as pprof writes one: %v (%q...)", err, data[:min(len(data), 16)])
	}
	proto, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"stage", "read", "work"} {
		if !bytes.Contains(proto, []byte(label)) {
			t.Errorf("the profile has no %q: its samples carry no stage", label)
		}
	}
}
