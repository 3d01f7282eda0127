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
	doc := d.doc
	dst = append(dst, `{"url":`...)
	dst = appendJSONStringOrNull(dst, url, url != nil)
	dst = appendBase64Field(dst, "url_base64", url)
	if l.Err != nil {
		dst = append(dst, `,"error":`...)
		dst = appendJSONString(dst, []byte(l.Err.Error()))
	}
	dst = append(dst, `,"ref":`...)
	dst = appendJSONString(dst, l.Ref)
	dst = appendBase64Field(dst, "ref_base64", l.Ref)
	dst = append(dst, `,"base":`...)
	dst = appendJSONStringOrNull(dst, l.Base.URL, l.Base.From != links.FromNone)
	dst = append(dst, `,"base_from":`...)
	dst = appendJSONString(dst, l.Base.From.String())
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
	dst = append(dst, `,"source":`...)
	dst = appendJSONString(dst, doc.Source)
	if doc.Status != 0 {
		dst = append(dst, `,"status":`...)
		dst = strconv.AppendInt(dst, int64(doc.Status), 10)
	}
	if rec := doc.Record; rec != nil {
		dst = append(dst, `,"warc_filename":`...)
		dst = appendJSONString(dst, doc.Name)
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

// appendBase64Field appends `,"name":"BASE64"` when v is not valid UTF-8,
// which a JSON string cannot hold as it is.
func appendBase64Field(dst []byte, name string, v []byte) []byte {
	if utf8.Valid(v) {
		return dst
	}
	dst = append(append(append(dst, `,"`...), name...), `":"`...)
	return append(base64.StdEncoding.AppendEncode(dst, v), '"')
}

// appendJSONString appends s as a JSON string, as encoding/json writes it
// with HTML escaping off: quotes, backslashes and control characters
// escaped, U+2028 and U+2029 too, and each byte that is not UTF-8 as
// U+FFFD. It serves the writers that run for every link.
func appendJSONString[T string | []byte](dst []byte, s T) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c != '"' && c != '\\' && c < utf8.RuneSelf {
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
	return append(dst, '"')
}

// appendJSONStringOrNull appends s as a JSON string when ok, else null.
func appendJSONStringOrNull[T string | []byte](dst []byte, s T, ok bool) []byte {
	if !ok {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, s)
}
