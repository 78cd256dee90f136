package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Position is a board with the side to move: one bitboard per piece in engine order
// (gold R C D H M E, then silver r c d h m e), the occupancy of each side, and a
// Zobrist hash of pieces and side to move kept up to date by every change.
type Position struct {
	Bits [12]Bitboard
	Occ  [2]Bitboard
	Side Color
	Hash uint64
}

// BoardKey is an exact, comparable identity of a position: the boards and the side to move.
type BoardKey struct {
	Bits [12]Bitboard
	Side Color
}

// Key returns the exact identity of p.
func (p *Position) Key() BoardKey { return BoardKey{p.Bits, p.Side} }

// SameBoard reports whether p and q hold the same pieces on the same squares.
func (p *Position) SameBoard(q *Position) bool { return p.Bits == q.Bits }

// Empty returns the empty squares.
func (p *Position) Empty() Bitboard { return ^(p.Occ[0] | p.Occ[1]) }

// At returns the piece on sq, or NoPiece.
func (p *Position) At(sq Square) Piece {
	b := sq.Bit()
	if (p.Occ[0]|p.Occ[1])&b == 0 {
		return NoPiece
	}
	start := 0
	if p.Occ[1]&b != 0 {
		start = 6
	}
	for i := start; i < start+6; i++ {
		if p.Bits[i]&b != 0 {
			return Piece(i)
		}
	}
	return NoPiece
}

// Put places pc on the empty square sq.
func (p *Position) Put(pc Piece, sq Square) {
	b := sq.Bit()
	p.Bits[pc] |= b
	p.Occ[pc.Color()] |= b
	p.Hash ^= zobrist.piece[pc][sq]
}

// Remove takes pc off sq.
func (p *Position) Remove(pc Piece, sq Square) {
	b := sq.Bit()
	p.Bits[pc] &^= b
	p.Occ[pc.Color()] &^= b
	p.Hash ^= zobrist.piece[pc][sq]
}

// SetSide sets the side to move, keeping the hash up to date.
func (p *Position) SetSide(c Color) {
	if p.Side != c {
		p.Hash ^= zobrist.silver
		p.Side = c
	}
}

// ComputeHash recomputes the hash from scratch (for checks; the hash is otherwise incremental).
func (p *Position) ComputeHash() uint64 {
	var h uint64
	for pc, b := range p.Bits {
		for ; b != 0; b &= b - 1 {
			h ^= zobrist.piece[pc][b.First()]
		}
	}
	if p.Side == Silver {
		h ^= zobrist.silver
	}
	return h
}

// stronger returns, for colour c, the squares holding a piece of c stronger than t.
func (p *Position) stronger(c Color, t PieceType) Bitboard {
	var b Bitboard
	base := int(c) * NumTypes
	for i := int(t) + 1; i < NumTypes; i++ {
		b |= p.Bits[base+i]
	}
	return b
}

// Frozen returns the frozen pieces of colour c: those beside a stronger enemy piece
// and beside no friendly piece.
func (p *Position) Frozen(c Color) Bitboard {
	e := c.Other()
	eb := int(e) * NumTypes
	ob := int(c) * NumTypes
	// Walk from the strongest enemy down, accumulating the squares next to
	// an enemy stronger than the own type t.
	var near, frozen Bitboard
	for t := NumTypes - 1; t > 0; t-- {
		near |= p.Bits[eb+t].Neighbors()
		frozen |= p.Bits[ob+t-1] & near
	}
	return frozen &^ p.Occ[c].Neighbors()
}

// IsFrozen reports whether the piece on sq (which must be occupied) is frozen.
func (p *Position) IsFrozen(sq Square) bool {
	pc := p.At(sq)
	if pc == NoPiece {
		return false
	}
	c := pc.Color()
	n := neighbors[sq]
	if p.Occ[c]&n != 0 {
		return false
	}
	return p.stronger(c.Other(), pc.Type())&n != 0
}

// Capture is a piece removed from a trap, or Piece == NoPiece for none.
type Capture struct {
	Piece  Piece
	Square Square
}

// NoCapture is the zero-capture value.
var NoCapture = Capture{NoPiece, NoSquare}

// move moves pc from from to the empty square to, then removes any piece of pc's
// colour left on a trap without a friendly neighbour, and returns that capture.
// It checks nothing: the caller knows the step is allowed.
func (p *Position) move(pc Piece, from, to Square) Capture {
	fb, tb := from.Bit(), to.Bit()
	c := pc.Color()
	p.Bits[pc] ^= fb | tb
	p.Occ[c] ^= fb | tb
	p.Hash ^= zobrist.piece[pc][from] ^ zobrist.piece[pc][to]
	if (fb|tb)&trapZone == 0 {
		return NoCapture
	}
	own := p.Occ[c]
	t := own & Traps & (neighbors[from] | tb) &^ own.Neighbors()
	if t == 0 {
		return NoCapture
	}
	sq := t.First()
	var cp Piece
	if p.Bits[pc]&t != 0 {
		cp = pc
	} else {
		base := int(c) * NumTypes
		for i := base; i < base+NumTypes; i++ {
			if p.Bits[i]&t != 0 {
				cp = Piece(i)
				break
			}
		}
	}
	p.Remove(cp, sq)
	return Capture{cp, sq}
}

