package mcts

import (
	"math/rand/v2"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// nearGoalPositions returns at least n random positions with rabbits near
// their goals and a legal step, each followed by its mirror image.
func nearGoalPositions(rng *rand.Rand, n int) []engine.Position {
	var positions []engine.Position
	for len(positions) < n {
		if p := randomNearGoal(rng); p.HasStep() {
			positions = append(positions, p, mirror(p))
		}
	}
	return positions
}

// TestGoalCacheExact: with a cache, reachable answers as the search without
// one, on the first question and the repeated one, in a cache of one entry
// (every position on the same slot) and in a large one; turns past their
// start are never taken from the cache.
func TestGoalCacheExact(t *testing.T) {
	positions := nearGoalPositions(rand.New(rand.NewPCG(3, 4)), 300)
	plain := newGoalSearch()
	reach := 0
	for _, bits := range []int{0, 14} {
		cached := newGoalSearch()
		cached.cache = newGoalCache(bits)
		for round := range 2 {
			for _, p := range positions {
				turn := engine.NewTurn(p)
				want := plain.reachable(&turn)
				if got := cached.reachable(&turn); got != want {
					t.Fatalf("cache of 2^%d, round %d: %s: reachable %v, want %v", bits, round, p.String(), got, want)
				}
				if want && bits == 0 && round == 0 {
					reach++
				}
				// Inside a turn the answer depends on the steps left: a
				// position one step in is searched, not looked up.
				steps := turn.LegalSteps(nil)
				if len(steps) == 0 {
					continue
				}
				in := turn
				in.Play(steps[0])
				fresh := engine.NewTurn(in.Pos) // the same board with four steps: cached first
				cached.reachable(&fresh)
				if got, want := cached.reachable(&in), plain.reachable(&in); got != want {
					t.Fatalf("cache of 2^%d: %s after %v: reachable %v, want %v", bits, p.String(), steps[0], got, want)
				}
			}
		}
	}
	if reach == 0 || reach == len(positions) {
		t.Errorf("the goal is within reach in %d of %d positions: the test needs both answers", reach, len(positions))
	}
}

// TestQuietCacheExact checks that the quiescence values kept in the goal
// cache are those computed afresh, with a cache of one slot (every position
// pushing out the last, goal answers and values sharing slots) and a large
// one, positions met twice, inside a turn (not cached) and at its start.
func TestQuietCacheExact(t *testing.T) {
	positions := nearGoalPositions(rand.New(rand.NewPCG(5, 6)), 200)
	plain := deepWorker(t)
	hits := 0
	for _, bits := range []int{0, 14} {
		w := deepWorker(t)
		w.goal.cache = newGoalCache(bits)
		for round := range 2 {
			for _, p := range positions {
				turn := engine.NewTurn(p)
				w.goal.reachable(&turn)
				if _, ok := w.goal.cache.quietOf(&turn.Pos); ok {
					hits++
				}
				if got, want := w.quiesce(&turn), plain.quiesce(&turn); got != want {
					t.Fatalf("cache of 2^%d, round %d: %s: quiesce %v, want %v", bits, round, p.String(), got, want)
				}
				steps := turn.LegalSteps(nil)
				if len(steps) == 0 {
					continue
				}
				in := turn
				in.Play(steps[0])
				fresh := engine.NewTurn(in.Pos) // the same board at a turn start: cached first
				w.quiesce(&fresh)
				if got, want := w.quiesce(&in), plain.quiesce(&in); got != want {
					t.Fatalf("cache of 2^%d: %s after %v: quiesce %v, want %v", bits, p.String(), steps[0], got, want)
				}
			}
		}
	}
	// The second round of the large cache finds nearly every value (a few
	// slots are shared with the boards one step in).
	if hits < len(positions)*9/10 {
		t.Errorf("%d values found in the cache of %d positions met twice", hits, len(positions))
	}
}
