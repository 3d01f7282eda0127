package source

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/relurl/relurl/internal/faulty"
	"github.com/relurl/relurl/internal/lines"
)

// fast retries, for tests: the waits are what is slow, not the reading.
var fast = Retry{Attempts: 8, MaxWait: 20 * time.Second, Base: time.Millisecond}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// newSite serves, on loopback: a redirect chain /r3 → /r2 → /r1 → /docs/page,
// a redirect loop /loop ↔ /loop2, a page that never answers in time /slow,
// a 404 elsewhere, and a 403. The slow handler is released when the test
// ends, so that the server closes at once.
func newSite(t *testing.T) *httptest.Server {
	released := make(chan struct{})
	mux := http.NewServeMux()
	for i := 1; i <= 3; i++ {
		to := fmt.Sprintf("/r%d", i-1)
		if i == 1 {
			to = "/docs/page"
		}
		mux.Handle(fmt.Sprintf("/r%d", i), http.RedirectHandler(to, http.StatusFound))
	}
	mux.Handle("/loop", http.RedirectHandler("/loop2", http.StatusMovedPermanently))
	mux.Handle("/loop2", http.RedirectHandler("/loop", http.StatusMovedPermanently))
	mux.HandleFunc("/docs/page", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != DefaultUserAgent {
			http.Error(w, "no user agent", http.StatusBadRequest)
		}
		io.WriteString(w, `<a href="next.html">next</a>`)
	})
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-released:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	s := httptest.NewServer(mux)
	t.Cleanup(func() {
		close(released)
		s.Close()
	})
	return s
}

