package engine

import (
	"fmt"
	"strings"
)

// Step moves one piece one square: the piece, where it stands, and the direction.
type Step struct {
	Piece Piece
	From  Square
	Dir   Dir
}

// To returns the destination square.
func (s Step) To() Square { return s.From + s.Dir.Delta() }

// String returns the step in standard notation, such as "Ed2n".
func (s Step) String() string {
	return string([]byte{s.Piece.Letter(), 'a' + byte(s.From.File()), '1' + byte(s.From.Rank()), s.Dir.Letter()})
}

// String returns the capture in standard notation, such as "rc3x".
func (c Capture) String() string {
	if c.Piece == NoPiece {
		return ""
	}
	return string([]byte{c.Piece.Letter(), 'a' + byte(c.Square.File()), '1' + byte(c.Square.Rank()), 'x'})
}

// ParseStep parses a step such as "Ed2n". It checks the notation and that the step
// stays on the board, not the position.
func ParseStep(s string) (Step, error) {
	if len(s) != 4 {
		return Step{}, fmt.Errorf("step %q: want piece, square and direction, like Ed2n", s)
	}
	pc, err := PieceFromLetter(s[0])
	if err != nil {
		return Step{}, fmt.Errorf("step %q: %w", s, err)
	}
	sq, err := ParseSquare(s[1:3])
	if err != nil {
		return Step{}, fmt.Errorf("step %q: %w", s, err)
	}
	d := strings.IndexByte(dirLetters, s[3])
	if d < 0 {
		return Step{}, fmt.Errorf("step %q: direction %q is not n, s, e or w", s, s[3])
	}
	st := Step{pc, sq, Dir(d)}
	if sq.Bit().Shift(Dir(d)) == 0 {
		return Step{}, fmt.Errorf("step %q: leaves the board", s)
	}
	return st, nil
}

// parseCapture parses a capture token such as "rc3x".
func parseCapture(s string) (Capture, error) {
	if len(s) != 4 || s[3] != 'x' {
		return NoCapture, fmt.Errorf("capture %q: want piece, square and x, like rc3x", s)
	}
	pc, err := PieceFromLetter(s[0])
	if err != nil {
		return NoCapture, fmt.Errorf("capture %q: %w", s, err)
	}
	sq, err := ParseSquare(s[1:3])
	if err != nil {
		return NoCapture, fmt.Errorf("capture %q: %w", s, err)
	}
	if !Traps.Has(sq) {
		return NoCapture, fmt.Errorf("capture %q: %s is not a trap", s, sq)
	}
	return Capture{pc, sq}, nil
}

// Placement is one piece of a setup.
type Placement struct {
	Piece  Piece
	Square Square
}

// String returns the placement in notation, such as "Ra1".
func (pl Placement) String() string {
	return string(pl.Piece.Letter()) + pl.Square.String()
}

// ParseSetup parses a setup such as "Ra1 Rb1 Cc1 ..." and checks it for side c:
// every piece of colour c, on c's own two ranks, each square once, and no more of
// a type than the standard count (handicap setups with fewer pieces are accepted).
func ParseSetup(c Color, s string) ([]Placement, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, fmt.Errorf("setup: no pieces")
	}
	out := make([]Placement, 0, len(fields))
	var used Bitboard
	var counts [NumTypes]int
	home := Rank1 | Rank2
	if c == Silver {
		home = Rank7 | Rank8
	}
	for i, f := range fields {
		if len(f) != 3 {
			return nil, fmt.Errorf("setup item %d %q: want piece and square, like Ra1", i+1, f)
		}
		pc, err := PieceFromLetter(f[0])
		if err != nil {
			return nil, fmt.Errorf("setup item %d %q: %w", i+1, f, err)
		}
		sq, err := ParseSquare(f[1:])
		if err != nil {
			return nil, fmt.Errorf("setup item %d %q: %w", i+1, f, err)
		}
		if pc.Color() != c {
			return nil, fmt.Errorf("setup item %d %q: %s piece in %s's setup", i+1, f, pc.Color().Name(), c.Name())
		}
		if !home.Has(sq) {
			return nil, fmt.Errorf("setup item %d %q: %s must set up on its own two ranks", i+1, f, c.Name())
		}
		if used.Has(sq) {
			return nil, fmt.Errorf("setup item %d %q: square %s used twice", i+1, f, sq)
		}
		used |= sq.Bit()
		counts[pc.Type()]++
		if counts[pc.Type()] > StandardCount[pc.Type()] {
			return nil, fmt.Errorf("setup item %d %q: more than %d of %c", i+1, f, StandardCount[pc.Type()], f[0])
		}
		out = append(out, Placement{pc, sq})
	}
	return out, nil
}

// FormatSetup writes placements in notation.
func FormatSetup(pl []Placement) string {
	parts := make([]string, len(pl))
	for i, p := range pl {
		parts[i] = p.String()
	}
	return strings.Join(parts, " ")
}
