package aei

import (
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestMirror checks the mirror images of moves and positions, and that
// mirroring twice gives back the original.
func TestMirror(t *testing.T) {
	for _, c := range []struct{ move, want, err string }{
		{move: "Ee2n rc3x", want: "ee7s Rc6x"},
		{move: "Ra1 Hb2 ch8", want: "ra8 hb7 Ch1"},
		{move: "Db8e ca8e Ra7n", want: "db1e Ca1e ra2s"},
		{move: "Ee2n s ed7s g Ee3w", want: "ee7s g Ed2n s ee6w"},
		{move: "Rb2n w rc7s b", want: "rb7s b Rc2n w"},
		{move: "", want: ""},
		{move: "Ee2q", err: "no direction"},
		{move: "Xe2n", err: "no piece"},
		{move: "Ee9n", err: "not a step"},
		{move: "Ee2nn", err: "not a step"},
	} {
		got, err := MirrorMove(c.move)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("MirrorMove(%q) = %q, %v; want an error with %q", c.move, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("MirrorMove(%q) = %q, %v; want %q", c.move, got, err, c.want)
		}
		if back, err := MirrorMove(got); err != nil || back != c.move {
			t.Errorf("MirrorMove(MirrorMove(%q)) = %q, %v", c.move, back, err)
		}
	}
	empty := strings.Repeat(" ", 32)
	for _, c := range []struct{ pos, want string }{
		{"s [rrrrrrrrhdcemcdh" + empty + "HDCMECDHRRRRRRRR]", "g [rrrrrrrrhdcmecdh" + empty + "HDCEMCDHRRRRRRRR]"},
		{board(t, engine.Silver, "ra2 rb8 Rh1 Ed4"), board(t, engine.Gold, "Ra7 Rb1 rh8 ed5")},
		{board(t, engine.Gold, "Ca1 hc6"), board(t, engine.Silver, "ca8 Hc3")},
	} {
		p, err := engine.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		m, err := MirrorPosition(p)
		if err != nil || m.String() != c.want {
			t.Errorf("MirrorPosition(%s) = %s, %v; want %s", c.pos, m.String(), err, c.want)
		}
		if back, err := MirrorPosition(m); err != nil || back != p {
			t.Errorf("MirrorPosition twice of %s = %s, %v", c.pos, back.String(), err)
		}
	}
}

// board writes the position of side to move with pieces such as "Ra1 ed4".
func board(t *testing.T, side engine.Color, pieces string) string {
	t.Helper()
	var p engine.Position
	for _, w := range strings.Fields(pieces) {
		pc, err := engine.PieceFromLetter(w[0])
		if err != nil {
			t.Fatal(err)
		}
		sq, err := engine.ParseSquare(w[1:])
		if err != nil {
			t.Fatal(err)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p.String()
}
