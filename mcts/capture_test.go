package mcts

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// material sums the captureValue of side's pieces minus the other side's.
func material(p *engine.Position, side engine.Color) int {
	m := 0
	for pc := range engine.Piece(12) {
		v := int(captureValue[pc.Type()]) * p.Bits[pc].Count()
		if pc.Color() == side {
			m += v
		} else {
			m -= v
		}
	}
	return m
}

// captureOracle is the most material side can win in one turn, by full move
// generation: every step prefix that may end the turn is a move of its own.
func captureOracle(p engine.Position) int {
	best := 0
	base := material(&p, p.Side)
	for _, m := range engine.GenMoves(p, nil) {
		best = max(best, material(&m.Pos, p.Side)-base)
	}
	return best
}

// testPositions returns positions from the archive games and random ones.
func testPositions(t *testing.T, n int) []engine.Position {
	t.Helper()
	var out []engine.Position
	f, err := os.Open("../engine/testdata/allgames202602.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, "allgames202602.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		g, err := engine.Replay(r)
		if err != nil {
			t.Fatal(err)
		}
		for i := 2; i < len(g.Moves()); i += 7 {
			out = append(out, g.PositionBefore(i))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for len(out) < n {
		out = append(out, randomPosition(rng))
	}
	return out[:n]
}

// TestCaptureSearchAgainstMoveGeneration checks the capture search against full
// move generation: a gain it reports is real (the line reaches it) and never
// more than the most a move wins, and it finds a capture in nearly every
// position where one exists.
func TestCaptureSearchAgainstMoveGeneration(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	cs := newCaptureSearch()
	exists, found, exact := 0, 0, 0
	for i, p := range testPositions(t, n) {
		turn := engine.NewTurn(p)
		gain, after := cs.find(&turn)
		want := captureOracle(p)
		if gain > want {
			t.Fatalf("position %d %s: capture search gains %d, move generation at most %d", i, p.String(), gain, want)
		}
		if gain > 0 {
			if got := material(&after.Pos, p.Side) - material(&p, p.Side); got != gain {
				t.Fatalf("position %d: the line reached gains %d, reported %d", i, got, gain)
			}
		}
		if want > 0 {
			exists++
			if gain > 0 {
				found++
			}
			if gain == want {
				exact++
			}
		}
	}
	if exists == 0 {
		t.Fatal("no position had a capture: the test checks nothing")
	}
	if found < exists*80/100 {
		t.Errorf("a capture found in %d of %d positions that have one, want 80%%", found, exists)
	}
	t.Logf("%d of %d positions with a capture; found in %d, the best gain in %d", exists, n, found, exact)
}

func BenchmarkCaptureSearch(b *testing.B) {
	ps := testPositions(&testing.T{}, 200)
	cs := newCaptureSearch()
	b.ResetTimer()
	for i := range b.N {
		turn := engine.NewTurn(ps[i%len(ps)])
		cs.find(&turn)
	}
}

// TestExhaustiveCaptureSearchIsExact checks the scan's capture search (every
// line of the steps left, cut by the bound) against full move generation: it
// must find the most material a move wins in every position. The first case
// is a capture the bound once cut: Silver's elephant steps onto its own trap
// c6, pulls the camel from c4 to c5, steps off to d6 and pulls it in.
func TestExhaustiveCaptureSearchIsExact(t *testing.T) {
	first, err := engine.ParsePosition("s [  rrrrcrrdchdr r m  E h   e      HM  D     R    H C RR DRR C RRR]")
	if err != nil {
		t.Fatal(err)
	}
	n := 200
	if testing.Short() {
		n = 60
	}
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	exists := 0
	for i, p := range append([]engine.Position{first}, testPositions(t, n)...) {
		turn := engine.NewTurn(p)
		gain, _ := cs.find(&turn)
		want := captureOracle(p)
		if want > 0 {
			exists++
		}
		if gain != want {
			t.Errorf("position %d %s: the exhaustive capture search gains %d, move generation %d", i, p.String(), gain, want)
		}
	}
	if exists < n/10 {
		t.Fatalf("%d positions with a capture: too few to test", exists)
	}
}
