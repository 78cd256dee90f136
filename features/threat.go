package features

import (
	"math"

	"github.com/arimaalab/arimaalab/engine"
)

// The trap threat features count what Sharp's evaluation counts as a threat
// on a piece: how many steps the enemy needs to drag it into a trap, from
// the piece's distance to the trap, the trap's guards and how far the
// nearest stronger enemy piece is, weighed by the enemy's control of the
// trap and by whether the piece can run.

// threatSteps weighs a threat by the steps the enemy needs to capture the
// piece, 0 to 10: Sharp's weights by threat distance (64, 62, 61, 58, 53, 34,
// 30, 22, 19, 9, 6 out of 64; its eval/pthreats.cpp). A capture within the
// enemy's next turn counts nearly in full, one that needs two turns about a
// half to a tenth.
var threatSteps = [11]float32{
	64.0 / 64, 62.0 / 64, 61.0 / 64, 58.0 / 64, 53.0 / 64,
	34.0 / 64, 30.0 / 64, 22.0 / 64, 19.0 / 64, 9.0 / 64, 6.0 / 64,
}

// threatFreedom weighs a threatened piece by how well it can run: no
// stronger enemy piece beside it, one beside it but the piece unfrozen,
// frozen beside it.
var threatFreedom = [3]float32{0.45, 0.65, 1}

const (
	// threatRadius is how far (Manhattan distance) from a trap a piece can
	// stand and be threatened by it.
	threatRadius = 3
	// threatAttack is the most steps the nearest stronger enemy piece may
	// need to stand beside a threatened piece.
	threatAttack = 3
)

// threatArea holds the squares threatRadius steps or less from a trap.
var threatArea = func() (b engine.Bitboard) {
	for i := range traps {
		for sq := range engine.Square(64) {
			if trapDist[i][sq] <= threatRadius {
				b |= sq.Bit()
			}
		}
	}
	return b
}()

// threatFar is the threatBase of a square more than threatRadius steps from
// the trap: with any guards and attack added it indexes a zero of
// threatWeight.
const threatFar = 32

// threatBase[i][sq] is the part of the steps to capture a piece on sq at trap
// i that its square gives: two per step between them, less two when the piece
// stands on the trap or beside it (it is one of the guards counted);
// threatFar beyond threatRadius.
var threatBase = func() (t [4][64]int8) {
	for i := range traps {
		for sq := range engine.Square(64) {
			switch k := trapDist[i][sq]; {
			case k > threatRadius:
				t[i][sq] = threatFar
			case k <= 1:
				t[i][sq] = 2*k - 2
			default:
				t[i][sq] = 2 * k
			}
		}
	}
	return t
}()

// threatWeight is threatSteps followed by zeros, up to the largest step count
// a threat can be given (threatFar, ten for five guards, four for the
// attack): a capture of more than 10 steps weighs nothing.
var threatWeight = func() (t [threatFar + 15]float32) {
	copy(t[:], threatSteps[:])
	return t
}()

// threatAttackSteps[k] is the steps the attack adds when the nearest stronger
// enemy piece needs k steps to stand beside the piece: one more when that
// makes three or more.
var threatAttackSteps = [threatAttack + 1]int{0, 1, 2, 4}

