package mcts

import "github.com/arimaalab/arimaalab/engine"

// ReplyLeaf finds the position at which the deep scan reads the evaluation
// for a move: from the position after the move, the opponent's best reply
// by a scan of its turn (every reply valued as the deep scan values it: the
// game's end, the goals, the best capture line of the side then to move, the
// evaluation, the threat), then the mover's best capture line. The deep scan
// ranks the moves of a position by the evaluation of these leaves, so a
// trainer that fits the evaluation to a judge's order of those moves (train
// -pairs -pair-reply) takes the features there. The reply found depends on
// the evaluation given. A ReplyLeaf is not safe for concurrent use: make one
// per goroutine.
type ReplyLeaf struct {
	w    *worker
	sc   *turnScan
	leaf *CaptureLeaf
}

// NewReplyLeaf returns a ReplyLeaf whose reply scans value with ev.
func NewReplyLeaf(ev Evaluator) (*ReplyLeaf, error) {
	s, err := New(Config{Visits: 1, Scan: ScanDeep}, ev)
	if err != nil {
		return nil, err
	}
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	return &ReplyLeaf{
		w:    (&search{s: s}).newWorker(),
		sc:   &turnScan{gen: engine.NewMoveGen(), deep: cs, threat: deepThreat},
		leaf: NewCaptureLeaf(),
	}, nil
}

// Reply returns the position after the best reply to p by the deep scan's
// scan of the reply turn, at the start of the mover's next turn: where the
// deep scan's value of the move that led to p comes from, before the mover's
// capture line. p is a position at the start of a turn (the opponent of the
// player who just moved to move). ok is false when the rules, not the
// evaluation, decide p's value: the game is over at p, the side to move has
// no legal move, or the best reply's value is a proven win or loss (it ends
// the game, or the side then to move reaches its goal).
func (r *ReplyLeaf) Reply(p *engine.Position) (reply engine.Position, ok bool) {
	var v float32
	if t := engine.NewTurn(*p); r.w.gameOver(&t, &v) {
		return *p, false
	}
	r.w.defenceLeft = deepDefence
	if !r.w.scan(r.sc, p, nil, deepReplyMargin) || r.sc.bestMove < 0 || r.sc.best <= -1 || r.sc.best >= 1 {
		return *p, false
	}
	return r.sc.gen.Position(r.sc.bestMove), true
}

// Leaf returns the leaf of p, a position at the start of a turn (the
// opponent of the player who just moved to move): the position after its
// best reply (Reply) and the best capture line of the side then to move,
// which is to move in it. ok is false where Reply's is.
func (r *ReplyLeaf) Leaf(p *engine.Position) (leaf engine.Position, ok bool) {
	q, ok := r.Reply(p)
	if !ok {
		return q, false
	}
	return r.leaf.Leaf(&q), true
}
