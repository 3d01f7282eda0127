package check

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestIDs(t *testing.T) {
	got, err := ids(strings.NewReader(`<h1 id=a>x</h1><a name="b">y</a><p name=c><div ID="d e"><svg><g id=f></g></svg>`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"", "top", "a", "b", "d e", "f"} {
		if !got[want] {
			t.Errorf("no %q in %v", want, got)
		}
	}
	if got["c"] {
		t.Error(`a <p name> is no fragment's target`)
	}
}

func TestRetryAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "3": 3 * time.Second, " 0 ": 0, "x": 0, "-1": 0} {
		if got := retryAfter(in); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", in, got, want)
		}
	}
	if d := retryAfter(time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)); d < 59*time.Minute {
		t.Errorf("an HTTP date an hour ahead waits %v", d)
	}
}

func TestFragmentID(t *testing.T) {
	for in, want := range map[string]string{"intro": "intro", "a%20b": "a b", "%zz": "%zz", "caf%C3%A9": "café"} {
		if got := fragmentID(in); got != want {
			t.Errorf("fragmentID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPoliteness: no more than PerHost requests at once to one host, and
// Rate a second.
func TestPoliteness(t *testing.T) {
	var now, most atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
	}))
	defer s.Close()
	var links []Link
	for i := range 12 {
		links = append(links, Link{URL: fmt.Sprintf("%s/%d", s.URL, i)})
	}
	start := time.Now()
	reports := Run(context.Background(), links, Options{PerHost: 2, Concurrency: 8, Rate: 40}, nil)
	for _, r := range reports {
		if r.State != OK {
			t.Errorf("%s: %v %s", r.URL, r.State, r.Err)
		}
	}
	if most.Load() > 2 {
		t.Errorf("%d requests at once to one host, want at most 2", most.Load())
	}
	// 12 requests at 40 a second take at least 11/40 s.
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("12 requests at 40/s took %v", d)
	}
}

func TestCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	c, err := OpenCache(path, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	c.put("http://ok/", Result{State: OK, Status: 200})
	c.put("http://404/", Result{State: Broken, Status: 404, Err: "404 Not Found"})
	c.put("http://down/", Result{State: Broken, Err: "connection refused"}) // not definite: not kept
	c.put("http://busy/", Result{State: Broken, Status: 503})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	d, err := OpenCache(path, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]bool{"http://ok/": true, "http://404/": true, "http://down/": false, "http://busy/": false} {
		if _, ok := d.get(u); ok != want {
			t.Errorf("%s cached: %v, want %v", u, ok, want)
		}
	}
	if r, _ := d.get("http://404/"); r.State != Broken || r.Status != 404 {
		t.Errorf("the 404 came back as %+v", r)
	}
	old, _ := OpenCache(path, 0)
	if _, ok := old.get("http://ok/"); ok {
		t.Error("a result older than MaxAge was used")
	}
	os.WriteFile(path, []byte("not json\n"), 0o644)
	if _, err := OpenCache(path, time.Hour); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad cache file: %v", err)
	}
}

func ExampleRun() {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/here" {
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	links := []Link{{URL: s.URL + "/here"}, {URL: s.URL + "/gone"}, {URL: "mailto:me@example.com"}}
	for _, r := range Run(context.Background(), links, Options{}, nil) {
		fmt.Println(strings.TrimPrefix(r.URL, s.URL), r.State, r.Status)
	}
	// Output:
	// /here ok 200
	// /gone broken 404
	// mailto:me@example.com skipped 0
}

// A fragment not found in a page longer than MaxSize is not known to be
// missing: not a broken link. One not found in a page read whole is.
func TestFragmentPastMaxSize(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, strings.Repeat("<p>filler</p>", 1000)+`<p id="end">`)
	}))
	defer s.Close()
	links := []Link{{URL: s.URL + "/#end"}, {URL: s.URL + "/#nope"}}
	for _, tt := range []struct {
		max  int64
		want string
	}{{1 << 20, "ok broken"}, {1000, "ok ok"}} {
		var got []string
		for _, r := range Run(context.Background(), links, Options{MaxSize: tt.max}, nil) {
			got = append(got, r.State.String())
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("MaxSize %d: %v, want %s", tt.max, got, tt.want)
		}
	}
}

// HEAD that gets an error status is tried again with GET; a host that does
// not answer is asked once, not once more with GET.
func TestGetAfterHead(t *testing.T) {
	var heads, gets atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			heads.Add(1)
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		gets.Add(1)
	}))
	r := Run(context.Background(), []Link{{URL: s.URL + "/x"}}, Options{}, nil)
	s.Close()
	if r[0].State != OK || heads.Load() != 1 || gets.Load() != 1 {
		t.Errorf("HEAD refused: %v, %d HEAD, %d GET", r[0].State, heads.Load(), gets.Load())
	}
	var tries atomic.Int32
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close() // a connection closed without an answer
		}
	}))
	defer down.Close()
	r = Run(context.Background(), []Link{{URL: down.URL + "/x"}}, Options{Retries: -1}, nil)
	if r[0].State != Broken || tries.Load() != 1 {
		t.Errorf("no answer: %v, %d requests, want 1", r[0].State, tries.Load())
	}
}

func TestUnresolved(t *testing.T) {
	r := Run(context.Background(), []Link{{Ref: "a.html"}}, Options{}, nil)
	if r[0].State != Broken || !strings.HasPrefix(r[0].Err, "not resolved") {
		t.Errorf("a link without a URL: %v %q", r[0].State, r[0].Err)
	}
}
