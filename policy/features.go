// Package policy holds learned step priors: a linear model over features of
// one step (or of ending the turn) in a turn in progress, whose softmax over a
// node's actions gives the tree search its priors. It is fitted on the moves
// of strong players (see Fit and Examples), in the manner of the move
// ranking of David Wu's Arimaa work and the supervised policies of Go
// programs: a cheap model that tells the search which steps a strong player
// makes, so that among moves the evaluation values alike, it looks first at
// those.
package policy

import (
	"github.com/arimaalab/arimaalab/engine"
)

// Feature indices. Own steps are described by the piece's group, direction,
// destination and what the step does; enemy steps (the halves of pushes and
// pulls) by the piece moved and where it goes; ending the turn by the steps
// used.
const (
	// fOwn is the first of the six own-piece type features (rabbit to elephant).
	fOwn = 0
	// fFwd and fBack are the four groups' forward and backward steps (a
	// rabbit's backward step, never legal, keeps its slot at 0). A step that
	// completes a push has no feature of its own: every action of its node
	// completes the push.
	fFwd  = fOwn + engine.NumTypes
	fBack = fFwd + numGroups
	// fRank is the first of the groups' destination ranks (8 a group,
	// counted from the mover's home rank).
	fRank = fBack + numGroups
	// fFile is the first of the groups' destination files (4 a group, from
	// the edge to the centre).
	fFile = fRank + 8*numGroups
	// What an own step does.
	fOntoTrap      = fFile + 4*numGroups // onto a trap, a friend beside it
	fOwnLoss       = fOntoTrap + 1       // value of own pieces the step loses
	fEnemyLoss     = fOwnLoss + 1        // value of enemy pieces it captures
	fToStronger    = fEnemyLoss + 1      // ends beside a stronger enemy piece
	fFromStronger  = fToStronger + 1     // starts beside a stronger enemy piece
	fFrozenAfter   = fFromStronger + 1   // the piece is frozen after it
	fPullReady     = fFrozenAfter + 1    // it leaves a weaker enemy piece able to be pulled
	fGuardLeave    = fPullReady + 1      // it leaves a trap's side where it was the only guard
	fGuardJoin     = fGuardLeave + 1     // it steps beside a trap with no friend beside it
	fRabbitOpening = fGuardJoin + 1      // a rabbit steps forward while the enemy has all its pieces but rabbits
	// fEnemy is the first of the five enemy types a push or pull moves.
	fEnemy        = fRabbitOpening + 1
	fEnemyTrap    = fEnemy + engine.NumTypes - 1 // the enemy piece moved onto a trap
	fEnemyTowards = fEnemyTrap + 1               // moved towards the mover's home
	fEnemyAway    = fEnemyTowards + 1            // moved towards its own home
	fPullFinish   = fEnemyAway + 1               // completes a pull
	fEnemyOurHalf = fPullFinish + 1              // ends in the mover's half
	// fEnd is the first of ending the turn after 1, 2 or 3 steps.
	fEnd = fEnemyOurHalf + 1
	// N is the number of features.
	N = fEnd + 3
)

// numGroups is how many groups own pieces fall in: rabbits, cats and dogs,
// horses and camels, the elephant.
const numGroups = 4

// group is the group of each piece type.
var group = [engine.NumTypes]int{0, 1, 1, 2, 2, 3}

// groupNames names the groups in feature names.
var groupNames = [numGroups]string{"rabbit", "catdog", "horsecamel", "elephant"}

// typeNames names the piece types in feature names.
var typeNames = [engine.NumTypes]string{"rabbit", "cat", "dog", "horse", "camel", "elephant"}

// pieceValue is a rough value of each type in rabbits, as the evaluation's
// features weigh captures.
var pieceValue = [engine.NumTypes]float32{1, 1.5, 2, 3.5, 6.5, 10}

// names holds the feature names, in index order.
var names = func() []string {
	n := make([]string, N)
	for t := range engine.NumTypes {
		n[fOwn+t] = "own_" + typeNames[t]
	}
	for g := range numGroups {
		n[fFwd+g] = "forward_" + groupNames[g]
		n[fBack+g] = "backward_" + groupNames[g]
		for r := range 8 {
			n[fRank+8*g+r] = groupNames[g] + "_rank" + string(rune('1'+r))
		}
		for f := range 4 {
			n[fFile+4*g+f] = groupNames[g] + "_file" + string(rune('a'+f))
		}
	}
	n[fOntoTrap] = "onto_trap"
	n[fOwnLoss] = "own_loss"
	n[fEnemyLoss] = "enemy_loss"
	n[fToStronger] = "to_stronger"
	n[fFromStronger] = "from_stronger"
	n[fFrozenAfter] = "frozen_after"
	n[fPullReady] = "pull_ready"
	n[fGuardLeave] = "guard_leave"
	n[fGuardJoin] = "guard_join"
	n[fRabbitOpening] = "rabbit_opening"
	for t := range engine.NumTypes - 1 {
		n[fEnemy+t] = "enemy_" + typeNames[t]
	}
	n[fEnemyTrap] = "enemy_trap"
	n[fEnemyTowards] = "enemy_towards"
	n[fEnemyAway] = "enemy_away"
	n[fPullFinish] = "pull_finish"
	n[fEnemyOurHalf] = "enemy_our_half"
	for k := range 3 {
		n[fEnd+k] = "end_after" + string(rune('1'+k))
	}
	return n
}()

