package links

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// DefaultMaxRedirects is how many redirects Fetch follows by default.
const DefaultMaxRedirects = 10

// Fetch GETs url with client, following at most maxRedirects redirects, and
// returns the response for the caller to read and close. Its Request.URL is
// the last URL requested, the document's retrieval URL (Section 3.3), and
// Redirects gives the chain that led there. A response outside 2xx is an
// error, as is a redirect loop or chain longer than maxRedirects; every
// error names the URL asked for, and where a chain stopped. A nil client
// is http.DefaultClient with timeout as its whole deadline (headers and
// body); timeout 0 means none.
func Fetch(ctx context.Context, client *http.Client, url string, maxRedirects int, timeout time.Duration) (*http.Response, error) {
	c := http.Client{Timeout: timeout}
	if client != nil {
		c = *client
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return &redirectError{max: maxRedirects, at: via[len(via)-1].URL.String(), next: req.URL.String()}
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "relurl (+https://github.com/relurl/relurl)")
	resp, err := c.Do(req)
	if err != nil {
		var redirect *redirectError
		if errors.As(err, &redirect) {
			return nil, fmt.Errorf("GET %s: %w", url, redirect)
		}
		var timeoutErr interface{ Timeout() bool }
		if errors.As(err, &timeoutErr) && timeoutErr.Timeout() {
			return nil, fmt.Errorf("GET %s: no complete answer within %v: %w", url, timeout, unwrapURLError(err))
		}
		return nil, fmt.Errorf("GET %s: %w", url, unwrapURLError(err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		if last := resp.Request.URL.String(); last != url {
			return nil, fmt.Errorf("GET %s: redirected to %s: %s", url, last, resp.Status)
		}
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return resp, nil
}

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
