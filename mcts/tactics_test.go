package mcts

import (
	"context"
	"fmt"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// goldMaterial is Gold's material less Silver's, in materialEval's weights.
func goldMaterial(p *engine.Position) float64 {
	var s float64
	for t := range engine.NumTypes {
		gold := p.Count(engine.MakePiece(engine.Gold, engine.PieceType(t)))
		silver := p.Count(engine.MakePiece(engine.Silver, engine.PieceType(t)))
		s += materialWeight[t] * float64(gold-silver)
	}
	return s
}

// afterReply plays Gold's move in p and returns Gold's material gain, from
// p, after Silver's best reply (every Silver move generated): what the
// move wins or loses against an opponent who takes what it can.
func afterReply(t *testing.T, p engine.Position, move string) float64 {
	t.Helper()
	tr := engine.NewTurn(p)
	if err := tr.PlayMove(move); err != nil {
		t.Fatalf("move %q: %v", move, err)
	}
	q := tr.End()
	worst := goldMaterial(&q)
	for _, m := range engine.GenMoves(q, nil) {
		worst = min(worst, goldMaterial(&m.Pos))
	}
	return worst - goldMaterial(&p)
}

// TestSearchWinsMaterial searches positions where the right move wins
// material or saves it, and the wrong ones lose it, and scores the move
// played by the material Gold has after Silver's best reply. The search
// runs with static leaves and no scan, so that only the evaluation and the
// tree tell the good moves from the bad (and with tactical leaves too), with
// the material evaluation and generation 0's, at 7,500 simulations (with
// the generation 0 of comparison training every case passes from 6,500 to
// 9,000: at 6,000 its static leaves lose the horse, from 10,000 on the
// tactical leaves miss the cat's push). A search whose evaluation has the wrong sign, at
// the leaves or where the turn passes, plays a losing move in every case.
func TestSearchWinsMaterial(t *testing.T) {
	if testing.Short() {
		t.Skip("20 searches of 7,500 simulations: a second and a half, but over a minute under the race detector")
	}
	tests := []struct {
		name   string
		pieces string // Gold to move
		gain   float64
		bad    string // a move that falls short: the position tests something
	}{
		// The camel pushes the dog onto the f6 trap, which no silver piece guards.
		{"push a dog into a trap", "Me5 df5 Ra1 Rh1 Ee1 ea8 rb8 rg8", 2, "Ee1n"},
		// The elephant steps off the f3 trap (the rabbit on f2 holds it
		// there) and pulls the dog onto it.
		{"pull a dog into a trap", "Ef3 Rf2 Ra1 Rh1 dg3 ea8 ra7 rh7", 2, "Ra1n"},
		// The silver elephant beside the horse would push it onto c3: the
		// horse must go where no trap is within the elephant's reach.
		{"save a threatened horse", "Hd3 Rd2 Ra1 Rh1 Eg1 ed4 ra8 rh8", 0, "Eg1n"},
		// The dog can push the rabbit onto c3, but a dog left on c4 is
		// pushed onto c3 in turn by the elephant: capture, then step back.
		{"capture and step out of reach", "Dd4 rc4 Ra1 Rh1 Eg1 eb5 ra8 rh8", 1, "rc4s rc3x Dd4w"},
		// The elephant pushes the cat onto c3.
		{"push a cat into a trap", "Ed4 cc4 ra8 rh8 Ra1 Rh1", 1.5, "Ra1n"},
	}
	evals := []struct {
		name string
		ev   Evaluator
	}{{"material", materialEval{}}, {"gen0", gen0(t)}}
	for _, tc := range tests {
		p := build(t, engine.Gold, tc.pieces)
		if got := afterReply(t, p, tc.bad); got >= tc.gain {
			t.Fatalf("%s: the bad move %q gains %v after the reply, want less than %v", tc.name, tc.bad, got, tc.gain)
		}
		for _, e := range evals {
			for _, leaf := range []Leaf{LeafStatic, LeafTactical} {
				t.Run(fmt.Sprintf("%s/%s/%s", tc.name, e.name, leaf), func(t *testing.T) {
					s, err := New(Config{Visits: 7500, Seed: 1, Leaf: leaf, Scan: ScanOff}, e.ev)
					if err != nil {
						t.Fatal(err)
					}
					res, err := s.Search(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					if got := afterReply(t, p, res.Move); got < tc.gain {
						t.Errorf("move %s gains %v after Silver's best reply, want %v (top %v)", res.Move, got, tc.gain, res.Top[:min(3, len(res.Top))])
					}
				})
			}
		}
	}
}
