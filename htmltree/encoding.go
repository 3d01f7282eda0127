package htmltree

import (
	"bytes"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"

	"github.com/relurl/relurl/htmltok"
	"github.com/relurl/relurl/webencoding"
)

// headScan bounds how far into a document Encoding looks for a <meta>
// that declares its encoding in its head, when its first 1024 bytes declare
// none: a declaration further on is not seen.
const headScan = 256 << 10

// Encoding returns the encoding of an HTML document whose first bytes are
// doc, delivered with contentType (or ""), by the HTML standard's
// "determining the character encoding": its byte order mark, the charset
// of contentType, a <meta> declaring one, else windows-1252, as browsers
// do; name is the encoding's name in the Encoding Standard. It returns a
// nil enc for a document to read as its bytes are: UTF-8, or a document
// whose first 1024 bytes are ASCII and declare no encoding, where the
// standard leaves the choice to the user agent (relurl takes UTF-8, so
// that such a document's bytes, valid or not, reach its URLs unchanged).
// Single-byte encodings decode by the Encoding Standard's indexes
// (package webencoding), as browsers do.
//
// The <meta> is looked for first as the standard's prescan does, in the
// first 1024 bytes. When it finds none, Encoding looks on through the
// document's head, in the first 256 KiB of doc, for the <meta> the tree
// builder would process there ("in head"): the standard then changes the
// encoding and reads the document again, as Chromium does. So doc holds as
// much of the document as the caller has, up to 256 KiB.
func Encoding(doc []byte, contentType string) (enc encoding.Encoding, name string) {
	prefix := doc[:min(len(doc), 1024)]
	enc, name, certain, declared := earlyDeclaration(prefix, contentType)
	if !declared {
		enc, name, certain = charset.DetermineEncoding(prefix, contentType)
		declared = certain || prescanned(prefix)
	}
	if !certain && name == "x-user-defined" {
		// A <meta> that declares x-user-defined declares windows-1252:
		// the prescan's "get an encoding" says so, as headMeta's "change
		// the encoding" does (Chromium: caf\xE9 is caf%C3%A9).
		name = "windows-1252"
	}
	if !declared {
		if label := headMeta(doc[:min(len(doc), headScan)]); label != "" {
			name, declared = label, true
		}
	}
	if name == "utf-8" || !declared && name == "windows-1252" && isASCII(prefix) {
		return nil, name
	}
	// webencoding decodes single-byte encodings by the Encoding Standard's
	// indexes, as browsers do, where x/text's tables lose the bytes from
	// 0x80 to 0x9F they leave undefined; and its encoders report what they
	// cannot encode, which a query's "&#N;" needs.
	if e, _, err := webencoding.Get(name); err == nil {
		enc = e
	}
	return enc, name
}

// earlyDeclaration is Encoding's answer for most pages, found by one
// prescan of a few hundred bytes instead of three of 1024: a page whose
// first bytes are ASCII and hold a tag naming "charset", as <meta
// charset="utf-8"> and <meta http-equiv="Content-Type"
// content="text/html; charset=utf-8"> do. The prescan reads tokens from
// the first byte on and stops at the first <meta> that declares an
// encoding, so what it finds in the bytes up to that tag's ">" it finds in
// 1024 bytes too; and the bytes being ASCII, it is what prescanned's
// probe finds. Those bytes are read by quickPrescan when they are written
// plainly, else by x/net's prescan of a probe. When neither finds a
// declaration, declared is false and Encoding asks again the long way.
// TestEarlyDeclaration and FuzzEncoding hold the two ways to the same
// answers.
func earlyDeclaration(prefix []byte, contentType string) (enc encoding.Encoding, name string, certain, declared bool) {
	i := indexFold(prefix, "charset")
	if i < 0 {
		return nil, "", false, false
	}
	gt := bytes.IndexByte(prefix[i:], '>')
	k := i + gt + 1
	if gt < 0 || k > probeLen || !isASCII(prefix[:k]) {
		return nil, "", false, false
	}
	if contentType != "" {
		if enc, name, certain = charset.DetermineEncoding(nil, contentType); certain {
			return enc, name, true, true // the Content-Type's charset
		}
	}
	if enc, name, ok := quickPrescan(prefix[:k]); ok {
		return enc, name, false, true
	}
	if enc, name = probe(prefix[:k], "\xffx"); name != "windows-1252" {
		return enc, name, false, true
	}
	return nil, "", false, false // nothing declared, or windows-1252: asked again
}

// probeLen is how much of the 1024 bytes prescanned reads: the probes
// follow it, and the prescan drops a last token it may find cut.
const probeLen = 1020

