package features

import (
	"math"

	"github.com/arimaalab/arimaalab/engine"
)

// Piece threats in the form of Sharp's evaluation (David Wu's bot; the
// figures below are those of its threat evaluation): every piece other than
// the elephant four steps or less from a trap is threatened there by how many
// steps the enemy needs to drag it in (its distance from the trap, the trap's
// guards, friends in the way, how far the nearest stronger enemy is), by how
// well the enemy controls that trap (the trap control of control.go), by how
// frozen the piece is and how many friends stand nearer the trap, and by how
// far its own elephant is from helping. Pieces near their own home traps are
// threatened in one form, pieces near the enemy's traps in another (with the
// square they stand on and the piece types that can attack them counting), and
// a camel (or a horse with only the enemy elephant above it) deep in the
// enemy's half in a third. Sharp subtracts the side to move's threatened sum
// and adds the opponent's, in thousandths of a rabbit; here the sums are in
// rabbits. Left out: the share of a threat the elephant could reduce (which
// needs Sharp's frames, hostages and blockades) and the heavy threat's halving
// when the squares ahead are full.

// The threats' figures, in Sharp's units or as factors out of 64.
var (
	// ptTrapDist weighs a threat by the steps the enemy needs to drag the
	// piece into the trap (0 to 10).
	ptTrapDist = [ptMaxTrapDist + 1]float64{64, 62, 61, 58, 53, 34, 30, 22, 19, 9, 6}
	// ptHomeUnfreeze weighs a threat at a home trap by the steps the piece
	// needs to be unfrozen (0 when it is not beside a stronger enemy).
	ptHomeUnfreeze = [ctlMaxUnfreeze + 1]int{24, 33, 42, 51, 58, 64, 64}
	// ptAbroadAttack weighs a threat at an enemy trap by the steps a stronger
	// enemy needs to come beside the piece, by the piece's kind: a camel (one
	// enemy piece stronger), a horse (two), another non-rabbit, a rabbit.
	ptAbroadAttack = [4][ptMaxAttack + 1]float64{
		{66, 64, 62, 62},
		{60, 58, 56, 56},
		{62, 60, 58, 58},
		{64, 64, 64, 64},
	}
	// ptAbroadAttackNonEle is added to ptAbroadAttack by the steps a stronger
	// enemy other than the elephant needs to come beside the piece.
	ptAbroadAttackNonEle = [4][ptMaxAttack + 2]float64{
		{0, 0, 0, 0, 0},
		{12, 9, 6, 3, 0},
		{8, 6, 4, 2, 0},
		{0, 0, 0, 0, 0},
	}
	// ptAbroadUnfreeze weighs a threat at an enemy trap by the steps the
	// piece needs to be unfrozen (a rabbit's factor is averaged with 90).
	ptAbroadUnfreeze = [ctlMaxUnfreeze + 1]float64{27, 36, 44, 52, 58, 64, 64}
	// ptAbroadCloser weighs a threat at an enemy trap by how many of the
	// side's other pieces stand nearer the trap, or as near and unfrozen.
	ptAbroadCloser = [ptMaxCloser + 1]float64{74, 69, 64, 59, 54}
	// ptEleReach weighs a threat by the steps the side's elephant needs to
	// reach the trap or a square beside it (3 or fewer to 7 or more).
	ptEleReach = [8]float64{64, 64, 64, 64, 67, 72, 76, 79}
	// ptHeavyBase is the base of the heavy threat on a camel by the rank
	// counted from its side's home (0 the home rank) and the file.
	ptHeavyBase = [8][8]float64{
		{0, 0, 0, 0, 0, 0, 0, 0},
		{7, 5, 0, 8, 8, 0, 5, 7},
		{23, 24, 24, 28, 28, 24, 24, 23},
		{43, 46, 48, 50, 50, 48, 46, 43},
		{72, 76, 85, 87, 87, 85, 76, 72},
		{90, 90, 72, 100, 100, 72, 90, 90},
		{85, 90, 90, 100, 100, 90, 90, 85},
		{70, 85, 85, 85, 85, 85, 85, 70},
	}
	// ptHeavyAttack weighs the heavy threat by the steps the enemy elephant
	// needs to come beside the piece.
	ptHeavyAttack = [5]float64{160, 100, 90, 50, 40}
)

