package links

import (
	"bufio"
	"bytes"
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
)

// message extracts the links of a MIME message read from r, header and
// body: an e-mail (.eml) or a web archive saved as one file (MHTML, .mht).
// See entityOf.
func (x *Extractor) message(r io.Reader, outer Base, h *Handler) error {
	src := &source{r: r}
	msg, err := mail.ReadMessage(bufio.NewReader(src))
	if err != nil {
		if src.err != nil {
			return &ReadError{src.err}
		}
		return fmt.Errorf("reading message header: %w", err)
	}
	return x.entityOf(Doc{Base: outer, Header: textproto.MIMEHeader(msg.Header)}, msg.Body, 0, h)
}

// entityOf extracts the links of a document with a header, doc.Header,
// whose body, not yet decoded, is body: a MIME message or part, or an HTTP
// response, such as one of type multipart/related. Its header and those of
// its parts set bases as baseFromHeader describes, a part's over its
// enclosing entity's (Section 3.2), with doc.Base the base of the whole;
// x.ContentLocation says whether the outermost Content-Location counts
// (each part's always does). as is the format the body is read as; 0 reads
// it as its Content-Type says.
//
// Bodies in quoted-printable and base64 are decoded. HTML parts (text/html,
// application/xhtml+xml) give links; multipart/* and message/* parts are
// walked, each part's path numbering it within its parent from 1 ("2.1" is
// the first part of the second).
//
// Nothing readable is lost to a bad part: a part that cannot be decoded (an
// unknown transfer encoding, corrupt base64 or quoted-printable), whose
// header the standard library refuses, or that the input ends inside is
// reported to h.Warn, and the parts after it are read. An error reading
// body itself (a connection closed early, a timeout) is not the content's
// fault: it stops the walk and is returned as a *ReadError, as nesting
// deeper than x.MaxDepth is returned. A message with no HTML part is
// reported to h.Warn, since it gives no links.
func (x *Extractor) entityOf(doc Doc, body io.Reader, as Format, h *Handler) error {
	x.src = &source{r: body}
	x.htmlParts = 0
	err := unwrapHandler(x.entity(doc.Header, x.src, doc.Base, x.ContentLocation, "", 0, as, h))
	if err == nil && x.htmlParts == 0 && as == 0 {
		mediaType, _, _ := mime.ParseMediaType(doc.Header.Get("Content-Type"))
		h.warn(fmt.Errorf("no HTML part (text/html or application/xhtml+xml) in this %s: no links", entityName(mediaType)))
	}
	return err
}

func entityName(mediaType string) string {
	if mediaType == "" {
		return "text/plain entity"
	}
	return mediaType + " entity"
}

// source is the input of an entity: it keeps the first error of reading it,
// so that a transport's failure is told from a fault of the content.
type source struct {
	r   io.Reader
	err error
}

func (s *source) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// fault decides what an error from reading a part means: nil when it is
// the content's fault, reported to h.Warn so that the next part is read;
// the error itself when the input failed, a handler stopped the walk, or
// the input ended inside the part (the enclosing multipart reports that).
func (x *Extractor) fault(part string, err error, h *Handler) error {
	var herr handlerError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &herr):
		return err
	case x.src.err != nil:
		return &ReadError{x.src.err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return err
	}
	h.warn(&Loss{Err: partError(part, fmt.Errorf("%w: the rest of the part is skipped", err)), Cut: true})
	return nil
}

func (x *Extractor) entity(header textproto.MIMEHeader, body io.Reader, outer Base, contentLocation bool, part string, depth int, as Format, h *Handler) error {
	if maxDepth := x.maxDepth(); depth > maxDepth {
		return partError(part, fmt.Errorf("MIME parts nested deeper than %d", maxDepth))
	}

	b, err := baseFromHeader(header, outer, contentLocation)
	switch {
	case err == errNoHeader:
	case err != nil:
		h.warn(partError(part, err))
	case b.Note != "":
		h.warn(partError(part, fmt.Errorf("%s", b.Note)))
	}

	decoded, err := decode(header.Get("Content-Transfer-Encoding"), body)
	if err != nil {
		h.warn(&Loss{Err: partError(part, err)})
		return nil
	}
	if decoded == io.Reader(x.src) {
		if buf, ok := x.src.r.(*bytes.Buffer); ok {
			decoded = buf // in memory, and nothing to decode: read where it is (see html)
		}
	}

	contentType := header.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mediaType = "text/plain" // RFC 2045, Section 5.2: the default
	}
	switch {
	case as == FormatMarkdown:
		return x.markdown(decoded, b, h)
	case as == FormatText:
		return x.plainText(decoded, b, h)
	case as == FormatXML:
		return x.xml(decoded, b, h)
	case as == FormatHTML, mediaType == "text/html" || mediaType == "application/xhtml+xml":
		err := x.html(decoded, contentType, b, part, h)
		return x.fault(part, err, h)
	case strings.HasPrefix(mediaType, "multipart/"):
		return x.multipart(decoded, params["boundary"], b, part, depth, h)
	case mediaType == "message/rfc822" || mediaType == "message/global":
		msg, err := mail.ReadMessage(bufio.NewReader(decoded))
		if err != nil {
			return x.fault(part, fmt.Errorf("reading enclosed message: %w", err), h)
		}
		return x.entity(textproto.MIMEHeader(msg.Header), msg.Body, b.enclosed(), true, part, depth+1, 0, h)
	}
	return nil
}

