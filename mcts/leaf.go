package mcts

import "github.com/arimaalab/arimaalab/engine"

// leafValue returns the value of a newly expanded node for its side to move,
// and whether that value is exact (the game ends with the turn, or the
// opponent reaches its goal in the next one).
//
// With tactical leaves (the default) a node inside a turn is judged as if its
// side ended the turn there, or after the capture line this turn that wins it
// the most, whichever is better; a position after a turn is judged from the
// opponent's side at the start of its turn: lost when the opponent can reach
// its goal, otherwise after the opponent's best capture line. A node at the
// start of a turn is judged after its side's best capture line. So the values
// inside a turn see the replies that lose material or the game at once, which
// the board alone does not show. With static leaves the value is the
// evaluation of the board alone.
func (w *worker) leafValue(turn *engine.Turn) (value float32, proven bool) {
	if w.sr.s.cfg.Leaf == LeafStatic {
		return w.sr.s.eval.Evaluate(&turn.Pos), false
	}
	if turn.Used == 0 || turn.CanEnd() != nil {
		return w.quiesce(turn), false
	}
	v, exact := w.endValue(turn)
	if exact && v > 0 || turn.StepsLeft() == 0 {
		return v, exact
	}
	// Steps are left: the side may also capture before it ends the turn.
	if gain, after := w.capture.find(turn); gain > 0 && after.CanEnd() == nil {
		end := *after
		if va, _ := w.endValue(&end); va > v {
			v = va
		}
	}
	return v, false
}

// endValue returns the value, for t's side, of ending the turn at t: exact
// when the game ends or the opponent then reaches its goal.
func (w *worker) endValue(t *engine.Turn) (float32, bool) {
	// The next turn lives in the worker: the evaluation, an interface,
	// would make a local one escape to the heap on every call.
	next := &w.next
	*next = engine.NewTurn(t.End())
	var v float32
	if w.gameOver(next, &v) {
		return -v, true
	}
	if w.goal.reachable(next) {
		return -1, true
	}
	return -w.quiesce(next), false
}

// quiesce returns the better of the static value of t and its value after the
// side to move's most profitable capture line this turn. At a turn start it
// is a function of the position, kept in the goal cache.
func (w *worker) quiesce(t *engine.Turn) float32 {
	c := w.goal.cache
	if c == nil || t.Used != 0 {
		return w.quiesceWith(t, w.capture)
	}
	if v, ok := c.quietOf(&t.Pos); ok {
		return v
	}
	v := w.quiesceWith(t, w.capture)
	c.setQuiet(&t.Pos, v)
	return v
}

// quiesceWith is quiesce with the capture search cs.
func (w *worker) quiesceWith(t *engine.Turn, cs *captureSearch) float32 {
	ev := w.sr.s.eval
	v := ev.Evaluate(&t.Pos)
	if gain, after := cs.find(t); gain > 0 {
		v = max(v, ev.Evaluate(&after.Pos))
	}
	return v
}
