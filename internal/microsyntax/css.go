package microsyntax

import (
	"bytes"
	"iter"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// CSS calls f with each URL that the CSS text src holds, in order,
// until f returns false: the argument of each url() (unquoted, a URL
// token; quoted, a url( function and its string), the string of an @import,
// and the strings of image-set() and -webkit-image-set(), which are URLs
// as browsers read them. The text is read by the CSS Syntax tokenizer of
// github.com/tdewolff/parse, and a URL's escapes are decoded ("consume an
// escaped code point") into *buf, which the URL handed to f is. token is
// the bytes of src of the token that holds the URL: the url(...), or the
// string with its quotes.
//
// The lexer wants the text ended by a NUL: given a slice with room past
// its length, it borrows the byte after it and restores it when done;
// given one without (src[:n:n]), it copies the text.
func CSS(src []byte, buf *[]byte, f func(url []byte, token [2]int) bool) {
	in := parse.NewInputBytes(src)
	defer in.Restore()
	l := css.NewLexer(in)
	var (
		depth    int  // open functions and parentheses
		imageSet = -1 // the depth inside an image-set(), or -1
		expect   bool // the next token is a URL if it is a string: after @import or url(
	)
	end := 0 // where the token read ends in src: tokens follow each other, every byte in one
	for {
		tt, data := l.Next()
		start := end
		end += len(data)
		if tt == css.WhitespaceToken || tt == css.CommentToken {
			continue
		}
		wanted := expect || depth == imageSet
		expect = false
		var u []byte
		switch tt {
		case css.ErrorToken:
			return
		case css.URLToken: // url(...), its bytes all given, quoted or not
			// Its name may be written with escapes, and a text that ends
			// first leaves it without its ")".
			u = data[bytes.IndexByte(data, '(')+1:]
			if n := len(u); n > 0 && u[n-1] == ')' {
				u = u[:n-1]
			}
			u = trimSpaceCSS(u)
			if len(u) > 0 && (u[0] == '"' || u[0] == '\'') {
				u = unquoteCSS(u)
			}
			*buf = unescapeCSS((*buf)[:0], u)
			u = *buf
		case css.StringToken:
			if !wanted {
				continue
			}
			*buf = unescapeCSS((*buf)[:0], unquoteCSS(data))
			u = *buf
		case css.AtKeywordToken:
			expect = parse.EqualFold(data, atImport)
			continue
		case css.FunctionToken:
			depth++
			switch {
			case parse.EqualFold(data, urlFunc):
				expect = true
			case parse.EqualFold(data, imageSetFunc) || parse.EqualFold(data, webkitImageSetFunc):
				imageSet = depth
			}
			continue
		case css.LeftParenthesisToken:
			depth++
			continue
		case css.RightParenthesisToken:
			if depth == imageSet {
				imageSet = -1
			}
			depth = max(depth-1, 0)
			continue
		default:
			continue
		}
		if !f(u, [2]int{start, end}) {
			return
		}
	}
}

// unquoteCSS returns the string token s without the quote that opens it
// and the one that ends it, unless the text ended first.
func unquoteCSS(s []byte) []byte {
	q := s[0]
	s = s[1:]
	if n := len(s); n > 0 && s[n-1] == q {
		s = s[:n-1]
	}
	return s
}

// trimSpaceCSS trims CSS white space (space, tab, newline, form feed,
// carriage return) from both ends of b.
func trimSpaceCSS(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// unescapeCSS appends s to dst with its escapes decoded, as CSS Syntax's
// "consume an escaped code point" does: a backslash and one to six hex
// digits (and one white space after them) is that code point, U+FFFD if it
// is zero, a surrogate or beyond U+10FFFF; a backslash before a newline
// is dropped (a string's line continuation); a backslash before anything
// else is that character.
func unescapeCSS(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		if i == len(s) {
			break
		}
		if s[i] == '\n' || s[i] == '\f' {
			continue
		}
		if s[i] == '\r' {
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			continue
		}
		if hexValue(s[i]) < 0 {
			dst = append(dst, s[i])
			continue
		}
		r, n := rune(0), 0
		for ; n < 6 && i < len(s) && hexValue(s[i]) >= 0; n++ {
			r = r<<4 | rune(hexValue(s[i]))
			i++
		}
		if i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f') {
			// one white space ends the escape, and is part of it
		} else if i < len(s) && s[i] == '\r' {
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		} else {
			i--
		}
		if r == 0 || r > utf8.MaxRune || 0xd800 <= r && r <= 0xdfff {
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

func hexValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// CSSURLs yields each URL of the CSS text src (a stylesheet, a <style>'s
// text or a style attribute's value), as Extractor finds them, its escapes
// decoded, with the bytes of src of the token that holds it: the url(...),
// or the string with its quotes. The URL is valid until the next one.
//
// A src with room past its length (cap(src) > len(src)) is read in place:
// the byte after it is borrowed while the URLs are yielded, and restored
// at their end. src[:n:n] has it copied instead, which costs its size.
func CSSURLs(src []byte) iter.Seq2[[]byte, [2]int] {
	return func(yield func(url []byte, token [2]int) bool) {
		var buf []byte
		CSS(src, &buf, yield)
	}
}

// The names CSS matches ASCII case-insensitively (parse.EqualFold wants
// them lowercase).
var (
	atImport           = []byte("@import")
	urlFunc            = []byte("url(")
	imageSetFunc       = []byte("image-set(")
	webkitImageSetFunc = []byte("-webkit-image-set(")
)
