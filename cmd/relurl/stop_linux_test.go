//go:build linux

package main

import (
	"os/exec"
	"syscall"
)

// stopWithTest has cmd's process killed when the test binary ends,
// however it ends: a test that runs past -timeout panics, and runs no
// cleanup, and a Chromium or a server it started would live on.
func stopWithTest(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
