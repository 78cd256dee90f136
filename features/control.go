package features

import (
	"math"

	"github.com/arimaalab/arimaalab/engine"
)

// Trap control by strength, after the form of Sharp's evaluation (David Wu's
// bot; the figures below are those of its trap control): every piece four
// steps or less from a trap adds to its side's control of that trap by how
// few enemy pieces are stronger than it, how many stronger enemy pieces are
// free near it, whether one stands beside it, how far it is from being
// unfrozen and how far it is from the trap. The guards beside a trap, the key
// squares behind and outside it and the strongest non-elephant piece near it
// add to that. The rabbit evaluation (rabgoal.go) reads the control of the
// trap on each rabbit's wing.

// The control's figures, in Sharp's integer units.
var (
	// ctlStronger is a piece's base strength by the number of enemy pieces
	// stronger than it.
	ctlStronger = [17]int{21, 16, 14, 12, 11, 10, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}
	// ctlNear is added by the number of free stronger enemy pieces three steps
	// or less away (fewer of them, more strength).
	ctlNear = [17]int{11, 6, 3, 1}
	// ctlDist weighs a piece by its distance from the trap.
	ctlDist = [5]int{61, 68, 36, 14, 4}
	// ctlBeside weighs a piece by whether a free stronger enemy stands beside
	// it (16 none, 13 one).
	ctlBeside = [2]int{16, 13}
	// ctlFrozen weighs a piece by the steps it needs to be unfrozen.
	ctlFrozen = [ctlMaxUnfreeze + 1]int{40, 36, 32, 28, 25, 21, 20}
	// ctlGuards is added for the number of a side's pieces beside the trap.
	ctlGuards = [5]int{0, 2, 11, 20, 21}
	// ctlDefence is Sharp's plain score of a home trap's guards (0 to 4
	// beside it), in thousandths of a rabbit; a guard on the square behind
	// the trap adds ctlDefenceBack and on the square outside it ctlDefenceSide.
	ctlDefence = [5]int{0, 0, 75, 95, 95}
)

const (
	// ctlMaxUnfreeze bounds the steps a frozen piece needs to be unfrozen.
	ctlMaxUnfreeze = 6
	// ctlShift divides the summed contributions.
	ctlShift = 15
	// ctlAttacker scales an attacker's contribution at an enemy trap (32nds).
	ctlAttacker = 35
	// ctlKeyHeld and ctlKeyThreat are added when an attacker holds, or
	// threatens, the square behind or outside a trap.
	ctlKeyHeld   = 7
	ctlKeyThreat = 5
	// ctlStrongest2 and ctlStrongest3 are added for having the strongest
	// non-elephant piece two (unfrozen) or three steps or less from the trap.
	ctlStrongest2 = 5
	ctlStrongest3 = 3
	// ctlCentre and ctlSlope place the logistic of an attack: half a trap's
	// worth at a control of ctlCentre, a factor e for every ctlSlope more.
	ctlCentre = 25
	ctlSlope  = 20
	// ctlDefenceBack and ctlDefenceSide: see ctlDefence.
	ctlDefenceBack = 60
	ctlDefenceSide = 30
	// ctlTableHalf bounds the controls attackTable holds; beyond it the
	// logistic is within 1e-4 of 0 or 1.
	ctlTableHalf = 240
)