// trapThreat sums, over the pieces of colour c other than the elephant, the
// piece's value times its worst threat over the traps threatRadius steps or
// less from it: loss[i] (the chance that trap i takes a piece of c, by its
// control) times threatSteps by the steps the enemy needs, times
// threatFreedom. The steps are two per step between the piece and the trap,
// two for each other piece of c beside the trap or on it (each must be
// pushed or pulled away), and those the nearest stronger enemy piece needs
// to stand beside the piece (its distance less one, one more when it is
// frozen, one more again when that makes three or more). A piece whose
// nearest stronger enemy needs more than threatAttack steps, or a capture
// that needs more than 10 steps, is not threatened.
//
// enemyGE[t] holds the enemy pieces of type t or stronger, enemyNbr[t] the
// squares beside them; frozen and enemyFrozen the frozen pieces of c and of
// the enemy.
func trapThreat(o *engine.Position, c engine.Color, loss *[4]float32, enemyGE, enemyNbr *[engine.NumTypes + 1]engine.Bitboard, frozen, enemyFrozen engine.Bitboard) float32 {
	base := 0
	if c == opp {
		base = oppBase
	}
	// guards2[i] is twice the pieces of c beside trap i or on it.
	var guards2 [4]int
	for i, tr := range traps {
		guards2[i] = 2 * (o.Occ[c] & (trapNbr[i] | tr.Bit())).Count()
	}
	ebase := oppBase - base
	// reach[t] holds the attack rings (see addReach) of the enemy pieces
	// stronger than type t: of the enemy's elephant first, then of each
	// weaker type added to those before it.
	var reach [elephant][threatAttack + 1]engine.Bitboard
	var acc [threatAttack + 1]engine.Bitboard
	for t := elephant; t > rabbit; t-- {
		addReach(&acc, o.Bits[ebase+t], enemyFrozen)
		reach[t-1] = acc
	}
	var s float32
	for t := rabbit; t < elephant; t++ {
		pieces := o.Bits[base+t] & threatArea
		if enemyGE[t+1] == 0 || pieces == 0 {
			continue
		}
		reach := &reach[t]
		beside := enemyNbr[t+1]
		for pieces &= reach[threatAttack]; pieces != 0; pieces &= pieces - 1 {
			sq := pieces.First()
			// The reach rings are nested: the steps the attack needs are
			// the rings before the first that holds sq.
			k := threatAttack - int(reach[0]>>sq&1+reach[1]>>sq&1+reach[2]>>sq&1)
			attack := threatAttackSteps[k]
			worst := loss[0] * threatWeight[int(threatBase[0][sq])+guards2[0]+attack]
			worst = maxWeight(worst, loss[1]*threatWeight[int(threatBase[1][sq])+guards2[1]+attack])
			worst = maxWeight(worst, loss[2]*threatWeight[int(threatBase[2][sq])+guards2[2]+attack])
			worst = maxWeight(worst, loss[3]*threatWeight[int(threatBase[3][sq])+guards2[3]+attack])
			free := int(beside >> sq & 1)
			free += free & int(frozen>>sq&1)
			s += pieceValue[t] * worst * threatFreedom[free]
		}
	}
	return s
}

// maxWeight returns the larger of two weights, which are never negative nor
// NaN: as such floats order as their bits do, the larger bits, without a
// branch (the built-in max handles NaN at the price of branches).
func maxWeight(a, b float32) float32 {
	x, y := int64(math.Float32bits(a)), int64(math.Float32bits(b))
	d := x - y
	return math.Float32frombits(uint32(x - d&(d>>63)))
}

// addReach adds to reach the attack rings of the enemy pieces on the
// squares of b: reach[n] holds the squares beside which an enemy piece can
// stand in n steps or fewer, its distance to the square less one, one more
// when it is frozen (in held). On an empty board the steps between two
// squares are their Manhattan distance, so an unfrozen piece's ring n is the
// squares n+1 steps or less from it (see attackBall), a frozen piece's n.
func addReach(reach *[threatAttack + 1]engine.Bitboard, b, held engine.Bitboard) {
	for ; b != 0; b &= b - 1 {
		sq := b.First()
		ball := &attackBall[sq]
		if held.Has(sq) {
			reach[1] |= ball[1]
			reach[2] |= ball[2]
			reach[3] |= ball[3]
			continue
		}
		reach[0] |= ball[1]
		reach[1] |= ball[2]
		reach[2] |= ball[3]
		reach[3] |= ball[4]
	}
}

// attackBall[sq][r] holds the squares r steps or less from sq, sq itself
// left out for r = 1 (no piece threatened stands on an enemy's square, so
// this only keeps the rings as the neighbours of the pieces give them).
var attackBall = func() (t [64][threatAttack + 2]engine.Bitboard) {
	for sq := range engine.Square(64) {
		for x := range engine.Square(64) {
			d := sq.Distance(x)
			for r := max(d, 1); r <= threatAttack+1; r++ {
				if d > 0 || r > 1 {
					t[sq][r] |= x.Bit()
				}
			}
		}
	}
	return t
}()
