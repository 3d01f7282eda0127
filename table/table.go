// Package table writes links as a table: Apache Arrow record batches, as
// an Arrow IPC stream or as Parquet files, for the tools that keep link
// graphs as columns (Spark, DuckDB, Polars, pandas).
//
// A row is one link, with the fields of relurl links -json and the same
// values: Schema lists the columns, and Rows.AppendJSON writes the row as
// that line of JSON, so that the JSON and the tables are made in one
// place. The table is the Spark job's links
// table too (spark/relurl_spark reads the Arrow stream and adds the
// archive column), so the two never differ.
//
// Rows are made in three steps, so that the costly ones run on every core
// and the cheap one keeps the input's order: a Rows encodes each link of a
// document as bytes (in each worker); a Writer, fed those bytes in order
// through Write, lays them out in columns, a batch (a record batch, a
// Parquet row group) each BatchRows rows or BatchBytes bytes; and each
// batch is encoded on goroutines of its own (a Parquet column on each),
// beside the next batch's layout, and written in order. Memory is
// bounded by InFlight+1 batches, whatever the number of links.
//
// Strings are valid UTF-8, as Arrow's string type requires: each byte of
// a value that is not UTF-8 becomes U+FFFD, as in the JSON, and url_base64
// and ref_base64 hold the exact bytes of a url or ref that is not.
package table

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/relurl/relurl/links"
	"github.com/relurl/relurl/warc"
)

// Schema is the links table: the fields of relurl links -json, in that
// order, with the JSON's nulls. A link resolved under -spec whatwg that
// the URL parser refused has error set and url null; status is null for a
// document that was not fetched; the warc_ columns are null outside a WARC
// archive.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "url", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "url_base64", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "error", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ref", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ref_base64", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "base", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "base_from", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "attribute", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "rel", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "text", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "part", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "source", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "warc_filename", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "warc_record_offset", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "warc_record_length", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "warc_record_id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "warc_date", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "truncated", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// How a row is encoded between Rows.AppendLink and Writer.Write: each column of
// Schema in order, as a tag byte, then for a value its uvarint length and
// bytes (a string, already valid UTF-8) or its varint (a number).
const (
	tagNull  = 0
	tagValue = 1
)

// Rows encodes the rows of one document's links: the document's own
// columns (source, status and the WARC record's) are encoded once, at its
// first row, and copied into each. A Rows is used by one
// goroutine at a time; each worker makes its own for the document it
// reads.
type Rows struct {
	doc    *Doc
	tail   []byte // the document's columns, encoded
	source []byte // the document's source, control bytes escaped, once asked
	// jsonTail is the end of each JSON row, the document's fields, once
	// asked
	jsonTail []byte
	// jsonBase is the base and base_from fields of lastBase
	jsonBase []byte
	lastBase links.Base
}

// A Doc is what the rows of a document's links say of the document: the
// columns source and status, and those of its WARC record.
type Doc struct {
	Source  string       // its retrieval URL, else its name
	Status  int          // its HTTP status; 0 for none
	Archive string       // with Record, the name of the WARC archive it is a record of
	Record  *warc.Record // the WARC record it is, or nil
}

// NewRows returns the encoder of the rows of the links of doc.
func NewRows(doc Doc) *Rows { return &Rows{doc: &doc} }

// encodeTail encodes the document's own columns, once, at its first row.
func (d *Rows) encodeTail() {
	doc := d.doc
	tail := appendString(make([]byte, 0, 256), doc.Source, true)
	tail = appendInt(tail, int64(doc.Status), doc.Status != 0)
	rec := doc.Record
	if rec == nil {
		for range 6 {
			tail = append(tail, tagNull)
		}
		d.tail = tail
		return
	}
	tail = appendString(tail, doc.Archive, true)
	tail = appendInt(tail, rec.Offset, true)
	tail = appendInt(tail, rec.Length, true)
	tail = appendString(tail, rec.Header.Get("WARC-Record-ID"), true)
	tail = appendString(tail, rec.Header.Get("WARC-Date"), true)
	truncated := truncation(rec)
	d.tail = appendString(tail, truncated, truncated != "")
}

