package features

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// standard is the usual opening setup: Gold on ranks 1-2, Silver on ranks 7-8.
const standard = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ca2 Db2 Hc2 Md2 Ee2 Hf2 Dg2 Ch2 " +
	"ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ca7 db7 hc7 ed7 me7 hf7 dg7 ch7"

// build returns the position with side to move side and the pieces placed, given
// as "Ee4 rd5 ...".
func build(t testing.TB, side engine.Color, placements string) engine.Position {
	t.Helper()
	var p engine.Position
	for _, f := range strings.Fields(placements) {
		pc, err := engine.PieceFromLetter(f[0])
		if err != nil {
			t.Fatalf("placement %q: %v", f, err)
		}
		sq, err := engine.ParseSquare(f[1:])
		if err != nil {
			t.Fatalf("placement %q: %v", f, err)
		}
		if p.At(sq) != engine.NoPiece {
			t.Fatalf("placement %q: square taken", f)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p
}

// mirror returns p with the colours swapped, the ranks mirrored and the other
// side to move: the same position seen from the other side of the board.
func mirror(p *engine.Position) engine.Position {
	var m engine.Position
	for pc := range engine.Piece(12) {
		for b := p.Bits[pc]; b != 0; b &= b - 1 {
			sq := b.First()
			to := engine.MakeSquare(sq.File(), 7-sq.Rank())
			m.Put(engine.MakePiece(pc.Color().Other(), pc.Type()), to)
		}
	}
	m.SetSide(p.Side.Other())
	return m
}

// randomSetup returns a position with both sides' standard pieces shuffled on
// their home ranks, Gold to move.
func randomSetup(rng *rand.Rand) engine.Position {
	var p engine.Position
	for c := range engine.Color(2) {
		var set []engine.Piece
		for t := range engine.PieceType(engine.NumTypes) {
			for range engine.StandardCount[t] {
				set = append(set, engine.MakePiece(c, t))
			}
		}
		rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
		for i, pc := range set {
			rank := i / 8
			if c == engine.Silver {
				rank = 7 - rank
			}
			p.Put(pc, engine.MakeSquare(i%8, rank))
		}
	}
	return p
}

// randomPositions plays random games (random legal steps, 1 to 4 a turn) from
// random setups and returns n of the positions met, side to move varying,
// captures and advanced rabbits included.
func randomPositions(n int, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []engine.Position
	var buf []engine.Step
	for len(out) < n {
		p := randomSetup(rng)
		for ply := 0; ply < 160 && len(out) < n; ply++ {
			t := engine.NewTurn(p)
			for t.Used < engine.MaxSteps {
				buf = t.LegalSteps(buf[:0])
				if len(buf) == 0 {
					break
				}
				t.Play(buf[rng.IntN(len(buf))])
				if t.CanEnd() == nil && rng.IntN(3) == 0 {
					break
				}
			}
			if t.CanEnd() != nil {
				break
			}
			p = t.End()
			if engine.EndOfTurn(&p, nil, nil).Over() {
				break
			}
			if ply >= 4 {
				out = append(out, p)
			}
		}
	}
	return out
}