// Tables of the control, computed once at start-up and never written afterwards.
var (
	// disk[k][sq] holds the squares k steps or less from sq (Manhattan), for
	// k up to 7.
	disk = func() (t [8][64]engine.Bitboard) {
		for sq := range engine.Square(64) {
			for to := range engine.Square(64) {
				for k := sq.Distance(to); k < len(t); k++ {
					t[k][sq] |= to.Bit()
				}
			}
		}
		return t
	}()
	// ctlReach[sq][i] is ctlDist of sq's distance from trap i, 0 beyond four
	// steps: a piece's weight in the control of each trap.
	ctlReach = func() (t [64][4]int) {
		for sq := range engine.Square(64) {
			for i, tr := range traps {
				if d := sq.Distance(tr); d < len(ctlDist) {
					t[sq][i] = ctlDist[d]
				}
			}
		}
		return t
	}()
	// trapBack and trapSide are the squares behind each trap (towards its
	// owner's home rank) and outside it (towards the nearer edge), in the
	// order of traps.
	trapBack = [4]engine.Square{sqC3 - 8, sqF3 - 8, sqC6 + 8, sqF6 + 8}
	trapSide = [4]engine.Square{sqC3 - 1, sqF3 + 1, sqC6 - 1, sqF6 + 1}
	// attackTable[i] is the logistic of (i - ctlTableHalf - ctlCentre)/ctlSlope.
	attackTable = func() (t [2*ctlTableHalf + 1]float32) {
		for i := range t {
			t[i] = float32(1 / (1 + math.Exp(-float64(i-ctlTableHalf-ctlCentre)/ctlSlope)))
		}
		return t
	}()
)

// attack returns the logistic of an attacker's control of a trap: Sharp's
// trap control score of it, as a share of the most a trap is worth.
func attack(control int) float32 {
	return attackTable[min(max(control+ctlTableHalf, 0), len(attackTable)-1)]
}

// trapDefence is the plain score of the side to move's home traps' guards
// less the opponent's, in rabbits: Sharp's trap defence.
func trapDefence(o *engine.Position) float32 {
	s := 0
	for i := range traps {
		c, sign := own, 1
		if i >= 2 {
			c, sign = opp, -1
		}
		v := ctlDefence[(o.Occ[c] & trapNbr[i]).Count()]
		if o.Occ[c].Has(trapBack[i]) {
			v += ctlDefenceBack
		}
		if o.Occ[c].Has(trapSide[i]) {
			v += ctlDefenceSide
		}
		s += sign * v
	}
	return float32(s) / 1000
}

// controlInput holds what the control needs of a position, computed once by
// Extract: the pieces of each side of each type or stronger, and the frozen ones.
type controlInput struct {
	o      *engine.Position
	ge     *[2][engine.NumTypes + 1]engine.Bitboard
	frozen [2]engine.Bitboard
	// dominated holds the pieces of either side beside a stronger enemy.
	dominated engine.Bitboard
}

// trapControls returns the control of each trap (in the order of traps) for
// the side to move: positive when it holds the trap.
func trapControls(in *controlInput) (tc [4]int) {
	o := in.o
	var sum [2][4]int
	for c := range 2 {
		color := engine.Color(c)
		base := 0
		if color == opp {
			base = oppBase
		}
		for t := range engine.NumTypes {
			b := o.Bits[base+t]
			if b == 0 {
				continue
			}
			ps := newStrength(in, color, t)
			for ; b != 0; b &= b - 1 {
				sq := b.First()
				s, w := ps.at(sq), &ctlReach[sq]
				sum[c][0] += s * w[0]
				sum[c][1] += s * w[1]
				sum[c][2] += s * w[2]
				sum[c][3] += s * w[3]
			}
		}
	}
	for i := range traps {
		// The attacker of a home trap is the opponent, of an enemy trap the
		// side to move.
		if i < 2 {
			sum[opp][i] = sum[opp][i] * ctlAttacker >> 5
		} else {
			sum[own][i] = sum[own][i] * ctlAttacker >> 5
		}
		v := sum[own][i]>>ctlShift - sum[opp][i]>>ctlShift
		v += ctlGuards[(o.Occ[own]&trapNbr[i]).Count()] - ctlGuards[(o.Occ[opp]&trapNbr[i]).Count()]
		if i < 2 {
			v -= keySquare(in, opp, trapBack[i]) + keySquare(in, opp, trapSide[i])
		} else {
			v += keySquare(in, own, trapBack[i]) + keySquare(in, own, trapSide[i])
		}
		v += strongestNear(o, disk[2][traps[i]], in.frozen, ctlStrongest2)
		v += strongestNear(o, disk[3][traps[i]], [2]engine.Bitboard{}, ctlStrongest3)
		tc[i] = v
	}
	return tc
}

