package engine

import "math/bits"

// Bitboard is a set of squares, bit i standing for square i (a1 = 0, h1 = 7, a8 = 56).
type Bitboard uint64

// Board regions used by the rules.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
	// Traps holds c3, f3, c6 and f6.
	Traps Bitboard = 1<<18 | 1<<21 | 1<<42 | 1<<45
)

// Bit returns the bitboard holding only sq.
func (sq Square) Bit() Bitboard { return 1 << uint(sq) }

// Has reports whether sq is in b.
func (b Bitboard) Has(sq Square) bool { return b>>uint(sq)&1 != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square in b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// North returns b shifted one rank toward rank 8.
func (b Bitboard) North() Bitboard { return b << 8 }

// South returns b shifted one rank toward rank 1.
func (b Bitboard) South() Bitboard { return b >> 8 }

// East returns b shifted one file toward file h.
func (b Bitboard) East() Bitboard { return (b &^ FileH) << 1 }

// West returns b shifted one file toward file a.
func (b Bitboard) West() Bitboard { return (b &^ FileA) >> 1 }

// Neighbors returns the squares orthogonally adjacent to some square of b.
func (b Bitboard) Neighbors() Bitboard {
	return b<<8 | b>>8 | (b&^FileH)<<1 | (b&^FileA)>>1
}

// Shift moves every square of b one step in direction d (squares leaving the board vanish).
func (b Bitboard) Shift(d Dir) Bitboard {
	switch d {
	case North:
		return b.North()
	case South:
		return b.South()
	case East:
		return b.East()
	default:
		return b.West()
	}
}

// neighbors[sq] is the set of squares orthogonally adjacent to sq.
var neighbors = func() (t [64]Bitboard) {
	for sq := range 64 {
		t[sq] = Square(sq).Bit().Neighbors()
	}
	return t
}()

// trapZone holds the traps and the squares beside them: only a step touching it can capture.
var trapZone = Traps | Traps.Neighbors()
