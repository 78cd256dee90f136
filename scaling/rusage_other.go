//go:build !unix

package scaling

// minorFaults returns -1: this system does not say how many page faults
// the process has had.
func minorFaults() int64 { return -1 }

// processCPU returns -1: this system does not say how much CPU time the
// process has had.
func processCPU() float64 { return -1 }
