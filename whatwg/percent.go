package whatwg

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/ascii"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// An encodeSet is one of the URL Standard's percent-encode sets (section
// "Percent-encoded bytes"). All of them live in one table, encodeTable, one
// bit per set, so testing a byte against a set is one load and one AND.
type encodeSet uint8

const (
	c0ControlSet    encodeSet = 1 << iota // C0 controls and everything above "~"
	fragmentSet                           // C0 control set and space " < > `
	querySet                              // C0 control set and space " # < >
	specialQuerySet                       // query set and '
	pathSet                               // query set and ? ^ ` { }
	userinfoSet                           // path set and / : ; = @ [ \ ] |
	componentSet                          // userinfo set and $ % & + ,
	formSet                               // component set and ! ' ( ) ~; a space is written "+"
)

// encodeTable[c] holds the bit of every set that contains the byte c. Bytes
// of 0x80 and above stand for the code points above U+007E that their UTF-8
// sequences encode, which every set contains.
var encodeTable = func() (t [256]encodeSet) {
	// Each set is its parent and some more characters.
	sets := []struct {
		set, parent encodeSet
		more        string
	}{
		{fragmentSet, c0ControlSet, " \"<>`"},
		{querySet, c0ControlSet, " \"#<>"},
		{specialQuerySet, querySet, "'"},
		{pathSet, querySet, "?^`{}"},
		{userinfoSet, pathSet, "/:;=@[\\]|"},
		{componentSet, userinfoSet, "$%&+,"},
		{formSet, componentSet, "!'()~"},
	}
	for c := range t {
		if c < 0x20 || c > 0x7e {
			t[c] = c0ControlSet
		}
	}
	for _, s := range sets {
		for c := range t {
			if t[c]&s.parent != 0 {
				t[c] |= s.set
			}
		}
		for i := 0; i < len(s.more); i++ {
			t[s.more[i]] |= s.set
		}
	}
	return t
}()

// appendEncoded appends s to dst, UTF-8 percent-encoding each code point in
// set (URL Standard, "UTF-8 percent-encode"). A byte sequence that is not
// UTF-8 stands for U+FFFD, as it would once decoded into a scalar value
// string, and is written "%EF%BF%BD".
func appendEncoded(dst []byte, s string, set encodeSet) []byte {
	for i := 0; i < len(s); {
		// Copy the run that needs no encoding in one go.
		j := i
		for j < len(s) && encodeTable[s[j]]&set == 0 {
			j++
		}
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			break
		}
		c := s[j]
		if c < utf8.RuneSelf {
			dst = appendEscapedByte(dst, c, set)
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "%EF%BF%BD"...)
		} else {
			for k := j; k < j+n; k++ {
				dst = appendPercentByte(dst, s[k])
			}
		}
		i = j + n
	}
	return dst
}

// appendEncodedIn appends s to dst as the URL Standard's "percent-encode
// after encoding" does, with an encoding other than UTF-8: s encoded by
// enc, then each byte in set, and every byte from 0x80 on, written "%XX". A
// code point enc cannot encode is written as HTML would send it, "&#N;",
// percent-encoded: "%26%23N%3B". enc must report such code points as
// errors, as the encodings of package webencoding (and of
// golang.org/x/text/encoding/htmlindex) do; webencoding's single-byte
// encoders also take back the C1 controls that x/text's tables lack.
//
// Three steps of the Encoding Standard's encoders that those of
// golang.org/x/text lack are taken here: the Japanese encoders read U+2212
// as U+FF0D, gb18030 refuses U+E5E5, and ISO-2022-JP refuses the controls
// that switch its modes (reporting U+FFFD). One is not: ISO-2022-JP's
// encoder writes U+00A5 and U+203E in JIS X 0201 Roman, which x/text's
// cannot, so they are sent as "&#N;".
func appendEncodedIn(dst []byte, s string, set encodeSet, enc encoding.Encoding) []byte {
	s = utf8Decode(s)
	iso2022jp := enc == japanese.ISO2022JP
	if iso2022jp || enc == japanese.ShiftJIS || enc == japanese.EUCJP {
		s = strings.ReplaceAll(s, "\u2212", "\uff0d")
	}
	refused := func(r rune) (rune, bool) {
		switch {
		case iso2022jp && (r == 0x0e || r == 0x0f || r == 0x1b):
			return utf8.RuneError, true
		case r == 0xe5e5 && enc == simplifiedchinese.GB18030:
			return r, true
		}
		return r, false
	}
	whole := true
	for _, r := range s {
		if _, bad := refused(r); bad {
			whole = false
			break
		}
	}
	if whole {
		if out, err := enc.NewEncoder().String(s); err == nil {
			return appendBytesEncoded(dst, out, set)
		}
	}
	// Something cannot be encoded: one code point at a time, to tell which.
	e := enc.NewEncoder()
	for _, r := range s {
		r, bad := refused(r)
		if !bad {
			if out, err := e.String(string(r)); err == nil {
				dst = appendBytesEncoded(dst, out, set)
				continue
			}
		}
		dst = strconv.AppendInt(append(dst, "%26%23"...), int64(r), 10)
		dst = append(dst, "%3B"...)
	}
	return dst
}

// appendBytesEncoded appends the bytes of b, each in set or from 0x80 on
// written "%XX".
func appendBytesEncoded(dst []byte, b string, set encodeSet) []byte {
	for i := 0; i < len(b); i++ {
		if c := b[i]; encodeTable[c]&set != 0 {
			dst = appendEscapedByte(dst, c, set)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// needsEncoding reports whether appendEncoded would change s.
func needsEncoding(s string, set encodeSet) bool {
	for i := 0; i < len(s); i++ {
		if encodeTable[s[i]]&set != 0 {
			return true
		}
	}
	return false
}

// appendEscapedByte appends c, a byte of set, as set's encoder writes it:
// "%XX", but a space of the application/x-www-form-urlencoded set, which
// its serializer writes "+" (spaceAsPlus).
func appendEscapedByte(dst []byte, c byte, set encodeSet) []byte {
	if c == ' ' && set == formSet {
		return append(dst, '+')
	}
	return appendPercentByte(dst, c)
}

func appendPercentByte(dst []byte, c byte) []byte {
	const hex = "0123456789ABCDEF"
	return append(dst, '%', hex[c>>4], hex[c&15])
}

// PercentDecode returns the URL Standard's "string percent-decode" of s:
// each "%" followed by two hex digits becomes the byte they spell, and any
// other "%" stays as it is. The result may not be UTF-8.
func PercentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	return string(appendPercentDecoded(make([]byte, 0, len(s)), s, false))
}

// appendPercentDecoded appends the percent-decoding of s to dst, each "+"
// a space first with plus, as the application/x-www-form-urlencoded parser
// reads a name or value.
func appendPercentDecoded(dst []byte, s string, plus bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+' && plus:
			dst = append(dst, ' ')
		case c == '%' && i+2 < len(s) && ascii.IsHex(s[i+1]) && ascii.IsHex(s[i+2]):
			dst = append(dst, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// utf8Decode is the Encoding Standard's "UTF-8 decode without BOM" of the
// bytes s: valid UTF-8 as it is, and one U+FFFD for each maximal subpart
// of an ill-formed sequence, as browsers decode ("%FE%FF" is two, the
// truncated "%E2%82" one), which x/text's UTF-8 decoder does.
// strings.ToValidUTF8 would make one of a whole run.
func utf8Decode(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	d, _ := xunicode.UTF8.NewDecoder().String(s) // it replaces, never fails
	return d
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
