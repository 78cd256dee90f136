package mcts

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// MoveVisits is a complete move with the visits the search gave it.
type MoveVisits struct {
	Move   string  `json:"move"`
	Visits uint32  `json:"visits"`
	Value  float32 `json:"value"` // for the side that plays the move
	// Proven is +1 for a move proven to win, -1 for one proven to lose.
	Proven int32 `json:"proven,omitempty"`
}

// Result is what a search found.
type Result struct {
	// Move is the move to play in standard notation, Steps its steps.
	Move  string
	Steps []engine.Step
	// Value is the search value for the side to move, in [-1, 1].
	Value float32
	// Visits is the number of visits of the root (this search and reused ones).
	Visits int
	// Simulations is the number of simulations of this search.
	Simulations int64
	// Nodes is the size of the tree.
	Nodes int64
	// Depth is the longest descent in steps.
	Depth int
	// PV is the principal variation, one complete move per turn.
	PV []string
	// Top lists the most visited complete moves, most visited first.
	Top []MoveVisits
	// Proven is set when the move wins by force this turn (a goal).
	Proven bool
	// TreeFull is set when the tree filled up (Config.MaxNodes nodes, or as
	// many edges as they hold) and ended the search before its budget of
	// visits or time was spent.
	TreeFull bool
	Elapsed  time.Duration
	// Deep is what the deep scan did (nil when the search ran none).
	Deep *DeepStats
	// Step is what the step search found (ScanStep), nil when it did not run.
	Step *StepResult `json:",omitempty"`
}

// DeepStats counts the moves the deep scan searched: listed as candidates,
// valued at two turns (the opponent's every reply), and given a third turn
// (the mover's own, after each of the opponent's best replies). Widened is
// how many times a search bounded by time that had time left took the next
// moves by their one-turn value.
type DeepStats struct {
	Listed   int `json:"listed"`
	Valued   int `json:"valued"`
	Verified int `json:"verified"`
	Widened  int `json:"widened"`
}

type moveCand struct {
	steps  []engine.Step
	child  int64
	visits uint32
	q      float32
	proven int32 // +1 a proven win for the mover, -1 a proven loss
}

// moveItem is a node of the walk of moves: the node, its state, the item it
// was reached from (-1 for the first) and the step from there.
type moveItem struct {
	id     int64
	turn   engine.Turn
	parent int32
	step   engine.Step
}

// moveWalk holds what moves reuses from one call to the next.
type moveWalk struct {
	queue   []moveItem
	seen    map[int64]bool // nodes inside the turn already queued
	byChild map[int64]bool // turn ends already listed
}

// stepsTo returns the steps from the walk's first item to item i.
func (mw *moveWalk) stepsTo(i int32) []engine.Step {
	n := 0
	for j := i; mw.queue[j].parent >= 0; j = mw.queue[j].parent {
		n++
	}
	steps := make([]engine.Step, n)
	for j := i; mw.queue[j].parent >= 0; j = mw.queue[j].parent {
		n--
		steps[n] = mw.queue[j].step
	}
	return steps
}

// moves lists the complete moves found below the node id, whose state is turn.
func (sr *search) moves(id int64, turn engine.Turn, hist *engine.History) []moveCand {
	t := sr.t
	mw := &sr.s.walk
	if mw.seen == nil {
		mw.seen, mw.byChild = map[int64]bool{}, map[int64]bool{}
	}
	clear(mw.seen)
	clear(mw.byChild)
	var out []moveCand
	mw.seen[id] = true
	// Breadth first, so that each move is written with the fewest steps found.
	mw.queue = append(mw.queue[:0], moveItem{id: id, turn: turn, parent: -1})
	for qi := int32(0); int(qi) < len(mw.queue); qi++ {
		it := &mw.queue[qi]
		n := t.node(it.id)
		if n.status.Load() != statusExpanded {
			continue
		}
		for i := range int64(n.nedges) {
			e := t.edges.at(n.edges + i)
			c := e.childNode()
			if c < 0 {
				continue
			}
			cn := t.node(c)
			if !e.endsTurn() {
				if cn.visits() > 0 && !mw.seen[c] {
					mw.seen[c] = true
					next := moveItem{id: c, turn: it.turn, parent: qi, step: e.step}
					next.turn.Play(e.step)
					mw.queue = append(mw.queue, next)
					it = &mw.queue[qi] // the append may have moved the queue
				}
				continue
			}
			if mw.byChild[c] {
				continue
			}
			end := it.turn.End()
			if hist.Count(&end) >= 2 {
				continue
			}
			mw.byChild[c] = true
			mc := moveCand{steps: mw.stepsTo(qi), child: c, visits: uint32(cn.visits()), q: -cn.q(-cn.value)}
			if p := cn.proven.Load(); p != 0 {
				mc.q, mc.proven = -float32(p), -p
			}
			out = append(out, mc)
		}
	}
	// Proven wins first, proven losses last, the rest by visits, then value.
	slices.SortStableFunc(out, func(a, b moveCand) int {
		if c := cmp.Compare(b.proven, a.proven); c != 0 {
			return c
		}
		if c := cmp.Compare(b.visits, a.visits); c != 0 {
			return c
		}
		return cmp.Compare(b.q, a.q)
	})
	return out
}

