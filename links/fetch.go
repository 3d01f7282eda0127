package links

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// DefaultMaxRedirects is how many redirects Fetch follows by default.
const DefaultMaxRedirects = 10

// Fetch GETs url with client, following at most maxRedirects redirects, and
// returns the response for the caller to read and close. Its Request.URL is
// the last URL requested, the document's retrieval URL (Section 3.3). A
// response outside 2xx is an error, as is a redirect loop or chain longer
// than maxRedirects. A nil client is http.DefaultClient with timeout as its
// whole deadline (headers and body); timeout 0 means none.
func Fetch(ctx context.Context, client *http.Client, url string, maxRedirects int, timeout time.Duration) (*http.Response, error) {
	c := http.Client{Timeout: timeout}
	if client != nil {
		c = *client
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return fmt.Errorf("stopped after %d redirects: a loop, or a longer chain", maxRedirects)
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
		var timeoutErr interface{ Timeout() bool }
		if errors.As(err, &timeoutErr) && timeoutErr.Timeout() {
			return nil, fmt.Errorf("GET %s: no complete answer within %v: %w", url, timeout, err)
		}
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: %s", resp.Request.URL, resp.Status)
	}
	return resp, nil
}