// Count returns the number of pieces pc on the board.
func (p *Position) Count(pc Piece) int { return p.Bits[pc].Count() }

// ParsePosition reads the AEI setposition form: a side letter (g/s, or w/b) and a
// bracketed string of 64 characters, a8 to h1 row by row, a space for an empty square.
func ParsePosition(s string) (Position, error) {
	var p Position
	s = strings.TrimRight(s, "\r\n")
	if len(s) < 2 {
		return p, fmt.Errorf("position %q: want `<g|s> [64 characters]`", s)
	}
	switch s[0] {
	case 'g', 'w':
		p.Side = Gold
	case 's', 'b':
		p.Side = Silver
	default:
		return p, fmt.Errorf("position: side %q is not g or s", s[0])
	}
	rest := strings.TrimLeft(s[1:], " ")
	if len(rest) < 2 || rest[0] != '[' || rest[len(rest)-1] != ']' {
		return p, fmt.Errorf("position: board must be in brackets: `<g|s> [64 characters]`")
	}
	board := rest[1 : len(rest)-1]
	if len(board) != 64 {
		return p, fmt.Errorf("position: board has %d characters, want 64", len(board))
	}
	for i := range 64 {
		ch := board[i]
		sq := MakeSquare(i%8, 7-i/8)
		if ch == ' ' || ch == '.' || ch == 'x' || ch == 'X' {
			continue
		}
		pc, err := PieceFromLetter(ch)
		if err != nil {
			return p, fmt.Errorf("position: square %s: %w", sq, err)
		}
		p.Put(pc, sq)
	}
	if p.Side == Silver {
		p.Hash ^= zobrist.silver
	}
	if err := p.Check(); err != nil {
		return Position{}, err
	}
	return p, nil
}

// typeNames are the piece types' names, singular and plural, for messages.
var typeNames = [NumTypes][2]string{{"rabbit", "rabbits"}, {"cat", "cats"}, {"dog", "dogs"}, {"horse", "horses"}, {"camel", "camels"}, {"elephant", "elephants"}}

// Check reports whether p is a board the game can reach: no square holds two
// pieces, the occupancy is that of the pieces, and no side has more pieces of
// a type than it starts with (StandardCount: 1 elephant, 1 camel, 2 horses, 2
// dogs, 2 cats and 8 rabbits). ParsePosition and PositionFromBits refuse
// other boards.
func (p *Position) Check() error {
	var occ [2]Bitboard
	for pc, b := range p.Bits {
		c := Piece(pc).Color()
		if both := (occ[0] | occ[1]) & b; both != 0 {
			return fmt.Errorf("position: square %s holds two pieces", both.First())
		}
		occ[c] |= b
		t := Piece(pc).Type()
		if n := b.Count(); n > StandardCount[t] {
			name := typeNames[t][1]
			if StandardCount[t] == 1 {
				name = typeNames[t][0]
			}
			return fmt.Errorf("position: %d %s %s, but a side has at most %d %s", n, c.Name(), typeNames[t][1], StandardCount[t], name)
		}
	}
	if occ != p.Occ {
		return errors.New("position: the occupancy is not that of the pieces")
	}
	return nil
}

// PositionFromBits returns the position of the piece bitboards bits (in
// engine order) with side to move, its occupancy and hash computed, after
// checking it (see Check).
func PositionFromBits(bits [12]Bitboard, side Color) (Position, error) {
	p := Position{Bits: bits, Side: side}
	if side != Gold && side != Silver {
		return Position{}, fmt.Errorf("position: side %d is not gold (0) or silver (1)", side)
	}
	for pc, b := range bits {
		p.Occ[Piece(pc).Color()] |= b
	}
	if err := p.Check(); err != nil {
		return Position{}, err
	}
	p.Hash = p.ComputeHash()
	return p, nil
}

// String returns the AEI setposition form, such as "g [rrrrrrrr...RRRRRRRR]".
func (p *Position) String() string {
	var b strings.Builder
	b.Grow(68)
	b.WriteString(p.Side.String())
	b.WriteString(" [")
	for r := 7; r >= 0; r-- {
		for f := range 8 {
			b.WriteByte(p.At(MakeSquare(f, r)).Letter())
		}
	}
	b.WriteByte(']')
	return b.String()
}

// Diagram draws the board for people: ranks 8 to 1, traps marked x when empty.
func (p *Position) Diagram() string {
	var b strings.Builder
	fmt.Fprintf(&b, " +-----------------+  %s to move\n", p.Side.Name())
	for r := 7; r >= 0; r-- {
		fmt.Fprintf(&b, "%d| ", r+1)
		for f := range 8 {
			sq := MakeSquare(f, r)
			ch := p.At(sq).Letter()
			if ch == ' ' {
				ch = '.'
				if Traps.Has(sq) {
					ch = 'x'
				}
			}
			b.WriteByte(ch)
			b.WriteByte(' ')
		}
		b.WriteString("|\n")
	}
	b.WriteString(" +-----------------+\n   a b c d e f g h\n")
	return b.String()
}
