package mcts

import (
	"cmp"
	"slices"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// The step search is an alternative to the deep scan (ScanStep): an
// alpha-beta search by steps, iteratively deepened a whole turn at a time,
// as the field's strong bots searched. Its depth counts steps: 4 is the
// mover's whole turn, 8 the opponent's reply too. Inside one side's turn
// every node maximises for the same side; a turn ends when its steps are
// used or the side passes (which uses the steps left). A leaf is judged by
// the evaluation of its board as if its side ended the turn there. A
// transposition table keeps each state's value and best step (many step
// orders reach one state), and the steps are tried in the order: the
// table's step, captures, the two killer steps of the ply, then by their
// history of cuts. An evaluation cache keeps the value of each board judged
// (the step orders of a turn reach one board at many leaves: in a search of
// two turns, about three evaluations in four are of a board judged before).
// Past the first turn the root's turn ends only on the boards of its
// Config.StepMoves best moves by the evaluation at the turn's end (by the
// tactical leaf's value with that leaf, see startValue), searched in sweeps
// over more and more of them (Config.StepWiden, see rootWidths).

// abMove is one action of the step search: a step, or the end of the turn.
type abMove struct {
	step engine.Step
	pass bool
}

// abEntry is a slot of the step search's transposition table.
type abEntry struct {
	key   uint64
	value float32
	depth int8
	flag  int8 // abExact, abLower or abUpper
	best  abMove
	valid bool
	// sweep is the search's sweep that stored it: the value of a state of
	// the root's turn depends on the root moves the sweep allows.
	sweep uint16
}

const (
	abExact = iota
	abLower
	abUpper
)

// abBits is the log2 of the slots of the transposition table (some 24 MB).
const abBits = 20

// evalCacheBits is the log2 of the slots of the evaluation cache (4 MB: a
// larger one, slower to reach, found no more in a search of two turns).
const evalCacheBits = 18

// abMaxPly bounds the plies of one search (depth in steps, a few more for
// safety).
const abMaxPly = 64

// stepSearch is the state of one alpha-beta search by steps.
type stepSearch struct {
	w       *worker
	tt      []abEntry
	killers [abMaxPly][2]abMove
	history [2 * engine.NumTypes][64][4]int32
	pv      [abMaxPly][abMaxPly]abMove
	pvLen   [abMaxPly]int
	bufs    [abMaxPly][]engine.Step
	hist    *engine.History
	// root is the hash of the position the search started from: the ends
	// of its turn must not repeat a position of the game a third time.
	root     uint64
	scores   [abMaxPly][]int32
	deadline time.Time
	nodes    int64
	stopped  bool
	// depth is the depth of the iteration under way.
	depth int
	// nodeLimit, when positive, stops a search at its nodeLimit-th node as
	// the deadline would (tests stop it where they choose).
	nodeLimit int64
	next      engine.Position
	// cache holds the evaluations of boards judged before.
	cache []evalEntry
	// allowed, when not nil, holds the boards the root's turn may end on.
	allowed map[uint64]bool
	// rootMoves is how many moves allowed holds (0: every move).
	rootMoves int
	// firstWidth is how many of the root's best moves the first sweep of
	// two turns allows, doubled each sweep up to rootMoves (see run; 0: one
	// sweep of rootMoves).
	firstWidth int
	// sweep counts the search's sweeps from the root (each iteration, and
	// each width of one).
	sweep uint16
	// gen, ends, top, q and qt are rankEnds' scratch space: the root's
	// moves and their values.
	gen  *engine.MoveGen
	ends []rootEnd
	top  []float32
	q    engine.Position
	qt   engine.Turn
	// turns holds the state of each ply of the line searched.
	turns [abMaxPly + 2]engine.Turn
	// tactical judges the leaves at a turn's start as the tree's tactical
	// leaf does (see startValue); quiet caches those values.
	tactical bool
	quiet    []quietEntry
}

// evalEntry is a slot of the step search's evaluation cache.
type evalEntry struct {
	key   uint64
	value float32
	valid bool
}

// rootEnd is a move of the root's turn: the board it ends on and its value
// for the side to move at the root.
type rootEnd struct {
	hash  uint64
	value float32
	// index is the move's place in the generator's order; runner says
	// whether it leaves a rabbit of its side in its goal zone.
	index  int32
	runner bool
}

// evaluate returns the evaluation of p for its side to move, from the cache
// when the board was judged before.
func (ss *stepSearch) evaluate(p *engine.Position) float32 {
	e := &ss.cache[p.Hash&uint64(len(ss.cache)-1)]
	if e.valid && e.key == p.Hash {
		return e.value
	}
	v := ss.w.sr.s.eval.Evaluate(p)
	*e = evalEntry{key: p.Hash, value: v, valid: true}
	return v
}

// leaf returns the value of t for its side when the depth has run out.
func (ss *stepSearch) leaf(t *engine.Turn) float32 {
	if t.Used == 0 || t.CanEnd() != nil {
		// The turn's start, a push under way, or the board as it started:
		// the side's evaluation of the board as it stands.
		return ss.evaluate(&t.Pos)
	}
	ss.next = t.End()
	return -ss.evaluate(&ss.next)
}

// startValue returns the value of t, at the start of its side's turn, for
// that side when the depth has run out, with the tactical leaf: a win when
// the side reaches its goal this turn; a loss when the opponent threatens a
// goal from its goal zone that no move of the side stops
// (worker.goalUnstoppable, within the search's budget for the goal
// defence); otherwise the better of the evaluation of the board and the
// evaluation after the side's most profitable capture line this turn. As a
// quiescence search stands pat, it returns the evaluation alone when that is
// at least beta already and the opponent threatens no goal that the side
// cannot stop (a goal or a capture could only raise it); the quiet cache
// keeps each board's evaluation, the goal defence's answer once asked and,
// once searched, its tactical value.
func (ss *stepSearch) startValue(t *engine.Turn, beta float32) float32 {
	if ss.quiet == nil {
		ss.quiet = make([]quietEntry, 1<<evalCacheBits)
	}
	e := &ss.quiet[t.Pos.Hash&uint64(len(ss.quiet)-1)]
	if !e.valid || e.key != t.Pos.Hash {
		*e = quietEntry{key: t.Pos.Hash, eval: ss.evaluate(&t.Pos), valid: true}
	}
	if e.full {
		return e.value
	}
	opp := t.Pos.Side.Other()
	threat := t.Pos.Bits[engine.MakePiece(opp, engine.Rabbit)]&goalZone(opp) != 0
	if e.eval >= beta {
		// Only the opponent's goal could lower it: none is in reach, or
		// the side can stop it (or reach its own first, see parries).
		if !threat || !ss.unstoppable(t, e) {
			return e.eval
		}
	}
	e.full = true
	switch {
	case ss.w.goal.reachable(t):
		e.value = 1
	case threat && ss.unstoppable(t, e):
		e.value = -1
	default:
		e.value = e.eval
		if gain, after := ss.w.capture.find(t); gain > 0 {
			e.value = max(e.eval, ss.evaluate(&after.Pos))
		}
	}
	return e.value
}

// unstoppable is worker.goalUnstoppable of the turn start t, kept in its
// quiet cache entry e once asked.
func (ss *stepSearch) unstoppable(t *engine.Turn, e *quietEntry) bool {
	if e.threat == threatUnknown {
		e.threat = threatStopped
		if ss.w.goalUnstoppable(&t.Pos) {
			e.threat = threatWins
		}
	}
	return e.threat == threatWins
}

// quietEntry is a slot of the step search's quiet cache: a board at a turn's
// start, its evaluation, whether value, its tactical value, is known, and
// what the goal defence found of the opponent's threat.
type quietEntry struct {
	key    uint64
	eval   float32
	value  float32
	full   bool
	valid  bool
	threat int8 // threatUnknown, threatStopped or threatWins
}

// The goal defence's answers that quietEntry keeps: not asked yet; the
// opponent threatens no goal that the side cannot stop (or the defence gave
// up); the opponent's goal cannot be stopped.
const (
	threatUnknown = iota
	threatStopped
	threatWins
)

// newStepSearch returns a step search with its table and cache empty; it
// keeps both from one search to the next.
func newStepSearch() *stepSearch {
	ss := &stepSearch{tt: make([]abEntry, 1<<abBits), cache: make([]evalEntry, 1<<evalCacheBits), gen: engine.NewMoveGen()}
	for i := range ss.bufs {
		ss.bufs[i] = make([]engine.Step, 0, 96)
	}
	return ss
}

// clear empties the table and the evaluation cache, their memory kept.
func (ss *stepSearch) clear() {
	clear(ss.tt)
	clear(ss.cache)
	clear(ss.quiet)
}

// abKey is the table's key of the state t: the board, the side, the steps
// used, a push or pull under way, and the board the turn started from (the
// turn must change it).
func abKey(t *engine.Turn) uint64 {
	return t.Pos.Hash ^ (uint64(t.StateKey())+1)*0x9e3779b97f4a7c15 ^ (t.StartHash()*0xbf58476d1ce4e5b9)>>1
}

// StepResult is what a step search found: the steps of the best move, its
// value for the side to move, the depth of the last iteration completed and
// the nodes searched.
type StepResult struct {
	Steps []engine.Step
	Value float32
	Depth int
	Nodes int64
	// Narrow says that the deepest iteration completed covered fewer of
	// the root's moves than the cut allows (see rootWidths).
	Narrow bool
}

// run searches the turn t (at its start) to ever greater depths until the
// deadline or maxDepth and returns the best move of the deepest iteration
// that found one (an iteration stopped by the deadline counts when it found
// a move better than the last iteration's value).
func (ss *stepSearch) run(t engine.Turn, deadline time.Time, maxDepth int) (StepResult, bool) {
	ss.deadline = deadline
	ss.root = t.StartHash()
	ss.stopped = false
	ss.nodes = 0
	// The goal defence of the tactical leaf gets the deep scan's budget.
	ss.w.defenceLeft = deepDefence
	ss.killers = [abMaxPly][2]abMove{}
	for i := range ss.history {
		for j := range ss.history[i] {
			ss.history[i][j] = [4]int32{}
		}
	}
	var res StepResult
	found := false
	ss.allowed = nil
	// Whole turns only: a leaf inside a turn judges the board as if its side
	// ended the turn there, and a search that stops there leaves the
	// opponent the steps it has not played (the sixtieth round's games).
	for d := engine.MaxSteps; d <= maxDepth; d += engine.MaxSteps {
		ss.depth = d
		widths := []int{0}
		if d > engine.MaxSteps && ss.rootMoves > 0 {
			if ss.allowed == nil {
				ss.rankEnds(&t.Pos, ss.rootMoves)
			}
			widths = rootWidths(ss.firstWidth, len(ss.ends))
		}
		for i, w := range widths {
			if w > 0 {
				ss.allowed = make(map[uint64]bool, w)
				for _, e := range ss.ends[:w] {
					ss.allowed[e.hash] = true
				}
			}
			ss.sweep++
			ss.pvLen[0] = 0
			v := ss.search(&t, d, 0, -2, 2)
			line := rootLine(ss.pv[0][:ss.pvLen[0]])
			if ss.stopped {
				// An iteration cut short: its best move so far was searched
				// fully, and is kept when it beats the last iteration's.
				if len(line) > 0 && found && v > res.Value && v > -2 {
					res.Steps, res.Value = line, v
				}
				res.Nodes = ss.nodes
				return res, found
			}
			if len(line) == 0 {
				res.Nodes = ss.nodes
				return res, found
			}
			res = StepResult{Steps: line, Value: v, Depth: d, Nodes: ss.nodes, Narrow: i < len(widths)-1}
			found = true
			// A win ends the search; a loss only once every move allowed
			// has been searched.
			if v >= 1 || v <= -1 && i == len(widths)-1 {
				res.Nodes = ss.nodes
				return res, found
			}
		}
	}
	res.Nodes = ss.nodes
	return res, found
}

// rootWidths returns how many of the root's n best moves each sweep of an
// iteration past the first turn allows: first, then twice as many each
// sweep, then all n (just n when first is 0 or at least n). Each sweep is
// complete over its moves, so a search stopped by its deadline has two
// turns searched over the best moves at least; the table keeps the
// opponent's replies from one sweep to the next.
func rootWidths(first, n int) []int {
	var ws []int
	for w := first; w > 0 && w < n; w *= 2 {
		ws = append(ws, w)
	}
	return append(ws, n)
}

// rootLine returns the root turn's steps of the principal variation pv.
func rootLine(pv []abMove) []engine.Step {
	var steps []engine.Step
	for _, m := range pv {
		if m.pass {
			break
		}
		steps = append(steps, m.step)
		if len(steps) == engine.MaxSteps {
			break
		}
	}
	return steps
}

// search returns the value of the state t for its side to move, searched
// depth steps deep, within the window (alpha, beta).
func (ss *stepSearch) search(t *engine.Turn, depth, ply int, alpha, beta float32) float32 {
	ss.pvLen[ply] = ply
	ss.nodes++
	if ss.nodes&1023 == 0 && time.Now().After(ss.deadline) || ss.nodes == ss.nodeLimit {
		ss.stopped = true
	}
	if ss.stopped {
		return 0
	}
	if depth <= 0 {
		return ss.leaf(t)
	}
	key := abKey(t)
	e := &ss.tt[key&(1<<abBits-1)]
	var ttMove abMove
	hasTT := false
	if e.valid && e.key == key {
		ttMove, hasTT = e.best, true
		if int(e.depth) >= depth && ply > 0 && (e.sweep == ss.sweep || t.StartHash() != ss.root) {
			switch {
			case e.flag == abExact:
				return e.value
			case e.flag == abLower && e.value >= beta:
				return e.value
			case e.flag == abUpper && e.value <= alpha:
				return e.value
			}
		}
	}
	alpha0 := alpha
	best := float32(-3)
	var bestMove abMove
	any := false
	try := func(m abMove) bool {
		var v float32
		if m.pass {
			if !ss.allows(t) {
				return false
			}
			v = ss.pass(t, depth, ply, alpha, beta)
		} else {
			child := &ss.turns[ply+1]
			*child = *t
			child.Play(m.step)
			if child.StepsLeft() == 0 {
				if child.CanEnd() != nil || ss.repeats(child) || !ss.allows(child) {
					return false
				}
				v = ss.pass(child, depth-1, ply+1, alpha, beta)
			} else {
				v = ss.search(child, depth-1, ply+1, alpha, beta)
			}
		}
		if ss.stopped {
			return true
		}
		any = true
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				ss.pv[ply][ply] = m
				n := ply + 1
				if !m.pass && (t.StepsLeft() > 1) {
					copy(ss.pv[ply][ply+1:], ss.pv[ply+1][ply+1:ss.pvLen[ply+1]])
					n = ss.pvLen[ply+1]
				}
				ss.pvLen[ply] = n
			}
		}
		return v >= beta
	}
	// The table's move first.
	if hasTT {
		if ss.legal(t, ttMove) && try(ttMove) {
			return ss.store(e, key, depth, best, alpha0, beta, bestMove, ply)
		}
		if ss.stopped {
			return 0
		}
	}
	// Passing: ends the turn with the steps left unused.
	if !(hasTT && ttMove.pass) && ss.legal(t, abMove{pass: true}) {
		if try(abMove{pass: true}) {
			return ss.store(e, key, depth, best, alpha0, beta, bestMove, ply)
		}
		if ss.stopped {
			return 0
		}
	}
	steps := t.LegalSteps(ss.bufs[ply][:0])
	ss.bufs[ply] = steps
	ss.order(t, steps, ply)
	for _, st := range steps {
		m := abMove{step: st}
		if hasTT && m == ttMove {
			continue
		}
		if try(m) {
			if !isCapture(t, st) {
				k := &ss.killers[ply]
				if k[0] != m {
					k[1], k[0] = k[0], m
				}
				ss.history[st.Piece][st.From][st.Dir] += int32(depth * depth)
			}
			return ss.store(e, key, depth, best, alpha0, beta, bestMove, ply)
		}
		if ss.stopped {
			return 0
		}
	}
	if !any || best <= -3 {
		if t.Used == 0 {
			// No legal move at the start of a turn: the side loses.
			return -1
		}
		// Nothing legal from here (a push that cannot be completed, or
		// every end a third repetition): a dead end.
		return -3
	}
	return ss.store(e, key, depth, best, alpha0, beta, bestMove, ply)
}

