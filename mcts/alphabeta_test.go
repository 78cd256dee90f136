package mcts

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// newTestStepSearch returns a step search with the evaluation ev, outside
// any tree search.
func newTestStepSearch(t testing.TB, ev Evaluator) *stepSearch {
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
	return turnMinimaxLeaf(ev.Evaluate, p, turns)
}

// turnMinimaxLeaf is turnMinimax with leaf judging the positions at the end.
func turnMinimaxLeaf(leaf func(*engine.Position) float32, p *engine.Position, turns int) float32 {
	start := engine.NewTurn(*p)
	out := engine.EndOfTurn(&start.Pos, nil, nil)
	if out.Over() {
		if out.Winner == p.Side {
			return 1
		}
		return -1
	}
	if turns == 0 {
		return leaf(p)
	}
	g := engine.NewMoveGen()
	n := g.Generate(p, nil)
	if n == 0 {
		return -1
	}
	best := float32(-2)
	for i := range n {
		q := g.Position(i)
		best = max(best, -turnMinimaxLeaf(leaf, &q, turns-1))
	}
	return best
}

// stepCases are the positions whose step search values are checked against
// the minimax over whole turns, with each leaf.
var stepCases = []struct {
	name  string
	pos   string
	turns int
	// tacticalDiffers: the value with the tactical leaf is not the plain one.
	tacticalDiffers bool
}{
	{"opening, one turn", "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]", 1, false},
	{"a capture in reach, one turn", "g [rrr  rr r mcchrr d    d     E            H  e D R C  C RRRRDMRRR]", 1, false},
	{"sparse, two turns", "g [         r         e                 C    c         E R         ]", 2, true},
	{"a rabbit near goal, two turns", "s [  r           R              e            E      d           D  ]", 2, true},
	{"frozen pieces, two turns", "g [     r               m     D     Ee                     R       ]", 2, true},
	// d3 to d7 makes a threat that h8's rabbit cannot stop: it reaches d8,
	// and the rabbit goes round by c7.
	{"a goal threat no move stops, one turn", "g [       r                                   R            e      E]", 1, true},
}

