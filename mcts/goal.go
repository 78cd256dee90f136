package mcts

import "github.com/arimaalab/arimaalab/engine"

// goalSearch finds, exactly, whether the side to move can end its turn with one of
// its rabbits on the goal rank in the steps it has left, pushing and pulling pieces
// out of the way where that helps. It walks every legal step sequence, cut by a
// bound: a rabbit needs at least as many steps as ranks between it and the goal,
// and when that bound uses up all the steps left, only forward steps of the
// rabbits at that distance are tried.
type goalSearch struct {
	bufs  [engine.MaxSteps + 1][]engine.Step
	turns [engine.MaxSteps + 1]engine.Turn
	path  [engine.MaxSteps]engine.Step
	cache *goalCache // nil: none
}

// goalCache remembers whether the side to move at the start of a turn can
// reach its goal, and the turn start's quiescence value (see
// worker.quiesce), for positions met again: the tactical leaves ask both of
// the board after every turn end in the tree, and many nodes end their turn
// on the same board (reached in another number of steps, or from another
// turn start, which the tree keeps apart). A direct-mapped table whose
// entries are checked against the whole position: its answers are exact.
type goalCache struct {
	keys  []engine.BoardKey
	state []uint8 // bits: goalOut, goalIn (at most one), quietKnown; 0 empty
	quiet []float32
	mask  uint64
}

// The bits of goalCache.state.
const (
	goalOut    = 1 // the goal is out of reach
	goalIn     = 2 // the goal is within reach
	quietKnown = 4 // quiet holds the quiescence value
)

// newGoalCache returns a cache of 2^bits positions.
func newGoalCache(bits int) *goalCache {
	n := 1 << bits
	return &goalCache{keys: make([]engine.BoardKey, n), state: make([]uint8, n), quiet: make([]float32, n), mask: uint64(n - 1)}
}

// entry returns the slot of p, emptied first when it holds another position.
func (c *goalCache) entry(p *engine.Position) uint64 {
	i := p.Hash & c.mask
	if k := p.Key(); c.state[i] == 0 || c.keys[i] != k {
		c.keys[i], c.state[i] = k, 0
	}
	return i
}

// clear empties the cache, its memory kept.
func (c *goalCache) clear() { clear(c.state) }

// quietOf returns the quiescence value cached for the turn start p.
func (c *goalCache) quietOf(p *engine.Position) (float32, bool) {
	i := p.Hash & c.mask
	if c.state[i]&quietKnown != 0 && c.keys[i] == p.Key() {
		return c.quiet[i], true
	}
	return 0, false
}

// setQuiet caches v as the quiescence value of the turn start p.
func (c *goalCache) setQuiet(p *engine.Position, v float32) {
	i := c.entry(p)
	c.state[i] |= quietKnown
	c.quiet[i] = v
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
	c := g.cache
	if c == nil || t.Used != 0 { // only turn starts are a function of the position
		_, ok := g.rec(t, 0)
		return ok
	}
	i := t.Pos.Hash & c.mask
	if s := c.state[i]; s&(goalOut|goalIn) != 0 && c.keys[i] == t.Pos.Key() {
		return s&goalIn != 0
	}
	_, ok := g.rec(t, 0)
	i = c.entry(&t.Pos)
	if ok {
		c.state[i] |= goalIn
	} else {
		c.state[i] |= goalOut
	}
	return ok
}

func (g *goalSearch) rec(t *engine.Turn, depth int) (int, bool) {
	c := t.Pos.Side
	rabbit := engine.MakePiece(c, engine.Rabbit)
	rabbits := t.Pos.Bits[rabbit]
	left := t.StepsLeft()
	d := rankDistance(rabbits, c, left)
	if d == 0 && t.CanEnd() == nil {
		return depth, true
	}
	if d > left || left == 0 {
		return 0, false
	}
	forward := engine.North
	if c == engine.Silver {
		forward = engine.South
	}
	next := &g.turns[depth+1]
	if d == left && !t.PushPending() {
		// Every step left must carry a rabbit at distance d forward: try those alone.
		row := engine.Rank8 >> (8 * uint(d))
		if c == engine.Silver {
			row = engine.Rank1 << (8 * uint(d))
		}
		movers := rabbits & row &^ t.Pos.Frozen(c) & t.Pos.Empty().Shift(forward.Opposite())
		for ; movers != 0; movers &= movers - 1 {
			s := engine.Step{Piece: rabbit, From: movers.First(), Dir: forward}
			*next = *t
			next.Play(s)
			g.path[depth] = s
			if n, ok := g.rec(next, depth+1); ok {
				return n, true
			}
		}
		return 0, false
	}
	steps := t.LegalSteps(g.bufs[depth][:0])
	g.bufs[depth] = steps
	for _, s := range steps {
		*next = *t
		next.Play(s)
		g.path[depth] = s
		if n, ok := g.rec(next, depth+1); ok {
			return n, true
		}
	}
	return 0, false
}