// store writes the result of a node to the table and returns its value.
func (ss *stepSearch) store(e *abEntry, key uint64, depth int, v, alpha0, beta float32, m abMove, ply int) float32 {
	if ss.stopped {
		// A node cut short by the deadline: v is the best of the steps
		// searched in full (the root's keeps it), not the node's value.
		return v
	}
	flag := int8(abExact)
	switch {
	case v <= alpha0:
		flag = abUpper
	case v >= beta:
		flag = abLower
	}
	*e = abEntry{key: key, value: v, depth: int8(depth), flag: flag, best: m, valid: true, sweep: ss.sweep}
	return v
}

// pass ends the turn t (which may end) and returns its value for t's side:
// the opponent's turn searched with the depth left less the steps unused,
// or the evaluation of the board at the end when no depth is left.
func (ss *stepSearch) pass(t *engine.Turn, depth, ply int, alpha, beta float32) float32 {
	left := depth - t.StepsLeft()
	next := &ss.turns[ply+1]
	*next = engine.NewTurn(t.End())
	var v float32
	if ss.w.gameOver(next, &v) {
		return -v
	}
	if left <= 0 {
		if ss.tactical {
			return -ss.startValue(next, -alpha)
		}
		return -ss.evaluate(&next.Pos)
	}
	ss.pvLen[ply+1] = ply + 1
	return -ss.search(next, left, ply+1, -beta, -alpha)
}

