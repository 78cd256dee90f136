package mcts

import "github.com/arimaalab/arimaalab/engine"

// captureValue is the material value of each piece type in rabbits, used to
// choose between capture lines (the evaluation then judges the position the best
// line reaches).
var captureValue = [engine.NumTypes]int8{engine.Rabbit: 2, engine.Cat: 3, engine.Dog: 4, engine.Horse: 7, engine.Camel: 13, engine.Elephant: 20}

// captureSearch finds, exactly, the capture line that wins the most material
// for the side to move in the steps it has left: it walks the legal step
// sequences (in the last two steps of a line only the steps that can still
// capture, see rec), cut by a lower bound on the steps any capture still
// needs and by the material the captures still in reach could win (see
// captureReach). It is the tactical part of the leaf evaluation: a position
// whose side to move can capture a piece this turn is judged after the
// capture.
type captureSearch struct {
	bufs     [engine.MaxSteps + 1][]engine.Step
	turns    [engine.MaxSteps + 1]engine.Turn
	best     int
	bestTurn engine.Turn
	nodes    int
	limit    int8 // the steps used at which the line must stop
	// extra is how many steps more than the bound a line may take: 1 in the
	// tree, where the search must be cheap, every step left in the scan.
	extra int
	// seen holds the states (see captureKey) searched in the current pass,
	// tagged with the pass's epoch: many step orders reach one state (two
	// independent steps in either order), and a state's subtree is the same
	// whichever way it was reached, so it is searched once. Direct-mapped:
	// a state pushed out is only searched again. nil searches without it.
	seen  []seenEntry
	epoch uint32
	// noGainCut turns off the cut of subtrees that cannot beat the best line
	// so far (see rec); tests compare the two.
	noGainCut bool
	// allSteps walks every legal step in the last two steps of a line too,
	// not only those that may capture (see rec); tests compare the two.
	allSteps bool
}

// seenEntry is a slot of captureSearch.seen.
type seenEntry struct {
	key   uint64
	epoch uint32
}

// seenBits is the log2 of the slots of captureSearch.seen: 4,096 slots, more
// than the states of nearly every exhaustive search.
const seenBits = 12

// captureKey is a hash of the state of t that decides what a capture search
// finds from it: the board (with the side to move), the steps used, and a
// push or pull under way. Within one search from one turn start, the net
// material captured so far is a function of the board, so two lines that
// reach one key reach the same gains after it.
func captureKey(t *engine.Turn) uint64 {
	return t.Pos.Hash ^ (uint64(t.StateKey())+1)*0x9e3779b97f4a7c15
}

func newCaptureSearch() *captureSearch {
	c := &captureSearch{extra: 1, seen: make([]seenEntry, 1<<seenBits)}
	for i := range c.bufs {
		c.bufs[i] = make([]engine.Step, 0, 128)
	}
	return c
}

// find returns the net material (in captureValue units) that t's side can win
// with the steps it has left, and the turn after the best capture line found;
// gain 0 means it found none. With extra 1 (the tree's setting) it looks for
// the shortest captures only: first the lines of exactly as many steps as the
// bound says a capture needs, every step bringing a capture nearer, then the
// lines of one step more. A capture that needs two idle steps, or a second
// capture after the first, may then be missed. With extra engine.MaxSteps (the
// scan's) it walks every line of the steps left, still cut by the bound. A
// gain it reports is always real.
func (c *captureSearch) find(t *engine.Turn) (gain int, after *engine.Turn) {
	c.best = 0
	c.nodes = 0
	left := t.StepsLeft()
	b := captureBound(&t.Pos, t.Pos.Side)
	if b > left {
		return 0, nil
	}
	c.turns[0] = *t
	if c.extra >= engine.MaxSteps {
		// Every line of the steps left, in one pass.
		c.limit = int8(left) + t.Used
		c.pass()
	}
	for limit := b; limit <= min(left, b+c.extra) && c.best == 0 && c.extra < engine.MaxSteps; limit++ {
		c.limit = int8(limit) + t.Used
		c.pass()
	}
	if c.best <= 0 {
		return 0, nil
	}
	return c.best, &c.bestTurn
}

// pass searches every line from c.turns[0] up to c.limit steps, with a
// table of states seen of its own.
func (c *captureSearch) pass() {
	c.epoch++
	if c.epoch == 0 { // wrapped round: old tags could match again
		clear(c.seen)
		c.epoch = 1
	}
	c.rec(0, 0)
}

