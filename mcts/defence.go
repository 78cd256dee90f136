package mcts

import (
	"github.com/arimaalab/arimaalab/engine"
)

// goalDefence finds whether the side to move can stop a goal that its
// opponent threatens: whether some move of its turn leaves a position from
// which the opponent cannot reach its goal on the next turn.
//
// A move stops the goal only if it changes the board where every way to the
// goal found so far is decided (see lineSquares): a line whose squares the
// move left alone can still be played. So the walk of the side's step
// sequences tries only steps that can still reach those squares in the steps
// left (a step farther away, or one that makes way for a piece farther away,
// cannot change them in time), and tests with the goal search only the ends
// that change the squares of every line. An end that fails by a way to the
// goal reaching beyond the squares walked shows a new line; the walk then
// starts again with the wider squares. When a walk finds no defence and no new
// line, none exists.
//
// The deep scan asks it of the replies that threaten a goal (see
// worker.goalWon): a reply whose goal the mover cannot stop wins, though it
// captures nothing and the evaluation may think little of it (a rabbit
// stepped onto the seventh rank beside a piece that will be pulled off the
// goal square).
type goalDefence struct {
	bufs  [engine.MaxSteps + 1][]engine.Step
	turns [engine.MaxSteps + 1]engine.Turn
	goal  *goalSearch
	start engine.Position
	// lines holds, for each goal line found, the squares that decide
	// whether it can be played (see lineSquares), and origins the
	// position it was found in: the line can be played from any end that
	// holds the same pieces on those squares.
	lines   []engine.Bitboard
	origins []engine.Position
	// near[k] holds the squares within k steps of the lines' squares.
	near [engine.MaxSteps + 1]engine.Bitboard
	// seen holds the states walked in the current walk, as in captureSearch.
	seen  []seenEntry
	epoch uint32
	// states and searches count the states walked and the goal searches of
	// the current call; past defenceStates or defenceSearches it gives up,
	// and the threat is taken as stopped.
	states, searches int
	// gaveUp is set when the current call went past a bound.
	gaveUp bool
	// nodes is the goal search's count of states where the current call
	// ends, past which it gives up.
	nodes int
	// parry is the end of the mover's turn that stopped the goal, when the
	// current call found one by its walk (found is then set): not when the
	// mover's own goal came first, no goal was threatened, or it gave up.
	parry engine.Position
	found bool
}

// The bounds of one call of parries: a turn has some tens of thousands of
// states, and its goal searches together some thousands or a few hundred
// thousand states of their own (about 0.1 microsecond each; most threats
// are decided in a few thousand). Past any of them the threat is taken as
// stopped, which is what the deep scan assumed before it looked.
//
// The threats that decide games are dearer: before the bot's last move in
// 109 games lost to Sharp's goal (testdata/goalthreats-last.txt), bounds of
// 16 lines, 2^16 states, 4,096 goal searches and 2^16 of their states gave
// up in 49 (43 of them had no defence); these give up in 11, taking 2.7 s
// for the 109 where the old took 2.1 s, the slowest 0.38 s (0.14 s), on the
// 2-core machine beside two games (docs/strength.md, the thirtieth round).
const (
	defenceStates   = 1 << 18
	defenceSearches = 1 << 14
	defenceNodes    = 1 << 20
)

// defenceSeenBits is the log2 of the slots of goalDefence.seen: more than
// the states of a turn.
const defenceSeenBits = 17

// defenceLines bounds the goal lines kept, and so the walks of one call.
// A line's squares found at two ends that differ on them are two lines (see
// known); at 16, most of the give-ups on testdata/goalthreats-last.txt came
// from this bound.
const defenceLines = 64

// The results of a walk.
const (
	walkNone    = iota // no defence among the steps tried
	walkParried        // a defence found, or the walk gave up
	walkWider          // a new line found: walk again
)

func newGoalDefence() *goalDefence {
	d := &goalDefence{goal: newGoalSearch(), seen: make([]seenEntry, 1<<defenceSeenBits)}
	for i := range d.bufs {
		d.bufs[i] = make([]engine.Step, 0, 128)
	}
	return d
}

// parries reports whether the side to move at q, the start of its turn, has
// a move after which its opponent cannot reach the goal on its own turn:
// true when the side can reach its own goal first, when the opponent
// threatens no goal at q, or when the search gives up. A move that ends the
// game in the side's favour parries; one that loses it does not. History is
// not considered: a move that would repeat a position a third time counts
// as a move.
func (d *goalDefence) parries(q *engine.Position) bool {
	d.states, d.searches, d.gaveUp, d.found = 0, 0, false, false
	d.nodes = d.goal.nodes + defenceNodes
	if own := engine.NewTurn(*q); d.goal.reachable(&own) {
		// The side's own goal comes first; the walk, kept near the
		// opponent's ways to the goal, would not look for it.
		return true
	}
	p := *q
	p.SetSide(q.Side.Other())
	t := engine.NewTurn(p)
	line, ok := d.goal.find(&t)
	if !ok {
		return true
	}
	d.lines = append(d.lines[:0], lineSquares(line))
	d.origins = append(d.origins[:0], *q)
	d.start = *q
	for {
		d.spread()
		d.epoch++
		if d.epoch == 0 {
			clear(d.seen)
			d.epoch = 1
		}
		d.turns[0] = engine.NewTurn(*q)
		switch d.walk(0) {
		case walkNone:
			return false
		case walkParried:
			return true
		}
	}
}

