package main

import (
	"testing"
	"time"
)

// A flag's 0 means none (-max-redirects 0, -timeout 0), which the
// libraries spell as a negative value: their 0 is their default.
func TestZeroIsNone(t *testing.T) {
	if zeroIsNone(0) != -1 || zeroIsNone(3) != 3 || zeroIsNone(time.Duration(0)) >= 0 || zeroIsNone(time.Second) != time.Second {
		t.Error("zeroIsNone does not turn 0 alone into none")
	}
}
