package aei

import (
	"fmt"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// MirrorPosition returns the mirror image of p: the colours swapped, the ranks
// reversed (a1 becomes a8) and the other side to move. The rules of Arimaa are
// the same seen from either side, so a move is as good in p as its mirror
// image (MirrorMove) in the mirrored position, and a score for the side to
// move is the same in both. Engines that ignore the side to move of
// setposition and always search for Gold, such as Sharp, are given a position
// with Silver to move as its mirror image.
func MirrorPosition(p engine.Position) (engine.Position, error) {
	var b strings.Builder
	b.WriteString(p.Side.Other().String())
	b.WriteString(" [")
	for r := range 8 { // rank 1 of p is rank 8 of its mirror image
		for f := range 8 {
			b.WriteByte(mirrorPiece(p.At(engine.MakeSquare(f, r))).Letter())
		}
	}
	b.WriteByte(']')
	return engine.ParsePosition(b.String())
}

// mirrorPiece returns the piece of the other colour.
func mirrorPiece(pc engine.Piece) engine.Piece {
	if pc == engine.NoPiece {
		return pc
	}
	return engine.MakePiece(pc.Color().Other(), pc.Type())
}

// MirrorMove returns the mirror image of a move or a setup (see
// MirrorPosition): "Ee2n rc3x" becomes "ee7s Rc6x", "Ra1" "ra8". Colour words
// between the moves of a principal variation ("g", "s", "w", "b") become the
// other colour's.
func MirrorMove(move string) (string, error) {
	words := strings.Fields(move)
	for i, w := range words {
		switch w {
		case "g", "s", "w", "b":
			words[i] = map[string]string{"g": "s", "s": "g", "w": "b", "b": "w"}[w]
			continue
		}
		if len(w) != 3 && len(w) != 4 {
			return "", fmt.Errorf("%q is not a step", w)
		}
		pc, err := engine.PieceFromLetter(w[0])
		if err != nil || pc == engine.NoPiece {
			return "", fmt.Errorf("%q is not a step: no piece %q", w, w[0])
		}
		sq, err := engine.ParseSquare(w[1:3])
		if err != nil {
			return "", fmt.Errorf("%q is not a step: %w", w, err)
		}
		m := string(mirrorPiece(pc).Letter()) + engine.MakeSquare(sq.File(), 7-sq.Rank()).String()
		if len(w) == 4 {
			switch d := w[3]; d {
			case 'n':
				m += "s"
			case 's':
				m += "n"
			case 'e', 'w', 'x':
				m += string(d)
			default:
				return "", fmt.Errorf("%q is not a step: no direction %q", w, d)
			}
		}
		words[i] = m
	}
	return strings.Join(words, " "), nil
}