// prescanned reports whether the prescan of prefix finds a <meta> that
// declares an encoding. DetermineEncoding does not say whether its answer
// comes from one or from its fallback, so it is asked with prefix's ASCII
// (the prescan reads nothing else) followed by a byte UTF-8 does not
// have, where the fallback answers windows-1252: any other answer is a
// declaration's. Only when it answers windows-1252 is it asked again, with
// a UTF-8 character in place of the byte, where the fallback answers
// UTF-8 and a declaration windows-1252 still. The two are put within the
// 1024 bytes it reads, and not last, which it drops as maybe cut.
func prescanned(prefix []byte) bool {
	p := prefix[:min(len(prefix), probeLen)]
	if _, b := probe(p, "\xffx"); b != "windows-1252" {
		return true
	}
	_, a := probe(p, "\u00e9x")
	return a == "windows-1252"
}

// probe is DetermineEncoding's answer, with no Content-Type, for p (at
// most probeLen bytes) with its bytes past ASCII made "x", which the
// prescan reads as it reads them, followed by tail: "\xffx", after which
// its fallback answers windows-1252, or "\u00e9x", after which it
// answers UTF-8.
func probe(p []byte, tail string) (encoding.Encoding, string) {
	var buf [probeLen + 3]byte
	for i, c := range p {
		if c >= 0x80 {
			c = 'x'
		}
		buf[i] = c
	}
	n := len(p) + copy(buf[len(p):], tail)
	enc, name, _ := charset.DetermineEncoding(buf[:n], "")
	return enc, name
}

// headMeta returns the canonical name of the encoding that the first <meta>
// of doc's head declares, as the "in head" insertion mode reads it (its
// charset attribute, else http-equiv="content-type" and the charset of its
// content), or "" if none does before the body starts or doc ends. The
// tree builder decides what is the head: not a <meta> in <script> text, in
// a comment or in <template> contents, nor one after the first element of
// the body. The standard's "change the encoding" makes a UTF-16 encoding
// UTF-8, and x-user-defined windows-1252.
func headMeta(doc []byte) string {
	z := htmltok.New(bytes.NewReader(doc))
	s := &headSink{z: z}
	tree := New(z, s)
	for s.name == "" && !s.body && tree.Step() {
	}
	switch s.name {
	case "utf-16le", "utf-16be":
		return "utf-8"
	case "x-user-defined":
		return "windows-1252"
	}
	return s.name
}

// headSink is the Sink of headMeta: it reads each <meta> element of the
// head, until one declares an encoding or the body begins.
type headSink struct {
	NopSink
	z     *htmltok.Tokenizer
	inert int  // open <template>s: their contents are in no document
	body  bool // a <body> or <frameset> element was made
	name  string
}

func (s *headSink) Element(_ Node, ns Namespace, name string, how Origin, _ Node) {
	if ns != HTML {
		return
	}
	switch name {
	case "body", "frameset":
		s.body = true
	case "template":
		s.inert++
	case "meta":
		if how == FromToken && s.inert == 0 {
			s.name = metaEncoding(s.z)
		}
	}
}

func (s *headSink) Pop(_ Node, ns Namespace, name string) {
	if ns == HTML && name == "template" {
		s.inert--
	}
}

// metaEncoding returns the canonical name of the encoding that the <meta>
// start tag z is at declares, or "".
func metaEncoding(z *htmltok.Tokenizer) string {
	var label []byte
	if a, ok := z.Attr("charset"); ok {
		label = a.Value
	} else if a, ok := z.Attr("http-equiv"); ok && equalFold(string(a.Value), "content-type") {
		if c, ok := z.Attr("content"); ok {
			label = charsetOfContent(c.Value)
		}
	}
	if label == nil {
		return ""
	}
	_, name, err := webencoding.Get(string(label))
	if err != nil {
		return ""
	}
	return name
}

// charsetOfContent is the HTML standard's "algorithm for extracting a
// character encoding from a meta element": the value after the first
// "charset" that an "=" follows, quoted or up to white space or ";". It
// returns nil when there is none.
func charsetOfContent(s []byte) []byte {
	for {
		i := indexFold(s, "charset")
		if i < 0 {
			return nil
		}
		s = s[i+len("charset"):]
		rest := bytes.TrimLeft(s, "\t\n\f\r ")
		if len(rest) == 0 || rest[0] != '=' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], "\t\n\f\r ")
		if len(rest) == 0 {
			return nil
		}
		if q := rest[0]; q == '"' || q == '\'' {
			end := bytes.IndexByte(rest[1:], q)
			if end < 0 {
				return nil
			}
			return rest[1 : 1+end]
		}
		if end := bytes.IndexAny(rest, "\t\n\f\r ;"); end >= 0 {
			rest = rest[:end]
		}
		return rest
	}
}

// indexFold is bytes.Index for an ASCII lower-case sep that starts with a
// letter, ASCII case-insensitively.
func indexFold(s []byte, sep string) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i]|0x20 == sep[0] && equalFold(string(s[i:i+len(sep)]), sep) {
			return i
		}
	}
	return -1
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
