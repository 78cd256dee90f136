//go:build unix

package scaling

import "syscall"

// minorFaults returns the minor page faults of the process so far, or -1
// where the system does not say.
func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return int64(ru.Minflt)
}

// processCPU returns the CPU time of the process so far, user and system,
// in seconds, or -1 where the system does not say.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
