package table

import (
	"encoding/base64"
	"strconv"
	"unicode/utf8"

	"github.com/relurl/relurl/links"
)

// AppendJSON appends link l's row as a line of JSON, relurl links -json's
// format, and returns the extended buffer; url is the URL to print, as for
// AppendLink. It is written out field by field (no reflection: this runs for
// every link): url (null when unresolved), ref, base (null when none),
// base_from, element, attribute, rel and text (when the link has them),
// part (null for a whole document), source; with url_base64 and
// ref_base64 after a value that is not UTF-8; status when an HTTP status
// is known; and for a WARC record its file, byte range, ID, date and
// truncation, under the names of Common Crawl's index.
func (d *Rows) AppendJSON(dst []byte, l *links.Link, url []byte) []byte {
	dst = append(dst, `{"url":`...)
	if url == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendJSONBytes(dst, "url_base64", url)
	}
	if l.Err != nil {
		dst = append(dst, `,"error":`...)
		dst = appendJSONString(dst, []byte(l.Err.Error()))
	}
	dst = append(dst, `,"ref":`...)
	dst = appendJSONBytes(dst, "ref_base64", l.Ref)
	// The base is most often the same for every link of a document.
	if d.jsonBase == nil || *l.Base != d.lastBase {
		d.lastBase = *l.Base
		b := append(d.jsonBase[:0], `,"base":`...)
		b = appendJSONStringOrNull(b, l.Base.URL, l.Base.From != links.FromNone)
		b = append(b, `,"base_from":`...)
		d.jsonBase = appendJSONString(b, l.Base.From.String())
	}
	dst = append(dst, d.jsonBase...)
	dst = append(dst, `,"element":`...)
	dst = appendJSONString(dst, l.Element)
	dst = append(dst, `,"attribute":`...)
	dst = appendJSONString(dst, l.Attribute)
	if l.Rel != nil {
		dst = append(dst, `,"rel":`...)
		dst = appendJSONString(dst, l.Rel)
	}
	if l.Text != nil {
		dst = append(dst, `,"text":`...)
		dst = appendJSONString(dst, l.Text)
	}
	dst = append(dst, `,"part":`...)
	dst = appendJSONStringOrNull(dst, l.Part, l.Part != "")
	if d.jsonTail == nil {
		d.jsonTail = d.appendJSONTail(nil)
	}
	return append(dst, d.jsonTail...)
}

// appendJSONTail appends the fields of a row that are the document's, the
// same in each of its rows, and the row's end: encoded once a document.
func (d *Rows) appendJSONTail(dst []byte) []byte {
	doc := d.doc
	if doc == nil {
		return append(dst, "}\n"...)
	}
	dst = append(dst, `,"source":`...)
	dst = appendJSONString(dst, doc.Source)
	if doc.Status != 0 {
		dst = append(dst, `,"status":`...)
		dst = strconv.AppendInt(dst, int64(doc.Status), 10)
	}
	if rec := doc.Record; rec != nil {
		dst = append(dst, `,"warc_filename":`...)
		dst = appendJSONString(dst, doc.Archive)
		dst = append(dst, `,"warc_record_offset":`...)
		dst = strconv.AppendInt(dst, rec.Offset, 10)
		dst = append(dst, `,"warc_record_length":`...)
		dst = strconv.AppendInt(dst, rec.Length, 10)
		dst = append(dst, `,"warc_record_id":`...)
		dst = appendJSONString(dst, rec.Header.Get("WARC-Record-ID"))
		dst = append(dst, `,"warc_date":`...)
		dst = appendJSONString(dst, rec.Header.Get("WARC-Date"))
		truncated := truncation(rec)
		dst = append(dst, `,"truncated":`...)
		dst = appendJSONStringOrNull(dst, truncated, truncated != "")
	}
	return append(dst, "}\n"...)
}

// appendJSONBytes appends v as a JSON string and, when v is not valid
// UTF-8 (which a JSON string cannot hold as it is), the field
// `,"name":"BASE64"` with its bytes.
func appendJSONBytes(dst []byte, name string, v []byte) []byte {
	dst, valid := appendJSONStringValid(dst, v)
	if valid {
		return dst
	}
	dst = append(append(append(dst, `,"`...), name...), `":"`...)
	return append(base64.StdEncoding.AppendEncode(dst, v), '"')
}

// jsonPlain holds the bytes a JSON string holds as they are: ASCII but
// the controls, '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as a JSON string, as encoding/json writes it
// with HTML escaping off: quotes, backslashes and control characters
// escaped, U+2028 and U+2029 too, and each byte that is not UTF-8 as
// U+FFFD. It serves the writers that run for every link.
func appendJSONString[T string | []byte](dst []byte, s T) []byte {
	dst, _ = appendJSONStringValid(dst, s)
	return dst
}

// appendJSONStringValid is appendJSONString, and reports whether s is
// valid UTF-8.
func appendJSONStringValid[T string | []byte](dst []byte, s T) (_ []byte, valid bool) {
	const hex = "0123456789abcdef"
	valid = true
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			valid = false
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), valid
}

// appendJSONStringOrNull appends s as a JSON string when ok, else null.
func appendJSONStringOrNull[T string | []byte](dst []byte, s T, ok bool) []byte {
	if !ok {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, s)
}
