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
		if d := distance(as[0], r); d < best {
			best = min(best, d+assign(as[1:], rs, used|1<<j))
		}
	}
	return best
}

// distance returns the Manhattan distance between two squares.
func distance(a, b engine.Square) int {
	df := int(a%8) - int(b%8)
	dr := int(a/8) - int(b/8)
	return max(df, -df) + max(dr, -dr)
}

// shorter reports whether a legal turn of fewer than n steps from pos ends
// with the board to. It searches depth first, cut where the steps taken and
// minSteps to the board exceed n-1, so that it walks few lines: mostly none
// at all when minSteps already shows that n steps are needed.
func shorter(pos *engine.Position, to *[12]engine.Bitboard, n int) bool {
	if minSteps(&pos.Bits, to) >= n {
		return false
	}
	var bufs [engine.MaxSteps][]engine.Step
	var rec func(t *engine.Turn) bool
	rec = func(t *engine.Turn) bool {
		if t.Pos.Bits == *to && t.CanEnd() == nil {
			return true
		}
		if int(t.Used) >= n-1 {
			return false
		}
		d := t.Used
		bufs[d] = t.LegalSteps(bufs[d][:0])
		for _, st := range bufs[d] {
			next := *t
			next.Play(st)
			if int(next.Used)+minSteps(&next.Pos.Bits, to) > n-1 {
				continue
			}
			if rec(&next) {
				return true
			}
		}
		return false
	}
	t := engine.NewTurn(*pos)
	return rec(&t)
}