// AppendLink appends the row of link l to dst, encoded for Writer.Write,
// and returns the extended buffer. url is the link's URL as printed (nil
// when it is unresolved or refused); it may differ from l.URL when the
// caller drops fragments.
func (d *Rows) AppendLink(dst []byte, l *links.Link, url []byte) []byte {
	urlValid := valid(url)
	dst = appendValue(dst, url, url != nil, urlValid)
	dst = appendBase64(dst, url, urlValid)
	var reason string
	if l.Err != nil {
		reason = l.Err.Error()
	}
	dst = appendString(dst, reason, l.Err != nil)
	refValid := valid(l.Ref)
	dst = appendValue(dst, l.Ref, true, refValid)
	dst = appendBase64(dst, l.Ref, refValid)
	dst = appendString(dst, l.Base.URL, l.Base.From != links.FromNone)
	dst = appendString(dst, l.Base.From.String(), true)
	dst = appendString(dst, l.Element, true)
	dst = appendString(dst, l.Attribute, true)
	dst = appendString(dst, l.Rel, l.Rel != nil)
	dst = appendString(dst, l.Text, l.Text != nil)
	dst = appendString(dst, l.Part, l.Part != "")
	if d.tail == nil {
		d.encodeTail()
	}
	return append(dst, d.tail...)
}

// truncation is a record's truncated column: its WARC-Truncated, else
// "length" when relurl cut it at -max-size, else "" (null).
func truncation(rec *warc.Record) string {
	if t := rec.Header.Get("WARC-Truncated"); t != "" || !rec.Cut {
		return t
	}
	return "length"
}

// appendString appends a string column's value, or null unless ok. Each
// byte that is not part of valid UTF-8 becomes U+FFFD, as in the JSON.
func appendString[T string | []byte](dst []byte, s T, ok bool) []byte {
	return appendValue(dst, s, ok, ok && valid(s))
}

// appendValue is appendString for s whose validity as UTF-8 is known.
func appendValue[T string | []byte](dst []byte, s T, ok, isValid bool) []byte {
	if !ok {
		return append(dst, tagNull)
	}
	dst = append(dst, tagValue)
	if isValid {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	}
	fixed := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			fixed = utf8.AppendRune(fixed, utf8.RuneError)
		} else {
			fixed = append(fixed, s[i:i+size]...)
		}
		i += size
	}
	dst = binary.AppendUvarint(dst, uint64(len(fixed)))
	return append(dst, fixed...)
}

// appendBase64 appends the *_base64 column of a value: its bytes in
// standard base64 when they are not valid UTF-8 (isValid), else null.
func appendBase64(dst, v []byte, isValid bool) []byte {
	if v == nil || isValid {
		return append(dst, tagNull)
	}
	dst = append(dst, tagValue)
	dst = binary.AppendUvarint(dst, uint64(base64.StdEncoding.EncodedLen(len(v))))
	return base64.StdEncoding.AppendEncode(dst, v)
}

func appendInt(dst []byte, n int64, ok bool) []byte {
	if !ok {
		return append(dst, tagNull)
	}
	return binary.AppendVarint(append(dst, tagValue), n)
}

// valid reports whether s is valid UTF-8, string or bytes alike, with
// package utf8's checks of eight ASCII bytes at a time (the type switch
// costs no allocation).
func valid[T string | []byte](s T) bool {
	if v, ok := any(s).(string); ok {
		return utf8.ValidString(v)
	}
	return utf8.Valid(any(s).([]byte))
}

// decodeRune decodes the first rune of s, string or bytes alike.
func decodeRune[T string | []byte](s T) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s)
	return utf8.DecodeRune(buf[:n])
}

// A FormatError says that bytes given to Writer.Write are not rows that
// Rows.AppendLink encoded.
type FormatError struct {
	Offset int64 // the byte offset in everything written, where the row starts
}

func (e *FormatError) Error() string {
	return "table: bytes at offset " + strconv.FormatInt(e.Offset, 10) + " are not an encoded row"
}
