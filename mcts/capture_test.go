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
	for _, tc := range []struct {
		name  string
		extra int
	}{{"tree", 1}, {"exhaustive", engine.MaxSteps}} {
		b.Run(tc.name, func(b *testing.B) {
			cs := newCaptureSearch()
			cs.extra = tc.extra
			for i := range b.N {
				turn := engine.NewTurn(ps[i%len(ps)])
				cs.find(&turn)
			}
		})
	}
}

// TestCaptureTableChangesNothing checks the table of states seen: with it,
// both modes of the capture search find the same gain and the same line as
// without it, in fewer nodes. Step orders that reach one state are common
// (two independent steps either way round), and a state's subtree is the
// same whichever way it was reached.
func TestCaptureTableChangesNothing(t *testing.T) {
	checkCutChangesNothing(t, "the table", 300, func(c *captureSearch) { c.seen = nil })
}

// TestCaptureGainCutChangesNothing checks the cut of subtrees that cannot
// beat the best line so far likewise.
func TestCaptureGainCutChangesNothing(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	checkCutChangesNothing(t, "the gain cut", n, func(c *captureSearch) { c.noGainCut = true })
}

// TestCaptureStepFilterChangesNothing checks that walking only the steps
// that may capture in the last two steps of a line (Turn.ForcingSteps and
// Turn.PullSteps) finds the same gains and lines as walking every step.
func TestCaptureStepFilterChangesNothing(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	checkCutChangesNothing(t, "the step filter", n, func(c *captureSearch) { c.allSteps = true })
}

// checkCutChangesNothing compares, in both modes, the capture search with a
// search that off has stripped of one cut, from the turn starts of n test
// positions and after one and two of their steps: the same gains and lines,
// and fewer nodes with the cut.
func checkCutChangesNothing(t *testing.T, cut string, n int, off func(*captureSearch)) {
	t.Helper()
	ps := testPositions(t, n)
	for _, extra := range []int{1, engine.MaxSteps} {
		with, without := newCaptureSearch(), newCaptureSearch()
		with.extra, without.extra = extra, extra
		off(without)
		nodesWith, nodesWithout, gains := 0, 0, 0
		for i, p := range ps {
			turn := engine.NewTurn(p)
			for k := range 3 {
				t1, t2 := turn, turn
				g1, a1 := with.find(&t1)
				g2, a2 := without.find(&t2)
				nodesWith += with.nodes
				nodesWithout += without.nodes
				if g1 != g2 || (a1 == nil) != (a2 == nil) || a1 != nil && !a1.Pos.SameBoard(&a2.Pos) {
					t.Fatalf("extra %d, position %d (%s) after %d steps: gain %d with %s, %d without", extra, i, p.String(), k, g1, cut, g2)
				}
				if g1 > 0 {
					gains++
				}
				steps := turn.LegalSteps(nil)
				if len(steps) == 0 || turn.StepsLeft() < 2 {
					break
				}
				turn.Play(steps[(7*i+k)%len(steps)])
			}
		}
		if gains == 0 || nodesWith >= nodesWithout {
			t.Errorf("extra %d: %d searches with a gain, %d nodes with %s and %d without: want gains and fewer nodes", extra, gains, nodesWith, cut, nodesWithout)
		}
		t.Logf("extra %d: %d searches with a gain, %d nodes with %s, %d without", extra, gains, nodesWith, cut, nodesWithout)
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

// TestCaptureBound checks the bound on the steps to a capture in positions
// where it is known. The camel case is one from a game against Sharp, after
// Gold's 15g Rf1w Cc2n Cc1n Rg3e: Gold's rabbit stands on f3 with one guard,
// the horse on f2, which Silver's camel needs two steps to reach, so that
// capture takes four steps; so does the camel on b5, pushed twice by the
// elephant onto c6. The bound once said two for the rabbit, whatever stood
// near its guard, and the tree's capture search, which walks only one step
// beyond the bound, missed the camel.
func TestCaptureBound(t *testing.T) {
	camel := play(t, mustPosition(t, "g [r r rrr r cr c d d       M    E  e    m  H RhRR R C  H    C  RRD]"), "Rf1w Cc2n Cc1n Rg3e")
	tests := []struct {
		name string
		pos  engine.Position
		want int
		gain int // the tree's capture search's gain
	}{
		{"camel behind a guarded rabbit", camel, 4, int(captureValue[engine.Camel])},
		// Gold's cat on c3 with its one guard, the dog on c2, beside
		// Silver's elephant: pushed or pulled away in two steps.
		{"guard beside a stronger piece", build(t, engine.Silver, "Cc3 Dc2 eb2 Ra1 rh8"), 2, int(captureValue[engine.Cat])},
		// The guard is Gold's elephant: no piece pushes it, so the cat is
		// safe whatever else stands near.
		{"elephant guard", build(t, engine.Silver, "Cc3 Ec2 mb2 Ra1 rh8"), engine.MaxSteps + 1, 0},
		// The guard's nearest stronger enemy needs two steps to reach it,
		// then pulls it away: four steps.
		{"attacker two steps away", build(t, engine.Silver, "Cc3 Dc2 ef2 Ra1 rh8"), 4, int(captureValue[engine.Cat])},
		// Three steps away: one too many.
		{"attacker three steps away", build(t, engine.Silver, "Cc3 Dc2 eg2 Ra1 rh8"), 5, 0},
	}
	for _, tc := range tests {
		if got := captureBound(&tc.pos, tc.pos.Side); got != tc.want {
			t.Errorf("%s: bound %d, want %d\n%s", tc.name, got, tc.want, tc.pos.Diagram())
		}
		turn := engine.NewTurn(tc.pos)
		if gain, _ := newCaptureSearch().find(&turn); gain != tc.gain {
			t.Errorf("%s: the tree's capture search gains %d, want %d", tc.name, gain, tc.gain)
		}
	}
}

// TestCaptureLeaf checks the leaf: a hanging piece is taken (the leaf has
// one enemy piece less and the same side to move), and a position without a
// capture is its own leaf; LeafOK gives the same leaf and keeps the row.
func TestCaptureLeaf(t *testing.T) {
	c := NewCaptureLeaf()
	for _, tc := range []struct {
		pieces string
		taken  int // enemy pieces fewer at the leaf
	}{
		// Silver's dog beside the empty trap c3, Gold's elephant beside it.
		{"Ed4 dc4 Ra1 rh8 rg8", 1},
		// The dog far from every trap.
		{"Ed1 da1 Rh1 rh8 rg8", 0},
	} {
		p := build(t, engine.Gold, tc.pieces)
		q := c.Leaf(&p)
		if got := p.Occ[engine.Silver].Count() - q.Occ[engine.Silver].Count(); got != tc.taken || q.Side != p.Side || q.Occ[engine.Gold] != p.Occ[engine.Gold] && tc.taken == 0 {
			t.Errorf("%s: leaf %s takes %d pieces, want %d, side %v", tc.pieces, q.String(), got, tc.taken, q.Side)
		}
		if r, ok := c.LeafOK(&p); r != q || !ok {
			t.Errorf("%s: LeafOK gives %s, %v, want Leaf's %s, true", tc.pieces, r.String(), ok, q.String())
		}
	}
}