// repeats reports whether ending the root turn at t would repeat a position
// of the game a third time (the search does not follow repetitions past the
// root's turn).
func (ss *stepSearch) repeats(t *engine.Turn) bool {
	if ss.hist == nil || t.StartHash() != ss.root {
		return false
	}
	end := t.End()
	return ss.hist.Count(&end) >= 2
}

// legal reports whether m, a move from the table, is legal at t.
func (ss *stepSearch) legal(t *engine.Turn, m abMove) bool {
	if m.pass {
		return t.Used > 0 && t.CanEnd() == nil && !ss.repeats(t)
	}
	return t.CheckStep(m.step) == nil
}

// isCapture reports whether the step st from t captures a piece.
func isCapture(t *engine.Turn, st engine.Step) bool {
	c := *t
	return c.Play(st).Piece != engine.NoPiece
}

// order sorts steps for the search at ply: captures of enemy pieces first,
// then the killers, then by history.
func (ss *stepSearch) order(t *engine.Turn, steps []engine.Step, ply int) {
	score := ss.scores[ply][:0]
	for range steps {
		score = append(score, 0)
	}
	ss.scores[ply] = score
	side := t.Pos.Side
	for i, st := range steps {
		var s int32
		c := *t
		if cp := c.Play(st); cp.Piece != engine.NoPiece {
			if cp.Piece.Color() != side {
				s += 1 << 28
			} else {
				s -= 1 << 28
			}
		}
		m := abMove{step: st}
		if m == ss.killers[ply][0] {
			s += 1 << 26
		} else if m == ss.killers[ply][1] {
			s += 1 << 25
		}
		s += min(ss.history[st.Piece][st.From][st.Dir], 1<<24)
		score[i] = s
	}
	// Insertion sort: the lists are short.
	for i := 1; i < len(steps); i++ {
		for j := i; j > 0 && score[j] > score[j-1]; j-- {
			score[j], score[j-1] = score[j-1], score[j]
			steps[j], steps[j-1] = steps[j-1], steps[j]
		}
	}
}

