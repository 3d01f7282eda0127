package main

import (
	"encoding/binary"
	"fmt"

	"github.com/relurl/relurl/internal/textsafe"
)

// Text output never carries a raw control byte from its input: a URL or a
// document could otherwise move a terminal's cursor, clear its screen, or
// (a newline) forge a line of output. URLs on standard output have their C0
// controls and DEL percent-encoded, which is how a URL writes them; messages
// on standard error show them, C1 controls and invalid UTF-8 as \xNN. JSON
// output escapes them as JSON does, and loses nothing.

// endURLLine ends the line of the URL appended to dst from start:
// it percent-encodes the URL's control bytes and appends a newline.
func endURLLine(dst []byte, start int) []byte {
	return append(escapeControls(dst, start), '\n')
}

// escapeControls percent-encodes the C0 controls and DEL in dst[from:].
func escapeControls(dst []byte, from int) []byte {
	// Eight bytes at a time: this runs on every line resolve prints.
	rest := dst[from:]
	for len(rest) >= 8 && !hasControl(binary.LittleEndian.Uint64(rest)) {
		rest = rest[8:]
	}
	i := len(dst) - len(rest)
	for i < len(dst) && dst[i] >= ' ' && dst[i] != 0x7f {
		i++
	}
	if i == len(dst) {
		return dst // the usual case: nothing to escape
	}
	tail := append([]byte(nil), dst[i:]...)
	dst = dst[:i]
	for _, c := range tail {
		if c < ' ' || c == 0x7f {
			dst = fmt.Appendf(dst, "%%%02X", c)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// hasControl reports whether a byte of w is below 0x20 or is 0x7f, by the
// word-at-a-time test for a byte less than n (exact for n up to 0x80).
func hasControl(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	del := w ^ (0x7f * ones) // a zero byte where w has DEL
	return ((w-0x20*ones)&^w|(del-ones)&^del)&highs != 0
}

// printable is textsafe.String: s for a message, controls and invalid
// UTF-8 bytes written \xNN.
func printable(s string) string { return textsafe.String(s) }
