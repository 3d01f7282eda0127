// Package bytestr views bytes as a string without copying them, for the hot
// paths that hand a []byte to a function taking a string, such as
// rfc1808.AppendResolve, millions of times.
package bytestr

import "unsafe"

// Transient returns b as a string that shares b's memory. The string is
// valid only while b is not modified: pass it to a call that does not keep
// it, and do not change b until the call returns.
func Transient(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Owned returns b as a string without copying it. b must not be used again,
// so that the string can own its memory, as strings.Builder does.
func Owned(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