// Names returns the feature names, in index order (a new slice).
func Names() []string { return append([]string(nil), names...) }

// stronger returns the pieces of colour c stronger than type t.
func stronger(p *engine.Position, c engine.Color, t engine.PieceType) engine.Bitboard {
	var b engine.Bitboard
	for u := t + 1; u < engine.NumTypes; u++ {
		b |= p.Bits[engine.MakePiece(c, u)]
	}
	return b
}

// rankOf returns the rank of sq counted from the home rank of c (0 to 7).
func rankOf(sq engine.Square, c engine.Color) int {
	if c == engine.Gold {
		return sq.Rank()
	}
	return 7 - sq.Rank()
}

// fileClass returns 0 for the a and h files up to 3 for d and e.
func fileClass(sq engine.Square) int { return min(sq.File(), 7-sq.File()) }

// forward returns the direction towards the opponent's home for c.
func forward(c engine.Color) engine.Dir {
	if c == engine.Gold {
		return engine.North
	}
	return engine.South
}

// backward returns the direction towards c's own home.
func backward(c engine.Color) engine.Dir {
	if c == engine.Gold {
		return engine.South
	}
	return engine.North
}

// Extract sets out[:N] to the features of the step s in the turn t (s must
// be legal there), or, when s.Piece is engine.NoPiece, of ending the turn.
// It panics if len(out) < N.
func Extract(t *engine.Turn, s engine.Step, out []float32) {
	out = out[:N]
	clear(out)
	side := t.Pos.Side
	if s.Piece == engine.NoPiece {
		if k := int(t.Used) - 1; k >= 0 && k < 3 {
			out[fEnd+k] = 1
		}
		return
	}
	p := &t.Pos
	after := *t
	capt := after.Play(s)
	q := &after.Pos
	to := s.To()
	typ := s.Piece.Type()
	if capt.Piece != engine.NoPiece {
		if capt.Piece.Color() == side {
			out[fOwnLoss] = pieceValue[capt.Piece.Type()]
		} else {
			out[fEnemyLoss] = pieceValue[capt.Piece.Type()]
		}
	}
	if s.Piece.Color() != side {
		out[fEnemy+int(typ)] = 1
		if engine.Traps.Has(to) {
			out[fEnemyTrap] = 1
		}
		switch s.Dir {
		case backward(side):
			out[fEnemyTowards] = 1
		case forward(side):
			out[fEnemyAway] = 1
		}
		if from, _ := t.Pull(); from == to {
			out[fPullFinish] = 1
		}
		if rankOf(to, side) < 4 {
			out[fEnemyOurHalf] = 1
		}
		return
	}
	g := group[typ]
	out[fOwn+int(typ)] = 1
	switch s.Dir {
	case forward(side):
		out[fFwd+g] = 1
	case backward(side):
		out[fBack+g] = 1
	}
	out[fRank+8*g+rankOf(to, side)] = 1
	out[fFile+4*g+fileClass(to)] = 1
	if engine.Traps.Has(to) && capt.Piece == engine.NoPiece {
		out[fOntoTrap] = 1
	}
	enemy := side.Other()
	strong := stronger(p, enemy, typ)
	if strong&to.Bit().Neighbors() != 0 {
		out[fToStronger] = 1
	}
	if strong&s.From.Bit().Neighbors() != 0 {
		out[fFromStronger] = 1
	}
	if q.At(to) == s.Piece && q.Frozen(side).Has(to) {
		out[fFrozenAfter] = 1
	}
	if sq, _ := after.Pull(); sq != engine.NoSquare && after.StepsLeft() > 0 {
		weaker := p.Occ[enemy] &^ stronger(p, enemy, typ-1)
		if weaker&s.From.Bit().Neighbors() != 0 {
			out[fPullReady] = 1
		}
	}
	own := p.Occ[side] &^ s.From.Bit()
	for tr := engine.Traps; tr != 0; tr &= tr - 1 {
		trap := tr.First()
		nb := trap.Bit().Neighbors()
		if nb.Has(s.From) && !nb.Has(to) && own&nb == 0 {
			out[fGuardLeave] = 1
		}
		if nb.Has(to) && !nb.Has(s.From) && own&nb == 0 {
			out[fGuardJoin] = 1
		}
	}
	if typ == engine.Rabbit && s.Dir == forward(side) && (p.Occ[enemy]&^p.Bits[engine.MakePiece(enemy, engine.Rabbit)]).Count() == 8 {
		out[fRabbitOpening] = 1
	}
}
