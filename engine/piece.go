package engine

import "fmt"

// Color is a side: Gold moves first and starts on ranks 1-2.
type Color uint8

// The two sides.
const (
	Gold   Color = 0
	Silver Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "g" or "s".
func (c Color) String() string {
	if c == Gold {
		return "g"
	}
	return "s"
}

// Name returns "Gold" or "Silver".
func (c Color) Name() string {
	if c == Gold {
		return "Gold"
	}
	return "Silver"
}

// PieceType is a kind of piece, weakest first: a larger value is strictly stronger.
type PieceType uint8

// The piece types in order of strength.
const (
	Rabbit PieceType = iota
	Cat
	Dog
	Horse
	Camel
	Elephant
)

// NumTypes is the number of piece types.
const NumTypes = 6

// Piece is a coloured piece: Color*6 + PieceType. It is also the index of the
// piece's bitboard in engine order (gold R C D H M E, then silver r c d h m e).
type Piece uint8

// NoPiece marks an empty square or an absent capture.
const NoPiece Piece = 12

const pieceLetters = "RCDHMErcdhme"

// MakePiece returns the piece of colour c and type t.
func MakePiece(c Color, t PieceType) Piece { return Piece(uint8(c)*NumTypes + uint8(t)) }

// Color returns the piece's side.
func (p Piece) Color() Color { return Color(p / NumTypes) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p % NumTypes) }

// Letter returns the piece's notation letter (upper case Gold, lower case Silver).
func (p Piece) Letter() byte {
	if p >= NoPiece {
		return ' '
	}
	return pieceLetters[p]
}

// String returns the notation letter.
func (p Piece) String() string { return string(p.Letter()) }

// PieceFromLetter parses a notation letter.
func PieceFromLetter(b byte) (Piece, error) {
	for i := range len(pieceLetters) {
		if pieceLetters[i] == b {
			return Piece(i), nil
		}
	}
	return NoPiece, fmt.Errorf("unknown piece letter %q", b)
}

// StandardCount is the number of pieces of each type a side starts with.
var StandardCount = [NumTypes]int{Rabbit: 8, Cat: 2, Dog: 2, Horse: 2, Camel: 1, Elephant: 1}

// Square is a board square: 0 = a1, 7 = h1, 56 = a8, 63 = h8.
type Square int8

// NoSquare marks the absence of a square.
const NoSquare Square = -1

// MakeSquare returns the square on file f (0 = a) and rank r (0 = rank 1).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for file a to 7 for file h.
func (sq Square) File() int { return int(sq) & 7 }

// Rank returns 0 for rank 1 to 7 for rank 8.
func (sq Square) Rank() int { return int(sq) >> 3 }

// Distance returns the Manhattan distance from sq to to: the fewest single
// steps between them on an empty board.
func (sq Square) Distance(to Square) int {
	df, dr := sq.File()-to.File(), sq.Rank()-to.Rank()
	return max(df, -df) + max(dr, -dr)
}

// String returns the square's name, such as "d2".
func (sq Square) String() string {
	if sq < 0 || sq > 63 {
		return "-"
	}
	return string([]byte{'a' + byte(sq.File()), '1' + byte(sq.Rank())})
}

// ParseSquare parses a square name such as "d2".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("bad square %q", s)
	}
	return MakeSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Dir is a step direction.
type Dir uint8

// The four directions; North is toward rank 8.
const (
	North Dir = iota
	East
	South
	West
)

const dirLetters = "nesw"

// Letter returns n, e, s or w.
func (d Dir) Letter() byte { return dirLetters[d&3] }

// Delta is the change of square index for one step in d.
func (d Dir) Delta() Square {
	switch d {
	case North:
		return 8
	case South:
		return -8
	case East:
		return 1
	default:
		return -1
	}
}

// Opposite returns the reverse direction.
func (d Dir) Opposite() Dir { return d ^ 2 }

// dirBetween returns the direction from a to its neighbour b.
func dirBetween(a, b Square) Dir {
	switch b - a {
	case 8:
		return North
	case -8:
		return South
	case 1:
		return East
	default:
		return West
	}
}
