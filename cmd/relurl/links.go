package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/links"
)

const linksHelp = `
Links prints the links of a document, resolved (by RFC 1808, Section 4, or
with -rfc 3986 by RFC 3986) against the document's base URL, established by
the layers of RFC 1808, Section 3:

  3.1  a base in the document: HTML's <base href>, a message's
       "Base: <URL:...>" header, or its successors Content-Base and (in MIME
       parts) Content-Location;
  3.2  the base of the entity the document is part of: a MIME part takes its
       enclosing multipart's or message's, recursively;
  3.3  the URL it was retrieved by: the last URL after redirects when relurl
       fetches it, or -url for a file or standard input;
  3.4  none: absolute links are printed, relative ones counted as unresolved.

DOCUMENT is a file, - for standard input, or an http or https URL to fetch.
A file is HTML, or a MIME message (e-mail .eml, web archive .mht/.mhtml)
whose HTML parts give links; -type auto tells them apart by the file's
extension, else by whether it begins with a header line.

Links are printed one per line in document order, or with -json as one
object per line: url (null if unresolved), ref (the attribute's value), base,
base_from (html-base, base-header, content-base, content-location,
encapsulating, retrieval or none), element, attribute and part (the MIME
part's path, such as "1.2", or null).

Elements read (-elements chooses among them): a, area, link (href); img,
script, iframe, frame, embed, source, audio, video, track (src); video
(poster); form (action); blockquote, q, del, ins (cite); object (data); img
and source (srcset: each candidate).

Problems that leave the rest readable (a relative <base href>, a part with an
unknown transfer encoding, a broken boundary) are warnings on standard error.
Errors (a failed fetch, a non-2xx answer, too many redirects, a timeout,
nesting deeper than -max-depth, a document over -max-size) exit 1, after the
links found until then.

Examples:

  $ relurl links testdata/documents/rfc1808-appendix.html
  http://www.ics.uci.edu/Test/a/x

  $ relurl links -url https://example.org/docs/ page.html
  $ relurl links -json saved-page.mhtml | jq -r 'select(.element=="img") | .url'
  $ relurl links https://www.example.org/
`

const baseHelp = `
Base prints the base URL that RFC 1808, Section 3 establishes for a document,
and the layer that set it (html-base, base-header, content-base,
content-location, encapsulating, retrieval or none), as "BASE<TAB>LAYER".
For a MIME message, it prints a line "PART<TAB>BASE<TAB>LAYER" for each HTML
part. DOCUMENT and the flags are those of relurl links.

Examples:

  $ relurl base testdata/documents/rfc1808-appendix.html
  http://www.ics.uci.edu/Test/a/b/c	html-base
`

// docFlags are the flags that say how to read a document, for links and base.
type docFlags struct {
	url             string
	typ             string
	maxDepth        int
	maxSize         int64
	maxRedirects    int
	timeout         time.Duration
	contentLocation bool
}

func (d *docFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.url, "url", "", "the `URL` a file or standard input was retrieved from (Section 3.3)")
	fs.StringVar(&d.typ, "type", "auto", "the document's `type`: html, message (MIME: .eml, .mhtml) or auto")
	fs.IntVar(&d.maxDepth, "max-depth", links.DefaultMaxDepth, "the deepest nesting of MIME parts to read")
	fs.Int64Var(&d.maxSize, "max-size", 64<<20, "read at most this many `bytes` of a document")
	fs.IntVar(&d.maxRedirects, "max-redirects", links.DefaultMaxRedirects, "follow at most this many HTTP redirects")
	fs.DurationVar(&d.timeout, "timeout", 30*time.Second, "give up on an HTTP fetch after this long, body included")
	fs.BoolVar(&d.contentLocation, "content-location", false, "let an HTTP response's Content-Location header set the base (RFC 7231 says it does not)")
}

func runLinks(e *env, args []string) int {
	fs := flag.NewFlagSet("links", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per link")
	r := rfcFlags(fs)
	elements := fs.String("elements", "", "read only these `elements`, comma-separated (default all)")
	if code, ok := e.parseFlags(fs, args, linksHelp); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return e.usageError("links", "want one DOCUMENT (a file, - or a URL), got %d arguments", fs.NArg())
	}
	x := &links.Extractor{MaxDepth: d.maxDepth, Resolver: *r}
	if *elements != "" {
		x.Only = map[string]bool{}
		for _, name := range strings.Split(*elements, ",") {
			name = strings.ToLower(strings.TrimSpace(name))
			if _, ok := links.Elements[name]; !ok {
				return e.usageError("links", "-elements: %q is not one of %s", name, strings.Join(links.ElementNames(), ","))
			}
			x.Only[name] = true
		}
	}

	out := bufio.NewWriter(e.stdout)
	unresolved := 0
	h := &links.Handler{
		Link: func(l *links.Link) error {
			if l.URL == nil {
				unresolved++
			}
			switch {
			case *asJSON:
				out.Write(appendJSON(out.AvailableBuffer(), linkObject(l)))
			case l.URL != nil:
				out.Write(l.URL)
				out.WriteByte('\n')
			}
			return nil
		},
		Warn: e.warner("links"),
	}
	err := e.readDocument(fs.Arg(0), &d, x, h)
	status := e.flush("links", out)
	if unresolved > 0 && !*asJSON {
		fmt.Fprintf(e.stderr, "relurl links: %d relative links left unresolved: the document has no base URL (give -url)\n", unresolved)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl links: %v\n", err)
		return exitInvalid
	}
	return status
}

