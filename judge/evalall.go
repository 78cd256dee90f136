package judge

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// evalResult is a judge's score of the k-th position of a list, and the time
// it took.
type evalResult struct {
	k    int
	ev   Eval
	took time.Duration
}

// evalAll scores the n positions at(k) (the position, its history, and where
// it comes from, for errors) on the judges, each judge on its own goroutine,
// and calls got on the caller's goroutine with each score in the order they
// come. It returns the first error, of a judge (naming where) or of got,
// after the judges have finished the positions they hold; ctx's error when
// ctx is cancelled.
func evalAll(ctx context.Context, judges []Judge, n int, at func(k int) (engine.Position, *engine.History, string), got func(evalResult) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		evalResult
		err error
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for _, j := range judges[:min(len(judges), n)] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				pos, hist, where := at(k)
				t0 := time.Now()
				ev, err := j.Eval(ctx, pos, hist)
				if err != nil {
					if ctx.Err() != nil {
						err = ctx.Err()
					} else {
						err = fmt.Errorf("%s: %w", where, err)
					}
				}
				select {
				case results <- result{evalResult{k, ev, time.Since(t0)}, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for k := range n {
			select {
			case jobs <- k:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	var first error
	for r := range results { // read to the end: the judges finish their positions
		if first != nil {
			continue
		}
		if first = r.err; first == nil {
			first = got(r.evalResult)
		}
		if first != nil {
			cancel()
		}
	}
	if first == nil {
		first = ctx.Err()
	}
	return first
}
