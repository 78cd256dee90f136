package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// materialEval values material for the side to move, for tests that must not
// depend on a weights file.
type materialEval struct{}

var materialWeight = [engine.NumTypes]float64{1, 1.5, 2, 3, 5, 8}

func (materialEval) Evaluate(p *engine.Position) float32 {
	var s float64
	for t := range engine.NumTypes {
		own := p.Count(engine.MakePiece(p.Side, engine.PieceType(t)))
		opp := p.Count(engine.MakePiece(p.Side.Other(), engine.PieceType(t)))
		s += materialWeight[t] * float64(own-opp)
	}
	return float32(math.Tanh(s / 8))
}

// build makes a position from placements such as "Ra7 cb8", with side to move.
func build(t testing.TB, side engine.Color, pieces string) engine.Position {
	t.Helper()
	var p engine.Position
	for _, f := range strings.Fields(pieces) {
		pc, err := engine.PieceFromLetter(f[0])
		if err != nil {
			t.Fatal(err)
		}
		sq, err := engine.ParseSquare(f[1:])
		if err != nil {
			t.Fatal(err)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p
}

// goalOracle reports whether some full move of p.Side wins by goal, by brute force.
func goalOracle(p engine.Position) bool {
	for _, m := range engine.GenMoves(p, nil) {
		q := m.Pos
		if out := engine.EndOfTurn(&q, nil, nil); out.Reason == engine.Goal && out.Winner == p.Side {
			return true
		}
	}
	return false
}

func TestGoalSearchCases(t *testing.T) {
	tests := []struct {
		name   string
		side   engine.Color
		pieces string
		want   bool
	}{
		{"one step", engine.Gold, "Ra7 rh8", true},
		{"four steps", engine.Gold, "Ra4 rh8", true},
		{"five steps", engine.Gold, "Ra3 rh8", false},
		{"frozen by the elephant", engine.Gold, "Ra7 ea8 rh8", false},
		{"walk around a blocker", engine.Gold, "Ra7 Ma8 rh8", true},
		{"silver one step", engine.Silver, "rd2 Rh1", true},
		{"pull the blocker away", engine.Gold, "Ra7 ca8 Db8 rh8", true},
		{"push the blocker aside", engine.Gold, "Rb7 cb8 Dc8 ra1", true},
		{"frozen with no friend near", engine.Gold, "Rb7 eb8 rh1 Ra1", false},
		{"unfreeze with a friend", engine.Gold, "Rb6 cb5 Hc5 rh8", true},
		{"blocked with no steps to spare", engine.Gold, "Rb4 cb8 Dc8 rh1", false},
		{"walk around within four", engine.Gold, "Rb5 cb8 Dc8 rh1", true},
		{"captured on the way", engine.Gold, "Rc5 dd6 rh1 Ea1", true},
	}
	gs := newGoalSearch()
	for _, tc := range tests {
		for _, mirrored := range []bool{false, true} {
			name := tc.name
			if mirrored {
				name += ", colours and ranks swapped"
			}
			t.Run(name, func(t *testing.T) {
				p := build(t, tc.side, tc.pieces)
				if mirrored {
					p = mirror(p)
				}
				goalCase(t, gs, p, tc.want)
			})
		}
	}
}

// mirror returns p with the colours swapped and the board turned upside
// down (rank 1 for rank 8), the other side to move: the same position for
// the other side.
func mirror(p engine.Position) engine.Position {
	var q engine.Position
	for pc, b := range p.Bits {
		for ; b != 0; b &= b - 1 {
			sq := b.First()
			q.Put(engine.Piece((pc+engine.NumTypes)%(2*engine.NumTypes)), sq^56)
		}
	}
	q.SetSide(p.Side.Other())
	return q
}

// goalCase checks the goal search on p against brute force and want, and
// that the steps it finds are legal and reach the goal.
func goalCase(t *testing.T, gs *goalSearch, p engine.Position, want bool) {
	t.Helper()
	oracle := goalOracle(p)
	if oracle != want {
		t.Fatalf("brute force says %v, the case says %v\n%s", oracle, want, p.Diagram())
	}
	tr := engine.NewTurn(p)
	steps, got := gs.find(&tr)
	if got != oracle {
		t.Fatalf("goal search %v, brute force %v\n%s", got, oracle, p.Diagram())
	}
	if got {
		// The steps found must be legal and reach the goal.
		tr := engine.NewTurn(p)
		for _, s := range steps {
			if _, err := tr.Step(s); err != nil {
				t.Fatalf("goal path %v: %v", steps, err)
			}
		}
		q := tr.End()
		if out := engine.EndOfTurn(&q, nil, nil); out.Reason != engine.Goal || out.Winner != p.Side {
			t.Fatalf("goal path %v ends in %v", steps, out)
		}
	}
}

// randomNearGoal places rabbits close to their goal among other pieces.
func randomNearGoal(rng *rand.Rand) engine.Position {
	var p engine.Position
	empty := func(sq engine.Square) bool { return p.At(sq) == engine.NoPiece }
	put := func(pc engine.Piece, lo, hi int) {
		for range 20 {
			sq := engine.Square(lo*8 + rng.IntN((hi-lo+1)*8))
			if empty(sq) && !engine.Traps.Has(sq) {
				p.Put(pc, sq)
				return
			}
		}
	}
	for range 1 + rng.IntN(3) {
		put(engine.MakePiece(engine.Gold, engine.Rabbit), 2, 5)
	}
	for range 5 + rng.IntN(10) {
		put(engine.MakePiece(engine.Color(rng.IntN(2)), engine.PieceType(rng.IntN(6))), 3, 7)
	}
	put(engine.MakePiece(engine.Silver, engine.Rabbit), 0, 1)
	return p
}

func TestGoalSearchRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gs := newGoalSearch()
	n := 400
	if testing.Short() {
		n = 100
	}
	wins := 0
	for i := range n {
		p := randomNearGoal(rng)
		tr := engine.NewTurn(p)
		if !p.HasStep() {
			continue
		}
		got := gs.reachable(&tr)
		if want := goalOracle(p); got != want {
			t.Fatalf("position %d: goal search %v, brute force %v\n%s\n%s", i, got, want, p.String(), p.Diagram())
		}
		// The same position for Silver, the board upside down.
		m := mirror(p)
		tm := engine.NewTurn(m)
		if gm := gs.reachable(&tm); gm != got {
			t.Fatalf("position %d: goal search %v, %v with colours and ranks swapped\n%s", i, got, gm, m.Diagram())
		}
		if got {
			wins++
		}
	}
	if wins == 0 || wins == n {
		t.Fatalf("%d of %d positions have a goal: the generator tests nothing", wins, n)
	}
	t.Logf("%d of %d random positions have a goal this turn", wins, n)
}

// TestGoalRegionExact checks the cut of goalRegion (with one step to spare,
// only steps beside the rabbits' squares are tried) against the search
// without it, on random positions with rabbits one to five ranks from their
// goal, for both colours, at the start of a turn and after one to three
// random steps (where the cut applies with fewer steps left). The search
// without the cut is checked against every full move by TestGoalSearchRandom.
// GOALREGION_N=N sets the number of random positions (3,000 by default).
func TestGoalRegionExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cut, full := newGoalSearch(), newGoalSearch()
	full.full = true
	n := 3000
	if s := os.Getenv("GOALREGION_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 800
	}
	var tried, wins, spare int
	for range n {
		p := randomNearGoal(rng)
		// A rabbit a rank or two nearer, sometimes: the cut applies earlier.
		if rng.IntN(2) == 0 {
			sq := engine.Square(48 + rng.IntN(8))
			if p.At(sq) == engine.NoPiece {
				p.Put(engine.MakePiece(engine.Gold, engine.Rabbit), sq)
			}
		}
		for _, q := range []engine.Position{p, mirror(p)} {
			if !q.HasStep() {
				continue
			}
			tr := engine.NewTurn(q)
			for k := rng.IntN(4); ; k-- {
				tried++
				_, got := cut.rec(&tr, 0)
				_, want := full.rec(&tr, 0)
				if got != want {
					t.Fatalf("after %d steps: goal %v with the cut, %v without\n%s", tr.Used, got, want, tr.Pos.Diagram())
				}
				if got {
					wins++
				}
				left := tr.StepsLeft()
				if rankDistance(tr.Pos.Bits[engine.MakePiece(tr.Pos.Side, engine.Rabbit)], tr.Pos.Side, left) == left-1 {
					spare++
				}
				steps := tr.LegalSteps(nil)
				if k == 0 || len(steps) == 0 || left <= 1 {
					break
				}
				tr.Play(steps[rng.IntN(len(steps))])
			}
		}
	}
	if wins == 0 || wins == tried || spare < tried/10 {
		t.Fatalf("%d states, %d with a goal, %d with one step to spare: the generator tests too little", tried, wins, spare)
	}
	t.Logf("%d states, %d with a goal, %d with one step to spare at the top", tried, wins, spare)
}

