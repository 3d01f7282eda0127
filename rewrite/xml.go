package rewrite

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/relurl/relurl/internal/capped"
	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/xmldoc"
	"github.com/temoto/robotstxt"
)

// A sitemap's, a feed's and robots.txt's URLs are absolute: the sitemaps
// protocol and RSS require it, and Atom readers are unreliable with
// relative ones. They are rewritten to their target's URL, moved (-move),
// or made absolute (-absolute); -relative leaves them absolute, never
// relative. Only the bytes of a URL that changes are written.

// absoluteRef returns what the link ref, which resolves to target, is
// rewritten to, and whether it changes.
func (rw *Rewriter) absoluteRef(ref, target string) (string, bool) {
	moved := rw.move(target)
	if moved == target && (rfc1808.Split(ref).HasScheme() || !rw.Absolute) {
		return "", false // absolute and not moved, or relative and not asked to change
	}
	return moved, moved != ref
}

// XML rewrites the URLs of the sitemap, sitemap index or feed (RSS, Atom)
// src, whose URL is url: each <loc>, RSS <link>, <guid>, <url> and
// enclosure, Atom link href, content src, icon, logo and uri, as package
// xmldoc finds them, each against its xml:base. A gzip-compressed document
// (sitemap.xml.gz) is inflated, up to xmldoc.MaxInflated, and compressed
// again. It is all or nothing: a link that cannot be rewritten where it is
// written (text broken by a comment, the links of the HTML a feed holds)
// is an error naming its line, and src is returned as it is.
func (rw *Rewriter) XML(src []byte, url string) ([]byte, Result, error) {
	var res Result
	doc, gzipped, err := inflate(src)
	if err != nil {
		return src, res, err
	}
	w := editWriter{text: doc}
	var with []byte
	for l, err := range xmldoc.Links(bytes.NewReader(doc), url) {
		if err != nil {
			return src, Result{}, err
		}
		if l.HTML != "" {
			out, r, err := rw.Document([]byte(l.HTML), links.Base{URL: l.Base, From: links.FromRetrieval})
			if err == nil && r.Rewritten > 0 && !bytes.Equal(out, []byte(l.HTML)) {
				err = fmt.Errorf("the HTML of its <%s> holds %d links to rewrite, and rewrite does not rewrite HTML inside a feed", l.Element, r.Rewritten)
			}
			if err != nil {
				return src, Result{}, fmt.Errorf("line %d: %w: not rewritten", l.Line, err)
			}
			continue
		}
		res.Links++
		target, rerr := rw.resolver().Resolve(l.Base, l.Ref)
		if rerr != nil || !rfc1808.Split(target).HasScheme() {
			continue
		}
		to, ok := rw.absoluteRef(l.Ref, target)
		if !ok {
			continue
		}
		start, end := l.Span[0], l.Span[1]
		var span [2]int
		if start < end {
			if l.Attribute == "" {
				span, ok = textSpan(doc[start:end], l.Ref)
			} else {
				span, ok = attrSpan(doc[start:end], l.Attribute, l.Ref, to)
			}
		} else {
			ok = false
		}
		if !ok {
			return src, Result{}, fmt.Errorf("line %d: the URL of <%s> %q is not written where rewrite can replace it alone (text broken by a comment or an element): not rewritten", l.Line, l.Element, l.Ref)
		}
		with = appendXMLEscaped(with[:0], to)
		w.add(edit{int(start) + span[0], int(start) + span[1], with})
		res.Rewritten++
	}
	if w.edits == 0 {
		return src, res, nil
	}
	if w.disordered {
		return src, Result{}, errors.New("its links came out of order: not rewritten")
	}
	out := w.finish()
	if gzipped {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write(out)
		z.Close()
		out = b.Bytes()
	}
	return out, res, nil
}

// inflate returns src inflated if it is gzip-compressed, up to
// xmldoc.MaxInflated, and whether it was.
func inflate(src []byte) ([]byte, bool, error) {
	if len(src) < 2 || src[0] != 0x1f || src[1] != 0x8b {
		return src, false, nil
	}
	z, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, true, err
	}
	c := capped.New(z, xmldoc.MaxInflated)
	doc, err := io.ReadAll(c)
	if err == nil && c.Over {
		err = fmt.Errorf("it inflates to more than %d bytes, the sitemaps protocol's bound: not rewritten", xmldoc.MaxInflated)
	}
	return doc, true, err
}

// textSpan returns where in text, an element's content as written, the
// URL ref is, white space around it left out; false unless what is
// there reads, as XML, as ref.
func textSpan(text []byte, ref string) ([2]int, bool) {
	const space = " \t\r\n"
	start := len(text) - len(bytes.TrimLeft(text, space))
	end := len(bytes.TrimRight(text, space))
	if start > end || !xmlReads(`<x>`+string(text[start:end])+`</x>`, ref) {
		return [2]int{}, false
	}
	return [2]int{start, end}, true
}

