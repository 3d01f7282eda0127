package source

import (
	"context"
	"net"
	"net/http"
	"time"
)

// Transport is the http.Transport of relurl's requests when HTTP.Client
// is nil: http.DefaultTransport's settings, and connections that
// acknowledge what they read at once (TCP_QUICKACK, on Linux).
//
// Why: a server that writes an answer's header and its body in two small
// writes with Nagle's algorithm on (Python's http.server with HTTP/1.1,
// many small servers) sends the body only once the header is
// acknowledged, and a client on a kept-alive connection delays its
// acknowledgement by up to 40 ms. With two requests in flight to a host,
// that made a crawl of 1,000 pages against such a server take 22 s
// instead of 1 s (bench/crawl.sh, the http.server rows).
var Transport http.RoundTripper = newTransport()

func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return quickAck(c), nil
	}
	return t
}

// client returns c, or a client on Transport if c is nil.
func client(c *http.Client) http.Client {
	if c == nil {
		return http.Client{Transport: Transport}
	}
	return *c
}
