// Package webencoding gives the encodings of the WHATWG Encoding Standard by
// their labels, as golang.org/x/text/encoding/htmlindex does, with one
// difference that decides how a browser reads a page and writes its URLs:
// the single-byte encodings follow the Encoding Standard's own indexes.
//
// golang.org/x/text/encoding/charmap decodes a byte its table leaves
// undefined to U+FFFD, and cannot encode it back. The Encoding Standard
// ("index-windows-1252" and the other single-byte indexes) maps every
// undefined byte from 0x80 to 0x9F to the C1 control of the same value,
// U+0080 to U+009F, and encodes that control back to the byte. A browser
// reading a windows-1252 page decodes 0x81 to U+0081, so a link holding
// that byte becomes "%C2%81" in its path and "%81" in its query, where
// x/text's table would give "%EF%BF%BD" and "%26%2365533%3B". Bytes from
// 0xA0 on that a table leaves undefined are errors in both, decoded to
// U+FFFD.
package webencoding

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

// Get returns the encoding that the Encoding Standard's label names
// (ASCII case-insensitive, surrounding whitespace ignored), and its
// canonical name, as htmlindex.Get and htmlindex.Name do. A single-byte
// encoding is one of this package's, with the standard's index; the others
// are htmlindex's.
func Get(label string) (encoding.Encoding, string, error) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, "", err
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		return nil, "", err
	}
	if cm, ok := enc.(*charmap.Charmap); ok && cm != charmap.XUserDefined {
		return singleByteOf(name, cm), name, nil
	}
	return enc, name, nil
}

// SingleByte is a single-byte encoding of the Encoding Standard: a table of
// 256 code points, the first 128 ASCII's.
type SingleByte struct {
	name   string
	decode [256]rune
	encode map[rune]byte // code points from 0x80 on
}

var (
	singleMu sync.Mutex
	singles  = map[string]*SingleByte{}
)

// singleByteOf returns the SingleByte of name, built once from x/text's
// table with the C1 controls of the standard's index put in its gaps.
func singleByteOf(name string, cm *charmap.Charmap) *SingleByte {
	singleMu.Lock()
	defer singleMu.Unlock()
	if e := singles[name]; e != nil {
		return e
	}
	e := &SingleByte{name: name, encode: make(map[rune]byte, 128)}
	for b := 0; b < 256; b++ {
		r := cm.DecodeByte(byte(b))
		if r == utf8.RuneError && b >= 0x80 && b <= 0x9f {
			r = rune(b)
		}
		e.decode[b] = r
		if b >= 0x80 && r != utf8.RuneError {
			if _, dup := e.encode[r]; !dup {
				e.encode[r] = byte(b)
			}
		}
	}
	singles[name] = e
	return e
}

// String returns the encoding's canonical name, such as "windows-1252".
func (e *SingleByte) String() string { return e.name }

// DecodeByte returns the code point byte b decodes to: U+FFFD for a byte
// the index leaves undefined.
func (e *SingleByte) DecodeByte(b byte) rune { return e.decode[b] }

// EncodeRune returns the byte that encodes r, and whether there is one.
func (e *SingleByte) EncodeRune(r rune) (byte, bool) {
	if r < 0x80 {
		return byte(r), true
	}
	b, ok := e.encode[r]
	return b, ok
}

// NewDecoder returns a decoder to UTF-8. It never fails: a byte the index
// leaves undefined decodes to U+FFFD, as the standard's decoder with
// "replacement" error mode does.
func (e *SingleByte) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: decoder{e}}
}

// NewEncoder returns an encoder from UTF-8. A code point the encoding lacks,
// or invalid UTF-8, stops it with an error that encoding.HTMLEscapeUnsupported
// and encoding.ReplaceUnsupported recognise.
func (e *SingleByte) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: encoder{e}}
}

type decoder struct{ e *SingleByte }

func (d decoder) Reset() {}

func (d decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for ; nSrc < len(src); nSrc++ {
		c := src[nSrc]
		if c < 0x80 {
			if nDst == len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = c
			nDst++
			continue
		}
		r := d.e.decode[c]
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
	}
	return nDst, nSrc, nil
}

type encoder struct{ e *SingleByte }

func (x encoder) Reset() {}

func (x encoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		if nDst == len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		if c := src[nSrc]; c < 0x80 {
			dst[nDst] = c
			nDst++
			nSrc++
			continue
		}
		if !atEOF && !utf8.FullRune(src[nSrc:]) {
			return nDst, nSrc, transform.ErrShortSrc
		}
		r, size := utf8.DecodeRune(src[nSrc:])
		b, ok := x.e.encode[r]
		if !ok || (r == utf8.RuneError && size == 1) {
			return nDst, nSrc, repertoireError{}
		}
		dst[nDst] = b
		nDst++
		nSrc += size
	}
	return nDst, nSrc, nil
}

// repertoireError reports a code point the encoding lacks. Its Replacement
// method is what golang.org/x/text/encoding's HTMLEscapeUnsupported and
// ReplaceUnsupported look for.
type repertoireError struct{}

func (repertoireError) Error() string {
	return "webencoding: code point not in the encoding's repertoire"
}
func (repertoireError) Replacement() byte { return '?' }
