package textsafe

import (
	"bytes"
	"fmt"
	"testing"
)

// EscapeControls finds a control byte at every position, whether its
// word-at-a-time scan or its byte loop meets it.
func TestEscapeControls(t *testing.T) {
	for n := 0; n < 20; n++ {
		for _, c := range []byte{0x00, 0x01, 0x1f, 0x7f} {
			for at := 0; at < n; at++ {
				b := bytes.Repeat([]byte("a"), n)
				b[at] = c
				want := fmt.Sprintf("%s%%%02X%s", b[:at], c, b[at+1:])
				if got := string(EscapeControls(append([]byte("x\x01"), b...), 2)); got != "x\x01"+want {
					t.Errorf("EscapeControls(%q) = %q, want %q", b, got, want)
				}
			}
		}
		plain := bytes.Repeat([]byte{' ', '~', 0x80, 0xff, 0x20, 0x7e, 'z', 0x9b}, 3)[:n]
		if got := EscapeControls(bytes.Clone(plain), 0); !bytes.Equal(got, plain) {
			t.Errorf("EscapeControls(%q) = %q, want it unchanged", plain, got)
		}
	}
}

func TestQuoteName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"docs/index.html", "docs/index.html"},
		{"docs/café.html", "docs/café.html"},
		{"a b.html", "a b.html"},
		{"two\nlines.html", `"two\nlines.html"`},
		{"tab\there", `"tab\there"`},
		{`say "hi".html`, `"say \"hi\".html"`},
		{`back\slash`, `"back\\slash"`},
		{"esc\x1b[31m", `"esc\033[31m"`},
		{"latin1-\xe9.html", `"latin1-\351.html"`},
		{"c1-\u0085", `"c1-\302\205"`},
	} {
		if got := QuoteName(tt.in); got != tt.want {
			t.Errorf("QuoteName(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
