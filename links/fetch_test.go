package links

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// newSite serves, on loopback: a redirect chain /r3 → /r2 → /r1 → /docs/page,
// a redirect loop /loop ↔ /loop2, a page that never answers in time /slow,
// and a 404 elsewhere. The slow handler is released when the test ends, so
// that the server closes at once.
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
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="next.html">next</a>`)
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

func TestFetch(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()

	resp, err := Fetch(ctx, nil, s.URL+"/r3", DefaultMaxRedirects, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Request.URL.String(); got != s.URL+"/docs/page" {
		t.Errorf("after redirects the retrieval URL is %s, want the last one", got)
	}

	if _, err := Fetch(ctx, nil, s.URL+"/r3", 2, 5*time.Second); err == nil || !strings.Contains(err.Error(), "stopped after 2 redirects") {
		t.Errorf("3 redirects with a limit of 2: error %v", err)
	}
	if _, err := Fetch(ctx, nil, s.URL+"/loop", DefaultMaxRedirects, 5*time.Second); err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("redirect loop: error %v", err)
	}
	if _, err := Fetch(ctx, nil, s.URL+"/missing", DefaultMaxRedirects, 5*time.Second); err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Errorf("404: error %v", err)
	}

	start := time.Now()
	_, err = Fetch(ctx, nil, s.URL+"/slow", DefaultMaxRedirects, 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no complete answer within 200ms") {
		t.Errorf("slow server: error %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a 200ms timeout took %v", d)
	}
}
