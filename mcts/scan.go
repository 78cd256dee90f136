package mcts

import (
	"container/heap"
	"math"
	"slices"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// turnScan is a full-width search of one turn: every legal move of the root,
// each valued as the tactical leaf values the end of a turn (the game's end,
// the opponent's goal, the opponent's best capture line, then the evaluation).
// It is the minimax part of the player: the tree search looks two turns and
// more ahead but, averaging its simulations, can miss for a while that a move
// hangs a piece; the scan sees every capture that an exhaustive capture search
// finds one turn ahead, for every move.
//
// It is cheap because each move's value has upper bounds that cost less than
// the value: the evaluation of the board it leaves (the opponent's captures
// can only lower it), then the value with the tree's capture search (which
// searches only the shortest capture lines, so finds fewer captures). Moves
// are refined best bound first, and a move is valued exactly only while its
// bound could still come within the margin of the best value found.
type turnScan struct {
	gen      *engine.MoveGen
	deep     *captureSearch
	bound    []float32 // an upper bound on each move's value; its value when level is 2
	level    []int8    // 0: bound is the static value, 1: with the tree's capture search, 2: exact
	loss     []float32 // the threat in the bound or value, unweighted (see threat); -1: not measured
	asked    []bool    // whether goalWon was asked of the move before its bound
	heap     scanHeap
	best     float32 // the best exact value
	bestMove int     // the index of a move of that value, or -1
	// capped is set when the scan stopped at scanDeepLimit exact values, or
	// at deadline.
	capped bool
	// refute ends the scan as soon as an exact value reaches cut: a search
	// of two turns needs no more than one reply that refutes a move.
	refute bool
	cut    float32
	// threat, when positive, values each move also by what the opponent
	// would capture if it could move again at once: the value for the side
	// that moved rises by threat times the opponent's loss to that capture.
	// A move that drags a piece beside a trap and freezes it so ranks among
	// the best, though it captures nothing yet. The static bound then adds
	// threatBound when such a capture may exist.
	threat float32
	// deadline, when set, ends the refinement early.
	deadline time.Time
	// valued counts the moves valued with the exhaustive capture search.
	valued int
	// q holds the position of the move being bounded or refined: passed
	// to the evaluator, an interface, a local would escape to the heap,
	// one allocation for each of tens of thousands of moves a scan.
	q engine.Position
}

// scanDeepLimit caps the exhaustive capture searches of one scan (each costs
// up to a millisecond): in a position where something hangs after nearly
// every move, all of them would otherwise be searched.
const scanDeepLimit = 48

// scanDone is the level of a move valued exactly.
const scanDone = 2

// scanHeap orders move indices by falling bound.
type scanHeap struct {
	idx   []int
	bound []float32
}

func (h *scanHeap) Len() int           { return len(h.idx) }
func (h *scanHeap) Less(i, j int) bool { return h.bound[h.idx[i]] > h.bound[h.idx[j]] }
func (h *scanHeap) Swap(i, j int)      { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *scanHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *scanHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// scan values the moves of the root from pos (hist excludes third
// repetitions) until every move within margin of the best is valued exactly,
// or scanDeepLimit moves are.
// It reports false when there is no legal move.
func (w *worker) scan(sc *turnScan, pos *engine.Position, hist *engine.History, margin float32) bool {
	ev := w.sr.s.eval
	n := sc.gen.Generate(pos, hist)
	if n == 0 {
		return false
	}
	sc.bound = slices.Grow(sc.bound[:0], n)[:n]
	sc.level = slices.Grow(sc.level[:0], n)[:n]
	sc.loss = slices.Grow(sc.loss[:0], n)[:n]
	clear(sc.loss)
	sc.asked = slices.Grow(sc.asked[:0], n)[:n]
	clear(sc.asked)
	sc.heap = scanHeap{idx: sc.heap.idx[:0], bound: sc.bound}
	sc.best, sc.bestMove = -1, -1
	sc.capped, sc.valued = false, 0
	timedOut := false
	for i := range n {
		if i%1024 == 1023 && !sc.deadline.IsZero() && time.Now().After(sc.deadline) {
			// Out of time before every move had its bound: the moves
			// bounded so far are all the scan has, as when capped later.
			sc.bound, sc.level = sc.bound[:i], sc.level[:i]
			sc.heap.bound = sc.bound
			timedOut = true
			break
		}
		q := &sc.q
		*q = sc.gen.Position(i)
		next := engine.NewTurn(*q)
		var v float32
		if w.gameOver(&next, &v) {
			sc.bound[i], sc.level[i] = -v, scanDone
			if -v > sc.best || sc.bestMove < 0 {
				sc.best, sc.bestMove = -v, i
			}
			continue
		}
		if sc.threat > 0 && advancesRabbit(pos, q) {
			sc.asked[i] = true
			if w.goalWon(q) {
				// A rabbit stepped near the goal, and nothing stops it:
				// the reply wins, whatever the evaluation says of it.
				sc.bound[i], sc.level[i] = 1, scanDone
				if 1 > sc.best || sc.bestMove < 0 {
					sc.best, sc.bestMove = 1, i
				}
				if sc.refute && sc.best >= sc.cut {
					return true
				}
				continue
			}
		}
		sc.bound[i], sc.level[i] = -ev.Evaluate(q), 0
		if sc.threat > 0 && captureBound(q, q.Side.Other()) <= engine.MaxSteps {
			sc.bound[i] += sc.threat * threatBound
		}
		if sc.refute && sc.bound[i] >= sc.cut && w.refineNow(sc, i, q, margin) {
			if sc.best >= sc.cut {
				return true
			}
			continue
		}
		sc.heap.idx = append(sc.heap.idx, i)
	}
	heap.Init(&sc.heap)
	sc.capped = timedOut
	w.refine(sc, margin)
	return true
}

// refine refines the moves of sc best bound first, as scan does, until
// every move within margin of the best is valued exactly, or scanDeepLimit
// moves are (sc.valued counts them).
func (w *worker) refine(sc *turnScan, margin float32) {
	for k := 0; sc.heap.Len() > 0; k++ {
		if sc.valued >= scanDeepLimit || k%16 == 15 && !sc.deadline.IsZero() && time.Now().After(sc.deadline) {
			sc.capped = true
			break
		}
		i := sc.heap.idx[0]
		if sc.bound[i] <= sc.best-margin {
			break
		}
		q := &sc.q
		*q = sc.gen.Position(i)
		switch sc.level[i] {
		case 0:
			w.boundWithCapture(sc, i, q, margin)
			heap.Fix(&sc.heap, 0)
		default:
			w.valueExactly(sc, i, q)
			heap.Pop(&sc.heap)
			if sc.refute && sc.best >= sc.cut {
				return
			}
		}
	}
}

// refineNow refines move i of sc, whose position is q, as refine would,
// while the scan is still bounding its moves: a scan that looks for a
// refutation takes the first it finds (most moves that a scan of two turns
// looks at have many), instead of bounding every move first. Its level-1
// bound (the tree's capture search) and, while that stays at the cut or
// above, its exact value are what refine would find for it later, so a scan
// that finds no refutation ends as it would have. It reports whether the
// move was valued exactly (it then stays out of the heap), and the scan's
// best then includes it.
func (w *worker) refineNow(sc *turnScan, i int, q *engine.Position, margin float32) bool {
	w.boundWithCapture(sc, i, q, margin)
	if sc.bound[i] < sc.cut || sc.valued >= scanDeepLimit {
		return false
	}
	w.valueExactly(sc, i, q)
	return true
}

// boundWithCapture raises move i of sc, whose position is q, from its
// static bound to level 1: its value with the tree's capture search. The
// threat is measured with that search at both levels (the exact value
// reuses the bound's); a bound that cannot reach the margin even with the
// whole of a threat leaves the threat unmeasured.
func (w *worker) boundWithCapture(sc *turnScan, i int, q *engine.Position, margin float32) {
	sc.bound[i], sc.loss[i] = w.threatParts(q, w.capture, sc.threat, -1, sc.asked[i], sc.window(margin))
	sc.level[i] = 1
}

// valueExactly values move i of sc, whose position is q, with the scan's
// exhaustive capture search, and takes it as the best when it is.
func (w *worker) valueExactly(sc *turnScan, i int, q *engine.Position) {
	sc.valued++
	sc.bound[i], sc.loss[i] = w.threatParts(q, sc.deep, sc.threat, sc.loss[i], true, anyValue())
	sc.level[i] = scanDone
	if sc.bound[i] > sc.best || sc.bestMove < 0 {
		sc.best, sc.bestMove = sc.bound[i], i
	}
}

// scanState is what a scan knows of its moves when it ends: their bounds
// and values, to resume it with a wider margin (see resume).
type scanState struct {
	bound, loss []float32
	level       []int8
	asked       []bool
	best        float32
	bestMove    int
	valued      int
}

// save returns the state of the scan that sc has just ended, unless it
// ended for its deadline or its cap (nil then: there is nothing to resume).
func (sc *turnScan) save() *scanState {
	if sc.capped {
		return nil
	}
	return &scanState{
		bound: slices.Clone(sc.bound), loss: slices.Clone(sc.loss),
		level: slices.Clone(sc.level), asked: slices.Clone(sc.asked),
		best: sc.best, bestMove: sc.bestMove, valued: sc.valued,
	}
}

// resume is scan from pos (no history) with margin, continued from the
// state st that an earlier scan of pos left: the bounds and the values it
// found are kept, and only the moves within the wider margin that it did
// not value are refined. It reports false when there is no legal move.
func (w *worker) resume(sc *turnScan, st *scanState, pos *engine.Position, margin float32) bool {
	if st == nil {
		return w.scan(sc, pos, nil, margin)
	}
	n := sc.gen.Generate(pos, nil)
	if n == 0 {
		return false
	}
	if len(st.bound) != n { // not a state of pos: scan it afresh
		return w.scan(sc, pos, nil, margin)
	}
	sc.bound = append(sc.bound[:0], st.bound...)
	sc.loss = append(sc.loss[:0], st.loss...)
	sc.level = append(sc.level[:0], st.level...)
	sc.asked = append(sc.asked[:0], st.asked...)
	sc.best, sc.bestMove, sc.capped = st.best, st.bestMove, false
	sc.heap = scanHeap{idx: sc.heap.idx[:0], bound: sc.bound}
	for i, l := range sc.level {
		if l < scanDone {
			sc.heap.idx = append(sc.heap.idx, i)
		}
	}
	heap.Init(&sc.heap)
	sc.valued = st.valued
	w.refine(sc, margin)
	return true
}

// turnEndValue returns the tactical value, for the side that just moved, of
// the position q at the start of the opponent's turn: -1 when the opponent
// can reach its goal, otherwise minus the opponent's quiescence value with
// the capture search cs.
func (w *worker) turnEndValue(q *engine.Position, cs *captureSearch) float32 {
	next := engine.NewTurn(*q)
	var v float32
	if w.gameOver(&next, &v) {
		return -v
	}
	if w.goal.reachable(&next) {
		return -1
	}
	return -w.quiesceWith(&next, cs)
}

// threatened is the tactical value of the move that leads to q with the
// capture search cs, raised by threat times its threat unless the game is
// decided: with the scan's own search and threat, the exact value the scan
// gives that move.
func (w *worker) threatened(q *engine.Position, cs *captureSearch, threat float32) float32 {
	v, _ := w.threatParts(q, cs, threat, -1, false, anyValue())
	return v
}

// threatParts returns threatened's value and the threat in it, unweighted:
// known when it is 0 or more (measured before for q), measured otherwise;
// -1 when not measured (threat is 0 or the game is decided). A goal that
// the side to move at q cannot stop makes the value 1, a win (see goalWon),
// which is asked unless asked says it was before.
//
// The threat, a capture search of its own, is measured only where the
// caller's window win needs it (see valueWindow): otherwise the value is
// returned as a bound, the most that the threat could add or nothing of it,
// and the loss as -1.
func (w *worker) threatParts(q *engine.Position, cs *captureSearch, threat, known float32, asked bool, win valueWindow) (v, loss float32) {
	v, loss = w.turnEndValue(q, cs), -1
	if threat > 0 && v > -1 && v < 1 {
		if known == goalWonLoss || !asked && w.goalWon(q) {
			return 1, goalWonLoss
		}
		if known < 0 {
			if top := v + threat*threatBound; top <= win.lo {
				return top, -1
			}
			if v >= win.hi {
				return v, -1
			}
		}
		loss = known
		if loss < 0 {
			loss = w.threatLoss(q, w.capture)
		}
		v += threat * loss
	}
	return v, loss
}

// valueWindow is the range of values in which a caller of threatParts needs
// a move's exact value: at lo or below, an upper bound that is at most lo
// will do (the move cannot matter), at hi or above a lower bound that is at
// least hi (the move refutes what it answers).
type valueWindow struct{ lo, hi float32 }

// anyValue returns the window that needs every value exactly.
func anyValue() valueWindow {
	return valueWindow{float32(math.Inf(-1)), float32(math.Inf(1))}
}

// refuting returns the window of a value that refutes what it answers at
// cut or above: below cut it does not.
func refuting(cut float32) valueWindow {
	return valueWindow{math.Nextafter32(cut, float32(math.Inf(-1))), cut}
}

// window returns the window in which the scan needs the bound of a move it
// refines with the tree's capture search, the best so far and the margin
// as they stand: a bound below the margin is never refined again (best only
// rises). A bound must stay a bound from above: the window has no upper end.
func (sc *turnScan) window(margin float32) valueWindow {
	win := anyValue()
	if sc.bestMove >= 0 {
		win.lo = sc.best - margin
	}
	return win
}

// goalWonLoss is the threat that threatParts returns with a goal that
// cannot be stopped: no capture threat is as large, so that the exact value
// of the move reuses it.
const goalWonLoss = 1

// threatBound is the most that a threat is taken to be worth, in value for
// the side that moved: about a dog at even material with generation 0.
const threatBound = 0.12

// threatLoss returns what the side to move at q would lose, in value, if
// its opponent could move again at once and take its best capture line (by
// the capture search cs): 0 when it has none.
func (w *worker) threatLoss(q *engine.Position, cs *captureSearch) float32 {
	if w.sr.s.cfg.Leaf == LeafStatic {
		return 0
	}
	p := *q
	p.SetSide(q.Side.Other())
	t := engine.NewTurn(p)
	gain, after := cs.find(&t)
	if gain <= 0 {
		return 0
	}
	ev := w.sr.s.eval
	return min(threatBound, max(0, ev.Evaluate(q)+ev.Evaluate(&after.Pos)))
}

// goalWon reports whether the opponent of the side to move at q, the start
// of its turn, threatens a goal that no move of the side stops: the opponent
// has then won (see goalDefence). Only threats of a rabbit in the goal zone
// (see goalZone) are examined, and only while the worker's defenceLeft
// lasts; others are taken as stopped.
func (w *worker) goalWon(q *engine.Position) bool {
	return w.sr.s.cfg.Leaf != LeafStatic && w.goalUnstoppable(q)
}

// goalUnstoppable is goalWon whatever the tree's leaf: whether the opponent
// of the side to move at q threatens, from its goal zone, a goal that no move
// of the side stops, while the worker's defenceLeft lasts.
func (w *worker) goalUnstoppable(q *engine.Position) bool {
	if w.defenceLeft <= 0 {
		return false
	}
	opp := q.Side.Other()
	if q.Bits[engine.MakePiece(opp, engine.Rabbit)]&goalZone(opp) == 0 {
		return false
	}
	p := *q
	p.SetSide(opp)
	t := engine.NewTurn(p)
	searched := w.goal.nodes
	reachable := w.goal.reachable(&t)
	// The goal search counts too: where a rabbit stepped beside the goal
	// after thousands of replies, it took three quarters of the deep scan.
	w.defenceLeft -= w.goal.nodes - searched
	if !reachable {
		return false
	}
	return !w.parries(q)
}

// parries is the worker's goal defence asked of q (see
// goalDefence.parries), made when first needed, its states and goal
// searches charged to defenceLeft.
func (w *worker) parries(q *engine.Position) bool {
	if w.defence == nil {
		w.defence = newGoalDefence()
	}
	start := w.defence.goal.nodes
	parried := w.defence.parries(q)
	w.defenceLeft -= w.defence.goal.nodes - start + w.defence.states
	return parried
}

// advancesRabbit reports whether the move from pos to q puts a rabbit of
// the side that moved on a square of its goal zone (see goalZone) where
// none stood before: the replies that may start a goal threat the evaluation
// does not see, which the deep scan checks before it bounds them.
func advancesRabbit(pos, q *engine.Position) bool {
	c := pos.Side
	rabbit := engine.MakePiece(c, engine.Rabbit)
	return q.Bits[rabbit]&goalZone(c)&^pos.Bits[rabbit] != 0
}

// goalZone returns the squares within two ranks of the goal of colour c,
// the goal rank aside: where the goal threats that goalWon examines start.
// Farther away, a threat has few ways to the goal that the defender cannot
// block, and the examination would cost more than it finds.
func goalZone(c engine.Color) engine.Bitboard {
	if c == engine.Silver {
		return engine.Rank2
	}
	return engine.Rank7
}

// scanMargin is how far below the best tactical value of the scan the move
// the tree search chose may fall before the scan overrides it: about a third
// of a rabbit at even material.
const scanMargin = 0.03

// scans reports whether the search checks its move with a scan. A search
// stopped from outside (AEI's stop, the end of pondering) answers at once,
// without one.
func (sr *search) scans() bool {
	if sr.ctx.Err() != nil {
		return false
	}
	switch sr.s.cfg.Scan {
	case ScanOn, ScanDeep, ScanStep:
		return true
	case ScanAuto:
		return sr.limit >= scanMinVisits || sr.s.cfg.Time > 0 && sr.limit == math.MaxInt64
	}
	return false
}

// deepScans reports whether the scan is the deep one (see deepPick): always
// with ScanDeep, and with ScanAuto for a search bounded by time alone, whose
// time the deep scan shares. A budget of simulations alone would have no
// bound on the deep scan's cost (a few tenths of a second), so ScanAuto
// checks those with the one-turn scan.
func (sr *search) deepScans() bool {
	switch sr.s.cfg.Scan {
	case ScanDeep, ScanStep:
		return true
	case ScanAuto:
		return sr.s.cfg.Time > 0 && sr.limit == math.MaxInt64
	}
	return false
}

// scanShare is the percentage of a time budget that the search's scan gets:
// the step search stepShare, the deep scan deepShare, the one-turn scan a
// tenth.
func (sr *search) scanShare() int {
	switch {
	case sr.s.cfg.Scan == ScanStep:
		return stepShare
	case sr.deepScans():
		return deepShare
	}
	return 10
}

// checkPick returns the index in cands of the move to play instead of
// cands[pick] when the scan finds that cands[pick] falls more than scanMargin
// below the best move of the turn; cands may grow by one. The replacement is
// the move within the margin that the tree search visited most (the most
// valuable one when it visited none of them).
func (sr *search) checkPick(cands *[]moveCand, pick int) int {
	w := sr.newWorker()
	sc := &turnScan{gen: engine.NewMoveGen(), deep: newCaptureSearch(), deadline: sr.scanDeadline}
	sc.deep.extra = engine.MaxSteps
	pos := sr.rootTurn.Pos
	if !w.scan(sc, &pos, sr.hist, scanMargin) {
		return pick
	}
	c := (*cands)[pick]
	turn := sr.rootTurn
	for _, st := range c.steps {
		turn.Play(st)
	}
	end := turn.End()
	if w.turnEndValue(&end, sc.deep) >= sc.best-scanMargin {
		return pick
	}
	best, bestVisits, bestValue := -1, int32(-1), float32(-2)
	var bestNode int64 = -1
	for i, v := range sc.bound {
		if sc.level[i] != scanDone || v < sc.best-scanMargin {
			continue
		}
		q := sc.gen.Position(i)
		nt := engine.NewTurn(q)
		k, h := keyOf(&nt)
		id := sr.t.lookup(&k, h)
		visits := int32(0)
		if id >= 0 {
			visits = sr.t.node(id).visits()
		}
		if visits > bestVisits || visits == bestVisits && v > bestValue {
			best, bestVisits, bestValue, bestNode = i, visits, v, id
		}
	}
	if best < 0 {
		return pick
	}
	if bestNode >= 0 {
		if j := slices.IndexFunc(*cands, func(m moveCand) bool { return m.child == bestNode }); j >= 0 {
			return j
		}
	}
	*cands = append(*cands, moveCand{steps: sc.gen.Steps(best, nil), child: bestNode, visits: uint32(bestVisits), q: bestValue})
	return len(*cands) - 1
}
