package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relurl/relurl/source"
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
	// In the tree the browser builds: a template's contents are in no
	// document, a script after an unclosed <svg> is script, and a name
	// is an HTML <a>'s only.
	got, err = ids(strings.NewReader(`<template><p id=t></p></template><div><svg></div><script>"<p id=s>"</script><svg><a name=n></a></svg><p id=after>`))
	if err != nil {
		t.Fatal(err)
	}
	for _, no := range []string{"t", "s", "n"} {
		if got[no] {
			t.Errorf("%q is no fragment's target, in %v", no, got)
		}
	}
	if !got["after"] {
		t.Errorf("no %q in %v", "after", got)
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
	reports := (&Checker{Options: Options{PerHost: 2, Concurrency: 8, Rate: 40}}).Check(context.Background(), links)
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
	c.put("http://404/", Result{State: Broken, Status: 404, Err: errors.New("404 Not Found")})
	c.put("http://down/", Result{State: Broken, Err: errors.New("connection refused")}) // not definite: not kept
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

	// The file is untrusted: a state Save never writes, a missing URL or
	// time, a time in the future are misses, never an "ok".
	now := time.Now().UTC().Format(time.RFC3339)
	future := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	os.WriteFile(path, []byte(`{"url":"http://weird/","checked":"`+now+`","state":"fine","status":404}
{"url":"http://nostate/","checked":"`+now+`","status":200}
{"url":"http://notime/","state":"ok","status":200}
{"url":"http://future/","checked":"`+future+`","state":"ok","status":200}
{"url":"http://good/","checked":"`+now+`","state":"ok","status":200}
`), 0o640)
	os.Chmod(path, 0o640)
	d, err = OpenCache(path, time.Hour)
	if err != nil || d.Discarded != nil {
		t.Fatal(err, d.Discarded)
	}
	for u, want := range map[string]bool{"http://weird/": false, "http://nostate/": false, "http://notime/": false, "http://future/": false, "http://good/": true} {
		if _, ok := d.get(u); ok != want {
			t.Errorf("%s cached: %v, want %v", u, ok, want)
		}
	}
	// Save keeps the file's mode, and only what can be used.
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("Save made the file %v, want 0640 as it was", info.Mode().Perm())
	}
	if b, _ := os.ReadFile(path); strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), "http://good/") {
		t.Errorf("saved:\n%s", b)
	}

	// A file that is not JSON lines is named, and rebuilt.
	os.WriteFile(path, []byte(`{"url":"http://good/","checked":"`+now+`","state":"ok","status":200}`+"\nnot json\n"), 0o644)
	d, err = OpenCache(path, time.Hour)
	if err != nil || d.Discarded == nil || !strings.Contains(d.Discarded.Error(), "line 2") {
		t.Fatalf("a bad cache file: %v, discarded %v", err, d.Discarded)
	}
	if _, ok := d.get("http://good/"); !ok {
		t.Error("the good line before the bad one was lost")
	}
	d.put("http://new/", Result{State: OK, Status: 200})
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	if e, err := OpenCache(path, time.Hour); err != nil || e.Discarded != nil || len(e.items) != 2 {
		t.Errorf("rebuilt: %v, %v, %d items", err, e.Discarded, len(e.items))
	}
}

func ExampleChecker_Check() {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/here" {
			http.NotFound(w, r)
		}
	}))
	defer s.Close()
	links := []Link{{URL: s.URL + "/here"}, {URL: s.URL + "/gone"}, {URL: "mailto:me@example.com"}}
	for _, r := range (&Checker{}).Check(context.Background(), links) {
		fmt.Println(strings.TrimPrefix(r.URL, s.URL), r.State, r.Status)
	}
	// Output:
	// /here ok 200
	// /gone broken 404
	// mailto:me@example.com skipped 0
}

