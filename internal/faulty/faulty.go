// Package faulty serves files over HTTP on loopback the way a loaded or
// broken server does, for tests: connections cut in the middle of a body,
// 503 SlowDown answers, Range requests ignored, a bounded rate.
package faulty

import (
	"fmt"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults say how the server misbehaves. The zero value serves well.
type Faults struct {
	// CutAfter cuts a response's connection after at most this many bytes
	// of its body (a random count up to it, at least 1), its
	// Content-Length promising more; 0 never cuts.
	CutAfter int
	// Cuts bounds the cuts in all; 0 means no bound.
	Cuts int
	// Unavailable is the probability of answering 503 SlowDown instead.
	Unavailable float64
	// IgnoreRange answers every request with the whole file, 200.
	IgnoreRange bool
	// BytesPerSecond bounds the rate of each response; 0 means none.
	BytesPerSecond int
	// Seed makes the faults the same at every run.
	Seed uint64
}

// A Server serves files with faults, and counts what it did.
type Server struct {
	*httptest.Server
	mu        sync.Mutex
	files     map[string][]byte
	faults    Faults
	rng       *rand.Rand
	Requests  int // requests answered, faults included
	Cut       int // connections cut
	Refused   int // 503 answers
	RangeAsks int // requests with a Range header
}

// New starts a server of files (path → content) on loopback; the test
// closes it.
func New(files map[string][]byte, f Faults) *Server {
	s := &Server{files: files, faults: f, rng: rand.New(rand.NewPCG(f.Seed, 1))}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Stats returns the counts so far.
func (s *Server) Stats() (requests, cut, refused, rangeAsks int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Requests, s.Cut, s.Refused, s.RangeAsks
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.Requests++
	body, ok := s.files[r.URL.Path]
	refuse := s.faults.Unavailable > 0 && s.rng.Float64() < s.faults.Unavailable
	if refuse {
		s.Refused++
	}
	cutAt := -1
	if s.faults.CutAfter > 0 && (s.faults.Cuts == 0 || s.Cut < s.faults.Cuts) {
		cutAt = 1 + s.rng.IntN(s.faults.CutAfter)
	}
	rangeHeader := r.Header.Get("Range")
	if rangeHeader != "" {
		s.RangeAsks++
	}
	s.mu.Unlock()

	switch {
	case !ok:
		http.NotFound(w, r)
		return
	case refuse:
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>")
		return
	}
	w.Header().Set("ETag", fmt.Sprintf(`"%x-%d"`, len(body), len(r.URL.Path)))
	ctype := mime.TypeByExtension(path.Ext(r.URL.Path))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	status, off := http.StatusOK, 0
	if n, ok := strings.CutPrefix(rangeHeader, "bytes="); ok && !s.faults.IgnoreRange {
		first, _, _ := strings.Cut(n, "-")
		if v, err := strconv.Atoi(first); err == nil && v <= len(body) {
			status, off = http.StatusPartialContent, v
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", v, len(body)-1, len(body)))
		}
	}
	rest := body[off:]
	w.Header().Set("Content-Length", strconv.Itoa(len(rest)))
	w.WriteHeader(status)
	if cutAt >= 0 && cutAt < len(rest) {
		s.write(w, rest[:cutAt])
		w.(http.Flusher).Flush()
		s.mu.Lock()
		s.Cut++
		s.mu.Unlock()
		panic(http.ErrAbortHandler) // the connection is closed, the body short
	}
	s.write(w, rest)
}

// write writes p at the server's rate.
func (s *Server) write(w http.ResponseWriter, p []byte) {
	rate := s.faults.BytesPerSecond
	if rate <= 0 {
		w.Write(p)
		return
	}
	chunk := max(rate/100, 1) // every 10 ms
	start := time.Now()
	sent := 0
	for len(p) > 0 {
		n := min(chunk, len(p))
		if _, err := w.Write(p[:n]); err != nil {
			return
		}
		p, sent = p[n:], sent+n
		due := start.Add(time.Duration(float64(sent) / float64(rate) * float64(time.Second)))
		time.Sleep(time.Until(due))
	}
}
