package judge

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/arimaalab/arimaalab/mcts"
)

// Replies returns the successors of succ with each position replaced by the
// position after the opponent's best reply to it by the deep scan's scan of
// the reply turn with the evaluation ev (mcts.ReplyLeaf.Reply): where the
// deep scan reads the evaluation for the move that led to the successor,
// with that move's mover to move again. Labelled by a judge, these positions
// tell how right the evaluation is at the very positions the deep scan's
// choice of replies selects. Successors whose reply the rules decide (the
// game ends, or the side to move reaches its goal) are left out; the others
// keep their order, Source, Rank, Value and Random. workers goroutines share
// the work (1 or more); the result does not depend on their number.
// progress, when set, is called after each successor with the number done
// and the total, from one goroutine at a time.
func Replies(succ []Successor, ev mcts.Evaluator, workers int, progress func(done, total int)) ([]Successor, error) {
	if workers < 1 {
		return nil, fmt.Errorf("judge: %d workers", workers)
	}
	leaves := make([]*mcts.ReplyLeaf, workers)
	for i := range leaves {
		r, err := mcts.NewReplyLeaf(ev)
		if err != nil {
			return nil, fmt.Errorf("judge: %w", err)
		}
		leaves[i] = r
	}
	out := make([]Successor, len(succ))
	kept := make([]bool, len(succ))
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range leaves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(succ) {
					return
				}
				s := succ[i]
				if q, ok := r.Reply(&s.Pos); ok {
					s.Pos = q
					out[i], kept[i] = s, true
				}
				n := done.Add(1)
				if progress != nil {
					mu.Lock()
					progress(int(n), len(succ))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	res := out[:0]
	for i, s := range out {
		if kept[i] {
			res = append(res, s)
		}
	}
	return res, nil
}