// strength holds what pieceStrength needs of one colour and type: the base
// strength by the enemy pieces stronger, the free ones among those, and the
// colour's frozen and free pieces.
type strength struct {
	base         int
	strongerFree engine.Bitboard
	frozen, free engine.Bitboard
}

// newStrength returns the strength of colour c's pieces of type t.
func newStrength(in *controlInput, c engine.Color, t int) strength {
	enemy := 1 - c
	stronger := in.ge[enemy][t+1]
	return strength{
		base:         ctlStronger[stronger.Count()],
		strongerFree: stronger &^ in.frozen[enemy],
		frozen:       in.frozen[c],
		free:         in.o.Occ[c] &^ in.frozen[c],
	}
}

// at is pieceStrength of the piece on sq.
func (ps *strength) at(sq engine.Square) int {
	s := ps.base + ctlNear[min((disk[3][sq]&ps.strongerFree).Count(), 16)]
	beside := 0
	if sq.Bit().Neighbors()&ps.strongerFree != 0 {
		beside = 1
	}
	return s * ctlFrozen[unfreezeSteps(sq, ps.frozen, ps.free)] * ctlBeside[beside]
}

// pieceStrength is what the piece of colour c and type t on sq adds to its
// side's control of a trap before the weight of its distance from the trap:
// its strength by the enemy pieces stronger than it, more when none of them is
// free near it, times the factors for its freezing and for a free stronger
// enemy beside it.
func pieceStrength(in *controlInput, c engine.Color, t int, sq engine.Square) int {
	ps := newStrength(in, c, t)
	return ps.at(sq)
}

// unfreezeSteps is 0 for a piece that is not frozen, else the steps a free
// piece of its side (free) needs to come beside it, at most ctlMaxUnfreeze.
func unfreezeSteps(sq engine.Square, frozen, free engine.Bitboard) int {
	if !frozen.Has(sq) {
		return 0
	}
	for k := 2; k < len(disk); k++ {
		if disk[k][sq]&free != 0 {
			return min(k-1, ctlMaxUnfreeze)
		}
	}
	return ctlMaxUnfreeze
}

// keySquare is what attacker a gains at a key square of a trap it attacks:
// ctlKeyHeld when one of its pieces other than the elephant stands there with
// no stronger enemy beside it, else ctlKeyThreat when such a piece stands
// beside the square and is stronger than the defender's piece on it (or the
// square is empty).
func keySquare(in *controlInput, a engine.Color, sq engine.Square) int {
	o := in.o
	base, enemy := 0, 1
	if a == opp {
		base, enemy = oppBase, 0
	}
	dominated := in.dominated & o.Occ[a]
	bit := sq.Bit()
	if o.Occ[a]&bit != 0 {
		if o.Bits[base+elephant]&bit == 0 && dominated&bit == 0 {
			return ctlKeyHeld
		}
		return 0
	}
	stronger := o.Occ[a]
	if o.Occ[enemy]&bit != 0 {
		eb := oppBase - base
		stronger = in.ge[a][typeAt(o, eb, bit)+1]
	}
	if bit.Neighbors()&stronger&^o.Bits[base+elephant]&^dominated != 0 {
		return ctlKeyThreat
	}
	return 0
}

// strongestNear is +bonus when the strongest non-elephant type with a piece
// in area (not frozen) belongs to the side to move alone, -bonus when to the
// opponent alone, 0 when to both or none.
func strongestNear(o *engine.Position, area engine.Bitboard, frozen [2]engine.Bitboard, bonus int) int {
	for t := camel; t >= dog; t-- {
		g := o.Bits[t]&area&^frozen[own] != 0
		s := o.Bits[oppBase+t]&area&^frozen[opp] != 0
		switch {
		case g && !s:
			return bonus
		case s && !g:
			return -bonus
		case g:
			return 0
		}
	}
	return 0
}