// result builds the search's result: the move chosen by visits (or sampled with
// the temperature), its principal variation and the top moves.
func (sr *search) result(start time.Time) (*Result, error) {
	s := sr.s
	root := sr.t.node(sr.root)
	cands := sr.moves(sr.root, sr.rootTurn, sr.hist)
	if len(cands) == 0 {
		// Nothing finished a turn (a tiny budget): the moves of a single
		// step are the candidates (every move when none is legal), and the
		// best of them by its one-turn value is played (see staticBest).
		g := s.gen
		n := g.GenerateUpTo(&sr.rootTurn.Pos, sr.hist, 1)
		if n == 0 {
			n = g.Generate(&sr.rootTurn.Pos, sr.hist)
		}
		if n == 0 {
			return nil, ErrGameOver
		}
		cands = make([]moveCand, n)
		for i := range cands {
			cands[i] = moveCand{steps: g.Steps(i, nil), child: -1}
		}
	}
	pick := sr.mostVisitedPath(cands)
	if s.cfg.Temperature > 0 && len(cands) > 1 && cands[0].proven == 0 {
		// Sample among the moves not proven lost.
		open := len(cands)
		for open > 1 && cands[open-1].proven < 0 {
			open--
		}
		pick = sampleByVisits(rand.New(rand.NewPCG(s.cfg.Seed^0x5851F42D4C957F2D, s.searches)), cands[:open], s.cfg.Temperature)
	}
	if cands[pick].visits == 0 && cands[pick].proven == 0 {
		pick = sr.staticBest(cands)
	}
	if sr.scans() && cands[pick].proven == 0 {
		if s.cfg.Scan == ScanStep {
			pick = sr.stepPick(&cands, pick)
		} else if sr.deepScans() {
			pick = sr.deepPick(&cands, pick)
		} else {
			pick = sr.checkPick(&cands, pick)
		}
	}
	pos := sr.rootTurn.Pos
	shortest(s.gen, &pos, sr.hist, cands[:min(len(cands), max(pick+1, s.cfg.TopMoves))])
	c := cands[pick]
	res := &Result{
		Move:        engine.FormatMove(pos, c.steps),
		Steps:       c.steps,
		Value:       root.q(root.value),
		Visits:      int(root.visits()),
		Simulations: sr.done.Load(),
		Nodes:       sr.t.size(),
		Depth:       int(sr.maxDepth.Load()),
		TreeFull:    sr.full.Load(),
		Elapsed:     time.Since(start),
		Deep:        sr.deepStats,
		Step:        sr.stepResult,
	}
	if p := root.proven.Load(); p != 0 {
		res.Value = float32(p)
	}
	for i := 0; i < len(cands) && i < s.cfg.TopMoves; i++ {
		res.Top = append(res.Top, MoveVisits{engine.FormatMove(pos, cands[i].steps), cands[i].visits, cands[i].q, cands[i].proven})
	}
	if pick >= s.cfg.TopMoves {
		// The scan chose a move below the most visited: Top lists it too.
		res.Top = append(res.Top, MoveVisits{res.Move, c.visits, c.q, c.proven})
	}
	// The principal variation: the chosen move, then the most visited replies.
	res.PV = append(res.PV, res.Move)
	turn := sr.rootTurn
	for _, st := range c.steps {
		turn.Play(st)
	}
	next := turn.End()
	child := c.child
	for len(res.PV) < 8 && child >= 0 {
		nt := engine.NewTurn(next)
		cs := sr.moves(child, nt, nil)
		if len(cs) == 0 || cs[0].visits == 0 {
			break
		}
		res.PV = append(res.PV, engine.FormatMove(next, cs[0].steps))
		for _, st := range cs[0].steps {
			nt.Play(st)
		}
		next = nt.End()
		child = cs[0].child
	}
	return res, nil
}

