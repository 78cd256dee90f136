package selfplay

import (
	"context"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// raceEval plays a rabbit race: a position is worth the advance of the side
// to move's rabbits towards their goal less the opponent's, each rabbit by
// the square of its rank from its own side's first, so that games end by
// goal within a few dozen turns.
type raceEval struct{}

func (raceEval) Evaluate(p *engine.Position) float32 {
	return advance(p, p.Side) - advance(p, p.Side.Other())
}

// advance is the mean of (rank/7)² over the rabbits of side, 0 for none.
func advance(p *engine.Position, side engine.Color) float32 {
	b := p.Bits[engine.MakePiece(side, engine.Rabbit)]
	sum, n := 0, 0
	for ; b != 0; b &= b - 1 {
		r := b.First().Rank()
		if side == engine.Silver {
			r = 7 - r
		}
		sum += r * r
		n++
	}
	if n == 0 {
		return 0
	}
	return float32(sum) / float32(49*n)
}

// TestDecidedGameResults: in a game won by one side, the rows of the
// winner's turns have result 1 and those of the loser's -1 (the run tests'
// short games all stop at max_turns, with result 0); every row names the
// game's termination and counts the plies left to its end, and the record
// gives the winner. The first of the seeds whose rabbit race ends within
// max_turns is checked (most do).
func TestDecidedGameResults(t *testing.T) {
	c := testConfig(t)
	c.MaxTurns = 60
	var p *played
	for seed := range uint64(10) {
		q, err := playGame(context.Background(), &c, raceEval{}, seed, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if q.outcome.Reason != engine.MaxTurns {
			t.Logf("seed %d: %v after %d plies", seed, q.outcome, len(q.rows))
			p = q
			break
		}
	}
	if p == nil {
		t.Fatalf("no game of 10 ended within %d turns", c.MaxTurns)
	}
	sides := [2]int{}
	for i, r := range p.rows {
		want := int8(-1)
		if engine.Color(r.Side) == p.outcome.Winner {
			want = 1
		}
		sides[r.Side]++
		if r.Result != want {
			t.Errorf("row %d (side %s): result %d, want %d", i, engine.Color(r.Side), r.Result, want)
		}
		if r.Termination != p.outcome.Reason.String() {
			t.Errorf("row %d: termination %q, want %q", i, r.Termination, p.outcome.Reason)
		}
		if int(r.PliesLeft) != len(p.rows)-i {
			t.Errorf("row %d: plies_left %d, want %d", i, r.PliesLeft, len(p.rows)-i)
		}
	}
	if sides[0] == 0 || sides[1] == 0 {
		t.Fatalf("rows by side %v: want turns of both sides", sides)
	}
	if p.record.Result != p.outcome.Winner || p.record.Termination != p.outcome.Reason {
		t.Errorf("record: %s wins by %s, want %v", p.record.Result.Name(), p.record.Termination, p.outcome)
	}
}
