//go:build unix

package main

import "syscall"

// noCoreDump keeps a crash from writing a core file: relurl's crashes are
// its out-of-memory ones, whose core would be as large as its memory, in
// the user's working directory.
func noCoreDump() {
	syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
}
