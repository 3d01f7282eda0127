package main

import (
	"github.com/relurl/relurl/internal/textsafe"
)

// printable is textsafe.String: s for a message, controls and invalid
// UTF-8 bytes written \xNN.
func printable(s string) string { return textsafe.String(s) }
