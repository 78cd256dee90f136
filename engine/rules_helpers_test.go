package engine

import (
	"slices"
	"strings"
	"testing"
)

// Helpers shared by the rules, cross-check and fuzz tests. Their names carry a
// "rules" prefix so that they do not collide with helpers of other test files of
// the package.

// rulesPos builds a position by Put from a list of placements such as "Ed3 rd2",
// with side to move.
func rulesPos(tb testing.TB, side Color, spec string) Position {
	tb.Helper()
	var p Position
	for _, f := range strings.Fields(spec) {
		if len(f) != 3 {
			tb.Fatalf("bad placement %q", f)
		}
		pc, err := PieceFromLetter(f[0])
		if err != nil {
			tb.Fatalf("placement %q: %v", f, err)
		}
		sq, err := ParseSquare(f[1:])
		if err != nil {
			tb.Fatalf("placement %q: %v", f, err)
		}
		if p.At(sq) != NoPiece {
			tb.Fatalf("placement %q: square taken", f)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	if p.Hash != p.ComputeHash() {
		tb.Fatalf("built position has a bad hash")
	}
	return p
}

// rulesAEI parses an AEI position string or fails the test.
func rulesAEI(tb testing.TB, s string) Position {
	tb.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		tb.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

// rulesSq parses a square name or fails the test.
func rulesSq(tb testing.TB, s string) Square {
	tb.Helper()
	sq, err := ParseSquare(s)
	if err != nil {
		tb.Fatal(err)
	}
	return sq
}

// rulesStep parses one step or fails the test.
func rulesStep(tb testing.TB, s string) Step {
	tb.Helper()
	st, err := ParseStep(s)
	if err != nil {
		tb.Fatalf("ParseStep(%q): %v", s, err)
	}
	return st
}

// rulesPlay checks and plays the steps of moves (space separated) on tr, failing
// the test when one is refused, and returns the captures in notation, one entry
// per step ("" for none).
func rulesPlay(tb testing.TB, tr *Turn, moves string) []string {
	tb.Helper()
	var caps []string
	for _, f := range strings.Fields(moves) {
		s := rulesStep(tb, f)
		if err := tr.CheckStep(s); err != nil {
			tb.Fatalf("step %s refused in %s after %d steps: %v", f, tr.Pos.String(), tr.Used, err)
		}
		if !slices.Contains(tr.LegalSteps(nil), s) {
			tb.Fatalf("step %s accepted by CheckStep but not listed by LegalSteps in %s", f, tr.Pos.String())
		}
		c := tr.Play(s)
		if tr.Pos.Hash != tr.Pos.ComputeHash() {
			tb.Fatalf("after %s: incremental hash differs from ComputeHash", f)
		}
		caps = append(caps, c.String())
	}
	return caps
}

// rulesGenKeys returns the keys of all positions g generated from p with h.
func rulesGenKeys(g *MoveGen, p *Position, h *History) map[BoardKey]int {
	n := g.Generate(p, h)
	out := make(map[BoardKey]int, n)
	for i := range n {
		q := g.Position(i)
		out[q.Key()] = i
	}
	return out
}

// rulesMoved reports whether the piece pc stands on a square other than the ones
// it stands on in p (i.e. whether some piece pc moved or disappeared).
func rulesMoved(p, q *Position, pc Piece) bool { return p.Bits[pc] != q.Bits[pc] }
