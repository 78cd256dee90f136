package features

import (
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// controlsOf returns trapControls of p, seen from the side to move.
func controlsOf(p *engine.Position) [4]int {
	var o engine.Position
	return threatInputOf(p, &o).tc
}

// TestTrapControlKnown checks the control on positions worked out by hand from
// the figures of control.go.
func TestTrapControlKnown(t *testing.T) {
	tests := []struct {
		name   string
		side   engine.Color
		pieces string
		tc     [4]int
	}{
		{
			// The elephant beside c6: (21+11)*40*16*68, a tenth more as the
			// attacker, >>15 = 46, and 2 for the one guard; two steps from f6
			// 24, less the rabbit's 2 ((16+11)*40*16*4>>15); four steps from
			// c3, 2.
			name:   "lone elephant",
			side:   engine.Gold,
			pieces: "Ed6 rh8",
			tc:     [4]int{2, 0, 48, 22},
		},
		{
			// The same seen by Silver: the board mirrored, Silver to move.
			name:   "lone elephant, Silver",
			side:   engine.Silver,
			pieces: "ed3 Rh1",
			tc:     [4]int{2, 0, 48, 22},
		},
		{
			// Home trap c3 with four guards: each rabbit has one stronger
			// enemy and none near: (16+11)*40*16 = 17280, times 68 beside
			// c3: 4 of them >>15 = 143, and 21 for the four guards. f3: d3
			// two steps away (36), the others four (4): 25. c6: c4 two
			// steps away, the others four, a tenth more as the attacker:
			// 27. f6: the enemy elephant four steps away,
			// (21+11)*640*4>>15 = 2 against.
			name:   "guarded home trap",
			side:   engine.Gold,
			pieces: "Rb3 Rd3 Rc4 Rc2 eh8",
			tc:     [4]int{164, 25, 27, -2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := build(t, tt.side, tt.pieces)
			if got := controlsOf(&p); got != tt.tc {
				t.Errorf("controls = %v, want %v", got, tt.tc)
			}
		})
	}
}

// refControls computes the controls square by square, the way the figures of
// control.go read, for TestTrapControlReference.
func refControls(p *engine.Position) [4]int {
	var o engine.Position
	orient(p, &o)
	frozen := [2]engine.Bitboard{o.Frozen(own), o.Frozen(opp)}
	colorAt := func(sq engine.Square) int {
		switch {
		case o.Occ[own].Has(sq):
			return 0
		case o.Occ[opp].Has(sq):
			return 1
		}
		return -1
	}
	typeOf := func(sq engine.Square) int { return int(o.At(sq).Type()) }
	adjacent := func(a, b engine.Square) bool { return a.Distance(b) == 1 }
	var sum [2][4]int
	for sq := range engine.Square(64) {
		c := colorAt(sq)
		if c < 0 {
			continue
		}
		t := typeOf(sq)
		ns, near, beside := 0, 0, 0
		for e := range engine.Square(64) {
			if colorAt(e) != 1-c || typeOf(e) <= t {
				continue
			}
			ns++
			if frozen[1-c].Has(e) {
				continue
			}
			if sq.Distance(e) <= 3 {
				near++
			}
			if adjacent(sq, e) {
				beside = 1
			}
		}
		uf := 0
		if frozen[c].Has(sq) {
			uf = ctlMaxUnfreeze
			for f := range engine.Square(64) {
				if f != sq && colorAt(f) == c && !frozen[c].Has(f) {
					uf = min(uf, sq.Distance(f)-1)
				}
			}
		}
		s := (ctlStronger[ns] + ctlNear[near]) * ctlFrozen[uf] * ctlBeside[beside]
		for i, tr := range traps {
			if d := sq.Distance(tr); d <= 4 {
				sum[c][i] += s * ctlDist[d]
			}
		}
	}
	var tc [4]int
	for i, tr := range traps {
		attacker := 1
		if i >= 2 {
			attacker = 0
		}
		sum[attacker][i] = sum[attacker][i] * ctlAttacker / 32
		v := sum[0][i]>>ctlShift - sum[1][i]>>ctlShift
		guards := [2]int{}
		for sq := range engine.Square(64) {
			if c := colorAt(sq); c >= 0 && adjacent(sq, tr) {
				guards[c]++
			}
		}
		v += ctlGuards[guards[0]] - ctlGuards[guards[1]]
		for _, key := range []engine.Square{trapBack[i], trapSide[i]} {
			bonus := 0
			dominated := func(sq engine.Square) bool {
				for e := range engine.Square(64) {
					if colorAt(e) == 1-attacker && typeOf(e) > typeOf(sq) && adjacent(sq, e) {
						return true
					}
				}
				return false
			}
			if colorAt(key) == attacker {
				if typeOf(key) != elephant && !dominated(key) {
					bonus = ctlKeyHeld
				}
			} else {
				for a := range engine.Square(64) {
					if colorAt(a) == attacker && adjacent(a, key) && typeOf(a) != elephant && !dominated(a) &&
						(colorAt(key) < 0 || typeOf(a) > typeOf(key)) {
						bonus = ctlKeyThreat
					}
				}
			}
			if attacker == 0 {
				v += bonus
			} else {
				v -= bonus
			}
		}
		for _, r := range []struct {
			dist, bonus int
			free        bool
		}{{2, ctlStrongest2, true}, {3, ctlStrongest3, false}} {
			for t := camel; t >= dog; t-- {
				var has [2]bool
				for sq := range engine.Square(64) {
					if c := colorAt(sq); c >= 0 && typeOf(sq) == t && sq.Distance(tr) <= r.dist && !(r.free && frozen[c].Has(sq)) {
						has[c] = true
					}
				}
				if has[0] && !has[1] {
					v += r.bonus
				}
				if has[1] && !has[0] {
					v -= r.bonus
				}
				if has[0] || has[1] {
					break
				}
			}
		}
		tc[i] = v
	}
	return tc
}

// TestTrapControlReference checks trapControls against refControls over
// positions of random play.
func TestTrapControlReference(t *testing.T) {
	for _, p := range randomPositions(3000, 5) {
		if got, want := controlsOf(&p), refControls(&p); got != want {
			t.Fatalf("%s: controls %v, reference %v", p.String(), got, want)
		}
	}
}
