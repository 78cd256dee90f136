package engine

import (
	"errors"
	"fmt"
)

// MaxSteps is the number of steps a turn may hold.
const MaxSteps = 4

// Turn is a position inside a turn: the board, the board the turn started from,
// the steps used, a push that must be completed on the next step, and the square
// the last own step vacated (so that an enemy piece may be pulled into it).
//
// A Turn is a value: copy it to explore alternatives.
type Turn struct {
	Pos       Position
	start     [12]Bitboard
	startHash uint64
	Used      int8
	// pushTo is the square a pusher must step into next, or NoSquare.
	pushTo   Square
	pushType PieceType
	// pullFrom is the square the last own step vacated while a pull may follow, or NoSquare.
	pullFrom Square
	pullType PieceType
}

// NewTurn starts a turn from p for p.Side.
func NewTurn(p Position) Turn {
	return Turn{Pos: p, start: p.Bits, startHash: p.Hash, pushTo: NoSquare, pullFrom: NoSquare}
}

// Start returns the board the turn started from, with its side to move.
func (t *Turn) Start() Position {
	var p Position
	for pc, b := range t.start {
		for ; b != 0; b &= b - 1 {
			p.Put(Piece(pc), b.First())
		}
	}
	p.SetSide(t.Pos.Side)
	return p
}

// PushPending reports whether the last step began a push that the next step must finish.
func (t *Turn) PushPending() bool { return t.pushTo != NoSquare }

// Pull returns the square the last own step vacated and the type of the piece
// that left it, when an enemy piece may now be pulled into it (a weaker one
// beside it), or NoSquare.
func (t *Turn) Pull() (Square, PieceType) { return t.pullFrom, t.pullType }

// StateKey distinguishes positions inside a turn that allow different continuations:
// with the board hash it identifies a node of a step-level search.
func (t *Turn) StateKey() uint32 {
	k := uint32(t.Used)
	if t.pushTo != NoSquare {
		k |= 1<<3 | uint32(t.pushTo)<<4 | uint32(t.pushType)<<10
	}
	if t.pullFrom != NoSquare {
		k |= 1<<13 | uint32(t.pullFrom)<<14 | uint32(t.pullType)<<20
	}
	return k
}

// canStep reports whether a piece of type pt and colour c may step in direction d on its own.
func canStep(pc Piece, d Dir) bool {
	if pc.Type() != Rabbit {
		return true
	}
	if pc.Color() == Gold {
		return d != South
	}
	return d != North
}

// LegalSteps appends every legal next step to buf and returns it.
func (t *Turn) LegalSteps(buf []Step) []Step {
	if t.Used >= MaxSteps {
		return buf
	}
	p := &t.Pos
	c := p.Side
	empty := p.Empty()
	frozen := p.Frozen(c)
	ob := int(c) * NumTypes
	if t.pushTo != NoSquare {
		to := t.pushTo
		for pt := t.pushType + 1; pt < NumTypes; pt++ {
			pc := Piece(ob + int(pt))
			for b := p.Bits[pc] & neighbors[to] &^ frozen; b != 0; b &= b - 1 {
				from := b.First()
				buf = append(buf, Step{pc, from, dirBetween(from, to)})
			}
		}
		return buf
	}
	// Own steps.
	for pt := range PieceType(NumTypes) {
		pc := Piece(ob + int(pt))
		for b := p.Bits[pc] &^ frozen; b != 0; b &= b - 1 {
			from := b.First()
			dst := neighbors[from] & empty
			for d := North; d <= West; d++ {
				if dst&from.Bit().Shift(d) != 0 && canStep(pc, d) {
					buf = append(buf, Step{pc, from, d})
				}
			}
		}
	}
	buf = t.PullSteps(buf)
	if t.Used <= MaxSteps-2 {
		buf = t.pushStarts(buf, empty, frozen)
	}
	return buf
}

