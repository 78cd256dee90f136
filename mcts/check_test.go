package mcts

import (
	"errors"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestCheckMoves checks what CheckMoves says of moves of dragPosition: the
// ranks follow the one-turn values among the DeepFirst moves best by the
// evaluation and are -1 outside them, each two-turn value is the opponent's
// best reply valued as the deep scan values a reply, and a position no move
// reaches gets the rank -1.
func TestCheckMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("values every reply of four moves: seconds")
	}
	p := mustPosition(t, dragPosition)
	s, err := New(Config{Visits: 1, Scan: ScanDeep}, gen0(t))
	if err != nil {
		t.Fatal(err)
	}
	w := (&search{s: s}).newWorker()
	gen := engine.NewMoveGen()
	n := gen.Generate(&p, nil)
	byEval := w.byEvaluation(gen, n, func() bool { return false })
	if n <= DeepFirst {
		t.Fatalf("%d moves: want more than %d", n, DeepFirst)
	}
	// The best move by the evaluation, one far down the first DeepFirst,
	// one just outside them, and a move of another position.
	after := []engine.Position{
		gen.Position(byEval[0].i),
		gen.Position(byEval[DeepFirst-1].i),
		gen.Position(byEval[DeepFirst+10].i),
		play(t, mustPosition(t, "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"), "Ee2n Ee3n Ee4n Ee5n"),
	}
	got, err := s.CheckMoves(p, nil, after)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(after) {
		t.Fatalf("%d checks of %d moves", len(got), len(after))
	}
	if got[0].Rank < 0 || got[1].Rank < 0 || got[2].Rank != -1 || got[3].Rank != -1 {
		t.Errorf("ranks %d %d %d %d: want the first two among the %d, the others -1", got[0].Rank, got[1].Rank, got[2].Rank, got[3].Rank, DeepFirst)
	}
	if got[0].Rank != got[1].Rank && (got[0].Rank < got[1].Rank) != (got[0].OneTurn >= got[1].OneTurn) {
		t.Errorf("rank %d at one-turn value %v, rank %d at %v", got[0].Rank, got[0].OneTurn, got[1].Rank, got[1].OneTurn)
	}
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	all := engine.NewMoveGen()
	for k := range 3 {
		opp := float32(-2)
		for j := range all.Generate(&after[k], nil) {
			q := all.Position(j)
			opp = max(opp, w.threatened(&q, cs, deepThreat))
		}
		if got[k].TwoTurn != -opp {
			t.Errorf("move %d: two-turn value %v, its best reply %v", k, got[k].TwoTurn, opp)
		}
		if got[k].OneTurn < -1 || got[k].OneTurn > 1 || got[k].TwoTurn > 1 {
			t.Errorf("move %d: values %+v", k, got[k])
		}
	}
	over := mustPosition(t, "g [R                                                              r]")
	over.SetSide(engine.Silver)
	if _, err := s.CheckMoves(over, nil, nil); !errors.Is(err, ErrGameOver) {
		t.Errorf("a lost position: %v", err)
	}
}