// stepDepth is the step search's deepest iteration: two whole turns.
const stepDepth = 2 * engine.MaxSteps

// stepShare is the percentage of a time budget that the step search gets.
// The tree's share only finds a move to fall back on, should the step
// search find none: 5 % of a second is some thousands of simulations.
const stepShare = 95

// stepPick returns the index in cands of the move the step search chooses;
// cands may grow by one.
func (sr *search) stepPick(cands *[]moveCand, pick int) int {
	s := sr.s
	if s.step == nil {
		s.step = newStepSearch()
	}
	ss := s.step
	ss.w = sr.newWorker()
	ss.hist = sr.hist
	ss.rootMoves = s.cfg.StepMoves
	ss.firstWidth = max(s.cfg.StepWiden, 0)
	ss.tactical = s.cfg.StepLeaf == LeafTactical
	deadline := sr.scanDeadline
	if deadline.IsZero() {
		deadline = time.Now().Add(time.Hour)
	}
	res, ok := ss.run(sr.rootTurn, deadline, stepDepth)
	sr.stepResult = &res
	if !ok || len(res.Steps) == 0 {
		return pick
	}
	turn := sr.rootTurn
	for _, st := range res.Steps {
		if turn.CheckStep(st) != nil {
			return pick
		}
		turn.Play(st)
	}
	if turn.CanEnd() != nil {
		// A line that ends inside a push: the tree's move stands.
		return pick
	}
	end := turn.End()
	for j := range *cands {
		t := sr.rootTurn
		for _, st := range (*cands)[j].steps {
			t.Play(st)
		}
		if e := t.End(); e.SameBoard(&end) {
			return j
		}
	}
	*cands = append(*cands, moveCand{steps: res.Steps, child: -1, q: res.Value})
	return len(*cands) - 1
}

