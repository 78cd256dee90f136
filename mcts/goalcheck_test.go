package mcts

import (
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestGoalCheckSafe checks GoalCheck.Safe against full move generation: a
// move is safe when it wins at once, or when no move of the opponent's
// after it ends the turn with the opponent's win. Gold can win with the g7
// rabbit or stop Silver's rabbit on b2 in a few ways; most moves do neither.
func TestGoalCheckSafe(t *testing.T) {
	p := mustPosition(t, "g [              R     e              E             r      R       ]")
	gen, replies := engine.NewMoveGen(), engine.NewMoveGen()
	n := gen.Generate(&p, nil)
	want, wins := 0, 0
	for i := range n {
		q := gen.Position(i)
		if out := engine.EndOfTurn(&q, nil, nil); out.Over() {
			if out.Winner == engine.Gold {
				want++
				wins++
			}
			continue
		}
		lost := false
		for j := range replies.Generate(&q, nil) {
			r := replies.Position(j)
			if out := engine.EndOfTurn(&r, nil, nil); out.Over() && out.Winner == engine.Silver {
				lost = true
				break
			}
		}
		if !lost {
			want++
		}
	}
	safe, moves := NewGoalCheck().Safe(&p, nil)
	t.Logf("%d of %d moves safe, %d of them winning", safe, moves, wins)
	if safe != want || moves != n {
		t.Errorf("Safe: %d of %d moves, want %d of %d by move generation", safe, moves, want, n)
	}
	if wins == 0 || want == wins || want == n {
		t.Errorf("%d safe moves of %d, %d of them winning: the position tests nothing", want, n, wins)
	}
}
