//go:build !unix

package aei

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where process groups are not available.
func ownGroup(cmd *exec.Cmd) {}

// kill kills the process.
func kill(p *os.Process) error { return p.Kill() }
