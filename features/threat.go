package features

import "github.com/arimaalab/arimaalab/engine"

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
// enemyGE[t] holds the enemy pieces of type t or stronger; frozen and
// enemyFrozen the frozen pieces of c and of the enemy.
func trapThreat(o *engine.Position, c engine.Color, loss *[4]float32, enemyGE *[engine.NumTypes + 1]engine.Bitboard, frozen, enemyFrozen engine.Bitboard) float32 {
	base := 0
	if c == opp {
		base = oppBase
	}
	// guards2[i] is twice the pieces of c beside trap i or on it.
	var guards2 [4]int
	for i, tr := range traps {
		guards2[i] = 2 * (o.Occ[c] & (trapNbr[i] | tr.Bit())).Count()
	}
	var s float32
	for t := rabbit; t < elephant; t++ {
		attackers := enemyGE[t+1]
		pieces := o.Bits[base+t] & threatArea
		if attackers == 0 || pieces == 0 {
			continue
		}
		reach, beside := attackReach(attackers&^enemyFrozen, attackers&enemyFrozen)
		for pieces &= reach[threatAttack]; pieces != 0; pieces &= pieces - 1 {
			sq := pieces.First()
			attack := 0
			for !reach[attack].Has(sq) {
				attack++
			}
			if attack >= 3 {
				attack++
			}
			var worst float32
			for i := range traps {
				k := int(trapDist[i][sq])
				if k > threatRadius {
					continue
				}
				n := 2*k + guards2[i] + attack
				if k <= 1 {
					n -= 2 // the piece is one of the guards counted
				}
				if n < len(threatSteps) {
					worst = max(worst, loss[i]*threatSteps[n])
				}
			}
			free := 0
			if beside.Has(sq) {
				free = 1
				if frozen.Has(sq) {
					free = 2
				}
			}
			s += pieceValue[t] * worst * threatFreedom[free]
		}
	}
	return s
}

// attackReach returns, for n from 0 to threatAttack, the squares beside
// which an enemy piece of free (unfrozen) or held (frozen) can stand in n
// steps or fewer: its distance to the square less one, one more when it is
// frozen. On an empty board the steps between two squares are their
// Manhattan distance, so each ring is the one before and its neighbours.
// beside holds the squares beside any of the pieces, frozen or not.
func attackReach(free, held engine.Bitboard) (reach [threatAttack + 1]engine.Bitboard, beside engine.Bitboard) {
	u, f := free.Neighbors(), held.Neighbors() // distance 1
	reach[0], beside = u, u|f
	for n := 1; n <= threatAttack; n++ {
		u |= u.Neighbors()
		reach[n] = u | f
		f |= f.Neighbors()
	}
	return reach, beside
}
