//go:build unix

package scaling

import "syscall"

// rusage returns the minor page faults of the process so far and its CPU
// time, user and system, in seconds; -1 for each where the system does not
// say.
func rusage() (faults int64, cpu float64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1, -1
	}
	return int64(ru.Minflt), float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
