package engine

import (
	"strings"
	"testing"
)

// Fuzz targets for the three parsers: malformed input gives an error (never a
// panic), and what parses is consistent and round-trips through its String form.

const (
	rulesGoldSetup   = "Ra2 Rb2 Rc2 Rd2 Re2 Rf2 Rg2 Rh2 Ha1 Db1 Cc1 Md1 Ee1 Cf1 Dg1 Hh1"
	rulesSilverSetup = "ra7 rb7 rc7 rd7 re7 rf7 rg7 rh7 ha8 db8 cc8 ed8 me8 cf8 dg8 hh8"
	rulesStartBoard  = "[rrrrrrrrhdcemcdh" + "                " + "                " + "                " +
		"HDCMECDHRRRRRRRR]"
)

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"g " + rulesStartBoard,
		"s " + rulesStartBoard,
		"w " + rulesStartBoard,
		"b " + rulesStartBoard,
		"g " + rulesWikibooksBoard,
		"g [rrr  rr r mcchrr d    d     E            H  e D R C  C RRRRDMRRR]",
		"s [" + strings.Repeat(" ", 64) + "]",
		"g [" + strings.Repeat(".", 30) + "xX" + strings.Repeat(".", 32) + "]",
		"g " + rulesStartBoard + "\r\n",
		"g" + rulesStartBoard,
		"g   " + rulesStartBoard,
		// Malformed.
		"",
		"g",
		"g [",
		"g []",
		"x " + rulesStartBoard,
		"G " + rulesStartBoard,
		"g " + rulesStartBoard[:64] + "]",
		"g " + rulesStartBoard[:65] + "R]",
		"g " + strings.Replace(rulesStartBoard, "M", "z", 1),
		"g " + strings.Replace(rulesStartBoard, "M", "\xff", 1),
		"g " + strings.Replace(rulesStartBoard, "M", "é", 1)[:67] + "]",
		"g " + rulesStartBoard[1:],
		"g " + rulesStartBoard + " extra",
		"g (" + rulesStartBoard[1:65] + ")",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		if p.Hash != p.ComputeHash() {
			t.Fatalf("%q: hash %#x, ComputeHash %#x", s, p.Hash, p.ComputeHash())
		}
		var occ [2]Bitboard
		var all Bitboard
		for pc, b := range p.Bits {
			if all&b != 0 {
				t.Fatalf("%q: two pieces on one square", s)
			}
			all |= b
			occ[Piece(pc).Color()] |= b
		}
		if occ != p.Occ {
			t.Fatalf("%q: occupancy inconsistent", s)
		}
		if p.Side != Gold && p.Side != Silver {
			t.Fatalf("%q: side %d", s, p.Side)
		}
		out := p.String()
		if len(out) != 68 || !strings.HasPrefix(out, p.Side.String()+" [") || out[67] != ']' {
			t.Fatalf("%q: String gives %q", s, out)
		}
		q, err := ParsePosition(out)
		if err != nil {
			t.Fatalf("%q: String %q does not parse: %v", s, out, err)
		}
		if q != p {
			t.Fatalf("%q: round trip through %q changes the position", s, out)
		}
		if q.String() != out {
			t.Fatalf("%q: String not stable: %q then %q", s, out, q.String())
		}
	})
}

func FuzzParseStep(f *testing.F) {
	for _, s := range []string{
		"Ed2n", "rc3s", "Ha1e", "mh8w", "Rd7n", "cb2s",
		// Malformed.
		"", "E", "Ed2", "Ed2nn", "Ed2 n", "Zd2n", "Ei2n", "Ed9n", "Ed0n", "Ed2q",
		"Ed8n", "Ea4w", "Eh4e", "Ed1s", "rc3x", "ed2N", "\xffd2n", "Ed\xffn", "éd2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStep(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		if st.String() != s {
			t.Fatalf("%q parses to %v, which prints as %q", s, st, st.String())
		}
		if st.Piece >= NoPiece || st.Dir > West || st.From < 0 || st.From > 63 {
			t.Fatalf("%q: bad step %+v", s, st)
		}
		to := st.To()
		if to < 0 || to > 63 || neighbors[st.From]&to.Bit() == 0 {
			t.Fatalf("%q: goes to %d, not a neighbour of %s", s, to, st.From)
		}
		if back, err := ParseStep(st.String()); err != nil || back != st {
			t.Fatalf("%q: round trip gives %v, %v", s, back, err)
		}
	})
}

func FuzzParseSetup(f *testing.F) {
	for _, c := range []struct {
		silver bool
		s      string
	}{
		{false, rulesGoldSetup},
		{true, rulesSilverSetup},
		{false, "Ea1 Rb2"},
		{true, " ra7\trb7  eh8 "},
		// Malformed.
		{false, ""},
		{true, rulesGoldSetup},
		{false, rulesSilverSetup},
		{false, "Ra3"},
		{true, "ra2"},
		{false, rulesGoldSetup + " Ra1"},
		{false, "Ra1 Ca1"},
		{false, "Ea1 Eb1"},
		{false, "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ra2"},
		{false, "Ra"},
		{false, "Ra1x"},
		{false, "Xa1"},
		{false, "Rz1"},
		{true, "r\xff7"},
	} {
		f.Add(c.silver, c.s)
	}
	f.Fuzz(func(t *testing.T, silver bool, s string) {
		c := Gold
		home := Rank1 | Rank2
		if silver {
			c, home = Silver, Rank7|Rank8
		}
		pl, err := ParseSetup(c, s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		if len(pl) == 0 || len(pl) > 16 {
			t.Fatalf("%q: %d placements", s, len(pl))
		}
		var used Bitboard
		var counts [NumTypes]int
		for _, x := range pl {
			if x.Piece >= NoPiece || x.Piece.Color() != c {
				t.Fatalf("%q: %v is not a %s piece", s, x, c.Name())
			}
			if x.Square < 0 || x.Square > 63 || !home.Has(x.Square) {
				t.Fatalf("%q: %v off %s's ranks", s, x, c.Name())
			}
			if used.Has(x.Square) {
				t.Fatalf("%q: %s used twice", s, x.Square)
			}
			used |= x.Square.Bit()
			counts[x.Piece.Type()]++
			if counts[x.Piece.Type()] > StandardCount[x.Piece.Type()] {
				t.Fatalf("%q: too many %c", s, x.Piece.Letter())
			}
		}
		back, err := ParseSetup(c, FormatSetup(pl))
		if err != nil || len(back) != len(pl) {
			t.Fatalf("%q: FormatSetup %q does not parse back: %v", s, FormatSetup(pl), err)
		}
		for i := range pl {
			if back[i] != pl[i] {
				t.Fatalf("%q: round trip changes item %d", s, i)
			}
		}
	})
}
