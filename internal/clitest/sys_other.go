//go:build !linux

package clitest

import (
	"os"
	"os/exec"
)

// StopWithTest does nothing where the system cannot tie a child's life to
// its parent's; cleanups stop the processes of a test that ends normally.
func StopWithTest(*exec.Cmd) {}

// maxRSSKiB returns 0: the peak resident memory is read on Linux only.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