const (
	// ptMaxTrapDist bounds the steps to drag a piece into a trap.
	ptMaxTrapDist = 10
	// ptMaxRadius bounds a threatened piece's distance from the trap; at that
	// distance only pieces beside a stronger enemy count.
	ptMaxRadius = 4
	// ptMaxCloser bounds the side's pieces nearer the trap.
	ptMaxCloser = 4
	// ptMaxAttack bounds the steps a stronger enemy needs to come beside the
	// piece.
	ptMaxAttack = 3
	// ptMinControl and ptMinControlEarly are the enemy's control of a trap
	// below which it threatens nothing there.
	ptMinControl      = -25
	ptMinControlEarly = -50
	// ptControlCentre and ptControlSub centre the logistic of the enemy's
	// control and take off its value at ptMinControl.
	ptControlCentre = 45
	ptControlSub    = 12
	// ptHomeConst, ptHomeProp, ptAbroadConst and ptAbroadProp give a threat's
	// base value from the piece's value v: (v + const) * prop / 64.
	ptHomeConst   = 500
	ptHomeProp    = 18
	ptAbroadConst = 500.0
	ptAbroadProp  = 15.5
	// ptCap is the most of a piece's value (out of 128) its threats at enemy
	// traps may add up to.
	ptCap = 115
	// ptHeavyPercent, ptHeavyFrozen, ptHeavyScale and the ahead factors scale
	// the heavy threat.
	ptHeavyPercent         = 0.04
	ptHeavyFrozen          = 1.1
	ptHeavyAheadWeaker     = 0.60
	ptHeavyAheadClose      = 0.35
	ptHeavyAheadCloseFree  = 0.25
	ptHeavyEqualWeaker     = 0.85
	ptHeavyScale           = 0.89
	ptValueCap             = 20000
	ptRabbitValueCap       = 7000
	ptThousandthsPerRabbit = 1000
	// ptProp16Len is how many of the logistic's values prop16Table holds,
	// from the least control that threatens.
	ptProp16Len = 512
)

// Tables of the threats, computed once at start-up and never written afterwards.
var (
	// ptRing[i][m] holds the squares exactly m steps from trap i.
	ptRing = func() (t [4][ptMaxRadius + 1]engine.Bitboard) {
		for i := range traps {
			for sq := range engine.Square(64) {
				if d := trapDist[i][sq]; d <= ptMaxRadius {
					t[i][d] |= sq.Bit()
				}
			}
		}
		return t
	}()
	// prop16Table[i] is prop16 of the control ptMinControl+i less
	// ptControlCentre: the logistic of the enemy's control of a trap.
	prop16Table = func() (t [ptProp16Len]float64) {
		for i := range t {
			t[i] = prop16(float64(ptMinControl + i - ptControlCentre))
		}
		return t
	}()
	// ptAbroadSquare weighs a threat at an enemy trap by the square of the
	// piece, by its rank counted from its side's home and its file.
	ptAbroadSquare = func() (t [8][8]float64) {
		centre := [8]float64{66, 66, 66, 66, 67, 68, 67, 66}
		for r := range 8 {
			for f := range 8 {
				t[r][f] = 64
				if f == 3 || f == 4 {
					t[r][f] = centre[r]
				}
			}
		}
		return t
	}()
)

// threatInput holds what the threats need of a position, computed once by
// Extract.
type threatInput struct {
	ctl *controlInput
	// tc is the trap control for the side to move, as trapControls gives it.
	tc [4]int
}

