package features

import (
	"math"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// threatInputOf computes the threats' input of p as Extract does; o receives
// p oriented for its side to move.
func threatInputOf(p *engine.Position, o *engine.Position) threatInput {
	orient(p, o)
	ge := new([2][engine.NumTypes + 1]engine.Bitboard)
	var dominated engine.Bitboard
	for ty := elephant; ty >= rabbit; ty-- {
		ge[own][ty] = ge[own][ty+1] | o.Bits[ty]
		ge[opp][ty] = ge[opp][ty+1] | o.Bits[oppBase+ty]
	}
	for ty := rabbit; ty < elephant; ty++ {
		dominated |= o.Bits[ty]&ge[opp][ty+1].Neighbors() | o.Bits[oppBase+ty]&ge[own][ty+1].Neighbors()
	}
	ctl := &controlInput{o: o, ge: ge, frozen: [2]engine.Bitboard{o.Frozen(own), o.Frozen(opp)}, dominated: dominated}
	return threatInput{ctl: ctl, tc: trapControls(ctl)}
}

// TestPieceThreatsKnown checks one threat worked out by hand from the figures
// of pthreat.go, and that it goes when the enemy loses the trap.
func TestPieceThreatsKnown(t *testing.T) {
	// Gold's cat on c2 guards its home trap c3 alone; Silver's elephant on
	// d3, beside the trap and two steps from the cat (so one step from
	// attacking it), holds the trap; Gold's elephant is far away on h8.
	p := build(t, engine.Gold, "Cc2 Eh8 ed3")
	tc := controlsOf(&p)
	enemyTC := -tc[0]
	if enemyTC < ptMinControl {
		t.Fatalf("Silver's control of c3 %d: the position threatens nothing", enemyTC)
	}
	// The cat's value: HarLog of Gold {E, C} against Silver {e}, less that
	// of Gold {E} against it, in thousandths of a rabbit.
	gold := [engine.NumTypes]int{cat: 1, elephant: 1}
	less := [engine.NumTypes]int{elephant: 1}
	silver := [engine.NumTypes]int{elephant: 1}
	v := (harlogSide(&gold, &silver) - harlogSide(&silver, &gold) - harlogSide(&less, &silver) + harlogSide(&silver, &less)) / harlogUnit * 1000
	// Steps to drag it in: 2 a step from the trap (1) and 2 a guard (1),
	// less 2 beside the trap, plus the elephant's one step to reach it: 3.
	// Unfrozen and not beside a stronger enemy: the factor of 0 steps (24).
	// The elephant's way to c3: 10 steps, the factor of 7 or more (79).
	value := (int(v) + 500) * 18 * 58 >> 12
	factor := (int(prop16(float64(enemyTC-45))) - 12) * 64 * 64 * 24 >> 18
	factor = factor * 79 >> 6
	want := float64(factor*value>>10) / 1000
	var out [N]float32
	Extract(&p, out[:])
	if math.Abs(float64(out[fPieceThreatOwn])-want) > 1e-6 || out[fPieceThreatOpp] != 0 {
		t.Errorf("piece_threat_own, _opp = %v, %v; by hand %.6f, 0", out[fPieceThreatOwn], out[fPieceThreatOpp], want)
	}
	if want <= 0 {
		t.Errorf("by hand %v: the position should threaten the cat", want)
	}
	// With Silver's elephant far from the trap, the trap is Gold's.
	q := build(t, engine.Gold, "Cc2 Eh8 eh1")
	Extract(&q, out[:])
	if out[fPieceThreatOwn] != 0 || out[fPieceThreatOpp] != 0 {
		t.Errorf("elephant away: piece_threat_own, _opp = %v, %v; want 0, 0", out[fPieceThreatOwn], out[fPieceThreatOpp])
	}
}

// TestPieceThreatsHeavy checks the heavy threat on a camel deep in the enemy's
// half worked out by hand.
func TestPieceThreatsHeavy(t *testing.T) {
	// Gold's camel on d6, Silver's elephant on c7 (beside the trap c6, two
	// steps from the camel: one step to attack it), Gold's elephant far on
	// a1. The camel is not beside a stronger enemy and has no Gold piece
	// ahead of it.
	p := build(t, engine.Gold, "Md6 Ea1 ec7")
	tc := controlsOf(&p)
	west := 0.35 - 0.012*float64(tc[2])
	east := 0.35 - 0.012*float64(tc[3])
	tcf := min(2.0/3.0*west+1.0/3.0*east, 1) // the d file
	if tcf <= 0 {
		t.Fatalf("Gold's control of c6 %d, f6 %d: no heavy threat", tc[2], tc[3])
	}
	gold := [engine.NumTypes]int{camel: 1, elephant: 1}
	less := [engine.NumTypes]int{elephant: 1}
	silver := [engine.NumTypes]int{elephant: 1}
	v := (harlogSide(&gold, &silver) - harlogSide(&silver, &gold) - harlogSide(&less, &silver) + harlogSide(&silver, &less)) / harlogUnit * 1000
	// d6 is the sixth rank (100 on the d file); one attack step (100).
	heavy := math.Trunc(100 * tcf * 100 * v * 0.04 / 10000 * 0.89)
	// The camel is within reach of the threats at c6 (m = 1) and f6 (m =
	// 3) too, as Sharp's threats abroad count it; those are taken from the
	// code, the heavy threat is what is checked by hand.
	var o engine.Position
	in := threatInputOf(&p, &o)
	var values [2][engine.NumTypes]float64
	pieceValues(&o, &values)
	if got := heavyThreats(&in, own, &values[own]); math.Abs(got-heavy) > 1e-9 {
		t.Errorf("heavy threat %v, by hand %v", got, heavy)
	}
	if got := heavyThreats(&in, opp, &values[opp]); got != 0 {
		t.Errorf("Silver's heavy threat %v, want 0", got)
	}
	// A Gold cat ahead of the camel on d7 (unfrozen: beside its camel)
	// quarters it.
	q := build(t, engine.Gold, "Md6 Cd7 Ea1 ec7")
	in = threatInputOf(&q, &o)
	pieceValues(&o, &values)
	if got, unblocked := heavyThreats(&in, own, &values[own]), heavy; got >= unblocked/2 {
		t.Errorf("camel behind its cat: heavy threat %v, want under half of %v", got, unblocked)
	}
}

// TestPieceThreatsBounds checks on random positions that threats are never
// negative and that no side's threats exceed the value of all its pieces.
func TestPieceThreatsBounds(t *testing.T) {
	for _, p := range randomPositions(2000, 5) {
		var out [N]float32
		Extract(&p, out[:])
		var o engine.Position
		orient(&p, &o)
		var values [2][engine.NumTypes]float64
		pieceValues(&o, &values)
		for c, f := range [2]int{fPieceThreatOwn, fPieceThreatOpp} {
			base, _, _, _ := sideOf(engine.Color(c))
			total := 0.0
			for ty := range engine.NumTypes {
				total += float64(o.Bits[base+ty].Count()) * values[c][ty] / 1000
			}
			if out[f] < 0 || float64(out[f]) > 2*total+1e-6 {
				t.Fatalf("%s: %s = %v, the side's pieces worth %v", p.String(), names[f], out[f], total)
			}
		}
	}
}

// BenchmarkPieceThreats measures the threats alone over random positions.
func BenchmarkPieceThreats(b *testing.B) {
	ps := randomPositions(256, 3)
	os := make([]engine.Position, len(ps))
	ins := make([]threatInput, len(ps))
	for i := range ps {
		ins[i] = threatInputOf(&ps[i], &os[i])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pieceThreats(&ins[i%len(ins)])
	}
}

// TestPieceLosses: pieceLosses is HarLog's difference before and after the
// loss (harlogSide of each side, as Sharp values a piece), capped, for every
// material of two sides up to the full set, and gives the loss of a rabbit
// from the full set as the threats truncate it: 1000, harlogUnit itself.
func TestPieceLosses(t *testing.T) {
	full := [engine.NumTypes]int{8, 2, 2, 2, 1, 1}
	var all [][engine.NumTypes]int
	for i := range 9 * 3 * 3 * 3 * 2 * 2 {
		var c [engine.NumTypes]int
		for ty, n := i, 0; n < engine.NumTypes; n++ {
			c[n] = ty % (full[n] + 1)
			ty /= full[n] + 1
		}
		all = append(all, c)
	}
	if len(all) != 972 {
		t.Fatalf("%d materials, want 972", len(all))
	}
	for _, c := range all {
		for _, e := range all {
			var got [engine.NumTypes]float64
			pieceLosses(&c, &e, &got)
			base := harlogSide(&c, &e) - harlogSide(&e, &c)
			prev := 0.0
			for ty := range engine.NumTypes {
				want := prev
				if c[ty] > 0 {
					less := c
					less[ty]--
					want = min((base-harlogSide(&less, &e)+harlogSide(&e, &less))/harlogUnit*ptThousandthsPerRabbit, ptValueCap)
					if ty == rabbit {
						want = min(want, ptRabbitValueCap)
					}
				}
				if math.Abs(got[ty]-want) > 1e-6 {
					t.Fatalf("%v against %v, type %d: %v, by harlogSide %v", c, e, ty, got[ty], want)
				}
				prev = want
			}
		}
	}
	for _, e := range all {
		var got [engine.NumTypes]float64
		pieceLosses(&full, &e, &got)
		if got[rabbit] != 1000 {
			t.Fatalf("a rabbit of the full set against %v: %v, want 1000", e, got[rabbit])
		}
	}
}
