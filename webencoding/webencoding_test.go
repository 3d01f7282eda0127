package webencoding

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
)

func TestSingleByteC1(t *testing.T) {
	for _, tt := range []struct {
		label, bytes, text string
	}{
		{"windows-1252", "\x81\x8d\x8f\x90\x9d", "\u0081\u008d\u008f\u0090\u009d"},
		{"windows-1252", "caf\xe9 \x80", "café €"},
		{"latin1", "\x81", "\u0081"}, // windows-1252 by its label
		{"windows-1250", "\x81\x83\x8a", "\u0081\u0083Š"},
		{"ISO-8859-2", "\x80\x9f\xa1", "\u0080\u009fĄ"},
		{"windows-874", "\x81\xa1", "\u0081\u0e01"},
		{"iso-8859-8", "\x90\xa1", "\u0090\ufffd"}, // 0xA1 is undefined from 0xA0 on: an error
	} {
		enc, _, err := Get(tt.label)
		if err != nil {
			t.Fatal(err)
		}
		got, err := enc.NewDecoder().String(tt.bytes)
		if err != nil || got != tt.text {
			t.Errorf("%s: decode %q = %q, %v; want %q", tt.label, tt.bytes, got, err, tt.text)
		}
		if strings.ContainsRune(tt.text, '\ufffd') {
			if _, err := enc.NewEncoder().String(tt.text); err == nil {
				t.Errorf("%s: encoding %q did not fail", tt.label, tt.text)
			}
			continue
		}
		back, err := enc.NewEncoder().String(tt.text)
		if err != nil || back != tt.bytes {
			t.Errorf("%s: encode %q = %q, %v; want %q", tt.label, tt.text, back, err, tt.bytes)
		}
	}
}

func TestEncodeUnsupported(t *testing.T) {
	enc, _, _ := Get("windows-1252")
	got, err := encoding.HTMLEscapeUnsupported(enc.NewEncoder()).String("a\u2212b\u0081")
	if err != nil || got != "a&#8722;b\x81" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestNotSingleByte(t *testing.T) {
	for _, label := range []string{"utf-8", "shift_jis", "x-user-defined", "gbk"} {
		enc, name, err := Get(label)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := enc.(*SingleByte); ok {
			t.Errorf("%s (%s) is a SingleByte", label, name)
		}
	}
	if _, _, err := Get("no-such-encoding"); err == nil {
		t.Error("an unknown label gave no error")
	}
}

// TestAgainstNode decodes every byte from 0x80 to 0x9F in every
// single-byte encoding with relurl and with Node's TextDecoder, and fails
// on any difference. It skips without node. Two are left out: Node lacks
// iso-8859-16, and decodes windows-1252 as ISO-8859-1 (0x80 to U+0080, not
// U+20AC); the Chromium comparison of package links covers windows-1252.
func TestAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	labels := []string{"ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
		"iso-8859-8", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15", "koi8-r", "koi8-u",
		"macintosh", "windows-874", "windows-1250", "windows-1251", "windows-1253", "windows-1254",
		"windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic"}
	script := `for (const l of process.argv.slice(1)) {
  const d = new TextDecoder(l), out = [];
  for (let b = 0x80; b < 0xa0; b++) out.push(d.decode(new Uint8Array([b])).codePointAt(0).toString(16));
  console.log(out.join(" "));
}`
	out, err := exec.Command(node, append([]string{"-e", script}, labels...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	n := 0
	for i, label := range labels {
		enc, _, _ := Get(label)
		sb := enc.(*SingleByte)
		want := strings.Fields(lines[i])
		for b := 0x80; b < 0xa0; b++ {
			n++
			if got := strconv.FormatInt(int64(sb.DecodeByte(byte(b))), 16); got != want[b-0x80] {
				t.Errorf("%s: 0x%x decodes to U+%s, Node U+%s", label, b, got, want[b-0x80])
			}
		}
	}
	t.Logf("%d bytes of %d encodings agree with Node's TextDecoder", n, len(labels))
}