// pushStarts appends to buf the enemy steps that start a push, given the
// empty squares and the side's frozen pieces, leaving out those already
// listed as pull completions, and returns it.
func (t *Turn) pushStarts(buf []Step, empty, frozen Bitboard) []Step {
	p := &t.Pos
	c := p.Side
	eb := int(c.Other()) * NumTypes
	canPull := t.pullFrom != NoSquare && t.Used <= MaxSteps-1
	active := p.Occ[c] &^ frozen
	for pt := range PieceType(NumTypes - 1) {
		pc := Piece(eb + int(pt))
		pushers := p.stronger(c, pt) & active
		for b := p.Bits[pc] & pushers.Neighbors(); b != 0; b &= b - 1 {
			from := b.First()
			for d := North; d <= West; d++ {
				to := from.Bit().Shift(d)
				if to&empty == 0 {
					continue
				}
				if canPull && to.First() == t.pullFrom && pt < t.pullType {
					continue // already listed as a pull
				}
				buf = append(buf, Step{pc, from, d})
			}
		}
	}
	return buf
}

// ForcingSteps appends to buf the legal next steps that move an enemy piece
// or may be followed by one that does, in the order of LegalSteps, and
// returns it: every step while a push is under way, the pull completions,
// the push starts, and the own steps of pieces other than rabbits that leave
// a weaker enemy piece beside the square they vacate (a pull may follow).
// An enemy piece is captured only when an enemy piece moves (onto a trap, or
// away from the last guard of one on it), so with two steps left these are
// the only steps that can start a capture.
func (t *Turn) ForcingSteps(buf []Step) []Step {
	if t.Used >= MaxSteps || t.pushTo != NoSquare {
		return t.LegalSteps(buf)
	}
	p := &t.Pos
	c := p.Side
	e := c.Other()
	empty := p.Empty()
	frozen := p.Frozen(c)
	ob := int(c) * NumTypes
	eb := int(e) * NumTypes
	// weaker accumulates the enemy pieces weaker than the type looked at.
	weaker := p.Bits[eb]
	for pt := Cat; pt < NumTypes; pt++ {
		pc := Piece(ob + int(pt))
		for b := p.Bits[pc] &^ frozen & weaker.Neighbors(); b != 0; b &= b - 1 {
			from := b.First()
			dst := neighbors[from] & empty
			for d := North; d <= West; d++ {
				if dst&from.Bit().Shift(d) != 0 {
					buf = append(buf, Step{pc, from, d})
				}
			}
		}
		weaker |= p.Bits[eb+int(pt)]
	}
	buf = t.PullSteps(buf)
	if t.Used <= MaxSteps-2 {
		buf = t.pushStarts(buf, empty, frozen)
	}
	return buf
}

// PullSteps appends to buf the steps that complete a pull into the square
// the last own step vacated, in the order of LegalSteps, and returns it.
func (t *Turn) PullSteps(buf []Step) []Step {
	if t.pullFrom == NoSquare || t.pushTo != NoSquare || t.Used > MaxSteps-1 {
		return buf
	}
	to := t.pullFrom
	eb := int(t.Pos.Side.Other()) * NumTypes
	for pt := range t.pullType {
		pc := Piece(eb + int(pt))
		for b := t.Pos.Bits[pc] & neighbors[to]; b != 0; b &= b - 1 {
			from := b.First()
			buf = append(buf, Step{pc, from, dirBetween(from, to)})
		}
	}
	return buf
}

