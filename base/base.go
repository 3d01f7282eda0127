// Package base establishes the base URL of a document, by the layers of
// RFC 1808, Section 3, innermost first:
//
//  1. a base embedded in the content (3.1): HTML's BASE element, or for a
//     message, its Base header;
//  2. the base of the encapsulating entity (3.2), such as the MIME multipart
//     or message the document is a part of;
//  3. the URL used to retrieve the document (3.3), the last one after
//     redirects;
//  4. none (3.4): relative references cannot be resolved.
//
// A Base records where its URL came from, so that a tool can say why a link
// resolved as it did. Finding the BASE element belongs to the HTML reader
// (package links); this package gives the header layer and the rules that
// tie the layers together.
package base

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"

	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/whatwg"
)

// Source names the layer of Section 3 that set a base URL.
type Source int

const (
	None            Source = iota // 3.4: no base; relative references stay unresolved
	Retrieval                     // 3.3: the URL the document was retrieved by
	Encapsulating                 // 3.2: the base of the entity the document is part of
	ContentLocation               // 3.1: a Content-Location header (RFC 2557)
	ContentBase                   // 3.1: a Content-Base header (RFC 2110)
	BaseHeader                    // 3.1: a Base header, "Base: <URL:...>"
	HTMLBase                      // 3.1: an HTML <base href> element
	XMLBase                       // 3.1: an xml:base attribute (XML Base) of a sitemap or a feed
)

var sourceNames = [...]string{"none", "retrieval", "encapsulating", "content-location", "content-base", "base-header", "html-base", "xml-base"}

// String returns the name used in relurl's output: "none", "retrieval",
// "encapsulating", "content-location", "content-base", "base-header",
// "html-base" or "xml-base".
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("Source(%d)", int(s))
}

// Base is a document's base URL and the layer that set it. The zero Base is
// the empty base of Section 3.4.
type Base struct {
	URL  string
	From Source
	// Note explains a base that needed help: a relative value resolved
	// against the next layer out, as Section 3.1 requires an absolute one.
	Note string
}

// Resolve returns ref resolved against b by Section 4; with the empty base,
// ref itself (Step 1).
func (b Base) Resolve(ref string) string { return rfc1808.Resolve(b.URL, ref) }

// Retrieved returns the base of a document retrieved by url (Section 3.3).
func Retrieved(url string) Base {
	if url == "" {
		return Base{}
	}
	return Base{URL: url, From: Retrieval}
}

// Enclosed returns the base that outer, the base of an entity, gives the
// documents inside it (Section 3.2): the same URL, now from the
// encapsulating entity. The empty base stays empty.
func (outer Base) Enclosed() Base {
	if outer.From == None {
		return outer
	}
	return Base{URL: outer.URL, From: Encapsulating}
}

// Embedded returns the base that a value found in a layer of Section 3.1
// (an HTML <base href>, a header) gives, with outer the base of the next
// layer out. The RFC requires an absolute URL there; a relative one, as
// documents do give, is resolved against outer, and Note says so.
func (outer Base) Embedded(value string, from Source) Base {
	b := Base{URL: value, From: from}
	if !rfc1808.Split(value).HasScheme() {
		b.URL = outer.Resolve(value)
		if outer.From == None {
			b.Note = fmt.Sprintf("relative %s %q, and no outer base to resolve it", from, value)
		} else {
			b.Note = fmt.Sprintf("relative %s %q resolved against the %s base %s", from, value, outer.From, outer.URL)
		}
	}
	return b
}

// ParseBaseHeader returns the URL of a Base header's value (Section 3.1):
//
//	base-header = "Base" ":" "<URL:" absoluteURL ">"
//
// White space anywhere inside the angle brackets is ignored, including that
// of folded lines. The URL must be absolute.
func ParseBaseHeader(value string) (string, error) {
	v := strings.TrimSpace(value)
	inner, ok := strings.CutPrefix(v, "<")
	if ok {
		inner, ok = strings.CutSuffix(inner, ">")
	}
	inner = strings.Join(strings.Fields(inner), "")
	if rest, hasURL := cutPrefixFold(inner, "URL:"); ok && hasURL {
		if _, err := rfc1808.Validate(rest); err != nil {
			return "", fmt.Errorf("Base header: %w", err)
		}
		if !rfc1808.Split(rest).HasScheme() {
			return "", fmt.Errorf("Base header %q: the URL is not absolute", value)
		}
		return rest, nil
	}
	return "", fmt.Errorf("Base header %q: want \"<URL:absoluteURL>\"", value)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// ErrNoHeader is returned by FromHeader when no header sets a base.
var ErrNoHeader = errors.New("no base header")

// FromHeader returns the base that a message's or part's header sets,
// with outer the base of the next layer out. The headers, in precedence:
//
//  1. Base: <URL:...>, RFC 1808 Section 3.1's own;
//  2. Content-Base, its successor in MIME (RFC 2110);
//  3. Content-Location (RFC 2557), which MHTML gives every part, only if
//     contentLocation is set. Over HTTP it no longer sets a base (RFC 7231,
//     Section 3.1.4.2), so fetchers pass false unless asked otherwise.
//
// A relative Content-Base or Content-Location is resolved against outer.
// FromHeader returns ErrNoHeader when none is present, and the error of a
// malformed Base header, after which the lower headers are still consulted:
// the base returned is then usable.
func FromHeader(h textproto.MIMEHeader, outer Base, contentLocation bool) (Base, error) {
	var baseErr error
	if v := h.Get("Base"); v != "" {
		u, err := ParseBaseHeader(v)
		if err == nil {
			return Base{URL: u, From: BaseHeader}, nil
		}
		baseErr = err
	}
	if v := headerURL(h.Get("Content-Base")); v != "" {
		return outer.Embedded(v, ContentBase), baseErr
	}
	if v := headerURL(h.Get("Content-Location")); v != "" && contentLocation {
		return outer.Embedded(v, ContentLocation), baseErr
	}
	if baseErr != nil {
		return outer, baseErr
	}
	return outer, ErrNoHeader
}

// headerURL returns the URL in a Content-Base or Content-Location value:
// without the white space of folding, and without quotes, which some
// writers put around it.
func headerURL(v string) string {
	v = strings.Join(strings.Fields(v), "")
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	return v
}

// EmbeddedWeb is Embedded as HTML establishes a document's base URL under
// the WHATWG URL Standard: the value is parsed with outer's URL as its base
// (the document's fallback base URL), so it comes out serialized as the URL
// parser writes it. When the parser fails, the error says why, and the
// document keeps outer, as HTML does.
func (outer Base) EmbeddedWeb(value string, from Source) (Base, error) {
	var u whatwg.URL
	var err error
	if o, oerr := whatwg.Parse(outer.URL); outer.From != None && oerr == nil {
		u, err = o.Parse(value)
	} else {
		u, err = whatwg.Parse(value)
	}
	if err != nil {
		return outer, fmt.Errorf("%s %q: %w", from, value, err)
	}
	// A relative value is no anomaly here: HTML resolves it so.
	return Base{URL: u.Href(), From: from}, nil
}
