package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"os"
	"strings"
	"time"

	"github.com/relurl/relurl"
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

DOCUMENT is a file, - for standard input, or an http or https URL to fetch
(any argument "SCHEME://..." is a URL; other schemes are refused). A file
is HTML, or a MIME message (e-mail .eml, web archive .mht/.mhtml) whose
HTML parts give links; -type auto tells them apart by the file's extension,
else by its first bytes: markup starts with "<", a message with a header
field ("Name:"). HTML is decoded to UTF-8 by its byte order mark, charset
or <meta charset>.

Links are printed one per line in document order, control bytes
percent-encoded, or with -json as one object per line: url (null if
unresolved), ref (the attribute's value as written), base, base_from
(html-base, base-header, content-base, content-location, encapsulating,
retrieval or none), element, attribute and part (the MIME part's path, such
as "1.2", or null); url_base64 and ref_base64 hold the exact bytes of a
value that is not valid UTF-8.

Elements read (-elements chooses among them): a, area, link (href); img,
script, iframe, frame, embed, source, audio, video, track (src); video
(poster); form (action); blockquote, q, del, ins (cite); object (data); img
and source (srcset: each valid candidate). As in a browser, a value loses
its tabs and newlines and its leading and trailing spaces and controls, a
<base> inside <svg>, <math> or <template> does not count, and links inside
<template> are skipped (-template reads them).

Problems that leave the rest readable are warnings on standard error: a
relative <base href>, a part that cannot be decoded or whose header is
unreadable (the next part is read), a missing closing boundary, a message
with no HTML part, a response that is not HTML. Errors exit 1, after the
links found until then: a failed fetch, a non-2xx answer, too many
redirects, a timeout, a connection closed early, nesting deeper than
-max-depth, a document over -max-size. Bad flag values exit 2.

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
	verbose         bool
}

func (d *docFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.url, "url", "", "the absolute `URL` a file or standard input was retrieved from (Section 3.3)")
	fs.StringVar(&d.typ, "type", "auto", "the document's `type`: html, message (.eml, .mhtml) or auto")
	fs.IntVar(&d.maxDepth, "max-depth", links.DefaultMaxDepth, "the deepest nesting of MIME parts to read, at least 1")
	fs.Int64Var(&d.maxSize, "max-size", 64<<20, "read at most this many `bytes` of a document, at least 1")
	fs.IntVar(&d.maxRedirects, "max-redirects", links.DefaultMaxRedirects, "follow at most this many HTTP redirects")
	fs.DurationVar(&d.timeout, "timeout", 30*time.Second, "give up on a fetch after this long, body included; 0: never")
	fs.BoolVar(&d.contentLocation, "content-location", false, "let an HTTP Content-Location header set the base (RFC 7231 says no)")
	fs.BoolVar(&d.verbose, "v", false, "report the redirects a fetch followed")
}

// parse parses the flags and argument of links or base, one DOCUMENT, and
// reports as parseFlags does whether the command should run: a flag value
// that cannot work is a usage error.
func (d *docFlags) parse(e *env, fs *flag.FlagSet, args []string, help string) (int, bool) {
	if code, ok := e.parseFlags(fs, args, help); !ok {
		return code, false
	}
	if fs.NArg() != 1 {
		return e.usageError(fs.Name(), "want one DOCUMENT (a file, - or a URL), got %d arguments", fs.NArg()), false
	}
	if err := d.check(); err != nil {
		return e.usageError(fs.Name(), "%v", err), false
	}
	return 0, true
}

// check reports a flag value that cannot work.
func (d *docFlags) check() error {
	switch {
	case d.typ != "auto" && d.typ != "html" && d.typ != "message":
		return fmt.Errorf("-type %q: want html, message or auto", d.typ)
	case d.maxSize < 1:
		return fmt.Errorf("-max-size %d: want a number of bytes, at least 1", d.maxSize)
	case d.maxDepth < 1:
		return fmt.Errorf("-max-depth %d: want at least 1", d.maxDepth)
	case d.maxRedirects < 0:
		return fmt.Errorf("-max-redirects %d: want 0 or more", d.maxRedirects)
	case d.timeout < 0:
		return fmt.Errorf("-timeout %v: want 0 (none) or more", d.timeout)
	case d.url != "" && !relurl.Split(d.url).HasScheme():
		return fmt.Errorf("-url %q: a retrieval URL must be absolute, with a scheme", d.url)
	}
	return nil
}

func runLinks(e *env, args []string) int {
	fs := flag.NewFlagSet("links", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per link")
	r := rfcFlags(fs)
	elements := fs.String("elements", "", "read only these `elements`, comma-separated (default all)")
	template := fs.Bool("template", false, "read the links inside <template>, which browsers keep out of the document")
	if code, ok := d.parse(e, fs, args, linksHelp); !ok {
		return code
	}
	if err := checkRFC(r); err != nil {
		return e.usageError("links", "%v", err)
	}
	x := &links.Extractor{MaxDepth: d.maxDepth, Resolver: *r, Template: *template}
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
				out.Write(endURLLine(append(out.AvailableBuffer(), l.URL...), 0))
			}
			return nil
		},
		Warn: e.warner("links"),
	}
	err := e.readDocument(fs.Arg(0), &d, x, h)
	status := e.flush(out)
	if unresolved > 0 && !*asJSON {
		fmt.Fprintf(e.stderr, "relurl links: %d relative links left unresolved: the document has no base URL (give -url)\n", unresolved)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl links: %s\n", printable(err.Error()))
		return max(status, exitInvalid)
	}
	return status
}

