package links

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/relurl/relurl/base"
)

// Message extracts the links of a MIME message read from r: an e-mail
// (.eml) or a web archive saved as one file (MHTML, .mht). Its header and
// those of its parts set bases as base.FromHeader describes, a part's over
// its enclosing entity's (Section 3.2), with outer the base of the whole,
// usually the URL it was retrieved by. See Entity.
func (x *Extractor) Message(r io.Reader, outer base.Base, h *Handler) error {
	msg, err := mail.ReadMessage(bufio.NewReader(r))
	if err != nil {
		return fmt.Errorf("reading message header: %w", err)
	}
	return x.Entity(textproto.MIMEHeader(msg.Header), msg.Body, outer, h)
}

// Entity extracts the links of a MIME entity whose header is header and
// whose body, not yet decoded, is body; for example an HTTP response of
// type multipart/related. The entity's base is set by its header, else it
// is outer; x.ContentLocation says whether its Content-Location counts.
//
// Bodies in quoted-printable and base64 are decoded. HTML parts (text/html,
// application/xhtml+xml) give links; multipart/* and message/* parts are
// walked, each part's path numbering it within its parent from 1 ("2.1" is
// the first part of the second). A part that cannot be read (an unknown
// transfer encoding, a broken boundary) is reported to h.Warn and skipped;
// nesting deeper than x.MaxDepth stops the walk with an error.
func (x *Extractor) Entity(header textproto.MIMEHeader, body io.Reader, outer base.Base, h *Handler) error {
	return x.entity(header, body, outer, x.ContentLocation, "", 0, h)
}

func (x *Extractor) entity(header textproto.MIMEHeader, body io.Reader, outer base.Base, contentLocation bool, part string, depth int, h *Handler) error {
	maxDepth := x.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if depth > maxDepth {
		return partError(part, fmt.Errorf("MIME parts nested deeper than %d", maxDepth))
	}

	b, err := base.FromHeader(header, outer, contentLocation)
	switch {
	case err == base.ErrNoHeader:
	case err != nil:
		h.warn(partError(part, err))
	case b.Note != "":
		h.warn(partError(part, fmt.Errorf("%s", b.Note)))
	}

	decoded, err := decode(header.Get("Content-Transfer-Encoding"), body)
	if err != nil {
		h.warn(partError(part, err))
		return nil
	}

	mediaType, params, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil {
		mediaType = "text/plain" // RFC 2045, Section 5.2: the default
	}
	switch {
	case mediaType == "text/html" || mediaType == "application/xhtml+xml":
		_, err := x.html(decoded, b, part, h)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			err = partError(part, err)
		}
		return err
	case strings.HasPrefix(mediaType, "multipart/"):
		return x.multipart(decoded, params["boundary"], b, part, depth, h)
	case mediaType == "message/rfc822" || mediaType == "message/global":
		msg, err := mail.ReadMessage(bufio.NewReader(decoded))
		if err != nil {
			h.warn(partError(part, fmt.Errorf("reading enclosed message: %w", err)))
			return nil
		}
		return x.entity(textproto.MIMEHeader(msg.Header), msg.Body, b.Enclosed(), true, part, depth+1, h)
	}
	return nil
}

func (x *Extractor) multipart(body io.Reader, boundary string, b base.Base, part string, depth int, h *Handler) error {
	if boundary == "" {
		h.warn(partError(part, fmt.Errorf("multipart without a boundary: skipped")))
		return nil
	}
	mr := multipart.NewReader(body, boundary)
	for i := 1; ; i++ {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			h.warn(partError(part, fmt.Errorf("broken multipart: %w", err)))
			return nil
		}
		path := strconv.Itoa(i)
		if part != "" {
			path = part + "." + path
		}
		err = x.entity(p.Header, p, b.Enclosed(), true, path, depth+1, h)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			// The part was read to the end of the input: all its links
			// are out, only the closing boundary is missing.
			h.warn(partError(path, errors.New("the input ends inside this part: the multipart has no closing boundary")))
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// decode returns body decoded from its Content-Transfer-Encoding (RFC 2045,
// Section 6).
func decode(encoding string, body io.Reader) (io.Reader, error) {
	switch e := strings.ToLower(strings.TrimSpace(encoding)); e {
	case "", "7bit", "8bit", "binary":
		return body, nil
	case "quoted-printable":
		return quotedprintable.NewReader(body), nil
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, newlineSkipper{body}), nil
	default:
		return nil, fmt.Errorf("unknown Content-Transfer-Encoding %q: skipped", encoding)
	}
}

// newlineSkipper drops the line breaks and spaces of a base64 body, which
// base64.NewDecoder does not skip all of.
type newlineSkipper struct{ r io.Reader }

func (s newlineSkipper) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	w := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' && c != ' ' && c != '\t' {
			p[w] = c
			w++
		}
	}
	return w, err
}