// pieceThreats returns Sharp's threats on the side to move's pieces and on the
// opponent's, in rabbits.
func pieceThreats(in *threatInput) (ownSum, oppSum float64) {
	o := in.ctl.o
	var values [2][engine.NumTypes]float64
	pieceValues(o, &values)
	var threats [64]float64
	var sum [2]float64
	for c := range 2 {
		sum[c] += homeThreats(in, engine.Color(c), &values[c], &threats)
	}
	for c := range 2 {
		sum[c] += abroadThreats(in, engine.Color(c), &values[c], &threats)
	}
	for c := range 2 {
		sum[c] += heavyThreats(in, engine.Color(c), &values[c])
	}
	return sum[own] / ptThousandthsPerRabbit, sum[opp] / ptThousandthsPerRabbit
}

// pieceValues fills v[c][t] with what losing one piece of type t would cost
// side c by HarLog, in thousandths of a rabbit; a type with no piece takes the
// value of the type below it.
func pieceValues(o *engine.Position, v *[2][engine.NumTypes]float64) {
	var cnt [2][engine.NumTypes]int
	for t := range engine.NumTypes {
		cnt[own][t] = o.Bits[t].Count()
		cnt[opp][t] = o.Bits[oppBase+t].Count()
	}
	for c := range 2 {
		pieceLosses(&cnt[c], &cnt[1-c], &v[c])
	}
}

// pieceLosses fills v[t] with what losing one piece of type t costs the side
// with counts c against the enemy's e, by HarLog (harlogSide's difference
// before and after), in thousandths of a rabbit, capped; a type with no piece
// takes the value of the type below it. Only the terms the loss changes are
// computed: the piece's own term and the side's rabbit and piece logs, and
// the terms of the enemy's weaker pieces, which have one stronger piece less
// against them.
func pieceLosses(c, e *[engine.NumTypes]int, v *[engine.NumTypes]float64) {
	total := 0
	for _, n := range c {
		total += n
	}
	// The side's log of its pieces drops by one piece whatever the type.
	drop := lnCount[min(max(total, 1), 64)] - lnCount[min(max(total-1, 1), 64)]
	// strongerC[t] and strongerE[t] count each side's pieces stronger than t.
	var strongerC, strongerE [engine.NumTypes]int
	for t := elephant - 1; t >= rabbit; t-- {
		strongerC[t] = strongerC[t+1] + c[t+1]
		strongerE[t] = strongerE[t+1] + e[t+1]
	}
	// gains[t] is what the enemy's pieces weaker than type t (and not
	// rabbits) gain when the side has one piece stronger than them less.
	var gains [engine.NumTypes]float64
	for t := cat; t < elephant; t++ {
		gains[t+1] = gains[t]
		if k := strongerC[t]; k > 0 {
			gains[t+1] += float64(e[t]) * (harlogPiece[min(k-1, len(harlogPiece)-1)] - harlogPiece[min(k, len(harlogPiece)-1)])
		}
	}
	prev := 0.0
	for t := range engine.NumTypes {
		if c[t] == 0 {
			v[t] = prev
			continue
		}
		var x float64
		if t == rabbit {
			x = harlogG * (lnCount[min(c[rabbit], 64)] - lnCount[c[rabbit]-1] + drop)
		} else {
			x = harlogPiece[min(strongerE[t], len(harlogPiece)-1)] + harlogG*drop + gains[t]
		}
		// Snapped to a millionth: the loss of a rabbit from the full set is
		// harlogUnit itself, a thousand exactly, which the threats truncate.
		x = min(math.Round(x/harlogUnit*ptThousandthsPerRabbit*1e6)/1e6, ptValueCap)
		if t == rabbit {
			x = min(x, ptRabbitValueCap)
		}
		v[t] = x
		prev = x
	}
}

// sideOf returns the base of colour c's bitboards, the enemy colour, c's
// home traps (indices into traps) and the enemy's.
func sideOf(c engine.Color) (base int, enemy engine.Color, home, abroad [2]int) {
	if c == own {
		return 0, opp, [2]int{0, 1}, [2]int{2, 3}
	}
	return oppBase, own, [2]int{2, 3}, [2]int{0, 1}
}

// controlOf returns colour c's control of trap i.
func controlOf(in *threatInput, c engine.Color, i int) int {
	if c == own {
		return in.tc[i]
	}
	return -in.tc[i]
}