func runBase(e *env, args []string) int {
	fs := flag.NewFlagSet("base", flag.ContinueOnError)
	var d docFlags
	d.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per document or HTML part")
	if code, ok := d.parse(e, fs, args, baseHelp); !ok {
		return code
	}
	out := bufio.NewWriter(e.stdout)
	h := &links.Handler{
		Link: func(*links.Link) error { return nil },
		Base: func(part string, b base.Base) {
			if *asJSON {
				out.Write(appendJSON(out.AvailableBuffer(), baseObject(part, b)))
				return
			}
			u := printable(b.URL)
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
	status := e.flush(out)
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl base: %s\n", printable(err.Error()))
		return max(status, exitInvalid)
	}
	return status
}

func (e *env) warner(cmd string) func(error) {
	return func(err error) { fmt.Fprintf(e.stderr, "relurl %s: warning: %s\n", cmd, printable(err.Error())) }
}

// readDocument reads the document named by arg, a URL to fetch, "-" or a
// file, and hands what it finds to h. An argument that starts with a scheme
// and "://" is a URL, whatever its case; only http and https are fetched.
func (e *env) readDocument(arg string, d *docFlags, x *links.Extractor, h *links.Handler) error {
	if u := relurl.Split(arg); u.HasScheme() && strings.HasPrefix(arg[len(u.Scheme())+1:], "//") {
		switch strings.ToLower(u.Scheme()) {
		case "http", "https":
		default:
			return fmt.Errorf("%s: the %s scheme is not supported: give a file, - or an http or https URL", arg, u.Scheme())
		}
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
	br := bufio.NewReader(r)
	format := links.FormatHTML
	switch d.typ {
	case "message":
		format = links.FormatMessage
	case "auto":
		prefix, _ := br.Peek(512)
		format = links.FormatOf(arg, prefix)
	}
	outer := base.Retrieved(d.url)
	var err error
	switch format {
	case links.FormatHTML:
		_, err = x.HTML(br, outer, h)
	case links.FormatMessage:
		x.ContentLocation = true // a file is a MIME message, not an HTTP response
		err = x.Message(br, outer, h)
	}
	return r.finish(err, name, "reading "+name)
}

func (e *env) fetchDocument(url string, d *docFlags, x *links.Extractor, h *links.Handler) error {
	ctx := context.Background()
	resp, err := links.Fetch(ctx, nil, url, d.maxRedirects, d.timeout)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if chain := links.Redirects(resp); d.verbose && len(chain) > 1 {
		fmt.Fprintf(e.stderr, "relurl: redirected: %s\n", printable(strings.Join(chain, " -> ")))
	}
	last := resp.Request.URL.String()
	r := newLimitReader(resp.Body, d.maxSize)
	resp.Body = io.NopCloser(r)
	if mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); d.typ == "html" && mediaType != "text/html" && mediaType != "application/xhtml+xml" {
		resp.Header.Set("Content-Type", "text/html") // read as HTML, whatever it says it is
	}
	x.ContentLocation = d.contentLocation
	return r.finish(x.Response(resp, h), url, "reading the body of "+last)
}

// limitReader reads at most n bytes and tells whether there was more.
type limitReader struct {
	r         io.Reader
	limit, n  int64 // the limit, and what is left of it
	truncated bool
}

func newLimitReader(r io.Reader, n int64) *limitReader { return &limitReader{r: r, limit: n, n: n} }

// finish returns err, the outcome of reading the document name through l,
// with what it was reading (such as "reading FILE") before a read error; or
// if there is none and l cut the document short, an error that says so.
func (l *limitReader) finish(err error, name, reading string) error {
	var rerr *links.ReadError
	if errors.As(err, &rerr) {
		return fmt.Errorf("%s: %w", reading, rerr.Err)
	}
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
		URLBase64 *string `json:"url_base64,omitempty"`
		Ref       string  `json:"ref"`
		RefBase64 *string `json:"ref_base64,omitempty"`
		Base      *string `json:"base"`
		BaseFrom  string  `json:"base_from"`
		Element   string  `json:"element"`
		Attribute string  `json:"attribute"`
		Part      *string `json:"part"`
	}
	j := linkJ{Ref: string(l.Ref), BaseFrom: l.Base.From.String(), Element: l.Element, Attribute: l.Attribute}
	j.RefBase64 = exactBytes(j.Ref)
	if l.URL != nil {
		u := string(l.URL)
		j.URL, j.URLBase64 = &u, exactBytes(u)
	}
	if l.Base.From != base.None {
		j.Base = &l.Base.URL
	}
	if l.Part != "" {
		j.Part = &l.Part
	}
	return j
}

// baseObject returns what the JSON line of a document's base holds.
func baseObject(part string, b base.Base) any {
	type baseJ struct {
		Part     *string `json:"part"`
		Base     *string `json:"base"`
		BaseFrom string  `json:"base_from"`
	}
	j := baseJ{BaseFrom: b.From.String()}
	if part != "" {
		j.Part = &part
	}
	if b.From != base.None {
		j.Base = &b.URL
	}
	return j
}