// TestStepSearchMatchesTurnMinimax: the step search's value at depths of
// whole turns, with the evaluation at its leaves, is the minimax value over
// the generator's moves, exactly: its cuts, its table and its passes lose
// nothing and invent nothing.
func TestStepSearchMatchesTurnMinimax(t *testing.T) {
	ev := gen0(t)
	for _, c := range stepCases {
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

// tacticalLeaf returns the tactical leaf's value of a position for its side,
// from a goal and a capture search of its own, remembered by the position's
// hash: a win when the side reaches its goal this turn, otherwise the better
// of the evaluation and the evaluation after its most profitable capture
// line; a loss when the opponent threatens a goal from its goal zone that no
// move of the side stops.
func tacticalLeaf(ev Evaluator) func(*engine.Position) float32 {
	goal, capture, defence := newGoalSearch(), newCaptureSearch(), newGoalDefence()
	seen := map[uint64]float32{}
	return func(p *engine.Position) float32 {
		if v, ok := seen[p.Hash]; ok {
			return v
		}
		t := engine.NewTurn(*p)
		opp := *p
		opp.SetSide(p.Side.Other())
		oppTurn := engine.NewTurn(opp)
		var v float32 = 1
		switch {
		case goal.reachable(&t):
		case p.Bits[engine.MakePiece(opp.Side, engine.Rabbit)]&goalZone(opp.Side) != 0 && goal.reachable(&oppTurn) && !defence.parries(p):
			v = -1
		default:
			v = ev.Evaluate(p)
			if gain, after := capture.find(&t); gain > 0 {
				v = max(v, ev.Evaluate(&after.Pos))
			}
		}
		seen[p.Hash] = v
		return v
	}
}

// TestStepSearchTacticalLeaf: with the tactical leaf, the step search's
// value at whole turns is the minimax over the generator's moves with that
// leaf at the end, exactly (standing pat on the evaluation and the quiet
// cache lose nothing); and the leaf changes the value where a capture or a
// goal is in reach at the leaves.
func TestStepSearchTacticalLeaf(t *testing.T) {
	ev := gen0(t)
	for _, c := range stepCases {
		t.Run(c.name, func(t *testing.T) {
			p := mustPosition(t, c.pos)
			want := turnMinimaxLeaf(tacticalLeaf(ev), &p, c.turns)
			ss := newTestStepSearch(t, ev)
			ss.tactical = true
			res, ok := ss.run(engine.NewTurn(p), time.Now().Add(time.Hour), 4*c.turns)
			if !ok {
				t.Fatal("no move")
			}
			if res.Value != want {
				t.Fatalf("step search %v, minimax over turns with the tactical leaf %v", res.Value, want)
			}
			if plain := turnMinimax(ev, &p, c.turns); (plain != want) != c.tacticalDiffers {
				t.Fatalf("tactical %v, plain %v: want them to differ %v", want, plain, c.tacticalDiffers)
			}
		})
	}
}

// TestStartValueGoalThreatBelowBeta: the tactical leaf does not stand pat on
// an evaluation above the window when the opponent threatens a goal that no
// move stops: Silver, far ahead in material, to move against Gold's rabbit
// on d7 (h8's rabbit blocks d8, and the rabbit goes round by c7) has lost,
// whatever the window.
func TestStartValueGoalThreatBelowBeta(t *testing.T) {
	ev := gen0(t)
	p := mustPosition(t, "s [       r   R                                    mh    d eh     E]")
	if v := ev.Evaluate(&p); v < 0.5 {
		t.Fatalf("evaluation %v: want Silver well ahead", v)
	}
	for _, beta := range []float32{-0.5, 0, 2} {
		ss := newTestStepSearch(t, ev)
		ss.w.defenceLeft = deepDefence
		tr := engine.NewTurn(p)
		if v := ss.startValue(&tr, beta); v != -1 {
			t.Errorf("beta %v: %v, want -1", beta, v)
		}
	}
}

// TestStartValueStandsPatStoppedThreat: the tactical leaf stands pat on an
// evaluation at least beta when the opponent threatens a goal the side can
// stop, without the capture search: Silver, well ahead, to move against
// Gold's unfrozen rabbit on d7 (one step from d8), which its elephant on d5
// freezes in one step, while its dog on c5 can push Gold's cat on c4 into
// the trap c3. Below the evaluation the window gets the board's tactical
// value, the capture's.
func TestStartValueStandsPatStoppedThreat(t *testing.T) {
	ev := gen0(t)
	p := mustPosition(t, "s [rr    rr   R        m     de      C                   h E  RR   ]")
	eval := ev.Evaluate(&p)
	full := func() float32 {
		ss := newTestStepSearch(t, ev)
		ss.w.defenceLeft = deepDefence
		tr := engine.NewTurn(p)
		return ss.startValue(&tr, 2)
	}()
	if full <= eval {
		t.Fatalf("tactical value %v, evaluation %v: want the capture above it", full, eval)
	}
	for _, c := range []struct {
		beta float32
		want float32
		pat  bool
	}{{eval, eval, true}, {-1, eval, true}, {math.Nextafter32(eval, 2), full, false}} {
		ss := newTestStepSearch(t, ev)
		ss.w.defenceLeft = deepDefence
		tr := engine.NewTurn(p)
		before := ss.w.capture.nodes
		if v := ss.startValue(&tr, c.beta); v != c.want {
			t.Errorf("beta %v: %v, want %v", c.beta, v, c.want)
		}
		e := &ss.quiet[p.Hash&uint64(len(ss.quiet)-1)]
		if e.threat != threatStopped {
			t.Errorf("beta %v: the goal defence's answer %d, want %d (stopped)", c.beta, e.threat, threatStopped)
		}
		if searched := ss.w.capture.nodes > before; searched == c.pat {
			t.Errorf("beta %v: capture search run %v, want %v", c.beta, searched, !c.pat)
		}
	}
}

// TestStepSearchRootMoves: with the root's turn cut to its k best moves by
// the evaluation at the turn's end (with the tactical leaf, by that leaf's
// value, which sees the opponent's goals and captures), the step search's
// value at two turns is the minimax over those k moves alone, and its move
// is one of them. With the tactical leaf and the moves ranked by the
// evaluation alone, the five best of "a rabbit near goal" all lose to a
// goal.
func TestStepSearchRootMoves(t *testing.T) {
	ev := gen0(t)
	cases := []struct {
		name string
		pos  string
		k    int
	}{
		{"sparse, the best 3", "g [         r         e                 C    c         E R         ]", 3},
		{"a rabbit near goal, the best 5", "s [  r           R              e            E      d           D  ]", 5},
		{"frozen pieces, the best 1", "g [     r               m     D     Ee                     R       ]", 1},
	}
	for _, tactical := range []bool{false, true} {
		for _, c := range cases {
			name := c.name
			leaf := ev.Evaluate
			if tactical {
				name += ", tactical leaf"
				leaf = tacticalLeaf(ev)
			}
			t.Run(name, func(t *testing.T) {
				p := mustPosition(t, c.pos)
				g := engine.NewMoveGen()
				n := g.Generate(&p, nil)
				type move struct {
					q     engine.Position
					value float32
				}
				var moves []move
				for i := range n {
					q := g.Position(i)
					moves = append(moves, move{q, -leaf(&q)})
				}
				slices.SortStableFunc(moves, func(a, b move) int { return cmp.Compare(b.value, a.value) })
				if len(moves) <= c.k {
					t.Fatalf("%d moves: the position does not test a cut to %d", len(moves), c.k)
				}
				want := float32(-2)
				best := map[uint64]bool{}
				for _, m := range moves[:c.k] {
					want = max(want, -turnMinimaxLeaf(leaf, &m.q, 1))
					best[m.q.Hash] = true
				}
				all := float32(-2)
				for _, m := range moves {
					all = max(all, -turnMinimaxLeaf(leaf, &m.q, 1))
				}
				// Searched in one sweep of the k moves, and widened from
				// the best one (sweeps of 1, 2, 4, ..., k).
				for _, first := range []int{0, 1} {
					ss := newTestStepSearch(t, ev)
					ss.rootMoves = c.k
					ss.firstWidth = first
					ss.tactical = tactical
					res, ok := ss.run(engine.NewTurn(p), time.Now().Add(time.Hour), 8)
					// A won or lost value ends the deepening early.
					if !ok || res.Depth != 8 && res.Value != 1 && res.Value != -1 || res.Narrow && res.Value != 1 {
						t.Fatalf("first width %d: search reached depth %d (ok %v, value %v, narrow %v), want 8", first, res.Depth, ok, res.Value, res.Narrow)
					}
					if res.Value != want {
						t.Fatalf("first width %d: step search cut to %d moves: %v, minimax over them %v (over every move %v)", first, c.k, res.Value, want, all)
					}
					after := engine.NewTurn(p)
					for _, st := range res.Steps {
						if _, err := after.Step(st); err != nil {
							t.Fatalf("move %v: %v", res.Steps, err)
						}
					}
					if q := after.End(); !best[q.Hash] {
						t.Fatalf("move %v is not among the %d best", res.Steps, c.k)
					}
				}
			})
		}
	}
}

// TestStepSearchWidenStopped: a search stopped while it widens keeps a move
// of two turns over the moves of its sweeps completed, valued between the
// minimax over the best move alone and over all k.
func TestStepSearchWidenStopped(t *testing.T) {
	ev := gen0(t)
	p := mustPosition(t, "s [  r           R              e            E      d           D  ]")
	const k = 5
	full := newTestStepSearch(t, ev)
	full.rootMoves, full.firstWidth = k, 1
	want, ok := full.run(engine.NewTurn(p), time.Now().Add(time.Hour), 8)
	if !ok || want.Depth != 8 || want.Narrow {
		t.Fatalf("the full search: depth %d, narrow %v", want.Depth, want.Narrow)
	}
	ranked := newTestStepSearch(t, ev)
	ranked.rankEnds(&p, k)
	best := ranked.ends[0]
	g := engine.NewMoveGen()
	g.Generate(&p, nil)
	q := g.Position(int(best.index))
	low := -turnMinimax(ev, &q, 1)
	allowed := bestEnds(ranked, &p, k)
	narrow := 0
	for stop := int64(200); stop < want.Nodes; stop += want.Nodes / 40 {
		ss := newTestStepSearch(t, ev)
		ss.rootMoves, ss.firstWidth = k, 1
		ss.nodeLimit = stop
		res, ok := ss.run(engine.NewTurn(p), time.Now().Add(time.Hour), 8)
		if !ok || res.Depth != 8 {
			continue
		}
		if res.Narrow {
			narrow++
		}
		if res.Value < low || res.Value > want.Value {
			t.Fatalf("stopped at node %d: %v, want between %v (the best move alone) and %v", stop, res.Value, low, want.Value)
		}
		after := engine.NewTurn(p)
		for _, st := range res.Steps {
			after.Play(st)
		}
		if e := after.End(); !allowed[e.Hash] {
			t.Fatalf("stopped at node %d: move %v is not among the %d best", stop, res.Steps, k)
		}
	}
	if narrow == 0 {
		t.Fatal("no stopped search kept a move of a narrower sweep")
	}
}

// TestRootWidths checks the sweeps of the root's moves: doubled from the
// first width to all of them, one sweep when widening is off or cannot
// widen; and the setting's default and bounds.
func TestRootWidths(t *testing.T) {
	tests := []struct {
		first, n int
		want     []int
	}{
		{32, 128, []int{32, 64, 128}},
		{16, 100, []int{16, 32, 64, 100}},
		{32, 20, []int{20}},
		{32, 32, []int{32}},
		{0, 128, []int{128}},
		{1, 5, []int{1, 2, 4, 5}},
	}
	for _, tc := range tests {
		if got := rootWidths(tc.first, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("rootWidths(%d, %d) = %v, want %v", tc.first, tc.n, got, tc.want)
		}
	}
	for _, c := range []struct {
		set, want int
		ok        bool
	}{{0, 32, true}, {-1, -1, true}, {8, 8, true}, {-2, 0, false}} {
		got, err := Config{StepWiden: c.set}.withDefaults()
		if (err == nil) != c.ok || c.ok && got.StepWiden != c.want {
			t.Errorf("StepWiden %d: %d, error %v; want %d", c.set, got.StepWiden, err, c.want)
		}
	}
}

// bestEnds returns the boards of the k best moves from p by ss.rankEnds.
func bestEnds(ss *stepSearch, p *engine.Position, k int) map[uint64]bool {
	ss.rankEnds(p, k)
	out := make(map[uint64]bool, k)
	for _, e := range ss.ends {
		out[e.hash] = true
	}
	return out
}

// TestBestEndsTactical: ranked by the tactical leaf, the root's k best moves
// are those of judging every move with that leaf, though rankEnds judges
// only the moves that may be among them (a move's leaf value is at most its
// evaluation, but for a runner's goal that cannot be stopped).
func TestBestEndsTactical(t *testing.T) {
	ev := gen0(t)
	for _, c := range stepCases {
		p := mustPosition(t, c.pos)
		g := engine.NewMoveGen()
		n := g.Generate(&p, nil)
		leaf := tacticalLeaf(ev)
		type move struct {
			hash  uint64
			value float32
		}
		var moves []move
		for i := range n {
			q := g.Position(i)
			moves = append(moves, move{q.Hash, -leaf(&q)})
		}
		slices.SortStableFunc(moves, func(a, b move) int { return cmp.Compare(b.value, a.value) })
		for _, k := range []int{1, 8, 64} {
			ss := newTestStepSearch(t, ev)
			ss.tactical = true
			ss.w.defenceLeft = deepDefence
			got := bestEnds(ss, &p, k)
			if len(got) != min(k, n) {
				t.Fatalf("%s, k %d: %d moves", c.name, k, len(got))
			}
			for _, m := range moves[:min(k, n)] {
				if !got[m.hash] {
					t.Fatalf("%s, k %d: a move of value %v is not among the best", c.name, k, m.value)
				}
			}
		}
	}
}

// BenchmarkStepSearch searches positions of games against Sharp (Gold to
// move at turns 9 and 19) two whole turns deep from a cold table and cache,
// with the root's turn cut to its 128 best moves, with every move, cut to
// 128 with the tactical leaf, and so widened from 32 moves, with generation
// 0's evaluation and, last, with the terms ported from Sharp's weighted too.
func BenchmarkStepSearch(b *testing.B) {
	positions := []struct{ name, pos string }{
		{"turn9a", "g [ rrc rrmrhcr d   d  rrEh   H       e    RH  DCR  MR DC  R R  RR ]"},
		{"turn19", "g [ rrrr rr  c  H   r  r      Rcd   d  ChD hER eHm R CDRMR   R RR  ]"},
		{"turn9b", "g [rrr  rdr  r  cm dhc E hr     eRr       R D M DH R R RCH RRC R   ]"},
	}
	ev, evPorted := gen0(b), gen0Ported(b)
	for _, mode := range []struct {
		moves, first     int
		tactical, ported bool
	}{{128, 0, false, false}, {0, 0, false, false}, {128, 0, true, false}, {128, 32, true, false}, {128, 32, true, true}} {
		for _, c := range positions {
			name := fmt.Sprintf("%s/moves=%d", c.name, mode.moves)
			if mode.moves == 0 {
				name = c.name + "/moves=all"
			}
			if mode.tactical {
				name += "/leaf=tactical"
			}
			if mode.first > 0 {
				name += fmt.Sprintf("/widen=%d", mode.first)
			}
			e := ev
			if mode.ported {
				name += "/eval=ported"
				e = evPorted
			}
			b.Run(name, func(b *testing.B) {
				p := mustPosition(b, c.pos)
				ss := newTestStepSearch(b, e)
				ss.rootMoves = mode.moves
				ss.firstWidth = mode.first
				ss.tactical = mode.tactical
				var nodes int64
				for b.Loop() {
					ss.clear()
					res, ok := ss.run(engine.NewTurn(p), time.Now().Add(time.Hour), 2*engine.MaxSteps)
					if !ok || res.Depth != 2*engine.MaxSteps {
						b.Fatalf("depth %d", res.Depth)
					}
					nodes += res.Nodes
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}

// TestStepSearchStoppedLeavesTableTrue: a search stopped by its deadline
// leaves no value in the table that changes the next search: searched again
// in full with the table it left, each position gets the value of a search
// from an empty table, wherever the first search stopped.
func TestStepSearchStoppedLeavesTableTrue(t *testing.T) {
	ev := gen0(t)
	for _, pos := range []string{
		"g [         r         e                 C    c         E R         ]",
		"s [  r           R              e            E      d           D  ]",
		"g [     r               m     D     Ee                     R       ]",
	} {
		p := mustPosition(t, pos)
		fresh := newTestStepSearch(t, ev)
		want, ok := fresh.run(engine.NewTurn(p), time.Now().Add(time.Hour), 8)
		if !ok {
			t.Fatalf("%s: no move", pos)
		}
		for stop := int64(500); stop < want.Nodes; stop += want.Nodes / 23 {
			ss := newTestStepSearch(t, ev)
			ss.nodeLimit = stop
			ss.run(engine.NewTurn(p), time.Now().Add(time.Hour), 8)
			ss.nodeLimit = 0
			got, _ := ss.run(engine.NewTurn(p), time.Now().Add(time.Hour), 8)
			if got.Value != want.Value {
				t.Fatalf("%s, stopped at node %d of %d: %v, from an empty table %v", pos, stop, want.Nodes, got.Value, want.Value)
			}
		}
	}
}