// A fragment not found in a page longer than MaxSize is not known to be
// missing: not a broken link, and its Err says how much was read. One not
// found in a page read whole is. A Markdown file is read whole up to
// MaxSize too, as a page is.
func TestFragmentPastMaxSize(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, strings.Repeat("<p>filler</p>", 1000)+`<p id="end">`)
	}))
	defer s.Close()
	md := filepath.Join(t.TempDir(), "target.md")
	os.WriteFile(md, []byte(strings.Repeat("Filler text, a line of it.\n", 2000)+"\n# End\n"), 0o644)
	mdURL := "file://" + filepath.ToSlash(md)
	for _, links := range [][]Link{
		{{URL: s.URL + "/#end"}, {URL: s.URL + "/#nope"}},
		{{Source: "index.md", URL: mdURL + "#end", Local: true}, {Source: "index.md", URL: mdURL + "#nope", Local: true}},
	} {
		for _, tt := range []struct {
			max  int64
			want string
		}{{1 << 20, "ok broken"}, {1000, "ok ok"}} {
			var got []string
			for _, r := range (&Checker{Options: Options{MaxSize: tt.max}}).Check(context.Background(), links) {
				got = append(got, r.State.String())
				if tt.max == 1000 && !strings.Contains(fmt.Sprint(r.Err), "in the first 1000 bytes; the rest was not read") {
					t.Errorf("MaxSize %d: %s: %v, want it to say what was read", tt.max, r.URL, r.Err)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("%s, MaxSize %d: %v, want %s", links[0].URL, tt.max, got, tt.want)
			}
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
	r := (&Checker{Options: Options{}}).Check(context.Background(), []Link{{URL: s.URL + "/x"}})
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
	r = (&Checker{Options: Options{HTTP: source.HTTP{Retry: source.Retry{Attempts: 0, MaxWait: time.Second}}}}).Check(context.Background(), []Link{{URL: down.URL + "/x"}})
	if r[0].State != Broken || tries.Load() != 1 {
		t.Errorf("no answer: %v, %d requests, want 1", r[0].State, tries.Load())
	}
}

func TestUnresolved(t *testing.T) {
	r := (&Checker{Options: Options{}}).Check(context.Background(), []Link{{Ref: "a.html"}})
	if r[0].State != Broken || !strings.HasPrefix(errText(r[0].Err), "not resolved") {
		t.Errorf("a link without a URL: %v %q", r[0].State, r[0].Err)
	}
}

// TestHostileTargets: what a page's author could make the checker do to
// the machine it runs on, or to its patience, it does not.
func TestHostileTargets(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "site")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.html"), []byte(`<p id=here>`), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.html"), []byte(`<p id=key>`), 0o644)
	fileURL := "file://" + filepath.ToSlash(filepath.Join(dir, "secret.html"))

	var requests atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { requests.Add(1) })
	mux.Handle("/tofile", http.RedirectHandler(fileURL, http.StatusFound))
	mux.Handle("/todata", http.RedirectHandler("data:text/html,x", http.StatusFound))
	mux.HandleFunc("/forever", func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Retry-After", "999999999")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	for i := range 5 {
		mux.Handle(fmt.Sprintf("/hop%d", i), http.RedirectHandler(fmt.Sprintf("/hop%d", i+1), http.StatusFound))
	}
	s := httptest.NewServer(mux)
	defer s.Close()

	remote, local := "https://evil.example/page.html", "site/index.html"
	tests := []struct {
		name  string
		link  Link
		o     Options
		state State
		err   string // a part of Err
	}{
		{"a remote page's file: link", Link{Source: remote, URL: fileURL}, Options{}, Skipped, "a file: link in a document that is not a local file is not checked"},
		{"a remote page's file: link with a fragment", Link{Source: remote, URL: fileURL + "#key"}, Options{}, Skipped, "not checked"},
		{"a local page's file: link", Link{Source: local, URL: fileURL + "#key", Local: true}, Options{}, OK, ""},
		{"a local page's missing file", Link{Source: local, URL: fileURL + "x", Local: true}, Options{}, Broken, "no such file"},
		{"a mapped link with ..%2f", Link{Source: remote, URL: "https://site.example/..%2fsecret.html"},
			Options{Maps: []source.Map{{Dir: root, URL: "https://site.example/"}}}, Broken, "its path leaves the mapped directory"},
		{"a mapped link with %2e%2e%5c", Link{Source: remote, URL: "https://site.example/%2e%2e%5Csecret.html"},
			Options{Maps: []source.Map{{Dir: root, URL: "https://site.example/"}}}, Broken, "leaves the mapped directory"},
		{"a mapped link with .. left by RFC 1808", Link{Source: remote, URL: "https://site.example/../secret.html"},
			Options{Maps: []source.Map{{Dir: root, URL: "https://site.example/"}}}, Broken, "leaves the mapped directory"},
		{"a mapped link inside", Link{Source: remote, URL: "https://site.example/a.html#here"},
			Options{Maps: []source.Map{{Dir: root, URL: "https://site.example/"}}}, OK, ""},
		{"a redirect to file:", Link{Source: remote, URL: s.URL + "/tofile"}, Options{}, Broken,
			s.URL + "/tofile redirects to " + fileURL + ": refused, a redirect is followed only to http and https"},
		{"a redirect to data:", Link{Source: remote, URL: s.URL + "/todata"}, Options{}, Broken, "refused"},
		{"Retry-After: 999999999", Link{Source: remote, URL: s.URL + "/forever"}, Options{}, Broken,
			"503 Service Unavailable; not retried: the server asks to wait 277777h46m39s (Retry-After), past the 30s that retries may wait in all"},
		{"5 redirects, 3 allowed", Link{Source: remote, URL: s.URL + "/hop0"}, Options{HTTP: source.HTTP{MaxRedirects: 3}}, Broken, "more than 3 redirects"},
		{"5 redirects, none allowed", Link{Source: remote, URL: s.URL + "/hop0"}, Options{HTTP: source.HTTP{MaxRedirects: -1}}, Broken, "more than 0 redirects"},
		{"5 redirects, the default 10", Link{Source: remote, URL: s.URL + "/hop0"}, Options{}, OK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requests.Store(0)
			start := time.Now()
			r := (&Checker{Options: tt.o}).Check(context.Background(), []Link{tt.link})[0]
			if r.State != tt.state || !strings.Contains(errText(r.Err), tt.err) {
				t.Errorf("%v %q\nwant %v %q", r.State, r.Err, tt.state, tt.err)
			}
			if d := time.Since(start); d > 10*time.Second { // not the waits the server asks for: a bound with room for a busy machine
				t.Errorf("took %v", d)
			}
			if strings.HasSuffix(tt.link.URL, "/forever") && requests.Load() != 1 {
				t.Errorf("%d requests: a Retry-After past the bound is not waited for", requests.Load())
			}
		})
	}
}

