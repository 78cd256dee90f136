//go:build !unix

package scaling

// rusage returns -1, -1: this system does not say how many page faults the
// process has had or how much CPU time.
func rusage() (faults int64, cpu float64) { return -1, -1 }
