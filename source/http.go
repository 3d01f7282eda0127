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

// DefaultTimeout is how long a request waits for an answer, or for
// progress while reading, by default.
const DefaultTimeout = 30 * time.Second

// maxRedirects and timeout are MaxRedirects and Timeout, their zero and
// negative values read (a timeout of 0 is no bound).
func (o *Options) maxRedirects() int      { return setting(o.MaxRedirects, DefaultMaxRedirects) }
func (o *Options) timeout() time.Duration { return setting(o.Timeout, DefaultTimeout) }

// setting reads a setting whose zero means def, and a negative value
// none (0).
func setting[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// openHTTP GETs an http or https URL, following redirects, and returns
// the answer with a Body that resumes where a connection breaks.
func (o *Options) openHTTP(ctx context.Context, name string) (*Object, error) {
	c := client(o.Client)
	c.Timeout = 0 // the stream's timer bounds each wait instead
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		at := via[len(via)-1].URL.String()
		if len(via) > o.maxRedirects() {
			return &permanentError{fmt.Sprintf("stopped after %d redirects, at %s, which redirects to %s: a loop, or a longer chain", o.maxRedirects(), at, req.URL)}
		}
		return CheckRedirectScheme(at, req.URL)
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
			return nil, unwrapURLError(err)
		}
		if off == 0 || first == nil {
			if resp.StatusCode < 200 || resp.StatusCode > 299 {
				resp.Body.Close()
				return nil, NewStatusError(name, resp)
			}
			first = resp
			validator = ifRange(resp.Header)
			return resp.Body, nil
		}
		return resume(resp, off, validator, first.ContentLength, name)
	}
	s := &stream{ctx: ctx, op: "GET", name: name, get: get, retry: o.Retry.WithDefaults(), timeout: o.timeout()}
	if err := s.first(); err != nil {
		return nil, err
	}
	first.Body = s
	return &Object{ReadCloser: s, Name: name, URL: first.Request.URL.String(), Response: first,
		Redirects: redirectChain(first), Resumed: func() int { return s.resumed }}, nil
}

// resume checks the answer to a range request from off: 206 from off
// exactly, of the object first read, or 200 with the whole object
// unchanged, its first off bytes skipped. The object is the same when the
// answer's validator (its strong ETag, else Last-Modified) is the first
// answer's: a server that ignores If-Range would send a changed object's
// bytes from off as readily, and they would be spliced onto the old ones.
// Without a validator, the object's length (Content-Range's complete
// length against the first Content-Length) is all there is to compare.
func resume(resp *http.Response, off int64, validator string, length int64, name string) (io.ReadCloser, error) {
	switch resp.StatusCode {
	case http.StatusPartialContent:
		cr := resp.Header.Get("Content-Range")
		var start, total int64 = -1, -1
		if rng, ok := strings.CutPrefix(cr, "bytes "); ok {
			rng, size, _ := strings.Cut(rng, "/")
			first, _, _ := strings.Cut(rng, "-")
			start, _ = strconv.ParseInt(first, 10, 64)
			if n, err := strconv.ParseInt(size, 10, 64); err == nil {
				total = n
			}
		}
		if start != off {
			resp.Body.Close()
			return nil, &permanentError{fmt.Sprintf("asked to resume at byte %d, the server answered Content-Range %q", off, cr)}
		}
		if v := ifRange(resp.Header); v != validator {
			resp.Body.Close()
			return nil, &permanentError{fmt.Sprintf("the object changed while it was read (validator %q, then %q in a 206 answer that ignored If-Range): not resumed", validator, v)}
		}
		if validator == "" && length >= 0 && total >= 0 && total != length {
			resp.Body.Close()
			return nil, &permanentError{fmt.Sprintf("the object changed while it was read (%d bytes long, then %d; no validator to tell more): not resumed", length, total)}
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
	return nil, NewStatusError(name, resp)
}

// CheckRedirectScheme refuses a redirect from the URL at to one whose
// scheme is not http or https (file:, ftp:, data:, ...): a web server
// must not lead a reader to local files, and no retry mends it. An
// http.Client's CheckRedirect calls it.
func CheckRedirectScheme(at string, next *url.URL) error {
	if s := strings.ToLower(next.Scheme); s != "http" && s != "https" {
		return &permanentError{fmt.Sprintf("%s redirects to %s: refused, a redirect is followed only to http and https", at, next.Redacted())}
	}
	return nil
}

// ifRange returns the validator If-Range may carry: a strong ETag, else
// Last-Modified (RFC 9110, 13.1.5), "" when there is none.
func ifRange(h http.Header) string {
	if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
		return etag
	}
	return h.Get("Last-Modified")
}

// A StatusError is an HTTP answer that ends a request: a status outside
// 2xx. Retry.Wait reads its status and its Retry-After.
type StatusError struct {
	Status string // "503 Service Unavailable"
	Code   int
	// Last is the URL that answered when redirects led away from the one
	// asked for, else "".
	Last  string
	After time.Duration // what its Retry-After asks for, 0 if nothing
}

// NewStatusError returns the error of resp, an answer to a request for
// the URL name.
func NewStatusError(name string, resp *http.Response) *StatusError {
	e := &StatusError{Status: resp.Status, Code: resp.StatusCode, After: retryAfter(resp.Header)}
	if last := resp.Request.URL.String(); last != name {
		e.Last = last
	}
	return e
}

func (e *StatusError) Error() string {
	if e.Last != "" {
		return fmt.Sprintf("redirected to %s: %s", e.Last, e.Status)
	}
	return e.Status
}

func (e *StatusError) HTTPStatus() int           { return e.Code }
func (e *StatusError) RetryAfter() time.Duration { return e.After }

// unwrapURLError drops the *url.Error that http.Client wraps errors in: it
// names the URL of the last request, often a relative Location.
func unwrapURLError(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

// redirectChain returns the URLs a response was redirected through, in order,
// the first asked for first; the last is the response's own.
func redirectChain(resp *http.Response) []string {
	var chain []string
	for r := resp; r != nil && r.Request != nil; r = r.Request.Response {
		chain = append(chain, r.Request.URL.String())
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}