// TestSharedCache: two runs that share a cache file both keep their
// results, and the file is never half-written.
func TestSharedCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	const runs, each = 8, 200
	caches := make([]*Cache, runs)
	for i := range caches {
		c, err := OpenCache(path, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		for j := range each {
			c.put(fmt.Sprintf("http://run%d.example/%d", i, j), Result{State: OK, Status: 200})
		}
		caches[i] = c
	}
	errs := make(chan error, runs)
	for _, c := range caches {
		go func() { errs <- c.Save() }()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	all, err := OpenCache(path, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.items) != runs*each {
		t.Errorf("%d results kept, want %d", len(all.items), runs*each)
	}
	if left, _ := filepath.Glob(path + "*"); len(left) != 1 {
		t.Errorf("files left beside the cache: %v", left)
	}
}

// TestCheckReportOrder: Check returns its reports by document, line and
// column, whatever order the links came in; links in one place keep the
// order they were given in.
func TestCheckReportOrder(t *testing.T) {
	links := []Link{
		{Source: "b.html", Line: 1, URL: "https://example.com/1"},
		{Source: "a.html", Line: 3, Column: 2, URL: "https://example.com/2"},
		{Source: "a.html", Line: 3, Column: 1, URL: "https://example.com/3"},
		{Source: "a.html", Line: 3, Column: 1, URL: "https://example.com/4"},
		{Source: "a.html", Line: 1, URL: "https://example.com/5"},
	}
	var got []string
	for _, r := range (&Checker{Options: Options{Offline: true}}).Check(context.Background(), links) {
		got = append(got, r.URL[len("https://example.com/"):])
	}
	if strings.Join(got, " ") != "5 3 4 2 1" {
		t.Errorf("reports in the order %v, want 5 3 4 2 1", got)
	}
}
