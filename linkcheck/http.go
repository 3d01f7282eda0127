package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/relurl/relurl/source"
)

// checker holds what the checks of one Run share: the options with their
// defaults, and each host's politeness.
type checker struct {
	o      Options
	client *http.Client
	mu     sync.Mutex
	hosts  map[string]*host
}

// host is one host's share of the requests: PerHost at once, Rate a
// second.
type host struct {
	slots chan struct{}
	mu    sync.Mutex
	next  time.Time // the earliest the next request may start
}

func newChecker(o Options) *checker {
	if o.Concurrency <= 0 {
		o.Concurrency = 16
	}
	if o.PerHost <= 0 {
		o.PerHost = 2
	}
	if refused := o.Retry.Refused; o.Retry == (source.Retry{Refused: refused}) {
		o.Retry = DefaultRetry
		o.Retry.Refused = refused
	}
	o.Retry = o.Retry.WithDefaults()
	if o.MaxRedirects == 0 {
		o.MaxRedirects = source.DefaultMaxRedirects
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxSize <= 0 {
		o.MaxSize = 8 << 20
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Index == "" {
		o.Index = "index.html"
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Transport: source.Transport}
	}
	// Redirects are followed here, one request at a time, so that each
	// is seen, kept, and held to the host's politeness.
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &checker{o: o, client: &c, hosts: map[string]*host{}}
}

// hostOf returns the politeness state of the host of u.
func (c *checker) hostOf(u *url.URL) *host {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.hosts[u.Host]
	if h == nil {
		h = &host{slots: make(chan struct{}, c.o.PerHost)}
		c.hosts[u.Host] = h
	}
	return h
}

// http checks an http(s) target: HEAD, or GET when its fragments are
// wanted or HEAD fails; redirects followed.
func (c *checker) http(ctx context.Context, u string, fragments bool) targetResult {
	if c.o.Cache != nil && !fragments {
		if r, ok := c.o.Cache.get(u); ok {
			r.Cached = true
			return targetResult{Result: r}
		}
	}
	var r targetResult
	if !fragments {
		r = c.follow(ctx, http.MethodHead, u, nil)
		if r.State == Broken && r.Status >= 400 && !source.TransientStatus(r.Status) {
			// HEAD refused (405, 501) or answered wrongly: GET decides. A
			// host that did not answer at all, or is busy (and was asked
			// again already), is not asked twice.
			r = c.follow(ctx, http.MethodGet, u, nil)
		}
	} else {
		r = c.follow(ctx, http.MethodGet, u, &fetchedPage{})
	}
	if c.o.Cache != nil && r.State != Excluded && !fragments {
		c.o.Cache.put(u, r.Result)
	}
	return r
}

// follow sends method to u and follows its redirects. With page not nil
// it reads an HTML page's ids, and keeps its body (up to MaxSize) and
// header in page, for a crawl to find its links.
func (c *checker) follow(ctx context.Context, method, u string, page *fetchedPage) targetResult {
	var chain []string
	seen := map[string]bool{}
	kept := 0 // the bytes of the chain's URLs
	for range max(c.o.MaxRedirects, 0) + 1 {
		chain = append(chain, u)
		if kept += len(u); kept > maxChainBytes {
			return targetResult{Result: Result{State: Broken, Err: fmt.Errorf("its redirects' URLs add up to more than %d bytes: not followed further", maxChainBytes), Redirects: chain}}
		}
		if seen[u] {
			return targetResult{Result: Result{State: Broken, Err: errors.New("a redirect loop"), Redirects: chain}}
		}
		seen[u] = true
		resp, err := c.do(ctx, method, u)
		if err != nil {
			r := targetResult{Result: Result{State: Broken, Err: err, Redirects: redirects(chain)}}
			var status interface{ HTTPStatus() int }
			if errors.As(err, &status) {
				r.Status = status.HTTPStatus()
			}
			return r
		}
		status := resp.StatusCode
		if status >= 300 && status < 400 && resp.Header.Get("Location") != "" {
			resp.Body.Close()
			next, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
			if err != nil {
				return targetResult{Result: Result{State: Broken, Status: status, Err: fmt.Errorf("a Location that does not parse: %w", err), Redirects: chain}}
			}
			if err := source.CheckRedirectScheme(u, next); err != nil {
				// A server may not lead the checker to local files.
				return targetResult{Result: Result{State: Broken, Status: status, Err: err, Redirects: append(chain, next.Redacted())}}
			}
			if c.o.FailPermanentRedirects && (status == http.StatusMovedPermanently || status == http.StatusPermanentRedirect) {
				return targetResult{Result: Result{State: Broken, Status: status, Err: fmt.Errorf("moved permanently to %s", next), Redirects: append(chain, next.String())}}
			}
			u = next.String()
			if page != nil && page.known != nil {
				if tg, ok := page.known[u]; ok && tg.known {
					// A crawl read it already: it is not read again.
					r := tg.result
					r.Redirects = append(chain, u)
					page.reached = true
					return r
				}
			}
			continue
		}
		r := targetResult{Result: Result{Status: status, Redirects: redirects(chain)}}
		if status >= 400 {
			r.State, r.Err = Broken, &source.StatusError{Status: resp.Status, Code: resp.StatusCode}
		} else if page != nil && isHTML(resp.Header.Get("Content-Type")) {
			page.header = resp.Header
			page.body, r.ids, r.cut, err = c.readPage(resp.Body)
			if err != nil {
				r.State, r.Err = Broken, fmt.Errorf("reading the page: %w", err)
			}
		}
		resp.Body.Close()
		return r
	}
	return targetResult{Result: Result{State: Broken, Err: fmt.Errorf("more than %d redirects", max(c.o.MaxRedirects, 0)), Redirects: chain}}
}

// maxChainBytes bounds the URLs of one redirect chain, which a check keeps
// (Result.Redirects, -json's "redirects"): a server whose Location grows
// at each hop would otherwise make a chain of gigabytes. Real chains are a
// few URLs; Chromium refuses a single URL over 2 MiB.
const maxChainBytes = 1 << 20

// redirects returns the chain of a check that was redirected, nil for one
// that was not.
func redirects(chain []string) []string {
	if len(chain) < 2 {
		return nil
	}
	return chain
}

func isHTML(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// do sends one request, politely, trying again after a transient failure
// (what source.Retry retries: a connection error, a timeout, 408, 429,
// 500, 502, 503 or 504) as Options.Retry allows: Retry-After honoured,
// else exponential backoff with full jitter, the waits bounded in all. An
// answer with a transient status that is not tried again is an error, a
// *source.StatusError, with why it was not.
//
// The loop is the checker's own, not package source's: each try waits for
// its host's slot and rate, and the slot is held until the body is closed.
// The policy is source's (Retry.Wait, TransientStatus, StatusError), so
// a reader and a checker retry alike.
func (c *checker) do(ctx context.Context, method, u string) (*http.Response, error) {
	p, err := url.Parse(u)
	if err != nil {
		return nil, err
	}
	h := c.hostOf(p)
	var waited time.Duration
	for try := 1; ; try++ {
		resp, err := c.once(ctx, h, method, p)
		failed := err
		if err == nil && source.TransientStatus(resp.StatusCode) {
			failed = source.NewStatusError(u, resp)
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		if failed == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, failed
		}
		wait, stop := c.o.Retry.Wait(try, waited, failed)
		if stop != nil {
			return nil, stop
		}
		waited += wait
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, failed
		}
	}
}

// once sends one request within the host's politeness: the host's slot
// is taken until the answer's body is closed, so that PerHost bounds the
// bodies being sent at once, not only the requests waiting for headers.
func (c *checker) once(ctx context.Context, h *host, method string, u *url.URL) (*http.Response, error) {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() { <-h.slots }
	if c.o.Rate > 0 {
		h.mu.Lock()
		now := time.Now()
		start := now
		if h.next.After(now) {
			start = h.next
		}
		h.next = start.Add(time.Duration(float64(time.Second) / c.o.Rate))
		h.mu.Unlock()
		if d := start.Sub(now); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				release()
				return nil, ctx.Err()
			}
		}
	}
	cancel := context.CancelFunc(func() {})
	if c.o.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.o.Timeout)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		cancel()
		release()
		return nil, err
	}
	for k, v := range c.o.Header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", c.o.UserAgent)
	if a, ok := c.o.Auth[u.Host]; ok {
		req.SetBasicAuth(a[0], a[1])
	} else if a, ok := c.o.Auth[u.Hostname()]; ok {
		req.SetBasicAuth(a[0], a[1])
	}
	resp, err := c.client.Do(req)
	if err != nil {
		cancel()
		release()
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = noAnswer(c.o.Timeout)
		}
		return nil, err
	}
	resp.Body = &slotBody{ReadCloser: resp.Body, cancel: cancel, release: release}
	return resp, nil
}

// noAnswer is a request that got no answer within its Timeout: it says
// so, and is a context.DeadlineExceeded to errors.Is.
type noAnswer time.Duration

func (d noAnswer) Error() string { return fmt.Sprintf("no answer within %v", time.Duration(d)) }
func (noAnswer) Unwrap() error   { return context.DeadlineExceeded }

// slotBody is an answer's body, which holds its request's context and its
// host's slot until it is closed.
type slotBody struct {
	io.ReadCloser
	cancel  context.CancelFunc
	release func()
	once    sync.Once
}

func (b *slotBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() {
		b.cancel()
		b.release()
	})
	return err
}

// fetchedPage is an HTML page as fetched: its header and its first
// MaxSize bytes.
type fetchedPage struct {
	header http.Header
	body   []byte
	// known are the targets of a crawl, by URL: a redirect to a page it
	// has read ends there, with its result, and reached set. Nil outside
	// a crawl.
	known   map[string]*target
	reached bool
}