func runBase(e *env, args []string) int {
	fs := flag.NewFlagSet("base", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	if code, ok := e.parseFlags(fs, args, baseHelp); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return e.usageError("base", "want one DOCUMENT (a file, - or a URL), got %d arguments", fs.NArg())
	}
	out := bufio.NewWriter(e.stdout)
	h := &links.Handler{
		Link: func(*links.Link) error { return nil },
		Base: func(part string, b base.Base) {
			u := b.URL
			if b.From == base.None {
				u = "(none)"
			}
			if part != "" {
				fmt.Fprintf(out, "%s\t", part)
			}
			fmt.Fprintf(out, "%s\t%s\n", u, b.From)
		},
		Warn: e.warner("base"),
	}
	err := e.readDocument(fs.Arg(0), &d, &links.Extractor{MaxDepth: d.maxDepth}, h)
	status := e.flush("base", out)
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl base: %v\n", err)
		return exitInvalid
	}
	return status
}

func (e *env) warner(cmd string) func(error) {
	return func(err error) { fmt.Fprintf(e.stderr, "relurl %s: warning: %v\n", cmd, err) }
}

// readDocument reads the document named by arg, a URL to fetch, "-" or a
// file, and hands what it finds to h.
func (e *env) readDocument(arg string, d *docFlags, x *links.Extractor, h *links.Handler) error {
	if d.typ != "auto" && d.typ != "html" && d.typ != "message" {
		return fmt.Errorf("-type %q: want html, message or auto", d.typ)
	}
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		if d.url != "" {
			return errors.New("-url is for a file or standard input; a fetched document's URL is where it was found")
		}
		return e.fetchDocument(arg, d, x, h)
	}
	in, name := e.stdin, "standard input"
	if arg != "-" {
		f, err := os.Open(arg)
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, arg
	}
	r := newLimitReader(in, d.maxSize)
	typ := d.typ
	br := bufio.NewReader(r)
	if typ == "auto" {
		typ = sniffType(arg, br)
	}
	outer := base.Retrieved(d.url)
	var err error
	switch typ {
	case "html":
		_, err = x.HTML(br, outer, h)
	case "message":
		x.ContentLocation = true // a file is a MIME message, not an HTTP response
		err = x.Message(br, outer, h)
	}
	return r.finish(err, name)
}

// sniffType tells a MIME message from HTML: by the file's extension, else
// by whether the first line is a header field ("Name: value").
func sniffType(name string, br *bufio.Reader) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".eml", ".mht", ".mhtml", ".mime":
		return "message"
	case ".html", ".htm", ".xhtml":
		return "html"
	}
	first, _ := br.Peek(256)
	first = bytes.TrimLeft(first, "\ufeff")
	if i := bytes.IndexByte(first, ':'); i > 0 {
		if bytes.IndexFunc(first[:i], func(r rune) bool { return r <= ' ' || r > '~' }) < 0 {
			return "message"
		}
	}
	return "html"
}

func (e *env) fetchDocument(url string, d *docFlags, x *links.Extractor, h *links.Handler) error {
	ctx := context.Background()
	resp, err := links.Fetch(ctx, nil, url, d.maxRedirects, d.timeout)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	retrieved := base.Retrieved(resp.Request.URL.String())
	if last := resp.Request.URL.String(); last != url {
		h.Warn(fmt.Errorf("redirected: %s is the retrieval URL", last))
	}
	r := newLimitReader(resp.Body, d.maxSize)
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	typ := d.typ
	if typ == "auto" {
		switch {
		case strings.HasPrefix(mediaType, "multipart/") || strings.HasPrefix(mediaType, "message/"):
			typ = "message"
		case mediaType == "" || mediaType == "text/html" || mediaType == "application/xhtml+xml":
			typ = "html"
		default:
			h.Warn(fmt.Errorf("%s is %s, not HTML: no links", resp.Request.URL, mediaType))
			return nil
		}
	}
	// The response is a MIME entity: its header may set the base, and
	// its body is HTML or parts. Without a media type, or with -type
	// html, it is read as HTML.
	header := textproto.MIMEHeader(resp.Header.Clone())
	if typ == "html" {
		header.Set("Content-Type", "text/html")
	}
	x.ContentLocation = d.contentLocation
	return r.finish(x.Entity(header, r, retrieved, h), url)
}

// limitReader reads at most n bytes and tells whether there was more.
type limitReader struct {
	r         io.Reader
	limit, n  int64 // the limit, and what is left of it
	truncated bool
}

func newLimitReader(r io.Reader, n int64) *limitReader { return &limitReader{r: r, limit: n, n: n} }

// finish returns err, the outcome of reading the document name through l,
// or if there is none and l cut the document short, an error that says so.
func (l *limitReader) finish(err error, name string) error {
	if err == nil && l.truncated {
		return fmt.Errorf("%s is larger than -max-size %d bytes: links from its first %d bytes only", name, l.limit, l.limit)
	}
	return err
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// Look one byte further: at the limit exactly is not over it.
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			l.truncated = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// linkObject returns what the JSON line of a link holds.
func linkObject(l *links.Link) any {
	type linkJ struct {
		URL       *string `json:"url"`
		Ref       string  `json:"ref"`
		Base      *string `json:"base"`
		BaseFrom  string  `json:"base_from"`
		Element   string  `json:"element"`
		Attribute string  `json:"attribute"`
		Part      *string `json:"part"`
	}
	j := linkJ{Ref: string(l.Ref), BaseFrom: l.Base.From.String(), Element: l.Element, Attribute: l.Attribute}
	if l.URL != nil {
		u := string(l.URL)
		j.URL = &u
	}
	if l.Base.From != base.None {
		j.Base = &l.Base.URL
	}
	if l.Part != "" {
		j.Part = &l.Part
	}
	return j
}