// prop16 is Sharp's logistic: 1024/(1+exp(-x/16)).
func prop16(x float64) float64 { return 1024 / (1 + math.Exp(-x/16)) }

// controlFactor is prop16 of the enemy's control tc of a trap (at least
// ptMinControl) less ptControlCentre, from prop16Table where it holds it.
func controlFactor(tc int) float64 {
	if i := tc - ptMinControl; i < len(prop16Table) {
		return prop16Table[i]
	}
	return prop16(float64(tc - ptControlCentre))
}

// typeOn returns the type of colour c's piece on sq (the square must hold one).
func typeOn(o *engine.Position, c engine.Color, sq engine.Square) int {
	base, _, _, _ := sideOf(c)
	return typeAt(o, base, sq.Bit())
}

// attackSteps returns the fewest steps a piece of colour enemy stronger than
// type t (and no stronger than the camel when nonEle) needs to come beside sq,
// a frozen one counting the steps to unfreeze it too, at most limit.
func attackSteps(in *controlInput, enemy engine.Color, t int, sq engine.Square, limit int, nonEle bool) int {
	o := in.o
	s := in.ge[enemy][t+1]
	if nonEle {
		eb, _, _, _ := sideOf(enemy)
		s &^= o.Bits[eb+elephant]
	}
	free := o.Occ[enemy] &^ in.frozen[enemy]
	best := limit
	for ; s != 0; s &= s - 1 {
		e := s.First()
		d := e.Distance(sq) - 1 + unfreezeSteps(e, in.frozen[enemy], free)
		best = min(best, d)
	}
	return best
}

// eleReach returns the index into ptEleReach for colour c's elephant and
// trap i: its Manhattan distance to the nearest of the trap and the squares
// beside it, within 3 and 7 (7 without an elephant).
func eleReach(o *engine.Position, c engine.Color, i int) int {
	base, _, _, _ := sideOf(c)
	e := o.Bits[base+elephant]
	if e == 0 {
		return 7
	}
	d := max(int(trapDist[i][e.First()])-1, 0)
	return min(max(d, 3), 7)
}

// dragSteps returns the steps the enemy needs to drag colour c's piece of
// type t on sq, m steps from trap i, into the trap, before the attacker's
// approach, and whether the piece is within reach at all.
func dragSteps(o *engine.Position, c engine.Color, t int, sq engine.Square, i, m int) (int, bool) {
	tr := traps[i]
	guards := (o.Occ[c] & trapNbr[i]).Count()
	if o.Occ[c].Has(tr) {
		guards++
	}
	d := 2*m + 2*guards
	if m <= 1 {
		d -= 2
	}
	// A friend directly in the way, on the same rank or file.
	if sq != tr && (sq.File() == tr.File() || sq.Rank() == tr.Rank()) {
		mid := sq
		switch {
		case tr.File() > sq.File():
			mid++
		case tr.File() < sq.File():
			mid--
		case tr.Rank() > sq.Rank():
			mid += 8
		default:
			mid -= 8
		}
		if o.Occ[c].Has(mid) {
			if typeOn(o, c, mid) == elephant {
				d += 3
			} else {
				d++
			}
			if d > ptMaxTrapDist {
				return d, false
			}
		}
	}
	// The trap stuffed with an enemy piece no stronger.
	enemy := 1 - c
	if o.Occ[enemy].Has(tr) && typeOn(o, enemy, tr) <= t {
		d++
	}
	return d, d <= ptMaxTrapDist
}

