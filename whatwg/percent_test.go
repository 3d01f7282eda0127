package whatwg

import "testing"

// utf8Decode (x/text's decoder) replaces each maximal subpart of an ill-formed sequence with
// one U+FFFD, as the Encoding Standard's UTF-8 decoder does.
func TestUTF8Decode(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"a\u00e9\U0001F600": "a\u00e9\U0001F600",
		"\xFE\xFF":          "\uFFFD\uFFFD",
		"\xE2\x82":          "\uFFFD", // a sequence cut short: one
		"\xE2\x82x":         "\uFFFDx",
		"\xF0\x9F\x98":      "\uFFFD",
		"\xF0\x9F\x98\xF0":  "\uFFFD\uFFFD",
		"\xC0\xAF":          "\uFFFD\uFFFD",             // an overlong start: no sequence starts with C0
		"\xE0\x80\x80":      "\uFFFD\uFFFD\uFFFD",       // E0 is followed by A0-BF
		"\xED\xA0\x80":      "\uFFFD\uFFFD\uFFFD",       // a surrogate: ED by 80-9F
		"\xF4\x90\x80\x80":  "\uFFFD\uFFFD\uFFFD\uFFFD", // past U+10FFFF
		"\xF5\x80":          "\uFFFD\uFFFD",
		"\x80\x80x\xC3\xA9": "\uFFFD\uFFFDx\u00e9",
	} {
		if got := utf8Decode(in); got != want {
			t.Errorf("utf8Decode(%q) = %q, want %q", in, got, want)
		}
	}
}
