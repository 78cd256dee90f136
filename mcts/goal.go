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
	// full turns off the cut of goalRegion (tests compare the two).
	full bool
	// limit, when positive, is the most steps a sequence may take.
	limit int
	// nodes counts the states searched, over all calls.
	nodes int
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
// sequence that does it with the fewest steps: searched with one step, then
// two, and so on, so that the move played and recorded wastes none (a
// shortest way to the goal is also the shortest way to the board it leaves).
func (g *goalSearch) find(t *engine.Turn) ([]engine.Step, bool) {
	defer func() { g.limit = 0 }()
	for g.limit = 1; g.limit <= t.StepsLeft(); g.limit++ {
		if n, ok := g.rec(t, 0); ok {
			return append([]engine.Step(nil), g.path[:n]...), true
		}
	}
	return nil, false
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

// goalRegion returns the squares where a step can help one of the rabbits
// of colour c in r reach the goal in left steps when the nearest of them is
// left-1 ranks away, with one step to spare: the squares those rabbits could
// stand on (their file and the files beside it, from their rank to the goal:
// left-1 steps forward and one aside) and the squares beside them.
//
// Why nothing else helps: a sequence that reaches the goal is a rabbit's own
// steps forward and at most one other step X (a push or a pull takes two
// steps, so the opponent's pieces cannot move, and the rabbits left ranks
// away have no step to spare at all; the one exception is the second half of
// a pull that the step before began, which moves an opponent's piece in one
// step). X is needed only to empty a square the rabbit enters (X starts
// there, or X unguards a piece of its own on a trap there, which is
// captured: X starts beside that trap), to unfreeze it or
// guard it on a trap it crosses (X ends beside a square it stands on), or to
// step the rabbit aside (X starts on its square). A step that starts and
// ends elsewhere changes none of those squares or their neighbours, except
// by capturing a piece of its own on a trap beside them, which never helps;
// so the sequence without it reaches the goal too, and starts with a step
// that the search tries. TestGoalRegionExact checks this against the search
// without the cut.
func goalRegion(r engine.Bitboard, c engine.Color, left int) engine.Bitboard {
	far := uint(8 * max(0, 7-left)) // the ranks more than left from the goal, in bits
	var x engine.Bitboard
	if c == engine.Silver {
		x = r & (^engine.Bitboard(0) >> far)
		x |= x >> 8 // filled towards the goal
		x |= x >> 16
		x |= x >> 32
	} else {
		x = r & (^engine.Bitboard(0) << far)
		x |= x << 8
		x |= x << 16
		x |= x << 32
	}
	x |= x.East() | x.West()
	return x | x.Neighbors()
}

func (g *goalSearch) rec(t *engine.Turn, depth int) (int, bool) {
	g.nodes++
	c := t.Pos.Side
	rabbit := engine.MakePiece(c, engine.Rabbit)
	rabbits := t.Pos.Bits[rabbit]
	left := t.StepsLeft()
	if g.limit > 0 {
		left = min(left, g.limit-depth)
	}
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
	// One step to spare: only a step of the side's own that starts or ends
	// beside a square its rabbits could cross can help (see goalRegion).
	spare := d == left-1 && !t.PushPending() && !g.full
	var region engine.Bitboard
	pull := engine.NoSquare
	if spare {
		region = goalRegion(rabbits, c, left)
		pull, _ = t.Pull()
	}
	for _, s := range steps {
		// The opponent's pieces move only as the second half of a pull
		// begun by the step before: a push would take two steps.
		if spare && (s.Piece.Color() != c && s.To() != pull || !region.Has(s.From) && !region.Has(s.To())) {
			continue
		}
		*next = *t
		next.Play(s)
		g.path[depth] = s
		if n, ok := g.rec(next, depth+1); ok {
			return n, true
		}
	}
	return 0, false
}
