// This file is a document's base URL, by the layers of RFC 1808, Section 3,
// innermost first:
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
// resolved as it did.

package links

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"

	"github.com/relurl/relurl"
	"github.com/relurl/relurl/rfc1808"
	"github.com/relurl/relurl/whatwg"
)

// BaseFrom names the layer of Section 3 that set a base URL.
type BaseFrom int

const (
	FromNone            BaseFrom = iota // 3.4: no base; relative references stay unresolved
	FromRetrieval                       // 3.3: the URL the document was retrieved by
	FromEncapsulating                   // 3.2: the base of the entity the document is part of
	FromContentLocation                 // 3.1: a Content-Location header (RFC 2557)
	FromContentBase                     // 3.1: a Content-Base header (RFC 2110)
	FromBaseHeader                      // 3.1: a Base header, "Base: <URL:...>"
	FromHTMLBase                        // 3.1: an HTML <base href> element
	FromXMLBase                         // 3.1: an xml:base attribute (XML Base) of a sitemap or a feed
)

var baseFromNames = [...]string{"none", "retrieval", "encapsulating", "content-location", "content-base", "base-header", "html-base", "xml-base"}

// String returns the name used in relurl's output: "none", "retrieval",
// "encapsulating", "content-location", "content-base", "base-header",
// "html-base" or "xml-base".
func (s BaseFrom) String() string {
	if int(s) < len(baseFromNames) {
		return baseFromNames[s]
	}
	return fmt.Sprintf("Source(%d)", int(s))
}

// MarshalText implements [encoding.TextMarshaler]: the name String gives.
func (s BaseFrom) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements [encoding.TextUnmarshaler]: it reads a name
// String gives.
func (s *BaseFrom) UnmarshalText(text []byte) error {
	for i, name := range baseFromNames {
		if string(text) == name {
			*s = BaseFrom(i)
			return nil
		}
	}
	return fmt.Errorf("links: %q is not a layer of RFC 1808 Section 3", text)
}

// Base is a document's base URL and the layer that set it. The zero Base is
// the empty base of Section 3.4.
//
// It is a plain comparable value, copied into every Link, so it holds the
// URL as a string and not the base prepared for resolving (a relurl.Base,
// three representations in one): the Extractor prepares a document's base
// once, when the document's layers settle it, and keeps it for the
// document's links.
type Base struct {
	URL  string
	From BaseFrom
	// Note explains a base that needed help: a relative value resolved
	// against the next layer out, as Section 3.1 requires an absolute one.
	Note string
}

// Retrieved returns the base of a document retrieved by url (Section 3.3).
func Retrieved(url string) Base {
	if url == "" {
		return Base{}
	}
	return Base{URL: url, From: FromRetrieval}
}

// enclosed returns the base that outer, the base of an entity, gives the
// documents inside it (Section 3.2): the same URL, now from the
// encapsulating entity. The empty base stays empty.
func (outer Base) enclosed() Base {
	if outer.From == FromNone {
		return outer
	}
	return Base{URL: outer.URL, From: FromEncapsulating}
}

// embedded returns the base that a value found in a layer of Section 3.1
// (an HTML <base href>, a header) gives, with outer the base of the next
// layer out, by r's standard.
//
// Under the RFCs the value should be an absolute URL; a relative one, as
// documents do give, is resolved against outer, and Note says so. Under
// the WHATWG URL Standard the value is parsed with outer's URL as its base
// (the document's fallback base URL), as HTML establishes a document's
// base URL, so it comes out serialized as the URL parser writes it; a
// relative value is no anomaly there. When the parser fails, the error
// says why, and the base returned is outer, as HTML keeps it.
func (outer Base) embedded(value string, from BaseFrom, r relurl.Resolver) (Base, error) {
	if r.Spec == relurl.WHATWG {
		return outer.embeddedWeb(value, from)
	}
	b := Base{URL: value, From: from}
	if !rfc1808.Split(value).HasScheme() {
		// Resolution by either RFC never fails.
		b.URL, _ = r.Resolve(outer.URL, value)
		if outer.From == FromNone {
			b.Note = fmt.Sprintf("relative %s %q, and no outer base to resolve it", from, value)
		} else {
			b.Note = fmt.Sprintf("relative %s %q resolved against the %s base %s", from, value, outer.From, outer.URL)
		}
	}
	return b, nil
}

// parseBaseHeader returns the URL of a Base header's value (Section 3.1):
//
//	base-header = "Base" ":" "<URL:" absoluteURL ">"
//
// White space anywhere inside the angle brackets is ignored, including that
// of folded lines. The URL must be absolute.
func parseBaseHeader(value string) (string, error) {
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

// errNoHeader is returned by baseFromHeader when no header sets a base.
var errNoHeader = errors.New("no base header")

// baseFromHeader returns the base that a message's or part's header sets,
// with outer the base of the next layer out. The headers, in precedence:
//
//  1. Base: <URL:...>, RFC 1808 Section 3.1's own;
//  2. Content-Base, its successor in MIME (RFC 2110);
//  3. Content-Location (RFC 2557), which MHTML gives every part, only if
//     contentLocation is set. Over HTTP it no longer sets a base (RFC 7231,
//     Section 3.1.4.2), so fetchers pass false unless asked otherwise.
//
// A relative Content-Base or Content-Location is resolved against outer.
// baseFromHeader returns errNoHeader when none is present, and the error of a
// malformed Base header, after which the lower headers are still consulted:
// the base returned is then usable.
func baseFromHeader(h textproto.MIMEHeader, outer Base, contentLocation bool) (Base, error) {
	var baseErr error
	if v := h.Get("Base"); v != "" {
		u, err := parseBaseHeader(v)
		if err == nil {
			return Base{URL: u, From: FromBaseHeader}, nil
		}
		baseErr = err
	}
	if v := headerURL(h.Get("Content-Base")); v != "" {
		b, _ := outer.embedded(v, FromContentBase, relurl.Resolver{})
		return b, baseErr
	}
	if v := headerURL(h.Get("Content-Location")); v != "" && contentLocation {
		b, _ := outer.embedded(v, FromContentLocation, relurl.Resolver{})
		return b, baseErr
	}
	if baseErr != nil {
		return outer, baseErr
	}
	return outer, errNoHeader
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

// embeddedWeb is embedded under the WHATWG URL Standard.
func (outer Base) embeddedWeb(value string, from BaseFrom) (Base, error) {
	var u whatwg.URL
	var err error
	if o, oerr := whatwg.Parse(outer.URL); outer.From != FromNone && oerr == nil {
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