// homeThreats adds to threats the threats on colour c's pieces at its home
// traps and returns their sum, in thousandths of a rabbit.
func homeThreats(in *threatInput, c engine.Color, values *[engine.NumTypes]float64, threats *[64]float64) float64 {
	o := in.ctl.o
	base, enemy, home, _ := sideOf(c)
	nonEle := o.Occ[c] &^ o.Bits[base+elephant]
	sum := 0.0
	for _, i := range home {
		enemyTC := controlOf(in, enemy, i)
		if enemyTC < ptMinControl {
			continue
		}
		tcFactor := int(controlFactor(enemyTC)) - ptControlSub
		eleFactor := int(ptEleReach[eleReach(o, c, i)])
		closer := 0
		for m := 0; m <= ptMaxRadius; m++ {
			ring := ptRing[i][m]
			equalFree := nonEle & ring &^ in.ctl.frozen[c]
			cand := nonEle & ring
			if m == ptMaxRadius {
				cand &= in.ctl.dominated
			}
			newCloser := 0
			for b := cand; b != 0; b &= b - 1 {
				sq := b.First()
				newCloser++
				n := closer + equalFree.Count()
				if equalFree.Has(sq) {
					n--
				}
				if n > ptMaxCloser {
					continue
				}
				t := typeOn(o, c, sq)
				d, ok := dragSteps(o, c, t, sq, i, m)
				if !ok {
					continue
				}
				a := attackSteps(in.ctl, enemy, t, sq, ptMaxAttack+1, false)
				d += a
				if a >= 3 {
					d++
				}
				if a > ptMaxAttack || d > ptMaxTrapDist {
					continue
				}
				uf := 0
				if in.ctl.dominated.Has(sq) {
					uf = unfreezeSteps(sq, in.ctl.frozen[c], o.Occ[c]&^in.ctl.frozen[c])
				}
				value := (int(values[t]) + ptHomeConst) * ptHomeProp * int(ptTrapDist[d]) >> 12
				factor := tcFactor * 64 * 64 * ptHomeUnfreeze[uf] >> 18
				factor = factor * eleFactor >> 6
				s := float64(factor * value >> 10)
				threats[sq] += s
				sum += s
			}
			closer += newCloser
			if closer > ptMaxCloser {
				break
			}
		}
	}
	return sum
}

// abroadThreats adds to threats the threats on colour c's pieces at the
// enemy's home traps and returns their sum, in thousandths of a rabbit.
func abroadThreats(in *threatInput, c engine.Color, values *[engine.NumTypes]float64, threats *[64]float64) float64 {
	o := in.ctl.o
	base, enemy, _, abroad := sideOf(c)
	nonEle := o.Occ[c] &^ o.Bits[base+elephant]
	sum := 0.0
	for _, i := range abroad {
		if controlOf(in, enemy, i) < ptMinControlEarly {
			continue
		}
		eleFactor := ptEleReach[eleReach(o, c, i)]
		closer := 0
		for m := 0; m <= ptMaxRadius; m++ {
			ring := ptRing[i][m]
			equalFree := nonEle & ring &^ in.ctl.frozen[c]
			cand := nonEle & ring
			if m == ptMaxRadius {
				cand &= in.ctl.dominated
			}
			newCloser := 0
			for b := cand; b != 0; b &= b - 1 {
				sq := b.First()
				newCloser++
				n := closer + equalFree.Count()
				if equalFree.Has(sq) {
					n--
				}
				if n > ptMaxCloser {
					continue
				}
				t := typeOn(o, c, sq)
				d, ok := dragSteps(o, c, t, sq, i, m)
				if !ok {
					continue
				}
				a := attackSteps(in.ctl, enemy, t, sq, ptMaxAttack+1, false)
				d += a
				if a >= 3 {
					d++
				}
				if a > ptMaxAttack || d > ptMaxTrapDist {
					continue
				}
				stronger := in.ctl.ge[enemy][t+1].Count()
				kind := 2
				switch {
				case t == rabbit:
					kind = 3
				case stronger <= 1:
					kind = 0
				case stronger <= 2:
					kind = 1
				}
				aNonEle := 0
				if t != rabbit && stronger > 1 {
					aNonEle = attackSteps(in.ctl, enemy, t, sq, ptMaxAttack+1, true)
				}
				// The enemy's control with this piece gone from the trap.
				enemyTC := controlOf(in, enemy, i) + pieceStrength(in.ctl, c, t, sq)*ctlDist[m]*ctlAttacker>>5>>ctlShift
				if enemyTC < ptMinControl {
					continue
				}
				tcFactor := controlFactor(enemyTC) - ptControlSub
				uf := 0
				if in.ctl.dominated.Has(sq) {
					uf = unfreezeSteps(sq, in.ctl.frozen[c], o.Occ[c]&^in.ctl.frozen[c])
				}
				ufFactor := ptAbroadUnfreeze[uf]
				if t == rabbit {
					ufFactor = (ufFactor + 90) / 2
				}
				v := values[t]
				value := (v + ptAbroadConst) * ptAbroadProp / 64 * ptTrapDist[d] / 64
				attack := ptAbroadAttack[kind][a] + ptAbroadAttackNonEle[kind][aNonEle]
				rank := sq.Rank()
				if c == opp {
					rank = 7 - rank
				}
				factor := tcFactor * ptAbroadCloser[n] * attack * ufFactor * ptAbroadSquare[rank][sq.File()] * 64 * eleFactor
				s := math.Trunc(factor * value / (1 << 46))
				// A piece's threats stay below about nine tenths of its value.
				if limit := math.Trunc(v * ptCap / 128); threats[sq]+s > limit {
					s = limit - threats[sq]
				}
				threats[sq] += s
				sum += s
			}
			closer += newCloser
			if closer > ptMaxCloser {
				break
			}
		}
	}
	return sum
}