// spread sets near from lines.
func (d *goalDefence) spread() {
	var r engine.Bitboard
	for _, l := range d.lines {
		r |= l
	}
	d.near[0] = r
	for k := 1; k < len(d.near); k++ {
		d.near[k] = d.near[k-1] | d.near[k-1].Neighbors()
	}
}

// walk searches the step sequences from d.turns[depth] for a defence (see
// stops), each state once, and returns what it found (walkNone, walkParried
// or walkWider).
func (d *goalDefence) walk(depth int) int {
	t := &d.turns[depth]
	if depth > 0 {
		d.states++
		if d.states > defenceStates {
			d.gaveUp = true
			return walkParried
		}
		k := captureKey(t)
		e := &d.seen[k>>(64-defenceSeenBits)]
		if e.key == k && e.epoch == d.epoch {
			return walkNone
		}
		*e = seenEntry{k, d.epoch}
		if !t.PushPending() && t.CanEnd() == nil {
			if r := d.stops(t); r != walkNone {
				return r
			}
		}
	}
	left := t.StepsLeft()
	if left == 0 {
		return walkNone
	}
	steps := t.LegalSteps(d.bufs[depth][:0])
	d.bufs[depth] = steps
	next := &d.turns[depth+1]
	reach := d.near[left]
	for _, s := range steps {
		// A step must start within reach of the lines' squares: the steps
		// left after it carry its effect one square each, and a piece that
		// ends beside a frozen friend one square more, for the friend may
		// then step (a camel walking three steps to the square beside a
		// horse frozen on the lines' squares, which then steps onto the
		// goal square; until the thirtieth round the walk left that one
		// square out and called such threats unstoppable). A chain of
		// frozen friends, each freed by the one before, could carry an
		// effect farther; the walk does not follow it (TestGoalDefence
		// finds none in the positions of its files). A push under way is
		// finished whatever it reaches.
		if !t.PushPending() && !reach.Has(s.From) {
			continue
		}
		*next = *t
		next.Play(s)
		if r := d.walk(depth + 1); r != walkNone {
			return r
		}
	}
	return walkNone
}

// stops tests ending the turn t: walkParried when the game then ends in the
// defender's favour or the opponent has no way to its goal, walkWider when
// the goal search's way reaches beyond the squares walked, walkNone
// otherwise. A way within them needs no new walk: the steps not tried
// cannot change those squares, so no move stops it that the walk misses. An end that
// leaves some known line's squares as they were where the line was found
// is no defence, untested.
func (d *goalDefence) stops(t *engine.Turn) int {
	end := t.End()
	for i, r := range d.lines {
		if unchangedOn(&d.origins[i], &end, r) {
			return walkNone
		}
	}
	if out := engine.EndOfTurn(&end, nil, nil); out.Over() {
		if out.Winner == d.start.Side {
			d.parry, d.found = end, true
			return walkParried
		}
		return walkNone
	}
	d.searches++
	if d.searches > defenceSearches || d.goal.nodes > d.nodes {
		d.gaveUp = true
		return walkParried
	}
	nt := engine.NewTurn(end)
	line, ok := d.goal.find(&nt)
	if !ok {
		d.parry, d.found = end, true
		return walkParried
	}
	r := lineSquares(line)
	if r&^d.near[0] == 0 {
		// Within the squares walked: a sharper test of the ends to come.
		if len(d.lines) < defenceLines && !d.known(r, &end) {
			d.lines = append(d.lines, r)
			d.origins = append(d.origins, end)
		}
		return walkNone
	}
	if len(d.lines) == defenceLines {
		d.gaveUp = true
		return walkParried
	}
	d.lines = append(d.lines, r)
	d.origins = append(d.origins, end)
	return walkWider
}

// known reports whether a line with the squares r, found at end, is one
// the call holds already: the same squares, found where they held the
// same pieces.
func (d *goalDefence) known(r engine.Bitboard, end *engine.Position) bool {
	for i, l := range d.lines {
		if l == r && unchangedOn(&d.origins[i], end, r) {
			return true
		}
	}
	return false
}

// lineSquares returns the squares that decide whether line can be played:
// those its steps start or end on, their neighbours (which freeze, unfreeze
// and guard the pieces on them and on the traps beside them), and the
// neighbours of those traps (the other guards).
func lineSquares(line []engine.Step) engine.Bitboard {
	var b engine.Bitboard
	for _, s := range line {
		b |= s.From.Bit() | s.To().Bit()
	}
	b |= b.Neighbors()
	return b | (b & engine.Traps).Neighbors()
}

// unchangedOn reports whether p and q hold the same pieces on the squares of r.
func unchangedOn(p, q *engine.Position, r engine.Bitboard) bool {
	for i := range p.Bits {
		if (p.Bits[i]^q.Bits[i])&r != 0 {
			return false
		}
	}
	return true
}
