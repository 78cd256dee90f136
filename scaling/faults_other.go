//go:build !unix

package scaling

// minorFaults returns -1: this system does not say how many page faults
// the process has had.
func minorFaults() int64 { return -1 }
