// Package source opens the inputs of a run where crawls keep them: local
// files, standard input, http and https URLs, and S3 objects (s3://BUCKET/KEY),
// each as one stream of bytes that survives the network.
//
// Open returns an Object: a reader of the whole object from its first byte.
// Over the network, reading is made whole again after a failure:
//
//   - A transient failure (a connection refused, reset or cut, no progress
//     for Options.Timeout, an answer 408, 429, 500, 502, 503 or 504, S3's
//     SlowDown) is retried after an exponentially growing wait with full
//     jitter, honouring Retry-After, within a bounded count of tries
//     (Retry.Attempts) and a bounded total wait (Retry.MaxWait).
//   - A connection that breaks in the middle of the object is resumed with
//     a range request (HTTP Range, S3's GetObject Range) from the byte where
//     it broke, with the validator of the first answer (If-Range with its
//     ETag or Last-Modified; S3's IfMatch), so that a reader above sees one
//     unbroken stream: every byte, and so every WARC record, exactly once.
//     Resuming at the exact byte rather than at the last complete record
//     reads nothing twice, and needs nothing of the format.
//   - A server that ignores the range and sends the whole object again
//     (200 instead of 206, with the same validator) is read from the start
//     and its first bytes skipped; one whose object changed meanwhile is an
//     error, never a silent splice of two versions.
//
// A final failure is an *Error naming the object and the byte offset
// where reading stopped. Memory never grows with the object: nothing is
// kept but a buffer of the caller's.
package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// HTTP says how HTTP requests are made: here, and in packages corpus and
// linkcheck, which embed it. A zero field means the default of the package
// that makes the requests (this package's DefaultTimeout, DefaultRetry,
// DefaultUserAgent, or linkcheck's), so that the zero HTTP works.
type HTTP struct {
	// Client makes the requests; nil means one on http.DefaultTransport.
	// Its CheckRedirect and Timeout are replaced.
	Client *http.Client
	// MaxRedirects bounds the redirects one request follows; 0 means
	// DefaultMaxRedirects, and a negative number none.
	MaxRedirects int
	// Timeout bounds the wait for an answer, and for any progress while
	// reading; a stall is a transient failure. 0 means the default
	// (DefaultTimeout here), and a negative duration no bound.
	Timeout time.Duration
	// Retry bounds the tries at a failing request; the zero value means
	// the default (DefaultRetry here).
	Retry Retry
	// UserAgent is sent with every request; "" means the default
	// (DefaultUserAgent here).
	UserAgent string
}

// Options say how to open and read objects. The zero value works:
// DefaultTimeout, DefaultRetry, http.DefaultTransport, S3 by the standard
// credential chain.
type Options struct {
	HTTP
	// S3 says how to reach S3 and S3-compatible stores.
	S3 S3Options

	s3once sync.Once
	s3     *s3Client
	s3err  error
}

// DefaultUserAgent names relurl to the servers it reads from.
const DefaultUserAgent = "relurl (+https://github.com/relurl/relurl)"

// An Object is one input, open for reading from its first byte. Close it.
type Object struct {
	io.ReadCloser
	// Name is the input as given; URL the URL it was read from after
	// redirects ("" for a file).
	Name, URL string
	// Response is the HTTP answer of an http or https URL (its Body is
	// the Object itself), nil otherwise; Redirects the URLs it was fetched
	// through, the last its own.
	Response  *http.Response
	Redirects []string
	// Resumed counts the times reading was resumed after a failure.
	Resumed func() int
}

// An Error reports an object that could not be read, and where it stopped.
type Error struct {
	Op     string // "GET" for an http or https URL, else ""
	Name   string
	Offset int64 // the bytes read before it stopped
	Tries  int   // how many times it was tried
	Err    error
}

func (e *Error) Error() string {
	at := ""
	if e.Offset > 0 {
		at = fmt.Sprintf(" at byte offset %d", e.Offset)
	}
	tries := ""
	if e.Tries > 1 {
		tries = fmt.Sprintf(" (%d tries)", e.Tries)
	}
	op := ""
	if e.Op != "" {
		op = e.Op + " "
	}
	return fmt.Sprintf("%s%s%s: %v%s", op, e.Name, at, e.Err, tries)
}

func (e *Error) Unwrap() error { return e.Err }