func (x *Extractor) multipart(body io.Reader, boundary string, b Base, part string, depth int, h *Handler) error {
	if boundary == "" {
		h.warn(&Loss{Err: partError(part, fmt.Errorf("multipart without a boundary: skipped"))})
		return nil
	}
	parts := newDelimiters(body, boundary)
	mr := multipart.NewReader(parts, boundary)
	for i := 1; ; i++ {
		path := strconv.Itoa(i)
		if part != "" {
			path = part + "." + path
		}
		p, err := mr.NextRawPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if x.src.err != nil {
				return &ReadError{x.src.err}
			}
			var resynced bool
			if mr, resynced = parts.after(i, boundary); !resynced {
				h.warn(&Loss{Err: partError(part, fmt.Errorf("broken multipart: %w", err)), Cut: true})
				return nil
			}
			h.warn(&Loss{Err: partError(path, fmt.Errorf("unreadable part header: %w: part skipped", err))})
			continue
		}
		err = x.entity(p.Header, p, b.enclosed(), true, path, depth+1, 0, h)
		if errors.Is(err, io.ErrUnexpectedEOF) && x.src.err == nil {
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

// delimiters passes a multipart body through to mime/multipart, counting
// its delimiter lines ("--boundary" at the start of a line, then optionally
// "--", white space and the end of the line) and keeping the last bytes it
// passed on. The standard library cannot go on after a part whose header
// it refuses (too many lines, a malformed line), so after one a new reader
// is started at the next delimiter line: the parts after it are not lost.
// Part i of the body starts at delimiter line i, whichever reader reads it.
type delimiters struct {
	r      io.Reader
	delim  []byte  // "--" + boundary
	state  int     // scanning: -1 mid-line, 0..len(delim) matched so far, then the line's end
	seen   int     // delimiter lines passed on
	offset int64   // bytes passed on
	ends   []int64 // where the last delimiter lines end: the offsets of their "\n"
	tail   []byte  // the last bytes passed on: at least tailSize of them, at most twice that
	replay []byte  // bytes to hand out again before reading r
}

// tailSize bounds what delimiters must keep: more than mime/multipart
// reads ahead (4 KiB).
const tailSize = 64 << 10

func newDelimiters(r io.Reader, boundary string) *delimiters {
	return &delimiters{r: r, delim: []byte("--" + boundary)}
}

func (d *delimiters) Read(p []byte) (int, error) {
	if len(d.replay) > 0 {
		n := copy(p, d.replay)
		d.replay = d.replay[n:]
		return n, nil
	}
	n, err := d.r.Read(p)
	d.scan(p[:n])
	return n, err
}

// scan counts the delimiter lines that end in p, and remembers p.
func (d *delimiters) scan(p []byte) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case d.state < 0: // mid-line: on to the next line
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				i = len(p)
				break
			}
			i += j
			d.state = 0
		case d.state < len(d.delim):
			if c == d.delim[d.state] {
				d.state++
			} else if c == '\n' {
				d.state = 0
			} else {
				d.state = -1
			}
		default: // the delimiter matched: the rest of the line decides
			switch c {
			case '-', ' ', '\t', '\r':
			case '\n':
				d.seen++
				d.ends = append(d.ends, d.offset+int64(i))
				if len(d.ends) > 64 {
					d.ends = d.ends[1:]
				}
				d.state = 0
			default:
				d.state = -1
			}
		}
	}
	d.offset += int64(len(p))
	// Keep the last bytes, moving them down only when tail is full: a
	// copy of tailSize bytes for every tailSize read at most.
	if len(d.tail)+len(p) > 2*tailSize {
		keep := max(tailSize-len(p), 0)
		d.tail = d.tail[:copy(d.tail, d.tail[len(d.tail)-min(keep, len(d.tail)):])]
		p = p[max(len(p)-tailSize, 0):]
	}
	d.tail = append(d.tail, p...)
}

// after returns a new multipart reader that starts at the delimiter line
// that ends part i, reading ahead to it if need be, or false if the body
// ends first or that line is no longer at hand.
func (d *delimiters) after(i int, boundary string) (*multipart.Reader, bool) {
	// What is left to replay is the end of tail: the new replay, from
	// tail too, covers it.
	d.replay = nil
	var buf [4096]byte
	for d.seen < i+1 {
		n, err := d.r.Read(buf[:])
		d.scan(buf[:n])
		if err != nil && d.seen < i+1 {
			return nil, false
		}
	}
	// Delimiter line i+1 ends at ends[k]; the new reader starts at the
	// start of that line.
	k := len(d.ends) - 1 - (d.seen - (i + 1))
	if k < 0 || d.offset-d.ends[k] > int64(len(d.tail)) {
		return nil, false
	}
	end := len(d.tail) - int(d.offset-d.ends[k])
	lineStart := bytes.LastIndexByte(d.tail[:end], '\n') + 1
	if lineStart == 0 && d.offset > int64(len(d.tail)) {
		return nil, false // the line starts before tail
	}
	d.replay = append([]byte(nil), d.tail[lineStart:]...)
	return multipart.NewReader(d, boundary), true
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
