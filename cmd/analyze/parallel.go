package main

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// workers returns how many goroutines to spread n tasks over: one per core,
// at most n, at least 1.
func workers(n int) int { return max(1, min(n, runtime.GOMAXPROCS(0))) }

// parallel calls f(w, i) for every i in [0, n), spread over nw goroutines, and
// returns when all calls are done. w in [0, nw) names the goroutine making the
// call, for per-goroutine state such as a move generator.
func parallel(n, nw int, f func(w, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range nw {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(w, i)
			}
		})
	}
	wg.Wait()
}
