package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxRedirects is how many redirects a request follows by default.
const DefaultMaxRedirects = 10

// openHTTP GETs an http or https URL, following redirects, and returns
// the answer with a Body that resumes where a connection breaks.
func (o *Options) openHTTP(ctx context.Context, name string) (*Object, error) {
	c := http.Client{}
	if o.Client != nil {
		c = *o.Client
	}
	c.Timeout = 0 // the stream's timer bounds each wait instead
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > o.MaxRedirects {
			return &redirectError{max: o.MaxRedirects, at: via[len(via)-1].URL.String(), next: req.URL.String()}
		}
		return nil
	}
	ua := o.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	var first *http.Response
	var validator string // the first answer's ETag or Last-Modified, for If-Range
	get := func(ctx context.Context, off int64) (io.ReadCloser, error) {
		target := name
		if first != nil {
			target = first.Request.URL.String() // resume where the redirects led
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", ua)
		if off > 0 {
			req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
			if validator != "" {
				req.Header.Set("If-Range", validator)
			}
		}
		resp, err := c.Do(req)
		if err != nil {
			var redirect *redirectError
			if errors.As(err, &redirect) {
				return nil, &permanentError{redirect.Error()}
			}
			return nil, unwrapURLError(err)
		}
		if off == 0 || first == nil {
			if resp.StatusCode < 200 || resp.StatusCode > 299 {
				resp.Body.Close()
				return nil, newStatusError(name, resp)
			}
			first = resp
			validator = ifRange(resp.Header)
			return resp.Body, nil
		}
		return resume(resp, off, validator, name)
	}
	s := &stream{ctx: ctx, op: "GET", name: name, get: get, retry: o.retry(), timeout: o.Timeout}
	if err := s.first(); err != nil {
		return nil, err
	}
	first.Body = s
	return &Object{ReadCloser: s, Name: name, URL: first.Request.URL.String(), Response: first,
		Redirects: Redirects(first), Resumed: func() int { return s.resumed }}, nil
}

// resume checks the answer to a range request from off: 206 from off
// exactly, or 200 with the whole object unchanged, its first off bytes
// skipped.
func resume(resp *http.Response, off int64, validator, name string) (io.ReadCloser, error) {
	switch resp.StatusCode {
	case http.StatusPartialContent:
		var start int64 = -1
		if cr := resp.Header.Get("Content-Range"); strings.HasPrefix(cr, "bytes ") {
			first, _, _ := strings.Cut(cr[len("bytes "):], "-")
			start, _ = strconv.ParseInt(first, 10, 64)
		}
		if start != off {
			resp.Body.Close()
			return nil, &permanentError{fmt.Sprintf("asked to resume at byte %d, the server answered Content-Range %q", off, resp.Header.Get("Content-Range"))}
		}
		return resp.Body, nil
	case http.StatusOK:
		if v := ifRange(resp.Header); v != validator {
			resp.Body.Close()
			return nil, &permanentError{fmt.Sprintf("the object changed while it was read (validator %q, then %q): not resumed", validator, v)}
		}
		// The server ignores Range: read the object again, and skip what
		// was read already.
		if _, err := io.CopyN(io.Discard, resp.Body, off); err != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("re-reading the first %d bytes, which the server would not skip: %w", off, err)
		}
		return resp.Body, nil
	}
	resp.Body.Close()
	return nil, newStatusError(name, resp)
}

// ifRange returns the validator If-Range may carry: a strong ETag, else
// Last-Modified (RFC 9110, 13.1.5), "" when there is none.
func ifRange(h http.Header) string {
	if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
		return etag
	}
	return h.Get("Last-Modified")
}

// A statusError is an answer outside 2xx.
type statusError struct {
	url, status, last string
	code              int
	retryAfter        time.Duration
}

func newStatusError(name string, resp *http.Response) *statusError {
	e := &statusError{url: name, status: resp.Status, code: resp.StatusCode}
	if last := resp.Request.URL.String(); last != name {
		e.last = last
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			e.retryAfter = time.Duration(n) * time.Second
		} else if t, err := http.ParseTime(s); err == nil {
			e.retryAfter = max(time.Until(t), 0)
		}
	}
	return e
}

func (e *statusError) Error() string {
	if e.last != "" {
		return fmt.Sprintf("redirected to %s: %s", e.last, e.status)
	}
	return e.status
}

func (e *statusError) HTTPStatus() int           { return e.code }
func (e *statusError) RetryAfter() time.Duration { return e.retryAfter }

// unwrapURLError drops the *url.Error that http.Client wraps errors in: it
// names the URL of the last request, often a relative Location.
func unwrapURLError(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

type redirectError struct {
	max      int
	at, next string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("stopped after %d redirects, at %s, which redirects to %s: a loop, or a longer chain", e.max, e.at, e.next)
}

// Redirects returns the URLs a response was redirected through, in order,
// the first asked for first; the last is the response's own.
func Redirects(resp *http.Response) []string {
	var chain []string
	for r := resp; r != nil && r.Request != nil; r = r.Request.Response {
		chain = append(chain, r.Request.URL.String())
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}