// CheckStep reports why s may not be played next, or nil when it may.
func (t *Turn) CheckStep(s Step) error {
	p := &t.Pos
	c := p.Side
	if s.Piece >= NoPiece || s.From < 0 || s.From > 63 || s.Dir > West {
		return errors.New("not a step")
	}
	if s.From.Bit().Shift(s.Dir) == 0 {
		return fmt.Errorf("%s leaves the board", s)
	}
	if t.Used >= MaxSteps {
		return fmt.Errorf("%s: the turn already has %d steps", s, MaxSteps)
	}
	if p.At(s.From) != s.Piece {
		if at := p.At(s.From); at != NoPiece {
			return fmt.Errorf("%s: %s holds %c, not %c", s, s.From, at.Letter(), s.Piece.Letter())
		}
		return fmt.Errorf("%s: no piece on %s", s, s.From)
	}
	to := s.To()
	if at := p.At(to); at != NoPiece {
		return fmt.Errorf("%s: %s is occupied by %c", s, to, at.Letter())
	}
	own := s.Piece.Color() == c
	if t.pushTo != NoSquare {
		if !own || to != t.pushTo || s.Piece.Type() <= t.pushType {
			return fmt.Errorf("%s: the push must be completed first: a stronger %s piece must step into %s", s, c.Name(), t.pushTo)
		}
		if p.IsFrozen(s.From) {
			return fmt.Errorf("%s: %c on %s is frozen and cannot push", s, s.Piece.Letter(), s.From)
		}
		return nil
	}
	if own {
		if p.IsFrozen(s.From) {
			return fmt.Errorf("%s: %c on %s is frozen", s, s.Piece.Letter(), s.From)
		}
		if !canStep(s.Piece, s.Dir) {
			return fmt.Errorf("%s: a rabbit cannot step backward", s)
		}
		return nil
	}
	// An enemy piece: a pull completion or the start of a push.
	if t.pullFrom == to && s.Piece.Type() < t.pullType {
		return nil
	}
	if t.Used > MaxSteps-2 {
		return fmt.Errorf("%s: moving a %s piece needs a push or pull, and a push needs 2 steps but %d is left", s, s.Piece.Color().Name(), MaxSteps-int(t.Used))
	}
	if s.Piece.Type() == Elephant {
		return fmt.Errorf("%s: an elephant can never be pushed or pulled", s)
	}
	pushers := p.stronger(c, s.Piece.Type()) &^ p.Frozen(c) & neighbors[s.From]
	if pushers == 0 {
		return fmt.Errorf("%s: no unfrozen stronger %s piece beside %s to push it, and no pull into %s", s, c.Name(), s.From, to)
	}
	return nil
}

// Play makes the step s, which must be legal (see CheckStep), and returns the capture it caused.
func (t *Turn) Play(s Step) Capture {
	p := &t.Pos
	to := s.To()
	switch {
	case t.pushTo != NoSquare:
		t.pushTo = NoSquare
		t.pullFrom = NoSquare
	case s.Piece.Color() == p.Side:
		t.pullFrom = NoSquare
		if s.Piece.Type() != Rabbit {
			t.pullFrom, t.pullType = s.From, s.Piece.Type()
		}
	case t.pullFrom == to && s.Piece.Type() < t.pullType:
		t.pullFrom = NoSquare
	default:
		t.pushTo, t.pushType = s.From, s.Piece.Type()
		t.pullFrom = NoSquare
	}
	t.Used++
	return p.move(s.Piece, s.From, to)
}

// Step checks and plays s.
func (t *Turn) Step(s Step) (Capture, error) {
	if err := t.CheckStep(s); err != nil {
		return NoCapture, err
	}
	return t.Play(s), nil
}

// CanEnd reports why the turn may not end here, or nil when it may.
func (t *Turn) CanEnd() error {
	switch {
	case t.Used == 0:
		return errors.New("a turn needs at least one step")
	case t.pushTo != NoSquare:
		return fmt.Errorf("the push into %s is not completed", t.pushTo)
	case t.Pos.Bits == t.start:
		return errors.New("the turn must change the board")
	}
	return nil
}

// End returns the position after the turn, with the other side to move.
// It does not check CanEnd.
func (t *Turn) End() Position {
	p := t.Pos
	p.SetSide(p.Side.Other())
	return p
}

// StartBits returns the boards the turn started from.
func (t *Turn) StartBits() [12]Bitboard { return t.start }

// StartHash returns the hash of the position the turn started from.
func (t *Turn) StartHash() uint64 { return t.startHash }

// AtStart reports whether the board is the one the turn started from (so the turn
// may not end here).
func (t *Turn) AtStart() bool { return t.Pos.Bits == t.start }

// StepsLeft returns how many steps the turn may still take.
func (t *Turn) StepsLeft() int { return MaxSteps - int(t.Used) }