// allows reports whether the root's turn may end at t: always, unless t is
// in the root's turn and its board is not among the boards allowed.
func (ss *stepSearch) allows(t *engine.Turn) bool {
	if ss.allowed == nil || t.StartHash() != ss.root {
		return true
	}
	end := t.End()
	return ss.allowed[end.Hash]
}

// rankEnds leaves in ss.ends the k best moves from p (at the start of its
// turn), best first, by the evaluation of the board at the turn's end, or
// with the tactical leaf by that leaf's value of it (see startValue); equal
// values rank in the generator's order.
func (ss *stepSearch) rankEnds(p *engine.Position, k int) {
	n := ss.gen.Generate(p, ss.hist)
	ss.ends = ss.ends[:0]
	for i := range n {
		ss.q = ss.gen.Position(i)
		ss.ends = append(ss.ends, rootEnd{
			hash:  ss.q.Hash,
			value: -ss.evaluate(&ss.q),
			index: int32(i),
			// A rabbit of p's side in its goal zone: the leaf may see a
			// goal that the opponent cannot stop, a value above the
			// evaluation.
			runner: ss.q.Bits[engine.MakePiece(p.Side, engine.Rabbit)]&goalZone(p.Side) != 0,
		})
	}
	slices.SortStableFunc(ss.ends, compareEnds)
	if ss.tactical {
		ss.tacticalEnds(k)
	}
	ss.ends = ss.ends[:min(k, len(ss.ends))]
}

