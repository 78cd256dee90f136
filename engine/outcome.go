package engine

import "fmt"

// Termination is why a game ended.
type Termination uint8

// The ways a game ends. The first four follow from the rules; the others are
// recorded by game servers (resignation, time, an illegal move, and so on).
const (
	NotOver Termination = iota
	Goal
	Elimination
	Immobilization
	Repetition
	Resignation
	Timeout
	IllegalMove
	MaxTurns
	OtherTermination
)

var terminationNames = [...]string{"not-over", "goal", "elimination", "immobilization", "repetition", "resignation", "time", "illegal-move", "max-turns", "other"}

// archive codes as used by the arimaa.com game archive.
var terminationCodes = [...]byte{'-', 'g', 'e', 'm', 'p', 'r', 't', 'i', 'x', 'o'}

// String returns the lower-case name, such as "goal".
func (t Termination) String() string {
	if int(t) < len(terminationNames) {
		return terminationNames[t]
	}
	return fmt.Sprintf("termination(%d)", t)
}

// Code returns the arimaa.com archive letter for t (g, e, m, p, r, t, i, ...).
func (t Termination) Code() byte {
	if int(t) < len(terminationCodes) {
		return terminationCodes[t]
	}
	return 'o'
}

// TerminationFromCode reads an arimaa.com archive termination letter.
func TerminationFromCode(c byte) (Termination, error) {
	for i, b := range terminationCodes {
		if b == c && i != 0 {
			return Termination(i), nil
		}
	}
	switch c {
	case 'f', 'a', 's': // forfeit, abandoned, score: ended off the board
		return OtherTermination, nil
	}
	return NotOver, fmt.Errorf("unknown termination code %q", c)
}

// Outcome is the end of a game: who won and why. Reason NotOver means the game goes on.
type Outcome struct {
	Winner Color
	Reason Termination
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Reason != NotOver }

// String describes the outcome, such as "Gold wins by goal".
func (o Outcome) String() string {
	if !o.Over() {
		return "not over"
	}
	return fmt.Sprintf("%s wins by %s", o.Winner.Name(), o.Reason)
}

// goalRank returns the rank a rabbit of c must reach.
func goalRank(c Color) Bitboard {
	if c == Gold {
		return Rank8
	}
	return Rank1
}

// HasStep reports whether p.Side can make any step at all: a free piece with an
// empty square to step to, or a push.
func (p *Position) HasStep() bool {
	c := p.Side
	empty := p.Empty()
	frozen := p.Frozen(c)
	ob := int(c) * NumTypes
	rabbits := p.Bits[ob] &^ frozen
	if c == Gold {
		if rabbits&(empty.South()|empty.East()|empty.West()) != 0 {
			return true
		}
	} else if rabbits&(empty.North()|empty.East()|empty.West()) != 0 {
		return true
	}
	active := p.Occ[c] &^ frozen
	if (active&^p.Bits[ob])&empty.Neighbors() != 0 {
		return true
	}
	// Pushes: a victim beside an active stronger piece, with an empty square beside it.
	eb := int(c.Other()) * NumTypes
	for vt := range PieceType(NumTypes - 1) {
		v := p.Bits[eb+int(vt)] & empty.Neighbors()
		if v&(p.stronger(c, vt)&active).Neighbors() != 0 {
			return true
		}
	}
	return false
}

// EndOfTurn applies the end-of-game checks, in the order of the rules, to p: the
// position after a complete turn, with the next player (B) to move. h is the game
// history including p (nil for none), and g a generator for the repetition check
// (nil makes one when needed).
func EndOfTurn(p *Position, h *History, g *MoveGen) Outcome {
	b := p.Side
	a := b.Other()
	ra, rb := p.Bits[MakePiece(a, Rabbit)], p.Bits[MakePiece(b, Rabbit)]
	switch {
	case ra&goalRank(a) != 0:
		return Outcome{a, Goal}
	case rb&goalRank(b) != 0:
		return Outcome{b, Goal}
	case rb == 0:
		return Outcome{a, Elimination}
	case ra == 0:
		return Outcome{b, Elimination}
	case !p.HasStep():
		return Outcome{a, Immobilization}
	}
	if h.hot() {
		if g == nil {
			g = NewMoveGen()
		}
		// A single step that repeats nothing settles it (a step always
		// changes the board, and p has one); only when every step makes a
		// third repetition are the longer moves generated.
		if g.GenerateUpTo(p, h, 1) == 0 && g.Generate(p, h) == 0 {
			return Outcome{a, Repetition}
		}
	}
	return Outcome{}
}