func (c *captureSearch) rec(depth, gain int) {
	c.nodes++
	t := &c.turns[depth]
	if gain > c.best && !t.PushPending() {
		c.best = gain
		c.bestTurn = *t
	}
	left := int(c.limit - t.Used)
	// A push under way must be finished. Nor is the bound applied while a pull
	// may follow the step just taken: the bound charges a victim's first step
	// with a stronger piece's approach and two steps, where the pull's second
	// half costs one step and no approach (an elephant steps onto its own trap
	// and pulls the camel beside it after, then steps off and pulls it in).
	if left <= 0 {
		return
	}
	// One step captures nothing but the second half of a push or a pull:
	// the opponent's pieces on traps keep their guards while only the
	// side's own pieces move (every capture bound is two steps or more).
	if left == 1 && !t.PushPending() && !c.pullPossible(t) {
		return
	}
	if depth > 0 && c.seen != nil {
		k := captureKey(t)
		e := &c.seen[k>>(64-seenBits)]
		if e.key == k && e.epoch == c.epoch {
			return
		}
		*e = seenEntry{k, c.epoch}
	}
	// Nor can a line gain more than the enemy pieces the bound lets it reach
	// (one capture needs an enemy step, and an enemy step is half of a push
	// or pull: one capture in two or three steps, two in four): a subtree
	// that cannot beat the best line so far is not walked. Only a strictly
	// better line replaces the best, so the line found is the same.
	if !t.PushPending() && !c.pullPossible(t) {
		b, victims := captureReach(&t.Pos, t.Pos.Side, left)
		if b > left || !c.noGainCut && gain+reachableGain(&t.Pos, victims, left) <= c.best {
			return
		}
	}
	// With two steps left, only a step that moves an enemy piece or may be
	// followed by one can start a capture (an enemy piece falls only when an
	// enemy piece moves); with one left, only a push's or pull's second half.
	// The other steps' lines end at the shortcut above with no more material.
	var steps []engine.Step
	switch buf := c.bufs[depth][:0]; {
	case c.allSteps || left > 2 || t.PushPending():
		steps = t.LegalSteps(buf)
	case left == 2:
		steps = t.ForcingSteps(buf)
	default:
		steps = t.PullSteps(buf)
	}
	side := t.Pos.Side
	c.bufs[depth] = steps
	next := &c.turns[depth+1]
	for _, s := range steps {
		*next = *t
		g := gain
		if cp := next.Play(s); cp.Piece != engine.NoPiece {
			v := int(captureValue[cp.Piece.Type()])
			if cp.Piece.Color() == side {
				g -= v
			} else {
				g += v
			}
		}
		c.rec(depth+1, g)
	}
}

// pullPossible reports whether the step just taken in t may be followed by
// the second half of a pull: a weaker enemy piece stands beside the square the
// puller left.
func (c *captureSearch) pullPossible(t *engine.Turn) bool {
	sq, pt := t.Pull()
	if sq == engine.NoSquare || pt == engine.Rabbit {
		return false
	}
	e := int(t.Pos.Side.Other()) * engine.NumTypes
	var weaker engine.Bitboard
	for k := range int(pt) {
		weaker |= t.Pos.Bits[e+k]
	}
	return weaker&sq.Bit().Neighbors() != 0
}

// captureBound returns a lower bound on the steps side needs to capture an enemy
// piece, or more than engine.MaxSteps when none can be captured in one turn
// (see captureReach).
func captureBound(p *engine.Position, side engine.Color) int {
	b, _ := captureReach(p, side, engine.MaxSteps)
	return b
}

