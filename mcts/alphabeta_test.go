package mcts

import (
	"context"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// newTestStepSearch returns a step search with the evaluation ev, outside
// any tree search.
func newTestStepSearch(t *testing.T, ev Evaluator) *stepSearch {
	t.Helper()
	s, err := New(Config{Visits: 1}, ev)
	if err != nil {
		t.Fatal(err)
	}
	sr := &search{s: s, ctx: context.Background()}
	ss := newStepSearch()
	ss.w = sr.newWorker()
	return ss
}

// turnMinimax is the minimax value for p's side of turns whole turns from
// p, by the move generator's unique moves, with the evaluation at the end:
// the reference of the step search at depth 4*turns.
func turnMinimax(ev Evaluator, p *engine.Position, turns int) float32 {
	start := engine.NewTurn(*p)
	out := engine.EndOfTurn(&start.Pos, nil, nil)
	if out.Over() {
		if out.Winner == p.Side {
			return 1
		}
		return -1
	}
	if turns == 0 {
		return ev.Evaluate(p)
	}
	g := engine.NewMoveGen()
	n := g.Generate(p, nil)
	if n == 0 {
		return -1
	}
	best := float32(-2)
	for i := range n {
		q := g.Position(i)
		best = max(best, -turnMinimax(ev, &q, turns-1))
	}
	return best
}

// TestStepSearchMatchesTurnMinimax: the step search's value at depths of
// whole turns, with the evaluation at its leaves, is the minimax value over
// the generator's moves, exactly: its cuts, its table and its passes lose
// nothing and invent nothing.
func TestStepSearchMatchesTurnMinimax(t *testing.T) {
	ev := gen0(t)
	cases := []struct {
		name  string
		pos   string
		turns int
	}{
		{"opening, one turn", "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]", 1},
		{"a capture in reach, one turn", "g [rrr  rr r mcchrr d    d     E            H  e D R C  C RRRRDMRRR]", 1},
		{"sparse, two turns", "g [         r         e                 C    c         E R         ]", 2},
		{"a rabbit near goal, two turns", "s [  r           R              e            E      d           D  ]", 2},
		{"frozen pieces, two turns", "g [     r               m     D     Ee                     R       ]", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustPosition(t, c.pos)
			want := turnMinimax(ev, &p, c.turns)
			ss := newTestStepSearch(t, ev)
			ss.depth = 4 * c.turns
			tr := engine.NewTurn(p)
			ss.deadline = time.Now().Add(time.Hour)
			ss.root = tr.StartHash()
			// Iteratively deepened as run searches, the table kept: the
			// shallower iterations' entries serve the deeper one.
			var got float32
			for d := 1; d <= 4*c.turns; d++ {
				got = ss.search(&tr, d, 0, -2, 2)
			}
			if got != want {
				t.Fatalf("step search %v, minimax over turns %v", got, want)
			}
			// The principal variation's move reaches a board of that value.
			line := rootLine(ss.pv[0][:ss.pvLen[0]])
			if len(line) == 0 {
				t.Fatal("no move in the principal variation")
			}
			after := engine.NewTurn(p)
			for _, st := range line {
				if _, err := after.Step(st); err != nil {
					t.Fatalf("principal variation %v: %v", line, err)
				}
			}
			if err := after.CanEnd(); err != nil {
				t.Fatalf("principal variation %v: %v", line, err)
			}
			q := after.End()
			if v := -turnMinimax(ev, &q, c.turns-1); v != want {
				t.Fatalf("principal variation %v reaches %v, want %v", line, v, want)
			}
		})
	}
}
