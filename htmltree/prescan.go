package htmltree

import (
	"bytes"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"

	"github.com/relurl/relurl/internal/ascii"
	"github.com/relurl/relurl/internal/bytestr"
)

// quickPrescan reads the <meta> that declares the encoding of the common
// page, as golang.org/x/net/html/charset's prescan reads it, without the
// x/net tokenizer it runs (a buffer and a dozen allocations a page): the
// ASCII bytes of b, the start of a document, are read as text, comments,
// DOCTYPEs and tags written plainly, up to the first <meta> whose charset
// attribute, or http-equiv="content-type" and content, names an encoding
// x/net knows. Whatever is not written plainly (a character reference in
// a <meta>, a raw text element such as <title> or <script>, an unquoted
// value with a quote in it, "<" before a space) makes it answer ok false:
// earlyDeclaration then asks x/net. FuzzEncoding holds the two to the
// same answers.
func quickPrescan(b []byte) (enc encoding.Encoding, name string, ok bool) {
	for i := 0; i < len(b); {
		if b[i] != '<' {
			i++
			continue
		}
		rest := b[i:]
		switch {
		case len(rest) < 2:
			return nil, "", false
		case bytes.HasPrefix(rest, []byte("<!--")):
			// A comment plainly written ends at the first "-->".
			body := rest[4:]
			if bytes.HasPrefix(body, []byte(">")) || bytes.HasPrefix(body, []byte("->")) {
				return nil, "", false
			}
			end := bytes.Index(body, []byte("-->"))
			if end < 0 || bytes.Contains(body[:end], []byte("--!")) {
				return nil, "", false
			}
			i += 4 + end + 3
		case rest[1] == '!' || rest[1] == '?':
			// A DOCTYPE or a bogus comment ends at the first ">".
			end := bytes.IndexByte(rest, '>')
			if end < 0 {
				return nil, "", false
			}
			i += end + 1
		case rest[1] == '/' || ascii.IsAlpha(rest[1]):
			n, e, nm, found, ok := quickTag(rest)
			if !ok {
				return nil, "", false
			}
			if found {
				return e, nm, true
			}
			i += n
		default:
			return nil, "", false
		}
	}
	return nil, "", false
}

// quickTag reads the tag at the start of b, plainly written, and returns
// its length; for a <meta> that declares an encoding, the encoding and
// found true, by x/net's prescan's rules: the first of each attribute,
// lower-cased; a charset that names an encoding, or one in a content, the
// first that names one, with http-equiv="content-type"; UTF-16 read as
// UTF-8.
func quickTag(b []byte) (n int, enc encoding.Encoding, name string, found, ok bool) {
	i := 1
	end := b[1] == '/'
	if end {
		i++
	}
	start := i
	for i < len(b) && (ascii.IsAlpha(b[i]) || i > start && (ascii.IsDigit(b[i]) || b[i] == '-')) {
		i++
	}
	tag := b[start:i]
	if !end && rawTextName(tag) {
		return 0, nil, "", false, false // x/net reads its text raw
	}
	meta := !end && equalFold(bytestr.Transient(tag), "meta")
	var seen [3]bool // http-equiv, content, charset
	pragma := false
	need := 0 // 0 not known, 1 a pragma needed, 2 none
	for {
		j := i
		for i < len(b) && isWhitespace(b[i]) {
			i++
		}
		if i >= len(b) {
			return 0, nil, "", false, false
		}
		switch {
		case b[i] == '>':
			i++
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '>' && (i > j || b[i-1] == '"' || b[i-1] == '\''):
			i += 2 // after a space or a quoted value: no part of a name or a value
		case i == j || end:
			return 0, nil, "", false, false // no space before the attribute, or one in an end tag
		default:
			k := i
			for i < len(b) && attrNameByte(b[i]) {
				i++
			}
			key := b[k:i]
			if len(key) == 0 || i >= len(b) {
				return 0, nil, "", false, false
			}
			var val []byte
			quoted := false
			if b[i] == '=' {
				i++
				if i < len(b) && (b[i] == '"' || b[i] == '\'') {
					q := b[i]
					close := bytes.IndexByte(b[i+1:], q)
					if close < 0 {
						return 0, nil, "", false, false
					}
					val, quoted = b[i+1:i+1+close], true
					i += close + 2
				} else {
					v := i
					for i < len(b) && unquotedByte(b[i]) {
						i++
					}
					if i == v {
						return 0, nil, "", false, false // a space or ">" after "=", or a value not plainly written
					}
					val = b[v:i]
				}
			}
			// Next: a space, the tag's end, or "/>" after a quoted value.
			if i >= len(b) || b[i] != '>' && !isWhitespace(b[i]) && !(quoted && b[i] == '/') {
				return 0, nil, "", false, false
			}
			if !meta {
				continue
			}
			for _, c := range val {
				if c == '&' || c < ' ' {
					return 0, nil, "", false, false // x/net decodes character references, and line breaks
				}
			}
			var which int
			switch {
			case equalFold(bytestr.Transient(key), "http-equiv"):
				which = 0
			case equalFold(bytestr.Transient(key), "content"):
				which = 1
			case equalFold(bytestr.Transient(key), "charset"):
				which = 2
			default:
				continue
			}
			if seen[which] {
				continue // the first of each name counts
			}
			seen[which] = true
			switch which {
			case 0:
				pragma = equalFold(bytestr.Transient(val), "content-type")
			case 1:
				if enc == nil {
					if label := charsetOfContent(val); len(label) > 0 {
						if enc, name = lookupLabel(label); enc != nil {
							need = 1
						}
					}
				}
			case 2:
				enc, name = lookupLabel(val)
				need = 2
			}
			continue
		}
		break
	}
	if !meta || need == 0 || need == 1 && !pragma || enc == nil {
		return i, nil, "", false, true
	}
	if len(name) >= len("utf-16") && name[:len("utf-16")] == "utf-16" {
		return i, encoding.Nop, "utf-8", true, true
	}
	return i, enc, name, true, true
}

// lookupLabel is x/net's charset.Lookup of a label lower-cased, as its
// prescan gives it; label, the document's bytes, is left as it is.
func lookupLabel(label []byte) (encoding.Encoding, string) {
	var buf [64]byte
	if len(label) > len(buf) {
		return charset.Lookup(string(bytes.ToLower(label)))
	}
	n := copy(buf[:], label)
	return charset.Lookup(bytestr.Transient(toLower(buf[:n])))
}

// toLower lower-cases b's ASCII letters in place.
func toLower(b []byte) []byte {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// rawTextName reports whether x/net's tokenizer reads the text after a
// start tag of this name raw.
func rawTextName(name []byte) bool {
	switch string(toLowerCopy(name)) {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp":
		return true
	}
	return false
}

// toLowerCopy lower-cases a short name into a fresh array's slice.
func toLowerCopy(name []byte) []byte {
	var buf [16]byte
	if len(name) > len(buf) {
		return nil // no raw text element's name is so long
	}
	return toLower(buf[:copy(buf[:], name)])
}

// attrNameByte and unquotedByte are the bytes of an attribute's name and
// of an unquoted value that read alike in every tokenizer.
func attrNameByte(c byte) bool {
	return ascii.IsAlpha(c) || ascii.IsDigit(c) || c == '-' || c == '_' || c == ':' || c == '.'
}

func unquotedByte(c byte) bool { return attrNameByte(c) || c == ';' }
