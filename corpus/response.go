package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"

	"github.com/relurl/relurl/internal/capped"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/warc"
)

// Response extracts the links of an HTTP response with x, every layer of
// RFC 1808, Section 3 applied: the URL it was retrieved by after redirects
// (resp.Request.URL, 3.3), its header (Base, Content-Base, and
// Content-Location when x.ContentLocation is set, 3.1), then the body's
// own base. The body is decoded from its Content-Encoding (gzip, deflate);
// Go's http.Client has already removed the transfer coding. The caller
// closes resp.Body.
//
// A redirect (3xx) gives one link, its Location header
// (links.FormatRedirect). The body of any other response is read as its
// Content-Type says (a links.Doc of Format 0). A response of a type that
// gives no links is reported to h.Warn; one whose content coding cannot be
// removed too, as a links.Loss.
func Response(x *links.Extractor, resp *http.Response, h *links.Handler) error {
	_, err := response(x, resp, retrievalOf(resp), 0, h)
	return err
}

// retrievalOf returns the URL resp was retrieved by, after redirects.
func retrievalOf(resp *http.Response) string {
	if resp.Request != nil && resp.Request.URL != nil {
		return resp.Request.URL.String()
	}
	return ""
}

// response is Response with the retrieval URL as a string (a WARC
// record's target may not parse as a *url.URL), and a bound on the payload
// decoded (0: none). It reports whether the response was a redirect that
// gives a link or a document.
func response(x *links.Extractor, resp *http.Response, retrieval string, maxSize int64, h *links.Handler) (bool, error) {
	doc := links.Doc{Base: links.Retrieved(retrieval), Header: textproto.MIMEHeader(resp.Header)}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		if resp.Header.Get("Location") == "" || x.Only != nil && !x.Only[links.RedirectElement] {
			return false, nil
		}
		doc.Format = links.FormatRedirect
		return true, x.Extract(nil, doc, h)
	}
	if m, ok := resp.Body.(memBody); ok && (maxSize <= 0 || int64(m.Len()) <= maxSize) {
		// A WARC record's payload, in memory already, with no coding to
		// remove: a links.Extractor reads it where it is.
		return extractBody(x, m.Buffer, doc, h)
	}
	body, err := decodeContent(resp.Header.Get("Content-Encoding"), resp.Body)
	if err != nil {
		warn(h, &links.Loss{Err: fmt.Errorf("%s: %w", retrieval, err)})
		return false, nil
	}
	if maxSize > 0 {
		c := capped.New(body, maxSize)
		defer func() {
			if c.Over && h.Warn != nil {
				h.Warn(&links.Loss{Err: fmt.Errorf("%s: the payload decodes to more than the size limit of %d bytes: links from its first %d bytes only", retrieval, c.Max, c.Max), Cut: true})
			}
		}()
		body = c
	}
	return extractBody(x, body, doc, h)
}

// extractBody extracts the links of a response's body, decoded, and
// reports whether its type gives links.
func extractBody(x *links.Extractor, body io.Reader, doc links.Doc, h *links.Handler) (bool, error) {
	if err := x.Extract(body, doc, h); errors.Is(err, errors.ErrUnsupported) {
		warn(h, err) // a type that gives no links
		return false, nil
	} else if err != nil {
		return true, err
	}
	return true, nil
}

// A memBody is a response's body that is a WARC record's payload, held
// whole in memory, with no transfer or content coding.
type memBody struct{ *bytes.Buffer }

func (memBody) Close() error { return nil }

// payload returns the body of resp, read by http.ReadResponse from the
// block of a record through br, from r, as a memBody: when nothing is to
// be removed from it (no chunks, no content coding) and the block holds
// all of it; else resp.Body as it is.
func payload(resp *http.Response, block []byte, r *bytes.Reader, br *bufio.Reader) io.ReadCloser {
	if resp.Body == http.NoBody || len(resp.TransferEncoding) > 0 || !identity(resp.Header.Get("Content-Encoding")) {
		return resp.Body
	}
	rest := block[len(block)-r.Len()-br.Buffered():]
	switch {
	case resp.ContentLength < 0:
		return memBody{bytes.NewBuffer(rest)} // to the block's end
	case resp.ContentLength <= int64(len(rest)):
		return memBody{bytes.NewBuffer(rest[:resp.ContentLength])}
	}
	return resp.Body // cut short: read, to say so
}

