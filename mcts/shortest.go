package mcts

import "github.com/arimaalab/arimaalab/engine"

// minSteps returns a lower bound on the steps of a turn that changes the
// board from into the board to. Each step moves one piece one square, so the
// pieces of one kind (colour and type) that end on squares where that kind
// was not (added squares) took at least as many steps as the cheapest
// assignment of those squares to squares that the kind left (removed
// squares), at the Manhattan distance between them: follow a piece on an
// added square back to where it started; if another piece of its kind ended
// there, follow that one, and so on until a removed square, each chain at
// least as long as the distance between its ends by the triangle inequality,
// the chains of different added squares distinct. Captured pieces only add
// steps. shortest uses it to skip the moves that cannot be written shorter.
func minSteps(from, to *[12]engine.Bitboard) int {
	total := 0
	for k := range from {
		add := to[k] &^ from[k]
		if add == 0 {
			continue
		}
		rem := from[k] &^ to[k]
		if add.Count() > 4 || rem.Count() > 8 || add.Count() > rem.Count() {
			// Not a turn's change: each added square took a step at least.
			total += add.Count()
			continue
		}
		var as, rs [8]engine.Square
		na, nr := 0, 0
		for b := add; b != 0; b &= b - 1 {
			as[na] = b.First()
			na++
		}
		for b := rem; b != 0; b &= b - 1 {
			rs[nr] = b.First()
			nr++
		}
		total += assign(as[:na], rs[:nr], 0)
	}
	return total
}

// assign returns the least sum of distances from each square of as to a
// distinct square of rs, whose squares already taken are the bits of used.
func assign(as, rs []engine.Square, used uint) int {
	if len(as) == 0 {
		return 0
	}
	best := 1 << 30
	for j, r := range rs {
		if used>>j&1 != 0 {
			continue
		}
		if d := as[0].Distance(r); d < best {
			best = min(best, d+assign(as[1:], rs, used|1<<j))
		}
	}
	return best
}

// fewest returns the fewest steps, fewer than n, of a legal turn from pos
// that ends with the board to, or n when there is none. It searches depth
// first with a growing limit, cut where the steps taken and minSteps to the
// board exceed the limit, so that it walks few lines: none at all when
// minSteps already shows that n steps are needed.
func fewest(pos *engine.Position, to *[12]engine.Bitboard, n int) int {
	var f fewestSearch
	for limit := max(minSteps(&pos.Bits, to), 1); limit < n; limit++ {
		f.turns[0] = engine.NewTurn(*pos)
		if f.rec(&f.turns[0], to, limit) {
			return limit
		}
	}
	return n
}

// fewestSearch holds the turns and step lists of fewest's search, one per
// depth.
type fewestSearch struct {
	turns [engine.MaxSteps + 1]engine.Turn
	bufs  [engine.MaxSteps][]engine.Step
}

// rec reports whether a turn of at most limit steps from t (of limit steps in
// all) ends with the board to.
func (f *fewestSearch) rec(t *engine.Turn, to *[12]engine.Bitboard, limit int) bool {
	if t.Pos.Bits == *to && t.CanEnd() == nil {
		return true
	}
	if int(t.Used) >= limit {
		return false
	}
	d := t.Used
	f.bufs[d] = t.LegalSteps(f.bufs[d][:0])
	next := &f.turns[d+1]
	for _, st := range f.bufs[d] {
		*next = *t
		next.Play(st)
		if int(next.Used)+minSteps(&next.Pos.Bits, to) > limit {
			continue
		}
		if f.rec(next, to, limit) {
			return true
		}
	}
	return false
}