// compareEnds orders root moves by value, best first, then by the
// generator's order.
func compareEnds(a, b rootEnd) int {
	if c := cmp.Compare(b.value, a.value); c != 0 {
		return c
	}
	return cmp.Compare(a.index, b.index)
}

// tacticalEnds gives the moves of ss.ends, sorted by the evaluation, the
// tactical leaf's values and sorts them by those, keeping only the moves
// that may be among the k best. The leaf's value of a move is at most its
// evaluation (the opponent's leaf is at least its evaluation), but for a
// goal the opponent cannot stop, which needs a runner: so once the k-th best
// leaf value is above the next move's evaluation, the moves from there on
// without a runner cannot enter the k best and are not judged. The k best are
// those of judging every move, with the goal defence's budget aside (spent
// on fewer moves, it lasts longer).
func (ss *stepSearch) tacticalEnds(k int) {
	ss.top = ss.top[:0] // the k best leaf values so far, ascending
	judge := func(e *rootEnd) {
		ss.q = ss.gen.Position(int(e.index))
		ss.qt = engine.NewTurn(ss.q)
		e.value = -ss.startValue(&ss.qt, 3)
		if len(ss.top) == k && e.value <= ss.top[0] {
			return
		}
		i, _ := slices.BinarySearch(ss.top, e.value)
		ss.top = slices.Insert(ss.top, i, e.value)
		if len(ss.top) > k {
			ss.top = slices.Delete(ss.top, 0, 1)
		}
	}
	kept := ss.ends[:0]
	for i := range ss.ends {
		e := ss.ends[i]
		if len(ss.top) == k && e.value < ss.top[0] && !e.runner {
			// Its leaf value is below the k-th best too.
			continue
		}
		judge(&e)
		kept = append(kept, e)
	}
	ss.ends = kept
	slices.SortFunc(ss.ends, compareEnds)
}