// heavyThreats returns the threat on colour c's camel (or a horse with only the
// enemy elephant stronger) deep in the enemy's half, in thousandths of a
// rabbit.
func heavyThreats(in *threatInput, c engine.Color, values *[engine.NumTypes]float64) float64 {
	o := in.ctl.o
	base, enemy, _, abroad := sideOf(c)
	sum := 0.0
	for t := camel; t >= horse; t-- {
		if in.ctl.ge[enemy][t+1].Count() != 1 {
			continue
		}
		for b := o.Bits[base+t]; b != 0; b &= b - 1 {
			sq := b.First()
			f, rank := sq.File(), sq.Rank()
			if c == opp {
				rank = 7 - rank
			}
			west := 0.35 - 0.012*float64(controlOf(in, c, abroad[0]))
			east := 0.35 - 0.012*float64(controlOf(in, c, abroad[1]))
			var tcFactor float64
			switch {
			case f <= 2:
				tcFactor = west
			case f == 3:
				tcFactor = 2.0/3.0*west + 1.0/3.0*east
			default:
				tcFactor = east
			}
			if tcFactor <= 0 {
				continue
			}
			tcFactor = min(tcFactor, 1)
			a := attackSteps(in.ctl, enemy, t, sq, 5, false)
			if a >= 5 {
				continue
			}
			v := ptHeavyBase[rank][f] * tcFactor * ptHeavyAttack[a] * values[t] * ptHeavyPercent / 10000
			free := o.Occ[c] &^ in.ctl.frozen[c]
			if unfreezeSteps(sq, in.ctl.frozen[c], free) > 0 {
				v *= ptHeavyFrozen
			}
			weaker := func(r, file int) (engine.Square, bool) {
				if r < 0 || r > 7 || file < 0 || file > 7 {
					return 0, false
				}
				s := engine.Square(file + 8*r)
				if c == opp {
					s = engine.Square(file + 8*(7-r))
				}
				return s, o.Occ[c].Has(s) && typeOn(o, c, s) < t
			}
			for dx := -1; dx <= 1; dx++ {
				if _, ok := weaker(rank+2, f+dx); ok {
					v *= ptHeavyAheadWeaker
				}
				if s, ok := weaker(rank+1, f+dx); ok {
					if unfreezeSteps(s, in.ctl.frozen[c], free) <= 0 {
						v *= ptHeavyAheadCloseFree
					} else {
						v *= ptHeavyAheadClose
					}
				}
				if _, ok := weaker(rank, f+dx); dx != 0 && ok {
					v *= ptHeavyEqualWeaker
				}
			}
			sum += math.Trunc(v * ptHeavyScale)
		}
	}
	return sum
}