func TestOpenHTTP(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	o := &Options{HTTP: HTTP{MaxRedirects: DefaultMaxRedirects, Timeout: 5 * time.Second, Retry: fast}}

	obj, err := o.Open(ctx, s.URL+"/r3", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(obj)
	obj.Close()
	if err != nil || string(body) != `<a href="next.html">next</a>` {
		t.Errorf("body %q, %v", body, err)
	}
	if obj.URL != s.URL+"/docs/page" || obj.Response.Request.URL.String() != obj.URL {
		t.Errorf("after redirects the URL is %s, want the last one", obj.URL)
	}
	if want := []string{s.URL + "/r3", s.URL + "/r2", s.URL + "/r1", s.URL + "/docs/page"}; !slices.Equal(obj.Redirects, want) {
		t.Errorf("Redirects = %v, want %v", obj.Redirects, want)
	}

	tests := []struct {
		name, path string
		o          *Options
		want       string // the error, whole
		tries      int
	}{
		{"a redirect chain over the limit", "/r3", &Options{HTTP: HTTP{MaxRedirects: 2, Retry: fast}},
			"GET " + s.URL + "/r3: stopped after 2 redirects, at " + s.URL + "/r1, which redirects to " + s.URL + "/docs/page: a loop, or a longer chain", 1},
		{"a redirect loop", "/loop", &Options{HTTP: HTTP{MaxRedirects: 10, Retry: fast}},
			"GET " + s.URL + "/loop: stopped after 10 redirects, at " + s.URL + "/loop, which redirects to " + s.URL + "/loop2: a loop, or a longer chain", 1},
		// MaxRedirects 0 is DefaultMaxRedirects, a negative number none, as
		// in packages corpus and linkcheck.
		{"a redirect loop, the default bound", "/loop", &Options{HTTP: HTTP{Retry: fast}},
			"GET " + s.URL + "/loop: stopped after 10 redirects, at " + s.URL + "/loop, which redirects to " + s.URL + "/loop2: a loop, or a longer chain", 1},
		{"no redirect followed", "/r3", &Options{HTTP: HTTP{MaxRedirects: -1, Retry: fast}},
			"GET " + s.URL + "/r3: stopped after 0 redirects, at " + s.URL + "/r3, which redirects to " + s.URL + "/r2: a loop, or a longer chain", 1},
		{"404, not retried", "/missing", &Options{HTTP: HTTP{Retry: fast}}, "GET " + s.URL + "/missing: 404 Not Found", 1},
		{"403, not retried", "/forbidden", &Options{HTTP: HTTP{Retry: fast}}, "GET " + s.URL + "/forbidden: 403 Forbidden", 1},
		{"no answer within the timeout, retried", "/slow", &Options{HTTP: HTTP{Timeout: 100 * time.Millisecond, Retry: Retry{Attempts: 2, MaxWait: time.Second, Base: time.Millisecond}}},
			"GET " + s.URL + "/slow: no progress within 100ms (3 tries)", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := tt.o.Open(ctx, s.URL+tt.path, nil)
			var serr *Error
			if !errors.As(err, &serr) || err.Error() != tt.want || serr.Tries != tt.tries {
				t.Errorf("error %v (%T)\nwant %s", err, err, tt.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestResume reads a file through every fault the server knows, and must
// get every byte exactly once, in order.
func TestResume(t *testing.T) {
	file := randomBytes(3<<20, 1)
	tests := []struct {
		name   string
		faults faulty.Faults
	}{
		{"cut mid-body, resumed by Range", faulty.Faults{CutAfter: 400 << 10, Seed: 1}},
		{"cut, and 503 SlowDown a third of the time", faulty.Faults{CutAfter: 400 << 10, Unavailable: 0.33, Seed: 2}},
		{"cut, and Range ignored: re-read and skip", faulty.Faults{CutAfter: 2 << 20, Cuts: 3, IgnoreRange: true, Seed: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := faulty.New(map[string][]byte{"/a.warc.gz": file}, tt.faults)
			defer s.Close()
			o := &Options{HTTP: HTTP{Retry: Retry{Attempts: 20, MaxWait: 20 * time.Second, Base: time.Millisecond}, Timeout: 5 * time.Second}}
			obj, err := o.Open(context.Background(), s.URL+"/a.warc.gz", nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(obj)
			obj.Close()
			if err != nil {
				t.Fatal(err)
			}
			requests, cut, refused, ranges := s.Stats()
			if !bytes.Equal(got, file) {
				t.Fatalf("read %d bytes, not the file's %d exactly", len(got), len(file))
			}
			// A cut while skipping what was read is a failed resumption.
			if cut == 0 || obj.Resumed() == 0 || obj.Resumed() > cut {
				t.Errorf("%d cuts, %d resumptions: want some, one for each at most", cut, obj.Resumed())
			}
			t.Logf("%d requests, %d cut, %d refused, %d with Range, %d resumptions", requests, cut, refused, ranges, obj.Resumed())
		})
	}
}

// TestResumeFailures: a server that keeps failing ends the reading with an
// *Error that names the URL and the offset.
func TestResumeFailures(t *testing.T) {
	file := randomBytes(1<<20, 2)
	s := faulty.New(map[string][]byte{"/a.warc": file}, faulty.Faults{Unavailable: 1})
	defer s.Close()
	o := &Options{HTTP: HTTP{Retry: Retry{Attempts: 3, MaxWait: 10 * time.Second, Base: time.Millisecond}}}
	_, err := o.Open(context.Background(), s.URL+"/a.warc", nil)
	if want := "GET " + s.URL + "/a.warc: 503 Service Unavailable (4 tries)"; err == nil || err.Error() != want {
		t.Errorf("always 503: error %v, want %s", err, want)
	}

	// Cut, then never answering again: the error names the byte offset.
	cutter := faulty.New(map[string][]byte{"/a.warc": file}, faulty.Faults{CutAfter: 1000, Seed: 4})
	defer cutter.Close()
	o.Retry.Attempts = 0
	obj, err := o.Open(context.Background(), cutter.URL+"/a.warc", nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, obj)
	var serr *Error
	if !errors.As(err, &serr) || serr.Offset != n || !strings.Contains(err.Error(), fmt.Sprintf("at byte offset %d: unexpected EOF", n)) {
		t.Errorf("cut with no retries: after %d bytes, error %v", n, err)
	}
}

// TestChangedObject: an object that changed between two requests is not
// spliced.
func TestChangedObject(t *testing.T) {
	version := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		version++
		body := bytes.Repeat([]byte{byte('a' + version)}, 100000)
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, version))
		w.Header().Set("Content-Length", "100000")
		if version == 1 {
			w.Write(body[:5000])
			panic(http.ErrAbortHandler)
		}
		w.Write(body) // 200, whatever If-Range asked
	}))
	defer srv.Close()
	o := &Options{HTTP: HTTP{Retry: fast}}
	obj, err := o.Open(context.Background(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(obj)
	if err == nil || !strings.Contains(err.Error(), `the object changed while it was read (validator "\"v1\"", then "\"v2\""): not resumed`) {
		t.Errorf("error %v", err)
	}
}

// TestStall: a body that stops coming is resumed after Timeout.
func TestStall(t *testing.T) {
	file := randomBytes(100000, 3)
	stalled := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"x"`)
		if !stalled {
			stalled = true
			w.Header().Set("Content-Length", "100000")
			w.Write(file[:50000])
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(file))
	}))
	defer srv.Close()
	o := &Options{HTTP: HTTP{Retry: fast, Timeout: 200 * time.Millisecond}}
	obj, err := o.Open(context.Background(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(obj)
	if err != nil || !bytes.Equal(got, file) || obj.Resumed() != 1 {
		t.Errorf("read %d bytes, %v, %d resumptions", len(got), err, obj.Resumed())
	}
}

func TestManifest(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	io.WriteString(z, "\ufeffcrawl-data/a.warc.gz\r\n\nhttps://other.example/b.warc.gz\n/abs/c.warc.gz\ns3://bucket/d.warc.zst")
	z.Close()
	name := filepath.Join(dir, "warc.paths.gz")
	os.WriteFile(name, gz.Bytes(), 0o644)
	var got []string
	o := &Options{}
	for line, err := range o.Manifest(context.Background(), name, "https://data.commoncrawl.org/", nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	want := []string{"https://data.commoncrawl.org/crawl-data/a.warc.gz", "https://other.example/b.warc.gz", "/abs/c.warc.gz", "s3://bucket/d.warc.zst"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}

	// The same manifest over HTTP, and a missing one.
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	got = nil
	for line, err := range o.Manifest(context.Background(), srv.URL+"/warc.paths.gz", "s3://commoncrawl", nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	if got[0] != "s3://commoncrawl/crawl-data/a.warc.gz" || len(got) != 4 {
		t.Errorf("over HTTP: %q", got)
	}
	// zstd, and lines too long to be names (one the reader hands out in a
	// chunk, one it skips itself): each named, and reading goes on.
	enc, _ := zstd.NewWriter(nil)
	manifest := enc.EncodeAll([]byte("a.warc.gz\n"+strings.Repeat("x", lines.MaxLength+10)+"\n"+strings.Repeat("y", 3*lines.MaxLength)+"\nb.warc.gz\n"), nil)
	os.WriteFile(filepath.Join(dir, "warc.paths.zst"), manifest, 0o644)
	got = nil
	var errs []string
	for line, err := range o.Manifest(context.Background(), filepath.Join(dir, "warc.paths.zst"), "/data", nil) {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		got = append(got, line)
	}
	if !slices.Equal(got, []string{"/data/a.warc.gz", "/data/b.warc.gz"}) || len(errs) != 2 ||
		!strings.HasSuffix(errs[0], "warc.paths.zst: line 2: longer than 1048576 bytes, skipped") ||
		!strings.HasSuffix(errs[1], "warc.paths.zst: line 3: longer than 1048576 bytes, skipped") {
		t.Errorf("zstd with a long line: %d lines, errors %q", len(got), errs)
	}
	for _, err := range o.Manifest(context.Background(), srv.URL+"/nothing.gz", "", nil) {
		if err == nil || !strings.Contains(err.Error(), "404 Not Found") {
			t.Errorf("a missing manifest: %v", err)
		}
	}
}

func TestIsURL(t *testing.T) {
	for in, want := range map[string]bool{
		"http://a/": true, "HTTP://A/": true, "ftp://h/x": true, "git+ssh://h": true,
		"a.html": false, "dir/x://y": false, "1x://y": false, "-": false, "://x": false, "c:/x": false,
	} {
		if got := IsURL(in); got != want {
			t.Errorf("IsURL(%q) = %v", in, got)
		}
		if scheme := Scheme(in); (scheme != "") != want || want && scheme != strings.ToLower(scheme) {
			t.Errorf("Scheme(%q) = %q", in, scheme)
		}
	}
}

func TestWithPrefix(t *testing.T) {
	tests := []struct{ prefix, name, want string }{
		{"https://data.commoncrawl.org/", "crawl-data/x.warc.gz", "https://data.commoncrawl.org/crawl-data/x.warc.gz"},
		{"https://data.commoncrawl.org", "crawl-data/x.warc.gz", "https://data.commoncrawl.org/crawl-data/x.warc.gz"},
		{"s3://commoncrawl/", "crawl-data/x.warc.gz", "s3://commoncrawl/crawl-data/x.warc.gz"},
		{"/data/cc", "crawl-data/x.warc.gz", "/data/cc/crawl-data/x.warc.gz"},
		{"https://a/", "https://b/x.warc.gz", "https://b/x.warc.gz"},
		{"https://a/", "/local/x.warc.gz", "/local/x.warc.gz"},
		{"", "x.warc.gz", "x.warc.gz"},
	}
	for _, tt := range tests {
		if got := WithPrefix(tt.prefix, tt.name); got != tt.want {
			t.Errorf("WithPrefix(%q, %q) = %q, want %q", tt.prefix, tt.name, got, tt.want)
		}
	}
}

func TestTransient(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&StatusError{Code: 503}, true},
		{&StatusError{Code: 429}, true},
		{&StatusError{Code: 404}, false},
		{&StatusError{Code: 501}, false},
		{&s3StatusError{code: 503}, true},
		{&s3StatusError{code: 403}, false},
		{io.ErrUnexpectedEOF, true},
		{errStalled{time.Second}, true},
		{&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, false},
		{&net.DNSError{Err: "timeout", Name: "x.example", IsTimeout: true}, true},
		{x509.UnknownAuthorityError{}, false},
		{&tls.CertificateVerificationError{Err: errors.New("expired")}, false},
		{tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, false},
		{errors.New("net/http: HTTP/1.x transport connection broken: net/http: server response headers exceeded 10485760 bytes; aborted"), false},
		{&StatusError{Code: 500}, true},
		{&StatusError{Code: 408}, true},
		{&permanentError{"changed"}, false},
		{context.Canceled, false},
	}
	for _, tt := range tests {
		if got := transient(tt.err); got != tt.want {
			t.Errorf("transient(%T %v) = %v, want %v", tt.err, tt.err, got, tt.want)
		}
	}
}

// TestRetryAfter: a 429 with Retry-After is waited out as the server
// asks, then read.
func TestRetryAfter(t *testing.T) {
	asked := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		if asked == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "WARC/1.1")
	}))
	defer srv.Close()
	start := time.Now()
	obj, err := (&Options{HTTP: HTTP{Retry: fast}}).Open(context.Background(), srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(obj)
	if d := time.Since(start); string(body) != "WARC/1.1" || d < time.Second || d > 5*time.Second || asked != 2 {
		t.Errorf("%q after %v and %d requests; want the body after the second, a second later", body, d, asked)
	}
	if obj.Resumed() != 0 {
		t.Errorf("%d resumptions: a first request that needed a retry resumed nothing", obj.Resumed())
	}
}

// TestHostileServers: what a server can do to a reader that no retry
// mends is refused at once, and every failure keeps its cause.
func TestHostileServers(t *testing.T) {
	file := randomBytes(200000, 9)
	version := 0
	mux := http.NewServeMux()
	// A server that ignores If-Range and answers 206 for an object that
	// changed: a new ETag, the bytes of the new version from the offset.
	mux.HandleFunc("/changed206", func(w http.ResponseWriter, r *http.Request) {
		version++
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, version))
		if version == 1 {
			w.Header().Set("Content-Length", strconv.Itoa(len(file)))
			w.Write(file[:5000])
			panic(http.ErrAbortHandler)
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 5000-%d/%d", len(file)-1, len(file)))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(bytes.ToUpper(file[5000:]))
	})
	// The same without any validator: only the length can tell.
	nov := 0
	mux.HandleFunc("/novalidator", func(w http.ResponseWriter, r *http.Request) {
		nov++
		if nov == 1 {
			w.Header().Set("Content-Length", strconv.Itoa(len(file)))
			w.Write(file[:5000])
			panic(http.ErrAbortHandler)
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 5000-%d/%d", len(file)+99, len(file)+100))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(file[5000:])
		w.Write(make([]byte, 100))
	})
	mux.Handle("/tofile", http.RedirectHandler("file:///etc/passwd", http.StatusFound))
	mux.Handle("/toftp", http.RedirectHandler("ftp://ftp.example/x", http.StatusMovedPermanently))
	mux.HandleFunc("/hugeheader", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("h", 12<<20))
		w.Write([]byte("x"))
	})
	mux.HandleFunc("/wait-forever", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "999999999")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "oops", http.StatusInternalServerError)
	})
	// An S3-compatible store, busy or failing, as S3 says so: its status
	// and an XML error with a code.
	s3err := func(status int, code, message string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(status)
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message><RequestId>1</RequestId></Error>`, code, message)
		}
	}
	mux.HandleFunc("/bucket/slowdown.warc.gz", s3err(http.StatusServiceUnavailable, "SlowDown", "Please reduce your request rate."))
	mux.HandleFunc("/bucket/internal.warc.gz", s3err(http.StatusInternalServerError, "InternalError", "We encountered an internal error. Please try again."))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tlsSrv := httptest.NewUnstartedServer(mux)
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the client refuses
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/a.warc.gz"
	l.Close()

	slow := Retry{Attempts: 7, MaxWait: 10 * time.Second, Base: 20 * time.Millisecond}
	tests := []struct {
		name, url string
		deadline  time.Duration // of the whole reading, as corpus sets one for a page; 0 none
		want      string        // a part of the error
		tries     int           // 0: do not check
		within    time.Duration
	}{
		{"206 for a changed object, If-Range ignored", srv.URL + "/changed206", 0,
			`GET ` + srv.URL + `/changed206 at byte offset 5000: the object changed while it was read (validator "\"v1\"", then "\"v2\"" in a 206 answer that ignored If-Range): not resumed`, 2, 5 * time.Second},
		{"206 of another length, no validator", srv.URL + "/novalidator", 0,
			"at byte offset 5000: the object changed while it was read (200000 bytes long, then 200100; no validator to tell more): not resumed", 2, 5 * time.Second},
		{"a redirect to file:", srv.URL + "/tofile", 0,
			"GET " + srv.URL + "/tofile: " + srv.URL + "/tofile redirects to file:///etc/passwd: refused, a redirect is followed only to http and https", 1, time.Second},
		{"a redirect to ftp:", srv.URL + "/toftp", 0, "/toftp redirects to ftp://ftp.example/x: refused", 1, time.Second},
		{"a 12 MB response header", srv.URL + "/hugeheader", 0, "server response headers exceeded", 1, 5 * time.Second},
		{"a certificate nobody signed", tlsSrv.URL + "/500", 0, "certificate", 1, 5 * time.Second},
		{"Retry-After: 999999999", srv.URL + "/wait-forever", 0,
			"503 Service Unavailable; not retried: the server asks to wait 277777h46m39s (Retry-After), past the 10s that retries may wait in all", 1, time.Second},
		{"connection refused: at once, as wget and curl fail", refused, 0,
			"dial tcp " + refused[len("http://"):len(refused)-len("/a.warc.gz")] + ": connect: connection refused", 1, time.Second},
		{"connection refused until the deadline, with Retry.Refused", refused, 400 * time.Millisecond,
			"no complete answer within 400ms; the last try: dial tcp " + refused[len("http://"):len(refused)-len("/a.warc.gz")] + ": connect: connection refused", 0, 3 * time.Second},
		{"500 until the deadline", srv.URL + "/500", 400 * time.Millisecond,
			"no complete answer within 400ms; the last try: 500 Internal Server Error", 0, 3 * time.Second},
		{"S3 503 SlowDown until the deadline", "s3://bucket/slowdown.warc.gz", 400 * time.Millisecond,
			"no complete answer within 400ms; the last try: 503 SlowDown: Please reduce your request rate.", 0, 3 * time.Second},
		{"S3 500 InternalError until the deadline", "s3://bucket/internal.warc.gz", 400 * time.Millisecond,
			"no complete answer within 400ms; the last try: 500 InternalError: We encountered an internal error. Please try again.", 0, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelCauseFunc
				ctx, cancel = context.WithCancelCause(ctx)
				defer cancel(nil)
				time.AfterFunc(tt.deadline, func() { cancel(fmt.Errorf("no complete answer within %v", tt.deadline)) })
			}
			start := time.Now()
			o := &Options{S3: S3Options{Endpoint: srv.URL, Unsigned: true}, HTTP: HTTP{Retry: slow, MaxRedirects: DefaultMaxRedirects}}
			if tt.deadline > 0 {
				o.Retry.Attempts = 1000 // the deadline ends the tries
				o.Retry.Refused = true
			}
			obj, err := o.Open(ctx, tt.url, nil)
			var got []byte
			if err == nil {
				got, err = io.ReadAll(obj)
				obj.Close()
			}
			took := time.Since(start)
			var serr *Error
			if !errors.As(err, &serr) || !strings.Contains(err.Error(), tt.want) || tt.tries > 0 && serr.Tries != tt.tries {
				t.Errorf("error %v\nwant it to say %s, after %d tries", err, tt.want, tt.tries)
			}
			if bytes.Contains(got, bytes.ToUpper(file[5000:6000])) {
				t.Errorf("the changed object was spliced in")
			}
			if took > tt.within {
				t.Errorf("took %v, want at most %v", took, tt.within)
			}
			t.Logf("%v: %v", took.Round(time.Millisecond), err)
		})
	}
}

func TestRetryAfterHeader(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "3": 3 * time.Second, " 0 ": 0, "x": 0, "-1": 0,
		"999999999999999999999": 0, "99999999999": 100 * 365 * 24 * time.Hour} {
		if got := retryAfter(http.Header{"Retry-After": {in}}); got != want {
			t.Errorf("RetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
	if d := retryAfter(http.Header{"Retry-After": {time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}}); d < 59*time.Minute {
		t.Errorf("an HTTP date an hour ahead waits %v", d)
	}
}
