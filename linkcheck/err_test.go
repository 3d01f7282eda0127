package linkcheck

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/relurl/relurl/source"
)

// A Result's Err is an error a program can ask: the HTTP status of a
// broken link, the deadline of a request that got no answer.
func TestResultErr(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select { // until the client gives up
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}
		http.NotFound(w, r)
	}))
	defer s.Close()
	o := Options{HTTP: source.HTTP{Timeout: 200 * time.Millisecond, Retry: source.Retry{Attempts: 1, Base: time.Millisecond}}}
	r := (&Checker{Options: o}).Check(context.Background(), []Link{{URL: s.URL + "/gone"}, {URL: s.URL + "/slow"}})
	var se *source.StatusError
	if !errors.As(r[0].Err, &se) || se.Code != 404 || r[0].Err.Error() != "404 Not Found" {
		t.Errorf("a 404: %v (%T), want a *source.StatusError of 404", r[0].Err, r[0].Err)
	}
	if !errors.Is(r[1].Err, context.DeadlineExceeded) {
		t.Errorf("no answer within the timeout: %v (%T), want context.DeadlineExceeded", r[1].Err, r[1].Err)
	}
}

// A negative Timeout is no bound, not a deadline already past: the
// request is made and answered.
func TestNegativeTimeout(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer s.Close()
	r := (&Checker{Options: Options{HTTP: source.HTTP{Timeout: -1, MaxRedirects: -1}}}).Check(context.Background(), []Link{{URL: s.URL + "/"}})
	if r[0].State != OK {
		t.Errorf("Timeout -1: %v %v, want ok", r[0].State, r[0].Err)
	}
}