// attrSpan returns where in tag, a start tag as written, the value of its
// attribute name is, ref, between its quotes. It is found among the
// tag's quoted strings, and the tag with the value replaced by to must
// read, as XML, with that attribute to and every other as it was:
// encoding/xml decides, not this search.
func attrSpan(tag []byte, name, ref, to string) ([2]int, bool) {
	before, ok := readTag(string(tag))
	if !ok {
		return [2]int{}, false
	}
	for i := 0; i < len(tag); i++ {
		q := tag[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := bytes.IndexByte(tag[i+1:], q)
		if j < 0 {
			break
		}
		j += i + 1
		lead := strings.TrimRight(string(tag[:i]), " \t\r\n")
		if strings.HasSuffix(lead, "=") && strings.HasSuffix(strings.TrimRight(lead[:len(lead)-1], " \t\r\n"), name) {
			changed := string(tag[:i+1]) + string(appendXMLEscaped(nil, to)) + string(tag[j:])
			after, ok := readTag(changed)
			if ok && len(after) == len(before) {
				same := true
				for k := range before {
					want := before[k].Value
					if before[k].Name.Local == name && before[k].Name.Space == "" {
						want = to
						same = same && strings.TrimSpace(before[k].Value) == ref
					}
					same = same && after[k].Name == before[k].Name && after[k].Value == want
				}
				if same {
					return [2]int{i + 1, j}, true
				}
			}
		}
		i = j
	}
	return [2]int{}, false
}

// readTag reads tag, a start tag as written, with encoding/xml (closed,
// and its namespace prefixes left as written), and returns its
// attributes.
func readTag(tag string) ([]xml.Attr, bool) {
	d := xml.NewDecoder(strings.NewReader(strings.TrimSuffix(strings.TrimSuffix(tag, ">"), "/") + "/>"))
	d.Strict = false
	for {
		tok, err := d.RawToken()
		if err != nil {
			return nil, false
		}
		if t, ok := tok.(xml.StartElement); ok {
			return slices.Clone(t.Attr), true
		}
	}
}

// xmlReads reports whether the XML element s holds, as its text, want,
// white space around it trimmed.
func xmlReads(s, want string) bool {
	var v string
	if err := xml.Unmarshal([]byte(s), &v); err != nil {
		return false
	}
	return strings.TrimSpace(v) == want
}

// appendXMLEscaped appends s escaped for XML text and attribute values.
func appendXMLEscaped(b []byte, s string) []byte {
	var buf bytes.Buffer
	xml.EscapeText(&buf, []byte(s))
	return append(b, buf.Bytes()...)
}

// Robots rewrites the URLs of the Sitemap: lines of the robots.txt src,
// whose URL is url, as XML rewrites a sitemap's: absolute, moved. The
// lines are robots.txt's as github.com/temoto/robotstxt reads them; each
// value is replaced where it is written on its line, and the file read
// again must list the new sitemaps in the same order, or nothing is
// rewritten.
func (rw *Rewriter) Robots(src []byte, url string) ([]byte, Result, error) {
	var res Result
	data, err := robotstxt.FromBytes(src)
	if err != nil {
		return src, res, err
	}
	want := slices.Clone(data.Sitemaps)
	w := editWriter{text: src}
	at := 0
	for i, sm := range data.Sitemaps {
		res.Links++
		target, rerr := rw.resolver().Resolve(url, sm)
		if rerr != nil {
			continue
		}
		to, ok := rw.absoluteRef(sm, target)
		if !ok {
			continue
		}
		// The value on its Sitemap: line, after the ones before it.
		start := sitemapLine(src, at, sm)
		if start < 0 {
			return src, Result{}, fmt.Errorf("the sitemap %q is not written where rewrite can replace it: not rewritten", sm)
		}
		w.add(edit{start, start + len(sm), []byte(to)})
		at = start + len(sm)
		want[i] = to
		res.Rewritten++
	}
	if w.edits == 0 {
		return src, res, nil
	}
	out := w.finish()
	again, err := robotstxt.FromBytes(out)
	if err != nil || !slices.Equal(again.Sitemaps, want) {
		return src, Result{}, errors.New("its Sitemap: lines did not read back as rewritten: not rewritten")
	}
	return out, res, nil
}

// sitemapLine returns where, from at on, the value sm is written after
// "Sitemap:" on its line (in any case, spaces around the colon), or -1.
func sitemapLine(src []byte, at int, sm string) int {
	for at < len(src) {
		j := bytes.Index(src[at:], []byte(sm))
		if j < 0 {
			return -1
		}
		start := at + j
		line := src[bytes.LastIndexByte(src[:start], '\n')+1 : start]
		key, rest, ok := strings.Cut(string(line), ":")
		if ok && strings.EqualFold(strings.TrimSpace(key), "sitemap") && strings.TrimSpace(rest) == "" {
			return start
		}
		at = start + len(sm)
	}
	return -1
}
