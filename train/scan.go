package train

import (
	"context"
	"sync"
)

// scan runs a pipeline of jobs: produce emits them in order (from a goroutine
// of its own), up to threads workers run work on them concurrently, and reduce
// receives the results in the order of the jobs, in the calling goroutine. So
// whatever the number of threads, reduce sees the same sequence, and sums made
// by it are bit-identical.
//
// At most 4*threads jobs are between emit and reduce at any time, so memory
// stays bounded however many jobs there are. release is called once for every
// emitted job after its work (or instead of it when the scan is stopping).
//
// The first error in job order (from work or reduce), or else the error of
// produce, is returned; later jobs are dropped.
func scan[J, A any](ctx context.Context, threads int,
	produce func(ctx context.Context, emit func(J) error) error,
	work func(worker int, j J) (A, error),
	release func(J),
	reduce func(A) error,
) error {
	if threads < 1 {
		threads = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type item struct {
		seq int
		j   J
	}
	type result struct {
		seq int
		a   A
		err error
	}
	window := make(chan struct{}, 4*threads)
	jobs := make(chan item, threads)
	results := make(chan result, 4*threads)

	var prodErr error
	go func() {
		defer close(jobs)
		seq := 0
		prodErr = produce(ctx, func(j J) error {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				release(j)
				return ctx.Err()
			}
			// jobs has room for threads items and at most 4*threads are
			// out, but a full jobs channel must not block a cancelled scan.
			select {
			case jobs <- item{seq, j}:
				seq++
				return nil
			case <-ctx.Done():
				release(j)
				return ctx.Err()
			}
		})
	}()

	var wg sync.WaitGroup
	for w := range threads {
		wg.Go(func() {
			for it := range jobs {
				if err := ctx.Err(); err != nil {
					release(it.j)
					results <- result{seq: it.seq, err: err}
					continue
				}
				a, err := work(w, it.j)
				release(it.j)
				results <- result{it.seq, a, err}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := make(map[int]result)
	next := 0
	var firstErr error
	for r := range results {
		pending[r.seq] = r
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			if firstErr != nil {
				continue
			}
			if p.err != nil {
				firstErr = p.err
			} else if err := reduce(p.a); err != nil {
				firstErr = err
			}
			if firstErr != nil {
				cancel()
			}
		}
	}
	// results is closed: the workers are done, so jobs was closed, so produce
	// has returned and prodErr is set.
	if firstErr != nil {
		return firstErr
	}
	return prodErr
}
