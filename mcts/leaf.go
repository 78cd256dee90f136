package mcts

import "github.com/arimaalab/arimaalab/engine"

// leafValue returns the value of a newly expanded node for its side to move.
//
// With tactical leaves (the default) a node whose side can still capture this
// turn is judged after the capture line that wins the most material, when that
// is better than standing pat; a node with no step left is judged from the
// opponent's side, at the start of its turn, the same way (and lost when the
// opponent can reach its goal). With static leaves it is the evaluation of the
// board alone.
//
// proven is +1 or -1 when the value is exact: the game ends with the turn, or
// the opponent reaches its goal in the next.
func (w *worker) leafValue(turn *engine.Turn) (value float32, proven bool) {
	if w.sr.s.cfg.Leaf == LeafStatic {
		return w.sr.s.eval.Evaluate(&turn.Pos), false
	}
	if turn.StepsLeft() == 0 && turn.CanEnd() == nil {
		next := engine.NewTurn(turn.End())
		var v float32
		if w.gameOver(&next, &v) {
			return -v, true
		}
		if w.goal.reachable(&next) {
			return -1, true
		}
		return -w.quiesce(&next), false
	}
	return w.quiesce(turn), false
}

// quiesce returns the better of the static value of t and its value after the
// side to move's most profitable capture line this turn.
func (w *worker) quiesce(t *engine.Turn) float32 {
	ev := w.sr.s.eval
	v := ev.Evaluate(&t.Pos)
	if gain, after := w.capture.find(t); gain > 0 {
		v = max(v, ev.Evaluate(&after.Pos))
	}
	return v
}