// decodeContent removes an HTTP content coding (RFC 9110, Section 8.4),
// with klauspost/compress's readers, as package warc inflates archives.
func decodeContent(coding string, body io.Reader) (io.Reader, error) {
	if identity(coding) {
		return body, nil
	}
	switch strings.ToLower(strings.TrimSpace(coding)) {
	case "gzip", "x-gzip":
		return gzip.NewReader(body)
	case "deflate":
		// "deflate" is zlib-wrapped (RFC 1950), which servers mostly send.
		return zlib.NewReader(body)
	default:
		return nil, fmt.Errorf("Content-Encoding %q is not supported: no links", coding)
	}
}

// identity reports whether a Content-Encoding is none.
func identity(coding string) bool {
	c := strings.ToLower(strings.TrimSpace(coding))
	return c == "" || c == "identity"
}

// record extracts the links of one WARC record, and reports whether its
// kind gives links at all:
//
//   - a response record (an HTTP response, application/http) gives those
//     of Response, with the WARC-Target-URI as the retrieval URL; the
//     chunked transfer coding that archives keep is removed;
//   - a resource record whose Content-Type is HTML gives the links of the
//     document, with the WARC-Target-URI as the retrieval URL and no HTTP
//     header;
//   - every other record (request, metadata, revisit, warcinfo,
//     conversion) and a payload that is not HTML gives none.
//
// A record whose block was cut (warc.Record.Cut, or WARC-Truncated set by
// the crawler) is read as far as it goes; what spoils a record (an HTTP
// response that cannot be read, a broken chunk) is reported to h.Warn, which the caller names with the
// record. Only an error h.Link returned is returned.
func record(x *links.Extractor, rec *warc.Record, maxSize int64, h *links.Handler) (bool, error) {
	target := rec.TargetURI()
	mediaType, params, _ := mime.ParseMediaType(rec.Header.Get("Content-Type"))
	var stopped error // what h.Link returned, which alone stops a run
	link := h.Link
	inner := *h
	inner.Link = func(l *links.Link) error {
		err := link(l)
		stopped = err
		return err
	}
	var ok bool
	var err error
	switch rec.Type() {
	case "response":
		if mediaType != "application/http" || params["msgtype"] == "request" {
			return false, nil
		}
		r := bytes.NewReader(rec.Block)
		br := bufio.NewReader(r)
		resp, rerr := http.ReadResponse(br, nil)
		if rerr != nil {
			warn(h, &links.Loss{Err: fmt.Errorf("the HTTP response cannot be read: %w", rerr)})
			return false, nil
		}
		defer resp.Body.Close()
		if inMemoryPayloads {
			resp.Body = payload(resp, rec.Block, r, br)
		}
		ok, err = response(x, resp, target, maxSize, &inner)
	case "resource":
		if mediaType != "text/html" && mediaType != "application/xhtml+xml" {
			return false, nil
		}
		var block io.Reader = bytes.NewReader(rec.Block)
		if inMemoryPayloads {
			block = bytes.NewBuffer(rec.Block)
		}
		ok, err = true, x.Extract(block, links.Doc{Format: links.FormatHTML, Base: links.Retrieved(target)}, &inner)
	default:
		return false, nil
	}
	if err == nil || stopped != nil && err == stopped {
		return ok, err
	}
	// The block is in memory: a read error is the content's.
	warn(h, &links.Loss{Err: err, Cut: true})
	return ok, nil
}

// inMemoryPayloads reads a record's payload where it is (payload); the
// tests turn it off, to hold the two ways to the same links.
var inMemoryPayloads = true

func warn(h *links.Handler, err error) {
	if h.Warn != nil {
		h.Warn(err)
	}
}