// staticBest returns the index in cands of the move with the best one-turn
// value (the evaluation after the opponent's best capture line, a goal the
// opponent reaches a loss), a proven loss only when every move is one (index
// 0 then). It chooses where the search gave the move it would play no visit
// of its own: with a tiny budget (below about 40 visits from the opening) no
// complete move is visited, and the first one the tree holds, which the
// visits and values cannot tell from the others, can be a rabbit stepped
// into a trap.
func (sr *search) staticBest(cands []moveCand) int {
	w := sr.newWorker()
	best, bestV := 0, float32(-3)
	for i, c := range cands {
		if c.proven < 0 {
			continue
		}
		t := sr.rootTurn
		for _, st := range c.steps {
			t.Play(st)
		}
		q := t.End()
		if v := w.turnEndValue(&q, w.capture); v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// mostVisitedPath returns the index in cands of the move the search plays: a
// proven win when there is one, otherwise the move reached from the root by
// taking the most visited action at every node (a step, or ending the turn).
// Choosing among complete moves by their own visits would favour short moves:
// a move of one step is reached by one edge, while the visits of a four-step
// line are spread over the many moves that share its first steps.
func (sr *search) mostVisitedPath(cands []moveCand) int {
	if len(cands) == 0 || cands[0].proven > 0 {
		return 0
	}
	t := sr.t
	id := sr.root
	for depth := 0; depth <= engine.MaxSteps; depth++ {
		n := t.node(id)
		if n.status.Load() != statusExpanded {
			return 0
		}
		best, bestVisits, bestQ := int64(-1), int32(-1), float32(0)
		for i := range int64(n.nedges) {
			e := t.edges.at(n.edges + i)
			c := e.childNode()
			if c < 0 || e.proven.Load() < 0 {
				continue
			}
			if e.endsTurn() && !slices.ContainsFunc(cands, func(m moveCand) bool { return m.child == c }) {
				continue // a third repetition
			}
			v := int32(e.counts.Load() >> 32)
			q := e.q()
			if v > bestVisits || v == bestVisits && q > bestQ {
				best, bestVisits, bestQ = n.edges+i, v, q
			}
		}
		if best < 0 {
			return 0
		}
		e := t.edges.at(best)
		c := e.childNode()
		if e.endsTurn() {
			if i := slices.IndexFunc(cands, func(m moveCand) bool { return m.child == c }); i >= 0 {
				return i
			}
			return 0
		}
		id = c
	}
	return 0
}

// shortest rewrites the steps of each move of cands, from pos, with the fewest
// steps that reach the same position: the tree may have found a longer path to
// it (a piece moved out and back, or two steps that one would do). Moves of one
// or two steps are always as short as they can be, and so are those that
// fewest finds no shorter turn for (most of them, found at once). For the
// others, the moves of as many steps as the most that fewest found are
// generated by g, with the steps full generation gives them.
func shortest(g *engine.MoveGen, pos *engine.Position, hist *engine.History, cands []moveCand) {
	var long map[[12]engine.Bitboard]int // board after the move -> index in cands
	most := 0
	for i, c := range cands {
		if len(c.steps) < 3 {
			continue
		}
		t := engine.NewTurn(*pos)
		for _, st := range c.steps {
			t.Play(st)
		}
		k := fewest(pos, &t.Pos.Bits, len(c.steps))
		if k == len(c.steps) {
			continue // as short as it can be
		}
		if long == nil {
			long = map[[12]engine.Bitboard]int{}
		}
		long[t.Pos.Bits] = i
		most = max(most, k)
	}
	if long == nil {
		return
	}
	for i := range g.GenerateUpTo(pos, hist, most) {
		q := g.Position(i)
		j, ok := long[q.Bits]
		if !ok {
			continue
		}
		if short := g.Steps(i, nil); len(short) < len(cands[j].steps) {
			cands[j].steps = short
		}
		delete(long, q.Bits)
		if len(long) == 0 {
			return
		}
	}
}

// sampleByVisits picks a candidate with probability proportional to visits^(1/temp).
func sampleByVisits(rng *rand.Rand, cands []moveCand, temp float32) int {
	w := make([]float64, len(cands))
	var sum float64
	for i, c := range cands {
		w[i] = math.Pow(float64(c.visits), 1/float64(temp))
		sum += w[i]
	}
	if sum == 0 {
		return 0
	}
	x := rng.Float64() * sum
	for i := range w {
		x -= w[i]
		if x < 0 {
			return i
		}
	}
	return len(w) - 1
}

// provenResult returns a move that wins at once.
func (s *Searcher) provenResult(pos engine.Position, steps []engine.Step, start time.Time) (*Result, error) {
	m := engine.FormatMove(pos, steps)
	return &Result{Move: m, Steps: steps, Value: 1, PV: []string{m}, Top: []MoveVisits{{m, 0, 1, 1}}, Proven: true, Elapsed: time.Since(start)}, nil
}

// Sample draws a move among the searched ones in proportion to visits^(1/t): the
// most visited (Move) when t <= 0. A proven win is always played, and a move
// proven to lose is never drawn while another is listed. Self-play and matches
// use it for their move temperature.
func (r *Result) Sample(rng *rand.Rand, t float64) string {
	if t <= 0 || len(r.Top) < 2 || r.Top[0].Proven != 0 {
		return r.Move
	}
	top := r.Top
	for len(top) > 1 && top[len(top)-1].Proven < 0 {
		top = top[:len(top)-1]
	}
	w := make([]float64, len(top))
	var sum float64
	for i, m := range top {
		w[i] = math.Pow(float64(m.Visits), 1/t)
		sum += w[i]
	}
	if sum == 0 || math.IsInf(sum, 0) || math.IsNaN(sum) {
		return r.Move
	}
	x := rng.Float64() * sum
	for i := range w {
		x -= w[i]
		if x < 0 {
			return top[i].Move
		}
	}
	return top[len(top)-1].Move
}
