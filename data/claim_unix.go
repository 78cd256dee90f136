//go:build unix

package data

import (
	"errors"
	"syscall"
)

// processGone reports whether no process of id pid exists on this host.
func processGone(pid int) bool {
	if pid <= 0 {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