// BenchmarkGoalSearch times the exact goal search at the start of a turn on
// 400 random positions with rabbits near their goals (half of them for
// Silver) and on the clueless32 positions, with the cut of goalRegion and
// without it.
func BenchmarkGoalSearch(b *testing.B) {
	positions := nearGoalPositions(rand.New(rand.NewPCG(5, 6)), 200)
	for _, s := range benchPositions {
		positions = append(positions, mustPosition(b, s))
	}
	for _, full := range []bool{false, true} {
		name := "cut"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) {
			g := newGoalSearch()
			g.full = full
			for b.Loop() {
				for i := range positions {
					tr := engine.NewTurn(positions[i])
					g.rec(&tr, 0)
				}
			}
		})
	}
}

func newTestSearcher(t testing.TB, cfg Config) *Searcher {
	t.Helper()
	s, err := New(cfg, materialEval{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSearchTakesFreeCapture(t *testing.T) {
	// The silver cat on c4 can be pushed onto c3 (unguarded) by the gold elephant on c5? The
	// elephant is on d4 beside the cat: push the cat from c4 to c3 and capture it.
	p := build(t, engine.Gold, "Ed4 cc4 ra8 rh8 Ra1 Rh1")
	s := newTestSearcher(t, Config{Visits: 3000, Seed: 1})
	res, err := s.Search(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Move, "cc3x") {
		t.Fatalf("move %q does not capture the cat (top %v)", res.Move, res.Top)
	}
}

func TestSearchFindsGoal(t *testing.T) {
	p := build(t, engine.Gold, "Ra7 ca8 Db8 rh8 ea1")
	s := newTestSearcher(t, Config{Visits: 100})
	res, err := s.Search(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || res.Value != 1 {
		t.Fatalf("goal not proven: %+v", res)
	}
}

// TestGoalMoveIsShortest: a search that finds a goal plays it in the fewest
// steps, with nothing else moved (the goal search alone once found Rb1n Ra1e
// Rb1w Rb7n for the first position's kind, a rabbit stepping out and back).
func TestGoalMoveIsShortest(t *testing.T) {
	tests := []struct {
		side   engine.Color
		pieces string
		steps  int
	}{
		{engine.Gold, "Ra1 Rb1 Rc1 Rd1 Ee1 Rb7 ra8 rh8 eh1", 1},
		{engine.Gold, "Ra1 Rb1 Rc1 Rd1 Ee1 Rb6 ra8 rh8 eh1", 2},
		{engine.Silver, "ra8 rb8 rc8 rd8 ee8 rg2 Ra1 Rh1 Eh8", 1},
		{engine.Gold, "Ra7 ca8 Db8 rh8 ea1", 3}, // the cat pulled or pushed out of the way
	}
	for _, tc := range tests {
		p := build(t, tc.side, tc.pieces)
		s := newTestSearcher(t, Config{Visits: 100})
		res, err := s.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven || len(res.Steps) != tc.steps {
			t.Errorf("%s: move %q (proven %v), want a goal in %d steps", tc.pieces, res.Move, res.Proven, tc.steps)
		}
	}
}

func TestSearchLegalOnRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n := 3000
	if testing.Short() {
		n = 300
	}
	s := newTestSearcher(t, Config{Visits: 60, Seed: 3})
	searched := 0
	for i := 0; i < n; i++ {
		p := randomPosition(rng)
		if out := engine.EndOfTurn(&p, nil, nil); out.Over() {
			continue
		}
		res, err := s.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatalf("position %d %s: %v", i, p.String(), err)
		}
		tr := engine.NewTurn(p)
		if err := tr.PlayMove(res.Move); err != nil {
			t.Fatalf("position %d %s: move %q: %v", i, p.String(), res.Move, err)
		}
		if !res.Proven {
			searched++
		}
	}
	if searched < n/3 {
		t.Fatalf("only %d of %d positions were searched: the generator tests little", searched, n)
	}
	t.Logf("%d of %d random positions searched, every move legal", searched, n)
}

// randomPosition places random pieces anywhere, rabbits no further than the
// middle ranks (so that most positions need a real search).
func randomPosition(rng *rand.Rand) engine.Position {
	var p engine.Position
	for c := range engine.Color(2) {
		for t := range engine.PieceType(engine.NumTypes) {
			k := rng.IntN(engine.StandardCount[t] + 1)
			if t == engine.Rabbit && k == 0 {
				k = 1
			}
			for range k {
				for {
					sq := engine.Square(rng.IntN(64))
					if p.At(sq) != engine.NoPiece || engine.Traps.Has(sq) {
						continue
					}
					if t == engine.Rabbit && (c == engine.Gold && sq.Rank() > 4 || c == engine.Silver && sq.Rank() < 3) {
						continue
					}
					p.Put(engine.MakePiece(c, t), sq)
					break
				}
			}
		}
	}
	p.SetSide(engine.Color(rng.IntN(2)))
	return p
}

func TestSearchDeterministic(t *testing.T) {
	p := build(t, engine.Gold, "Ed4 Mb2 Hc2 Rd2 Re2 cc5 me6 ha7 rb7 rg7 Rf2")
	var first *Result
	for range 2 {
		s := newTestSearcher(t, Config{Visits: 2000, Seed: 9, DirichletAlpha: 0.3, Temperature: 1})
		res, err := s.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if res.Move != first.Move || res.Visits != first.Visits || res.Value != first.Value || len(res.Top) != len(first.Top) {
			t.Fatalf("two runs differ: %q %d %v vs %q %d %v", res.Move, res.Visits, res.Value, first.Move, first.Visits, first.Value)
		}
		for i := range res.Top {
			if res.Top[i] != first.Top[i] {
				t.Fatalf("top move %d differs: %v vs %v", i, res.Top[i], first.Top[i])
			}
		}
	}
}

func TestSearchThreads(t *testing.T) {
	p := build(t, engine.Gold, "Ed4 Mb2 Hc2 Rd2 Re2 cc5 me6 ha7 rb7 rg7 Rf2")
	s := newTestSearcher(t, Config{Visits: 3000, Threads: 2, Seed: 1})
	for range 3 {
		res, err := s.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr := engine.NewTurn(p)
		if err := tr.PlayMove(res.Move); err != nil {
			t.Fatalf("move %q: %v", res.Move, err)
		}
		if res.Simulations != 3000 {
			t.Fatalf("%d simulations, want 3000", res.Simulations)
		}
	}
}

func TestSearchAvoidsThirdRepetition(t *testing.T) {
	// Gold can only shuffle its elephant; the position after Ea1n has stood twice already.
	p := build(t, engine.Gold, "Ea1 Rh1 rh8 ra8")
	h := engine.NewHistory()
	h.Add(&p)
	tr := engine.NewTurn(p)
	if err := tr.PlayMove("Ea1n"); err != nil {
		t.Fatal(err)
	}
	after := tr.End()
	h.Add(&after)
	h.Add(&after)
	s := newTestSearcher(t, Config{Visits: 2000, Seed: 1})
	for range 3 {
		res, err := s.Search(context.Background(), p, h)
		if err != nil {
			t.Fatal(err)
		}
		tr := engine.NewTurn(p)
		if err := tr.PlayMove(res.Move); err != nil {
			t.Fatal(err)
		}
		end := tr.End()
		if h.Count(&end) >= 2 {
			t.Fatalf("move %q repeats a position a third time", res.Move)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	p := build(b, engine.Gold, "Ed4 Mb2 Hc2 Hf2 Dd2 De2 Ca2 Ch2 Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 ee5 mb7 hc7 hf7 dd7 de7 ca7 ch7 ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8")
	for _, threads := range []int{1, 2} {
		b.Run(strings.Repeat("T", threads), func(b *testing.B) {
			var sims int64
			for b.Loop() {
				s := newTestSearcher(b, Config{Visits: 20000, Threads: threads, Seed: 1})
				res, err := s.Search(context.Background(), p, nil)
				if err != nil {
					b.Fatal(err)
				}
				sims += res.Simulations
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}

func TestSearchPlaysProvenWin(t *testing.T) {
	// Gold forces a win (found by the search, not at the root); the move must be
	// a proven one even when other moves have more visits.
	p := mustPosition(t, "g [r      r                          cE                    R      R]")
	s, err := New(Config{Visits: 200000, Seed: 1, Leaf: LeafStatic}, goalHungry(t))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != 1 {
		t.Fatalf("root not proven (value %v, %d simulations, %d nodes, move %s)", res.Value, res.Simulations, res.Nodes, res.Move)
	}
	if res.Top[0].Proven != 1 || res.Move != res.Top[0].Move {
		t.Fatalf("root proven won but move %q (top %+v)", res.Move, res.Top[:min(3, len(res.Top))])
	}
}

func mustPosition(t testing.TB, s string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSmallTreesEnd checks that a tiny tree ends its search (it once probed a
// full slot table forever), says so (TreeFull) and still gives a legal move;
// a search whose budget fits in its tree does not say so.
func TestSmallTreesEnd(t *testing.T) {
	p := mustPosition(t, "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	for _, maxNodes := range []int{1, 2, 8, 100} {
		s, err := New(Config{Visits: 20000, MaxNodes: maxNodes, Seed: 1}, materialEval{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatalf("max_nodes %d: %v", maxNodes, err)
		}
		if res.Move == "" || res.Simulations == 0 {
			t.Fatalf("max_nodes %d: move %q after %d simulations", maxNodes, res.Move, res.Simulations)
		}
		if !res.TreeFull || res.Simulations >= 20000 {
			t.Errorf("max_nodes %d: TreeFull %v after %d of 20000 simulations, want a full tree ending the search", maxNodes, res.TreeFull, res.Simulations)
		}
	}
	s, err := New(Config{Visits: 500, Seed: 1}, materialEval{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TreeFull {
		t.Errorf("a search of %d simulations in the default tree says the tree is full", res.Simulations)
	}
}

// TestGoalCacheAnswers: a goal cache's entry answers for the position at
// the start of a turn that it holds (here entries planted with the wrong
// answer, so that a search done instead shows), and never for a turn past
// its start on the same board.
func TestGoalCacheAnswers(t *testing.T) {
	gs := newGoalSearch()
	gs.cache = newGoalCache(4)
	plant := func(p *engine.Position, state uint8) {
		i := p.Hash & gs.cache.mask
		gs.cache.keys[i], gs.cache.state[i] = p.Key(), state
	}
	// The goal is four steps away: within reach at the turn start, out of
	// reach after a step aside.
	start := engine.NewTurn(build(t, engine.Gold, "Ra4 rh8"))
	plant(&start.Pos, 1)
	if gs.reachable(&start) {
		t.Error("turn start: searched, not taken from the cache")
	}
	in := start
	in.Play(engine.Step{Piece: engine.MakePiece(engine.Gold, engine.Rabbit), From: engine.Square(3 * 8), Dir: engine.East})
	plant(&in.Pos, 2)
	if gs.reachable(&in) {
		t.Error("one step in: taken from the cache, not searched")
	}
}
