//go:build unix

package aei

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, so that killing
// it also kills what it started (such as the program "go run" builds).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// kill kills the process and its process group.
func kill(p *os.Process) error {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err == nil {
		return nil
	}
	return p.Kill()
}
