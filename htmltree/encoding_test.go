package htmltree

import (
	"strings"
	"testing"
)

// TestEncoding: the standard's steps in their order, and the prescan told
// from the fallback whatever the encoding a <meta> declares (windows-1252
// itself, and the labels that are windows-1252, which the fallback also
// answers).
func TestEncoding(t *testing.T) {
	long := strings.Repeat("<p>text</p>\n", 100) // past the prescan's 1024 bytes
	for _, tt := range []struct {
		name, doc, contentType, want string
		decoded                      bool // a decoder is returned: the bytes are not read as they are
	}{
		{"nothing declared, ASCII", "<p>x", "", "windows-1252", false},
		{"nothing declared, UTF-8", "<p>caf\u00e9.", "", "utf-8", false},
		{"nothing declared, not UTF-8", "<p>caf\xe9", "", "windows-1252", true},
		{"meta charset utf-8", `<meta charset="utf-8"><p>caf`, "", "utf-8", false},
		{"meta charset windows-1252, ASCII", `<meta charset="windows-1252"><p>x`, "", "windows-1252", true},
		{"meta charset latin1 is windows-1252", `<meta charset="latin1"><p>x`, "", "windows-1252", true},
		{"meta http-equiv", `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">`, "", "iso-8859-2", true},
		{"x-user-defined is windows-1252", `<meta charset="x-user-defined">`, "", "windows-1252", true},
		{"the Content-Type over the meta", `<meta charset="utf-8">`, "text/html; charset=koi8-r", "koi8-r", true},
		{"a byte order mark over both", "\xef\xbb\xbf<meta charset=koi8-r>", "text/html; charset=koi8-r", "utf-8", false},
		{"a meta in the head, past 1024 bytes", "<title>" + long + "</title><meta charset=koi8-r>", "", "koi8-r", true},
		{"a meta past the head", "<body>" + long + "<meta charset=koi8-r>", "", "windows-1252", false},
	} {
		enc, name := Encoding([]byte(tt.doc), tt.contentType)
		if name != tt.want || (enc != nil) != tt.decoded {
			t.Errorf("%s: %s, decoder %v; want %s, %v", tt.name, name, enc != nil, tt.want, tt.decoded)
		}
	}
}
