//go:build linux

package clitest

import (
	"os"
	"os/exec"
	"syscall"
)

// StopWithTest has cmd's process killed when the test binary ends,
// however it ends: a test that runs past -timeout panics, and runs no
// cleanup, and a Chromium or a server it started would live on.
func StopWithTest(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// maxRSSKiB returns the peak resident memory of the process that ended
// with state, in KiB.
func maxRSSKiB(state *os.ProcessState) int64 {
	if ru, ok := state.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
