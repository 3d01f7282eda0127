// Package jsonline writes JSON Lines: one JSON value a line, as relurl's
// -json outputs are, without encoding/json's HTML escaping (a URL's "&"
// stays "&", not "\u0026").
package jsonline

import (
	"bytes"
	"encoding/json"
)

// Append appends v to dst as one line of JSON and returns the extended
// buffer. v must hold what JSON can: relurl's objects hold strings,
// numbers and bools, so it cannot fail.
func Append(dst []byte, v any) []byte {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return buf.Bytes()
}
