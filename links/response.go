package links

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/relurl/relurl/internal/capped"
	"github.com/relurl/relurl/warc"
)

// Response extracts the links of an HTTP response, every layer of RFC
// 1808, Section 3 applied: the URL it was retrieved by after redirects
// (resp.Request.URL, 3.3), its header (Base, Content-Base, and
// Content-Location when x.ContentLocation is set, 3.1), then the body's own
// <base href>. The body is decoded from its Content-Encoding (gzip,
// deflate); Go's http.Client has already removed the transfer coding.
//
// A redirect (3xx) gives one link, its Location header, with the element
// "http" (RedirectElement, which x.Only may leave out) and the attribute
// "location", resolved against the request's URL:
// the redirect is an edge of the link graph. A body of Markdown
// (text/markdown) gives the links of Markdown, one of XML (a sitemap, a
// feed: application/xml, text/xml, application/rss+xml,
// application/atom+xml; a sitemap.xml.gz) those of XML; one that is none
// of these, nor HTML, nor a MIME multipart or message, gives no links, and
// is reported to h.Warn. Response reports, as Record does, whether the response was of a
// kind that gives links. The caller closes resp.Body.
func (x *Extractor) Response(resp *http.Response, h *Handler) (bool, error) {
	retrieval := ""
	if resp.Request != nil && resp.Request.URL != nil {
		retrieval = resp.Request.URL.String()
	}
	return x.response(resp, retrieval, h)
}

// response is Response with the retrieval URL as a string: a WARC record's
// target may not parse as a *url.URL. It reports whether the response was
// a redirect or a document that gives links.
func (x *Extractor) response(resp *http.Response, retrieval string, h *Handler) (bool, error) {
	outer := Retrieved(retrieval)
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		loc := resp.Header.Get("Location")
		if loc == "" || x.Only != nil && !x.Only[RedirectElement] {
			return false, nil
		}
		d := x.begin(outer, "", h)
		err := d.establish(outer)
		if err == nil {
			err = d.emit([]byte(loc), locationKind)
		}
		return true, unwrapHandler(err)
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	format := FormatHTML
	switch {
	case mediaType == "text/markdown":
		format = FormatMarkdown
	case isXML(mediaType), (mediaType == "application/gzip" || mediaType == "application/x-gzip") && strings.HasSuffix(strings.ToLower(retrieval), ".xml.gz"):
		format = FormatXML
	}
	if format == FormatHTML && !isDocument(mediaType) {
		h.warn(fmt.Errorf("%s is %s, not HTML: no links", retrieval, orUnknown(mediaType)))
		return false, nil
	}
	body, err := decodeContent(resp.Header.Get("Content-Encoding"), resp.Body)
	if err != nil {
		h.warn(&Loss{Err: fmt.Errorf("%s: %w", retrieval, err)})
		return false, nil
	}
	if x.MaxSize > 0 {
		c := capped.New(body, x.MaxSize)
		defer func() {
			if c.Over {
				h.warn(&Loss{Err: fmt.Errorf("%s: the payload decodes to more than the size limit of %d bytes: links from its first %d bytes only", retrieval, c.Max, c.Max), Cut: true})
			}
		}()
		body = c
	}
	switch format {
	case FormatMarkdown:
		return true, x.Markdown(body, outer, h)
	case FormatXML:
		return true, x.XML(body, outer, h)
	}
	header := textproto.MIMEHeader(resp.Header.Clone())
	if mediaType == "" {
		header.Set("Content-Type", "text/html") // the web's default
	}
	return true, x.Entity(header, body, outer, h)
}

// isXML reports whether a media type is XML that may be a sitemap or a
// feed.
func isXML(mediaType string) bool {
	switch mediaType {
	case "application/xml", "text/xml", "application/rss+xml", "application/atom+xml", "application/rdf+xml":
		return true
	}
	return false
}

// isDocument reports whether a response of this media type holds links:
// HTML, or MIME parts that may be HTML. No media type at all is read as
// HTML, as browsers sniff it.
func isDocument(mediaType string) bool {
	return mediaType == "" || mediaType == "text/html" || mediaType == "application/xhtml+xml" ||
		strings.HasPrefix(mediaType, "multipart/") || strings.HasPrefix(mediaType, "message/")
}

func orUnknown(mediaType string) string {
	if mediaType == "" {
		return "of no type"
	}
	return mediaType
}

// decodeContent removes an HTTP content coding (RFC 9110, Section 8.4).
func decodeContent(coding string, body io.Reader) (io.Reader, error) {
	switch c := strings.ToLower(strings.TrimSpace(coding)); c {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		return gzip.NewReader(body)
	case "deflate":
		// "deflate" is zlib-wrapped (RFC 1950), which servers mostly send.
		return zlib.NewReader(body)
	default:
		return nil, fmt.Errorf("Content-Encoding %q is not supported: no links", coding)
	}
}

// Record extracts the links of one WARC record, and reports whether its
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
// response that cannot be read, a broken chunk) is reported to h.Warn,
// which the caller names with the record.
func (x *Extractor) Record(rec *warc.Record, h *Handler) (bool, error) {
	target := rec.TargetURI()
	mediaType, params, _ := mime.ParseMediaType(rec.Header.Get("Content-Type"))
	switch rec.Type() {
	case "response":
		if mediaType != "application/http" || params["msgtype"] == "request" {
			return false, nil
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
		if err != nil {
			h.warn(&Loss{Err: fmt.Errorf("the HTTP response cannot be read: %w", err)})
			return false, nil
		}
		defer resp.Body.Close()
		x.stop = nil
		ok, err := x.response(resp, target, h)
		if err != nil && err != x.stop {
			// The block is in memory: a read error is the content's.
			h.warn(&Loss{Err: err, Cut: true})
			return ok, nil
		}
		return ok, err
	case "resource":
		if mediaType != "text/html" && mediaType != "application/xhtml+xml" {
			return false, nil
		}
		x.stop = nil
		err := x.HTML(bytes.NewReader(rec.Block), Retrieved(target), h)
		if err != nil && err != x.stop {
			h.warn(&Loss{Err: err, Cut: true})
			return true, nil
		}
		return true, err
	}
	return false, nil
}