// captureReach returns a lower bound on the steps side needs to capture an
// enemy piece, or more than limit when none can be captured within limit
// steps, and the enemy pieces that each might be captured within limit steps
// (every other one needs more).
//
// Every enemy step is half of a push or pull, so it costs two steps. An enemy
// piece on a trap falls when its g guards (the enemy pieces beside the trap)
// are pushed or pulled away: 2g steps, plus the fewest steps a stronger
// friendly piece needs to stand beside one of them. To capture
// victim v on trap T, v makes one step per square between it and T, and every
// other enemy piece beside T (a guard) must be pushed or pulled away: 2d+2g
// steps. Before v's first step a stronger friendly piece must stand beside it; the
// approach walks of that piece may double as the friendly halves of the guards'
// removals, so the bound adds the larger of the two: 2d + g + max(g, approach).
func captureReach(p *engine.Position, side engine.Color, limit int) (int, engine.Bitboard) {
	none := limit + 1
	e := side.Other()
	ebase := int(e) * engine.NumTypes
	fbase := int(side) * engine.NumTypes
	// stronger[t] holds the friendly pieces stronger than type t.
	var stronger [engine.NumTypes]engine.Bitboard
	for t := engine.NumTypes - 2; t >= 0; t-- {
		stronger[t] = stronger[t+1] | p.Bits[fbase+t+1]
	}
	best := none
	var victims engine.Bitboard
	for traps := engine.Traps; traps != 0; traps &= traps - 1 {
		tb := traps & -traps
		nb := tb.Neighbors()
		guards := p.Occ[e] & nb
		g := guards.Count()
		if p.Occ[e]&tb != 0 {
			// A piece on the trap falls when its last guard is pushed or
			// pulled away: two steps a guard, and before the first a
			// stronger friendly piece must walk up to one of them. A guard
			// that none can reach in time (an elephant, for one) holds it.
			if 2*g > limit {
				continue
			}
			a := -1
			for gs := guards; gs != 0; gs &= gs - 1 {
				gb := gs & -gs
				x := approach(gb, stronger[typeOn(p, ebase, gb)], limit-2*g)
				if x < 0 {
					a = -1
					break
				}
				if a < 0 || x < a {
					a = x
				}
			}
			if a >= 0 {
				best = min(best, 2*g+a)
				victims |= tb
			}
			continue
		}
		// Victims beside the trap (each one also a guard of the others) and two
		// squares from it (only with no guard at all).
		cands := guards
		if g == 0 {
			cands = p.Occ[e] & (nb.Neighbors() &^ nb &^ tb)
		}
		for ; cands != 0; cands &= cands - 1 {
			vb := cands & -cands
			d, others := 1, g-1
			if nb&vb == 0 {
				d, others = 2, g
			}
			if 2*d+2*others > limit {
				continue
			}
			t := typeOn(p, ebase, vb)
			a := approach(vb, stronger[t], limit)
			if a < 0 {
				continue
			}
			if s := 2*d + others + max(others, a); s <= limit {
				best = min(best, s)
				victims |= vb
			}
		}
	}
	return best, victims
}

// reachableGain bounds the material (in captureValue units) that captures
// of victims can win in left steps with no push or pull under way: the most
// valuable victim, and with four steps (room for two captures) the next one
// too.
func reachableGain(p *engine.Position, victims engine.Bitboard, left int) int {
	captures := left / 2
	gain := 0
	for t := engine.NumTypes - 1; t >= 0 && captures > 0; t-- {
		n := victims & (p.Bits[t] | p.Bits[engine.NumTypes+t])
		for ; n != 0 && captures > 0; n &= n - 1 {
			gain += int(captureValue[t])
			captures--
		}
	}
	return gain
}

// typeOn returns the type of the piece of the colour whose bitboards start at
// base that stands on the single square b.
func typeOn(p *engine.Position, base int, b engine.Bitboard) int {
	for t := range engine.NumTypes {
		if p.Bits[base+t]&b != 0 {
			return t
		}
	}
	return 0
}

// approach returns the fewest steps a piece of attackers needs to stand beside
// the square b (0 when one already does), or -1 when none can within limit.
func approach(b, attackers engine.Bitboard, limit int) int {
	if attackers == 0 {
		return -1
	}
	ring := b.Neighbors()
	for k := 0; k <= limit; k++ {
		if ring&attackers != 0 {
			return k
		}
		ring |= ring.Neighbors()
	}
	return -1
}

// CaptureLeaf finds the position a tactical leaf is valued at: the position
// after the side to move's most profitable capture line this turn (the
// scan's exhaustive capture search), or the position itself when it has
// none. The search values such a position by the better of the two by its
// evaluation, nearly always the one after the capture; a trainer that fits
// the evaluation to a judge's comparisons of positions (train -pairs) takes
// the features there, where the search reads them. A CaptureLeaf is not
// safe for concurrent use.
type CaptureLeaf struct {
	cs *captureSearch
}

// NewCaptureLeaf returns a CaptureLeaf.
func NewCaptureLeaf() *CaptureLeaf {
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	return &CaptureLeaf{cs: cs}
}

// Leaf returns the position after the best capture line of p's side to move
// this turn (its side still to move, the turn not ended), or p when it has
// none. p must be at the start of a turn.
func (c *CaptureLeaf) Leaf(p *engine.Position) engine.Position {
	t := engine.NewTurn(*p)
	if gain, after := c.cs.find(&t); gain > 0 {
		return after.Pos
	}
	return *p
}

// LeafOK returns Leaf(p) and true: the capture line decides no position's
// value, so every position keeps its row. It has the form of the leaf
// functions of the comparison fit (train.LeafFunc).
func (c *CaptureLeaf) LeafOK(p *engine.Position) (engine.Position, bool) {
	return c.Leaf(p), true
}
