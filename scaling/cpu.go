package scaling

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"runtime/pprof"
)

// usage is what the process has used so far: its minor page faults and
// its CPU time in seconds (user and system; -1 where the system does not
// say), its garbage collections, the bytes it allocated on the heap, and
// the seconds its goroutines waited on a sync.Mutex or RWMutex (-1 where
// the runtime does not say).
type usage struct {
	faults     int64
	cpu        float64
	gcs, alloc uint64
	mutexWait  float64
}

// readUsage returns what the process has used so far.
func readUsage() usage {
	s := []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/sync/mutex/wait/total:seconds"},
	}
	metrics.Read(s)
	u := usage{mutexWait: -1}
	u.faults, u.cpu = rusage()
	if s[0].Value.Kind() == metrics.KindUint64 {
		u.gcs = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		u.alloc = s[1].Value.Uint64()
	}
	if s[2].Value.Kind() == metrics.KindFloat64 {
		u.mutexWait = s[2].Value.Float64()
	}
	return u
}

// CPU is what a measurement used: the share of N cores for its wall time
// (N its workers or threads) that the process kept busy (below 1, the
// workers or threads waited: for the last games of a run, on locks, on
// page faults), its garbage collections, the megabytes it allocated a
// second, and the seconds its goroutines waited on locks. Busy and the lock
// waits are -1 where the system does not say.
type CPU struct {
	Busy      float64 `json:"busy"`
	GCs       uint64  `json:"gcs"`
	AllocMBps float64 `json:"alloc_mb_per_second"`
	MutexWait float64 `json:"mutex_wait_seconds"`
}

// since returns the minor page faults since u (-1 where unknown) and what
// the process used on n cores in seconds since u.
func (u usage) since(n int, seconds float64) (faults int64, c CPU) {
	now := readUsage()
	faults = -1
	if now.faults >= 0 && u.faults >= 0 {
		faults = now.faults - u.faults
	}
	c = CPU{Busy: -1, GCs: now.gcs - u.gcs, MutexWait: -1}
	if seconds > 0 {
		c.AllocMBps = float64(now.alloc-u.alloc) / 1e6 / seconds
		if now.cpu >= 0 && u.cpu >= 0 && n > 0 {
			c.Busy = (now.cpu - u.cpu) / (float64(n) * seconds)
		}
	}
	if now.mutexWait >= 0 && u.mutexWait >= 0 {
		c.MutexWait = now.mutexWait - u.mutexWait
	}
	return faults, c
}

// profile starts a CPU profile written to dir/name.pprof and returns the
// function that stops and closes it; with dir empty it does nothing.
func profile(dir, name string) (stop func() error, err error) {
	if dir == "" {
		return func() error { return nil }, nil
	}
	path := filepath.Join(dir, name+".pprof")
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("scaling: profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("scaling: profile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("scaling: profile: %w", err)
		}
		return nil
	}, nil
}