// IsURL reports whether name is a URL: a scheme, then "//".
func IsURL(name string) bool {
	i := strings.Index(name, "://")
	if i <= 0 {
		return false
	}
	for j, c := range name[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// Scheme returns the lower-case scheme of a URL input, "" for a file.
func Scheme(name string) string {
	if !IsURL(name) {
		return ""
	}
	return strings.ToLower(name[:strings.Index(name, "://")])
}

// Open opens the input name: a file, "-" for stdin, an http or https URL,
// or s3://BUCKET/KEY. The context bounds the whole reading: cancelling it
// stops a read. A URL that does not answer 2xx (after retries) is an
// *Error.
func (o *Options) Open(ctx context.Context, name string, stdin io.Reader) (*Object, error) {
	switch scheme := Scheme(name); scheme {
	case "":
		if name == "-" {
			return &Object{ReadCloser: io.NopCloser(stdin), Name: name}, nil
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		return &Object{ReadCloser: f, Name: name}, nil
	case "http", "https":
		return o.openHTTP(ctx, name)
	case "s3":
		return o.openS3(ctx, name)
	default:
		return nil, fmt.Errorf("%s: the %s scheme is not supported: give a file, - or an http, https or s3 URL", name, scheme)
	}
}

// stream is a resumable reader of one remote object: get opens it at an
// offset, and a failed read is retried from where it stopped.
type stream struct {
	ctx     context.Context
	op      string // for Error
	name    string
	get     func(ctx context.Context, off int64) (io.ReadCloser, error)
	retry   Retry
	timeout time.Duration

	body     io.ReadCloser
	reqCtx   context.Context         // the current request's context,
	cancel   context.CancelCauseFunc // its cancel,
	stall    *time.Timer             // and the timer that cancels it when it stalls
	off      int64
	requests int           // made in all
	streak   int           // tries since reading last made progress
	waited   time.Duration // waits since then
	resumed  int
	failed   error // the last failure, retried at the next Read
	closed   bool
}

// errStalled is a read that made no progress for the timeout.
type errStalled struct{ d time.Duration }

func (e errStalled) Error() string { return fmt.Sprintf("no progress within %v", e.d) }

func (s *stream) stop() {
	if s.stall != nil {
		s.stall.Stop()
	}
	if s.body != nil {
		s.body.Close()
		s.body = nil
	}
	if s.cancel != nil {
		s.cancel(context.Canceled)
	}
	s.stall, s.cancel = nil, nil
}

func (s *stream) Read(p []byte) (int, error) {
	if s.closed {
		return 0, errors.New("read after close")
	}
	for {
		if s.body == nil {
			if err := s.reopen(); err != nil {
				return 0, err
			}
			s.resumed++
		}
		n, err := s.body.Read(p)
		s.off += int64(n)
		if n > 0 {
			if s.stall != nil {
				s.stall.Reset(s.timeout)
			}
			s.streak, s.waited = 0, 0
		}
		if err == nil || err == io.EOF {
			return n, err
		}
		if cause := context.Cause(s.reqCtx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause // a stall, which the body reports as a cancellation
		}
		s.stop()
		if s.ctx.Err() != nil {
			return n, s.ended(err)
		}
		s.failed = err
		if n > 0 {
			return n, nil
		}
	}
}

// reopen waits, then asks for the object from s.off, until it answers or
// the tries run out.
func (s *stream) reopen() error {
	for {
		s.streak++
		wait, err := s.retry.Wait(s.streak, s.waited, s.failed)
		if err != nil {
			return &Error{Op: s.op, Name: s.name, Offset: s.off, Tries: s.requests, Err: err}
		}
		s.waited += wait
		select {
		case <-time.After(wait):
		case <-s.ctx.Done():
			return s.ended(s.failed)
		}
		err = s.open()
		if err == nil {
			s.failed = nil
			return nil
		}
		if s.ctx.Err() != nil {
			return s.ended(s.failed)
		}
		s.failed = err
	}
}

// ended is the error of a reading that the caller's context ended (a
// deadline for the whole object, a cancellation), with the last failure
// before it, if any: "no complete answer within 30s" alone would hide a
// connection refused seven times.
func (s *stream) ended(last error) error {
	err := context.Cause(s.ctx)
	if last != nil && !errors.Is(last, context.Canceled) && last.Error() != err.Error() {
		err = fmt.Errorf("%w; the last try: %v", err, last)
	}
	return &Error{Op: s.op, Name: s.name, Offset: s.off, Tries: s.requests, Err: err}
}

// first makes the first request for the object, retried as any other.
func (s *stream) first() error {
	err := s.open()
	if err == nil {
		return nil
	}
	if s.ctx.Err() != nil {
		return s.ended(nil)
	}
	s.failed = err
	return s.reopen()
}

// open makes one request for the object from s.off.
func (s *stream) open() error {
	s.requests++
	ctx, cancel := context.WithCancelCause(s.ctx)
	var stall *time.Timer
	if s.timeout > 0 {
		stall = time.AfterFunc(s.timeout, func() { cancel(errStalled{s.timeout}) })
	}
	body, err := s.get(ctx, s.off)
	if err != nil {
		if stall != nil {
			stall.Stop()
		}
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
		cancel(context.Canceled)
		return err
	}
	s.body, s.reqCtx, s.cancel, s.stall = body, ctx, cancel, stall
	if stall != nil {
		stall.Reset(s.timeout)
	}
	return nil
}

func (s *stream) Close() error {
	s.closed = true
	s.stop()
	return nil
}
