// Package view draws Arimaa positions and games for people at a terminal:
// board diagrams, games laid out move by move with what the search thought of
// each move (when self-play data holds it), and a browser that steps through a
// game on commands read line by line.
package view

import (
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// Diagram draws the board of p, rank 8 at the top, with the files and ranks
// named on all four sides: Gold's pieces in upper case, Silver's in lower case,
// an empty square as '.', an empty trap as 'x'. The squares of marks are
// framed in brackets, such as "[E]" (the squares the last move changed, say);
// two marked squares side by side share a bar, "[E|r]".
//
//	    a b c d e f g h
//	  +-----------------+
//	8 | r r r r r r r r | 8
//	7 | h d c e m c d h | 7
//	6 | . . x . . x . . | 6
//	  ...
//	1 | R R R R R R R R | 1
//	  +-----------------+
//	    a b c d e f g h
func Diagram(p *engine.Position, marks engine.Bitboard) string {
	const files = "    a b c d e f g h\n"
	const rule = "  +-----------------+\n"
	var b strings.Builder
	b.Grow(12 * 24)
	b.WriteString(files)
	b.WriteString(rule)
	for r := 7; r >= 0; r-- {
		rank := byte('1' + r)
		b.WriteByte(rank)
		b.WriteString(" |")
		prev := false // the square to the left is marked
		for f := range 8 {
			sq := engine.MakeSquare(f, r)
			cur := marks.Has(sq)
			b.WriteByte(separator(prev, cur))
			b.WriteByte(cell(p, sq))
			prev = cur
		}
		b.WriteByte(separator(prev, false))
		b.WriteString("| ")
		b.WriteByte(rank)
		b.WriteByte('\n')
	}
	b.WriteString(rule)
	b.WriteString(files)
	return b.String()
}

// separator is the character between two squares of a rank (or the border and
// a square), given whether the one on the left and the one on the right are
// marked.
func separator(left, right bool) byte {
	switch {
	case left && right:
		return '|'
	case left:
		return ']'
	case right:
		return '['
	}
	return ' '
}

// cell is the character of square sq of p.
func cell(p *engine.Position, sq engine.Square) byte {
	pc := p.At(sq)
	switch {
	case pc != engine.NoPiece:
		return pc.Letter()
	case engine.Traps.Has(sq):
		return 'x'
	}
	return '.'
}

// Changed returns the squares whose contents differ between a and b: for the
// positions before and after a move, the squares the move left, entered or
// emptied by a capture.
func Changed(a, b *engine.Position) engine.Bitboard {
	var diff engine.Bitboard
	for i := range a.Bits {
		diff |= a.Bits[i] ^ b.Bits[i]
	}
	return diff
}
