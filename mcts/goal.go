package mcts

import "github.com/arimaalab/arimaalab/engine"

// goalSearch finds, exactly, whether the side to move can end its turn with one of
// its rabbits on the goal rank in the steps it has left, pushing and pulling pieces
// out of the way where that helps. It walks every legal step sequence, cut by a
// bound: a rabbit needs at least as many steps as ranks between it and the goal,
// and when that bound uses up all the steps left, only forward steps of the
// rabbits at that distance are tried.
type goalSearch struct {
	bufs [engine.MaxSteps + 1][]engine.Step
	path [engine.MaxSteps]engine.Step
}

func newGoalSearch() *goalSearch {
	g := &goalSearch{}
	for i := range g.bufs {
		g.bufs[i] = make([]engine.Step, 0, 128)
	}
	return g
}

// rankDistance returns the fewest ranks any rabbit in r must advance to reach
// the goal of colour c, up to limit+1.
func rankDistance(r engine.Bitboard, c engine.Color, limit int) int {
	for k := 0; k <= limit; k++ {
		rank := engine.Rank8 >> (8 * uint(k))
		if c == engine.Silver {
			rank = engine.Rank1 << (8 * uint(k))
		}
		if r&rank != 0 {
			return k
		}
	}
	return limit + 1
}

// find reports whether t's side can reach its goal this turn, and a step
// sequence that does it.
func (g *goalSearch) find(t *engine.Turn) ([]engine.Step, bool) {
	n, ok := g.rec(t, 0)
	if !ok {
		return nil, false
	}
	return append([]engine.Step(nil), g.path[:n]...), true
}

// reachable reports whether t's side can reach its goal this turn.
func (g *goalSearch) reachable(t *engine.Turn) bool {
	_, ok := g.rec(t, 0)
	return ok
}

func (g *goalSearch) rec(t *engine.Turn, depth int) (int, bool) {
	c := t.Pos.Side
	rabbits := t.Pos.Bits[engine.MakePiece(c, engine.Rabbit)]
	left := t.StepsLeft()
	d := rankDistance(rabbits, c, left)
	if d == 0 && t.CanEnd() == nil {
		return depth, true
	}
	if d > left || left == 0 {
		return 0, false
	}
	steps := t.LegalSteps(g.bufs[depth][:0])
	g.bufs[depth] = steps
	forward := engine.North
	if c == engine.Silver {
		forward = engine.South
	}
	for _, s := range steps {
		if d == left && !t.PushPending() {
			// Every step left must carry a rabbit at distance d forward.
			if s.Piece != engine.MakePiece(c, engine.Rabbit) || s.Dir != forward || rankDistance(s.From.Bit(), c, left) != d {
				continue
			}
		}
		next := *t
		next.Play(s)
		g.path[depth] = s
		if n, ok := g.rec(&next, depth+1); ok {
			return n, true
		}
	}
	return 0, false
}
