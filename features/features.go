// Package features turns an Arimaa position into a fixed vector of named numbers,
// seen from the side to move, for the linear evaluation and the datasets.
//
// The feature set is a stable ordered list of names (see Names); Version names the
// list, so that weights and datasets made for one feature set are never used with
// another. Every feature is a plain number of modest scale (roughly -20..20), most
// of them "own minus opponent", where own is the side to move. docs/features.md
// defines each feature and says why it matters.
//
// Extract computes the vector with bitboard operations only: it allocates nothing
// and takes well under a microsecond.
package features

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/bits"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// Feature indices, in the order of Names. N is the number of features.
const (
	fBias = iota
	fMatElephant
	fMatCamel
	fMatHorse
	fMatDog
	fMatCat
	fMatRabbit
	fHarLog
	fRabbitRank3
	fRabbitRank4
	fRabbitRank5
	fRabbitRank6
	fRabbitRank7
	fRabbitFreePath
	fGoalThreatOwn
	fGoalThreatOpp
	fGoalReach8Own
	fGoalReach8Opp
	fTrapHomeWest
	fTrapHomeEast
	fTrapEnemyWest
	fTrapEnemyEast
	fFrozenRabbits
	fFrozenCatsDogs
	fFrozenHorsesCamel
	fCaptureRiskOwn
	fCaptureRiskOpp
	fMobilityOwn
	fMobilityOpp
	fElephantCentrality
	fElephantMobility
	fCamelAdvance
	fHorseAdvance
	fHostagesHeld
	fHostagesLost
	fFrames
	fExposedOwn
	fExposedOpp
	fDraggableOwn
	fDraggableOpp
	// The piece-square features: own minus opponent counts by rank
	// and by file (see pieceSquare).
	fRabbitRank2
	fPSTCatRank1
	fPSTCatRank2
	fPSTCatRank4
	fPSTCatRank5
	fPSTCatRank6to8
	fPSTCatFileAH
	fPSTCatFileBG
	fPSTCatFileCF
	fPSTDogRank1
	fPSTDogRank2
	fPSTDogRank4
	fPSTDogRank5
	fPSTDogRank6to8
	fPSTDogFileAH
	fPSTDogFileBG
	fPSTDogFileCF
	fPSTHorseRank1
	fPSTHorseRank2
	fPSTHorseRank4
	fPSTHorseRank5
	fPSTHorseRank6to8
	fPSTHorseFileAH
	fPSTHorseFileBG
	fPSTHorseFileCF
	fPSTCamelRank1
	fPSTCamelRank2
	fPSTCamelRank4
	fPSTCamelRank5
	fPSTCamelRank6to8
	fPSTCamelFileAH
	fPSTCamelFileBG
	fPSTCamelFileCF
	fPSTElephantRank1
	fPSTElephantRank2
	fPSTElephantRank4
	fPSTElephantRank5
	fPSTElephantRank6to8
	fPSTElephantFileAH
	fPSTElephantFileBG
	fPSTElephantFileCF
	// Pieces near a trap the other side controls (see trapDanger).
	fTrapDangerOwn
	fTrapDangerOpp
	// Pieces the enemy can drag into a trap in few steps (see trapThreat).
	fTrapThreatOwn
	fTrapThreatOpp
	// The rabbits as runners to the goal, in Sharp's form (see rabbitGoal).
	fRabbitGoalOwn
	fRabbitGoalOpp
	// Sharp's threats on each side's pieces (see pieceThreats).
	fPieceThreatOwn
	fPieceThreatOpp
	// Sharp's trap control score (see attack and trapDefence).
	fTrapAttackOwn
	fTrapAttackOpp
	fTrapDefence

	// N is the number of features: the length of a feature vector.
	N = iota
)

// names holds the feature names in order. It is never modified.
var names = [N]string{
	fBias:                "bias",
	fMatElephant:         "material_elephant",
	fMatCamel:            "material_camel",
	fMatHorse:            "material_horse",
	fMatDog:              "material_dog",
	fMatCat:              "material_cat",
	fMatRabbit:           "material_rabbit",
	fHarLog:              "harlog",
	fRabbitRank3:         "rabbit_rank3",
	fRabbitRank4:         "rabbit_rank4",
	fRabbitRank5:         "rabbit_rank5",
	fRabbitRank6:         "rabbit_rank6",
	fRabbitRank7:         "rabbit_rank7",
	fRabbitFreePath:      "rabbit_free_path",
	fGoalThreatOwn:       "goal_threat_own",
	fGoalThreatOpp:       "goal_threat_opp",
	fGoalReach8Own:       "goal_reach8_own",
	fGoalReach8Opp:       "goal_reach8_opp",
	fTrapHomeWest:        "trap_home_west",
	fTrapHomeEast:        "trap_home_east",
	fTrapEnemyWest:       "trap_enemy_west",
	fTrapEnemyEast:       "trap_enemy_east",
	fFrozenRabbits:       "frozen_rabbits",
	fFrozenCatsDogs:      "frozen_cats_dogs",
	fFrozenHorsesCamel:   "frozen_horses_camel",
	fCaptureRiskOwn:      "capture_risk_own",
	fCaptureRiskOpp:      "capture_risk_opp",
	fMobilityOwn:         "mobility_own",
	fMobilityOpp:         "mobility_opp",
	fElephantCentrality:  "elephant_centrality",
	fElephantMobility:    "elephant_mobility",
	fCamelAdvance:        "camel_advance",
	fHorseAdvance:        "horse_advance",
	fHostagesHeld:        "hostages_held",
	fHostagesLost:        "hostages_lost",
	fFrames:              "frames",
	fExposedOwn:          "exposed_own",
	fExposedOpp:          "exposed_opp",
	fDraggableOwn:        "draggable_own",
	fDraggableOpp:        "draggable_opp",
	fRabbitRank2:         "rabbit_rank2",
	fPSTCatRank1:         "cat_rank1",
	fPSTCatRank2:         "cat_rank2",
	fPSTCatRank4:         "cat_rank4",
	fPSTCatRank5:         "cat_rank5",
	fPSTCatRank6to8:      "cat_rank6_8",
	fPSTCatFileAH:        "cat_file_ah",
	fPSTCatFileBG:        "cat_file_bg",
	fPSTCatFileCF:        "cat_file_cf",
	fPSTDogRank1:         "dog_rank1",
	fPSTDogRank2:         "dog_rank2",
	fPSTDogRank4:         "dog_rank4",
	fPSTDogRank5:         "dog_rank5",
	fPSTDogRank6to8:      "dog_rank6_8",
	fPSTDogFileAH:        "dog_file_ah",
	fPSTDogFileBG:        "dog_file_bg",
	fPSTDogFileCF:        "dog_file_cf",
	fPSTHorseRank1:       "horse_rank1",
	fPSTHorseRank2:       "horse_rank2",
	fPSTHorseRank4:       "horse_rank4",
	fPSTHorseRank5:       "horse_rank5",
	fPSTHorseRank6to8:    "horse_rank6_8",
	fPSTHorseFileAH:      "horse_file_ah",
	fPSTHorseFileBG:      "horse_file_bg",
	fPSTHorseFileCF:      "horse_file_cf",
	fPSTCamelRank1:       "camel_rank1",
	fPSTCamelRank2:       "camel_rank2",
	fPSTCamelRank4:       "camel_rank4",
	fPSTCamelRank5:       "camel_rank5",
	fPSTCamelRank6to8:    "camel_rank6_8",
	fPSTCamelFileAH:      "camel_file_ah",
	fPSTCamelFileBG:      "camel_file_bg",
	fPSTCamelFileCF:      "camel_file_cf",
	fPSTElephantRank1:    "elephant_rank1",
	fPSTElephantRank2:    "elephant_rank2",
	fPSTElephantRank4:    "elephant_rank4",
	fPSTElephantRank5:    "elephant_rank5",
	fPSTElephantRank6to8: "elephant_rank6_8",
	fPSTElephantFileAH:   "elephant_file_ah",
	fPSTElephantFileBG:   "elephant_file_bg",
	fPSTElephantFileCF:   "elephant_file_cf",
	fTrapDangerOwn:       "trap_danger_own",
	fTrapDangerOpp:       "trap_danger_opp",
	fTrapThreatOwn:       "trap_threat_own",
	fTrapThreatOpp:       "trap_threat_opp",
	fRabbitGoalOwn:       "rabbit_goal_own",
	fRabbitGoalOpp:       "rabbit_goal_opp",
	fPieceThreatOwn:      "piece_threat_own",
	fPieceThreatOpp:      "piece_threat_opp",
	fTrapAttackOwn:       "trap_attack_own",
	fTrapAttackOpp:       "trap_attack_opp",
	fTrapDefence:         "trap_defence",
}

// version is the feature-set version, computed once from the names.
var version = versionOf(names[:])

// Names returns the feature names in order: a new slice the caller may keep and
// modify. Names()[i] is the name of element i of a feature vector.
func Names() []string {
	out := make([]string, N)
	copy(out, names[:])
	return out
}

// Version returns the feature-set version, such as "f1-3fa1c2b4d5e6": "f1-"
// followed by the first 12 hex digits of the SHA-256 of the names joined by
// newlines. Any change to the list (a name added, removed, renamed or moved)
// changes the version; a change to the definition of a feature must rename it.
func Version() string { return version }

// Index returns the position of the named feature in a vector, or -1 if there
// is no feature of that name.
func Index(name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// versionOf derives a feature-set version from a list of names.
func versionOf(names []string) string {
	sum := sha256.Sum256([]byte(strings.Join(names, "\n")))
	return "f1-" + hex.EncodeToString(sum[:6])
}

// Piece types and colours in the oriented view (see orient): own is always Gold.
const (
	rabbit   = int(engine.Rabbit)
	cat      = int(engine.Cat)
	dog      = int(engine.Dog)
	horse    = int(engine.Horse)
	camel    = int(engine.Camel)
	elephant = int(engine.Elephant)
	own      = engine.Gold
	opp      = engine.Silver
	oppBase  = engine.NumTypes
)

// pieceValue is a rough value of each piece type in rabbits (about what HarLog
// gives for losing one from the opening set, the elephant capped at 10). It weighs
// capture risks, hostages and frames.
var pieceValue = [engine.NumTypes]float32{1, 1.5, 2, 3.5, 6.5, 10}

// The traps in the oriented view: the side to move's home traps on rank 3,
// the opponent's on rank 6.
const (
	sqC3 = engine.Square(18)
	sqF3 = engine.Square(21)
	sqC6 = engine.Square(42)
	sqF6 = engine.Square(45)
)

// Tables computed once at start-up from constant data and never written afterwards.
var (
	// traps lists the traps in the order of the trap features (home west, home
	// east, enemy west, enemy east), trapNbr the squares beside each.
	traps   = [4]engine.Square{sqC3, sqF3, sqC6, sqF6}
	trapNbr = [4]engine.Bitboard{sqC3.Bit().Neighbors(), sqF3.Bit().Neighbors(), sqC6.Bit().Neighbors(), sqF6.Bit().Neighbors()}
	// trapNear holds, for each trap, the squares two steps or less from it.
	trapNear = [4]engine.Bitboard{near2(sqC3), near2(sqF3), near2(sqC6), near2(sqF6)}
	// trapZone holds the squares beside a trap.
	trapZone = engine.Traps.Neighbors()
	// trapArea holds the squares two steps or less from a trap.
	trapArea = trapNear[0] | trapNear[1] | trapNear[2] | trapNear[3]
	// trapDist[i][sq] is the Manhattan distance from sq to trap i.
	trapDist = func() (t [4][64]int8) {
		for i, tr := range traps {
			for sq := range engine.Square(64) {
				t[i][sq] = int8(sq.Distance(tr))
			}
		}
		return t
	}()
	// centreDist[sq] is the Manhattan distance from sq to the nearest of d4, e4, d5, e5.
	centreDist = func() (t [64]int8) {
		for sq := range engine.Square(64) {
			f, r := sq.File(), sq.Rank()
			t[sq] = int8(centreOffset(f) + centreOffset(r))
		}
		return t
	}()
	// harlogPiece[k] is the HarLog value of a non-rabbit with k stronger enemy
	// pieces: 2/Q for none, else 1/(Q+k).
	harlogPiece = func() (t [64]float64) {
		t[0] = 2 / harlogQ
		for k := 1; k < len(t); k++ {
			t[k] = 1 / (harlogQ + float64(k))
		}
		return t
	}()
	// lnCount[i] is ln(i) for the HarLog rabbit term, with ln(0) taken as ln(1/2).
	lnCount = func() (t [65]float64) {
		t[0] = math.Log(0.5)
		for i := 1; i < len(t); i++ {
			t[i] = math.Log(float64(i))
		}
		return t
	}()
)

// centreOffset is the distance of file or rank index i from the central two (3 and 4).
func centreOffset(i int) int {
	if i <= 3 {
		return 3 - i
	}
	return i - 4
}

// HarLog constants, from Janzert's HarLog material evaluation.
const (
	harlogQ = 1.447530126
	harlogG = 0.6314442034
)

// harlogUnit is the HarLog value of the first rabbit lost from the full set,
// G*ln(8*16/(7*15)): HarLog is reported in these "rabbit" units.
var harlogUnit = harlogG * math.Log(8.0*16/(7*15))

// Extract fills out[:N] with the features of p from the point of view of the side
// to move. It panics if len(out) < N. It allocates nothing and is safe for
// concurrent use.
func Extract(p *engine.Position, out []float32) {
	extract(p, out, true)
}

// ExtractBase is Extract without the terms ported from Sharp's evaluation
// (see Ported), which it sets to 0: those terms take about three quarters of
// Extract's time, and an evaluation that does not weigh them needs none of
// them.
func ExtractBase(p *engine.Position, out []float32) {
	extract(p, out, false)
}

// Ported reports whether feature i is one of the terms ported from Sharp's
// evaluation: rabbit_goal_*, piece_threat_*, trap_attack_* and trap_defence.
func Ported(i int) bool {
	return i >= fRabbitGoalOwn && i <= fTrapDefence
}

// extract is Extract, with the ported terms when ported is true and 0 in
// their place otherwise.
func extract(p *engine.Position, out []float32, ported bool) {
	out = out[:N]
	var o engine.Position
	orient(p, &o)
	ob, pb := (*[6]engine.Bitboard)(o.Bits[:oppBase]), (*[6]engine.Bitboard)(o.Bits[oppBase:])
	ownOcc, oppOcc := o.Occ[own], o.Occ[opp]
	occ := ownOcc | oppOcc
	empty := ^occ

	// Material.
	var cOwn, cOpp [engine.NumTypes]int
	for t := range engine.NumTypes {
		cOwn[t] = ob[t].Count()
		cOpp[t] = pb[t].Count()
	}
	out[fBias] = 1
	out[fMatElephant] = float32(cOwn[elephant] - cOpp[elephant])
	out[fMatCamel] = float32(cOwn[camel] - cOpp[camel])
	out[fMatHorse] = float32(cOwn[horse] - cOpp[horse])
	out[fMatDog] = float32(cOwn[dog] - cOpp[dog])
	out[fMatCat] = float32(cOwn[cat] - cOpp[cat])
	out[fMatRabbit] = float32(cOwn[rabbit] - cOpp[rabbit])
	out[fHarLog] = float32((harlogSide(&cOwn, &cOpp) - harlogSide(&cOpp, &cOwn)) / harlogUnit)

	// Rabbits: advancement by rank counted from each side's home, free files.
	ownR, oppR := ob[rabbit], pb[rabbit]
	for k := 2; k <= 6; k++ {
		out[fRabbitRank3+k-2] = float32((ownR & rankMask(k)).Count() - (oppR & rankMask(7-k)).Count())
	}
	out[fRabbitFreePath] = float32((ownR &^ southFill(occ)).Count() - (oppR &^ northFill(occ)).Count())

	// Goal threats.
	own4, own8, opp4, opp8 := goalReach(empty)
	out[fGoalThreatOwn] = float32((ownR & own4).Count())
	out[fGoalThreatOpp] = float32((oppR & opp4).Count())
	out[fGoalReach8Own] = float32((ownR & own8 &^ own4).Count())
	out[fGoalReach8Opp] = float32((oppR & opp8 &^ opp4).Count())

	// Trap control.
	for i := range traps {
		out[fTrapHomeWest+i] = trapControl(&o, trapNbr[i])
	}

	// ge[c][t] holds the pieces of colour c of type t or stronger.
	var ge [2][engine.NumTypes + 1]engine.Bitboard
	for t := elephant; t >= rabbit; t-- {
		ge[own][t] = ge[own][t+1] | ob[t]
		ge[opp][t] = ge[opp][t+1] | pb[t]
	}
	// nbr[c][t] holds the squares beside a piece of colour c of type t or
	// stronger: where such a piece can push or pull a weaker one.
	var nbr [2][engine.NumTypes + 1]engine.Bitboard
	for t := elephant; t > rabbit; t-- {
		nbr[own][t] = ge[own][t].Neighbors()
		nbr[opp][t] = ge[opp][t].Neighbors()
	}

	// Freezing: a piece beside a stronger enemy and no friend is frozen
	// (engine.Position.Frozen's rule, here from nbr, which the threat
	// features need too, instead of computing the same squares again).
	var fOwn, fOpp engine.Bitboard
	for t := rabbit; t < elephant; t++ {
		fOwn |= ob[t] & nbr[opp][t+1]
		fOpp |= pb[t] & nbr[own][t+1]
	}
	dominated := fOwn | fOpp // pieces beside a stronger enemy
	fOwn &^= ownOcc.Neighbors()
	fOpp &^= oppOcc.Neighbors()
	out[fFrozenRabbits] = float32((fOwn & ob[rabbit]).Count() - (fOpp & pb[rabbit]).Count())
	out[fFrozenCatsDogs] = float32((fOwn & (ob[cat] | ob[dog])).Count() - (fOpp & (pb[cat] | pb[dog])).Count())
	out[fFrozenHorsesCamel] = float32((fOwn & (ob[horse] | ob[camel])).Count() - (fOpp & (pb[horse] | pb[camel])).Count())

	// Capture threats.
	out[fCaptureRiskOwn] = captureRisk(&o, own, &ge[opp])
	out[fCaptureRiskOpp] = captureRisk(&o, opp, &ge[own])

	// Mobility, in units of 8 steps.
	out[fMobilityOwn] = float32(mobility(ownOcc&^fOwn, ownR, empty, true)) / 8
	out[fMobilityOpp] = float32(mobility(oppOcc&^fOpp, oppR, empty, false)) / 8

	// Elephant, camel and horses.
	out[fElephantCentrality] = float32(elephantDist(pb[elephant]) - elephantDist(ob[elephant]))
	out[fElephantMobility] = float32(reach2(ob[elephant], empty) - reach2(pb[elephant], empty))
	out[fCamelAdvance] = float32(rankSum(ob[camel]) - (7*cOpp[camel] - rankSum(pb[camel])))
	out[fHorseAdvance] = float32(rankSum(ob[horse])-(7*cOpp[horse]-rankSum(pb[horse]))) / 2

	// Hostages and frames.
	out[fHostagesHeld] = valueOf(pb, fOpp&trapZone&^oppR)
	out[fHostagesLost] = valueOf(ob, fOwn&trapZone&^ownR)
	out[fFrames] = framed(&o, opp) - framed(&o, own)

	// Pieces within a stronger enemy's reach.
	out[fExposedOwn], out[fDraggableOwn] = exposure(&o, own, &nbr[opp])
	out[fExposedOpp], out[fDraggableOpp] = exposure(&o, opp, &nbr[own])

	// Piece squares.
	out[fRabbitRank2] = float32((ownR & rankMask(1)).Count() - (oppR & rankMask(6)).Count())
	pieceSquare(ob, pb, out[fPSTCatRank1:fPSTCatRank1+pstPerType*pstTypes])

	// Pieces near traps the enemy controls.
	var lossOwn [4]float32 // for each trap, the chance that it takes an own piece
	for i := range traps {
		lossOwn[i] = loseChance(trapInfluence(&o, 0, i) - trapInfluence(&o, oppBase, i))
	}
	var lossOpp [4]float32 // the same for the opponent's: logistic(-x) = 1 - logistic(x)
	for i := range lossOwn {
		lossOpp[i] = 1 - lossOwn[i]
	}
	out[fTrapDangerOwn] = trapDanger(&o, own, &lossOwn, &nbr[opp])
	out[fTrapDangerOpp] = trapDanger(&o, opp, &lossOpp, &nbr[own])

	// Pieces the enemy can bring into a trap it holds, by the steps it needs.
	out[fTrapThreatOwn] = trapThreat(&o, own, &lossOwn, &ge[opp], &nbr[opp], fOwn, fOpp)
	out[fTrapThreatOpp] = trapThreat(&o, opp, &lossOpp, &ge[own], &nbr[own], fOpp, fOwn)

	if !ported {
		for i := fRabbitGoalOwn; i <= fTrapDefence; i++ {
			out[i] = 0
		}
		return
	}

	// The rabbits as runners, each side's seen from its own home.
	ctl := controlInput{o: &o, ge: &ge, frozen: [2]engine.Bitboard{fOwn, fOpp}, dominated: dominated}
	tc := trapControls(&ctl)
	out[fRabbitGoalOwn] = rabbitGoal(&rabbitInput{o: &o, frozen: fOwn, free: ownOcc &^ fOwn, dominated: dominated, tcWest: tc[2], tcEast: tc[3]})
	var m engine.Position
	for t := range engine.NumTypes {
		m.Bits[t] = flip(pb[t])
		m.Bits[oppBase+t] = flip(ob[t])
	}
	m.Occ[own], m.Occ[opp] = flip(oppOcc), flip(ownOcc)
	out[fRabbitGoalOpp] = rabbitGoal(&rabbitInput{o: &m, frozen: flip(fOpp), free: flip(oppOcc &^ fOpp), dominated: flip(dominated), tcWest: -tc[0], tcEast: -tc[1]})

	// Sharp's threats on the pieces near the traps.
	thOwn, thOpp := pieceThreats(&threatInput{ctl: &ctl, tc: tc})
	out[fPieceThreatOwn] = float32(thOwn)
	out[fPieceThreatOpp] = float32(thOpp)

	// Sharp's score of the traps' control and guards.
	out[fTrapAttackOwn] = attack(tc[2]) + attack(tc[3])
	out[fTrapAttackOpp] = attack(-tc[0]) + attack(-tc[1])
	out[fTrapDefence] = trapDefence(&o)
}

// influenceHalf is how much a piece of each type weighs in the control of a
// trap when it stands on the trap or two steps from it, in twentieths of a
// unit (0.5, 0.65, 0.8, 1, 1.25, 1.75); beside the trap it weighs twice as
// much (1 for a rabbit, 3.5 for the elephant). Whole twentieths keep every
// control exact and make it an index of loseTable.
var influenceHalf = [engine.NumTypes]int{10, 13, 16, 20, 25, 35}

// trapInfluence sums the weights of the pieces of the colour at base two steps
// or less from trap i (see influenceHalf), in twentieths.
func trapInfluence(o *engine.Position, base int, i int) int {
	s := 0
	for t := range engine.NumTypes {
		if b := o.Bits[base+t] & trapNear[i]; b != 0 {
			s += influenceHalf[t] * (b.Count() + (b & trapNbr[i]).Count())
		}
	}
	return s
}

// loseChance turns a trap's control (own influence minus the opponent's, in
// twentieths) into the chance that a threatened own piece near it is lost
// there: the logistic of minus the control, one half when the two are even.
func loseChance(control int) float32 {
	return loseTable[min(max(control+loseRange*loseSteps, 0), len(loseTable)-1)]
}

const (
	// loseSteps is how many entries loseTable has per unit of control:
	// every control is a whole number of twentieths (see influenceHalf).
	loseSteps = 20
	// loseRange bounds the controls in the table; beyond it the chance is
	// within 1e-13 of 0 or 1.
	loseRange = 32
)

// loseTable holds 1/(1+exp(x)) for x from -loseRange to loseRange in steps
// of 1/loseSteps: loseChance looks the logistic up instead of taking an
// exponential four times a position.
var loseTable = func() (t [2*loseRange*loseSteps + 1]float32) {
	for i := range t {
		t[i] = float32(1 / (1 + math.Exp(float64(i-loseRange*loseSteps)/loseSteps)))
	}
	return t
}()

// dangerDist weighs a piece's danger by its distance from the trap: on it,
// beside it, two steps away; farther, nothing.
var dangerDist = [4]float32{1, 0.6, 0.3, 0}

// dangerRing[i][sq] is the index in dangerDist of the distance from sq to
// trap i.
var dangerRing = func() (t [4][64]uint8) {
	for i := range traps {
		for sq := range engine.Square(64) {
			t[i][sq] = uint8(min(trapDist[i][sq], 3))
		}
	}
	return t
}()

// trapDanger sums, over the pieces of colour c other than the elephant two
// steps or less from a trap, the piece's value times the chance that the
// nearby trap most dangerous to it takes it (loss[i], by the control of trap
// i, times dangerDist by the distance), for the pieces beside a stronger
// enemy piece, and at half for those with one two steps away: pieces the
// enemy can drag into a trap it holds. This is the shape of Sharp's trap
// threats: a piece is in danger by the strength near the trap, not only by
// the one push a capture search sees.
//
// enemyNbr[t] holds the squares beside an enemy piece of type t or stronger.
func trapDanger(o *engine.Position, c engine.Color, loss *[4]float32, enemyNbr *[engine.NumTypes + 1]engine.Bitboard) float32 {
	base := 0
	if c == opp {
		base = oppBase
	}
	var d float32
	for t := rabbit; t < elephant; t++ {
		pieces := o.Bits[base+t] & trapArea
		if pieces == 0 {
			continue
		}
		beside := enemyNbr[t+1]
		full := pieces & beside
		half := pieces &^ beside & beside.Neighbors()
		if full|half == 0 {
			continue
		}
		d += pieceValue[t] * (worstLoss(full, loss) + worstLoss(half, loss)/2)
	}
	return d
}

// worstLoss sums over the squares of b the worst of loss[i] times dangerDist
// by the distance, over the traps i two steps or less from the square.
func worstLoss(b engine.Bitboard, loss *[4]float32) float32 {
	var s float32
	for ; b != 0; b &= b - 1 {
		sq := b.First()
		worst := loss[0] * dangerDist[dangerRing[0][sq]&3]
		worst = maxWeight(worst, loss[1]*dangerDist[dangerRing[1][sq]&3])
		worst = maxWeight(worst, loss[2]*dangerDist[dangerRing[2][sq]&3])
		worst = maxWeight(worst, loss[3]*dangerDist[dangerRing[3][sq]&3])
		s += worst
	}
	return s
}

// The piece-square features: for each piece type from cat to elephant, in that
// order, pstPerType counts of own pieces less the opponent's, each side's
// ranks counted from its own home: on rank 1, 2, 4, 5, and 6 to 8 (rank 3,
// the home traps' rank, left out: the counts over every rank sum to the
// material), then on files a or h, b or g, c or f (d and e left out).
const (
	pstTypes   = 5
	pstPerType = 8
)

// pstSlot[sq] holds, for a piece of the side to move on sq (the own view),
// the index among a type's piece-square counts of its rank and of its file,
// pstPerType for a rank or file with no count (rank 3, files d and e). An
// opponent's piece counts at the mirrored rank: files are symmetric.
var pstSlot = func() (t [64][2]uint8) {
	rankSlot := [8]uint8{0, 1, pstPerType, 2, 3, 4, 4, 4}
	fileSlot := [8]uint8{5, 6, 7, pstPerType, pstPerType, 7, 6, 5}
	for sq := range engine.Square(64) {
		t[sq] = [2]uint8{rankSlot[sq.Rank()], fileSlot[sq.File()]}
	}
	return t
}()

// pieceSquare fills out[:pstTypes*pstPerType] with the piece-square counts of
// the oriented boards own and opp (see pstTypes): each piece adds one to the
// counts of its rank and file (the opponent's one less), which costs less
// than counting each type's boards under eight masks.
func pieceSquare(own, opp *[6]engine.Bitboard, out []float32) {
	out = out[:pstTypes*pstPerType]
	for i := range pstTypes {
		// n has a slot for the rank and file that have no count.
		var n [pstPerType + 1]int
		for b := own[cat+i]; b != 0; b &= b - 1 {
			slot := &pstSlot[b.First()&63]
			n[slot[0]]++
			n[slot[1]]++
		}
		for b := flip(opp[cat+i]); b != 0; b &= b - 1 {
			slot := &pstSlot[b.First()&63]
			n[slot[0]]--
			n[slot[1]]--
		}
		f := out[i*pstPerType : (i+1)*pstPerType]
		for k := range f {
			f[k] = float32(n[k])
		}
	}
}

// exposure returns two sums of the values of the pieces of colour c (its
// elephant aside) that stand beside a stronger enemy piece, which can push or
// pull them this turn: all of them (exposed), and those of them two steps or
// less from a trap with at most one piece of c beside it (draggable: a push or
// two, a pull or two, brings them onto a trap that does not hold them). These
// are the threats a one-turn capture search does not count: the enemy drags
// such a piece this turn and captures it the next.
//
// enemyNbr[t] holds the squares beside an enemy piece of type t or stronger.
func exposure(o *engine.Position, c engine.Color, enemyNbr *[engine.NumTypes + 1]engine.Bitboard) (exposed, draggable float32) {
	base := 0
	if c == opp {
		base = oppBase
	}
	var weak engine.Bitboard // squares two steps or less from a weakly held trap
	for i, n := range trapNbr {
		if (o.Occ[c] & n).Count() <= 1 {
			weak |= trapNear[i]
		}
	}
	for t := rabbit; t < elephant; t++ {
		at := o.Bits[base+t] & enemyNbr[t+1]
		if at == 0 {
			continue
		}
		exposed += float32(at.Count()) * pieceValue[t]
		draggable += float32((at & weak).Count()) * pieceValue[t]
	}
	return exposed, draggable
}

// orient writes into o the position p seen from the side to move: when Silver is
// to move, colours are swapped and ranks mirrored, so that the side to move is
// always Gold, moving north. Side and Hash of o are left zero.
func orient(p *engine.Position, o *engine.Position) {
	if p.Side == engine.Gold {
		o.Bits = p.Bits
		o.Occ = p.Occ
		return
	}
	for t := range engine.NumTypes {
		o.Bits[t] = flip(p.Bits[oppBase+t])
		o.Bits[oppBase+t] = flip(p.Bits[t])
	}
	o.Occ[own] = flip(p.Occ[engine.Silver])
	o.Occ[opp] = flip(p.Occ[engine.Gold])
}

// flip mirrors b top to bottom (rank 1 to rank 8).
func flip(b engine.Bitboard) engine.Bitboard {
	return engine.Bitboard(bits.ReverseBytes64(uint64(b)))
}

// near2 returns the squares two steps or less from sq, sq included.
func near2(sq engine.Square) engine.Bitboard {
	n := sq.Bit() | sq.Bit().Neighbors()
	return n | n.Neighbors()
}

// rankMask returns rank k (0 = rank 1).
func rankMask(k int) engine.Bitboard { return engine.Rank1 << (8 * k) }

// southFill returns the squares strictly south of some square of b in its file.
func southFill(b engine.Bitboard) engine.Bitboard {
	x := b >> 8
	x |= x >> 8
	x |= x >> 16
	x |= x >> 32
	return x
}

// northFill returns the squares strictly north of some square of b in its file.
func northFill(b engine.Bitboard) engine.Bitboard {
	x := b << 8
	x |= x << 8
	x |= x << 16
	x |= x << 32
	return x
}

// harlogSide is the HarLog score of one side with piece counts c against an
// opponent with counts e: for each non-rabbit 2/Q if no enemy piece is stronger,
// else 1/(Q + number of stronger enemy pieces); plus G*ln(rabbits*pieces), with
// ln(0 rabbits) taken as ln(1/2) so that the score stays finite.
func harlogSide(c, e *[engine.NumTypes]int) float64 {
	var s float64
	stronger := 0
	for t := elephant; t >= cat; t-- {
		s += float64(c[t]) * harlogPiece[min(stronger, len(harlogPiece)-1)]
		stronger += e[t]
	}
	total := 0
	for _, n := range c {
		total += n
	}
	return s + harlogG*(lnCount[min(c[rabbit], 64)]+lnCount[min(max(total, 1), 64)])
}

// northPred returns the squares from which a north-moving rabbit steps into x.
func northPred(x engine.Bitboard) engine.Bitboard { return x.South() | x.East() | x.West() }

// southPred returns the squares from which a south-moving rabbit steps into x.
func southPred(x engine.Bitboard) engine.Bitboard { return x.North() | x.East() | x.West() }

// goalReach returns the squares from which a rabbit of the side to move (own,
// goal rank 8) and one of the opponent (opp, goal rank 1), stepping only forward
// or sideways over empty squares, reach the goal in at most 4 and at most 8 steps.
func goalReach(empty engine.Bitboard) (own4, own8, opp4, opp8 engine.Bitboard) {
	// x and y are the empty squares at most k steps from each goal, k = 0 first.
	x, y := engine.Rank8&empty, engine.Rank1&empty
	for k := 1; k <= 7; k++ {
		x |= empty & northPred(x)
		y |= empty & southPred(y)
		if k == 3 {
			own4, opp4 = northPred(x), southPred(y)
		}
	}
	return own4, northPred(x), opp4, southPred(y)
}

// trapControl scores the pieces beside a trap (its neighbours n): own count minus
// opponent count, plus half the difference of the strongest type on each side
// (1 rabbit ... 6 elephant, 0 none).
func trapControl(o *engine.Position, n engine.Bitboard) float32 {
	a, b := o.Occ[own]&n, o.Occ[opp]&n
	if a|b == 0 {
		return 0
	}
	return float32(a.Count()-b.Count()) + 0.5*float32(strongest(o, 0, a)-strongest(o, oppBase, b))
}

// strongest returns 1 + the strongest type of the colour at base with a piece in
// n, or 0 if there is none.
func strongest(o *engine.Position, base int, n engine.Bitboard) int {
	if n == 0 {
		return 0
	}
	for t := elephant; t > rabbit; t-- {
		if o.Bits[base+t]&n != 0 {
			return t + 1
		}
	}
	return rabbit + 1
}

// nonZero returns 1 when b holds a square, 0 when it is empty, without a
// branch.
func nonZero(b engine.Bitboard) uint {
	return uint((b | -b) >> 63)
}

// typeAt returns the type of the piece of the colour at base on the one square
// of b, which must hold one: the type's three bits, each from the types that
// have it (cat 1, dog 2, horse 3, camel 4, elephant 5), without a branch.
func typeAt(o *engine.Position, base int, b engine.Bitboard) int {
	bs := (*[engine.NumTypes]engine.Bitboard)(o.Bits[base : base+engine.NumTypes])
	return int(nonZero((bs[cat]|bs[horse]|bs[elephant])&b) |
		nonZero((bs[dog]|bs[horse])&b)<<1 |
		nonZero((bs[camel]|bs[elephant])&b)<<2)
}

// captureRisk sums the values of the pieces of colour c that the enemy could
// capture in two steps, freezing ignored: at each trap with exactly one guard
// of c (a piece of c beside it) that stands beside a stronger enemy piece,
// either the trap is empty and the guard can be pushed into it, or a piece of c
// stands on the trap and falls when the guard is pushed or pulled away.
//
// enemyGE[t] holds the enemy pieces of type t or stronger.
func captureRisk(o *engine.Position, c engine.Color, enemyGE *[engine.NumTypes + 1]engine.Bitboard) float32 {
	base := 0
	if c == opp {
		base = oppBase
	}
	if o.Occ[c]&trapZone == 0 {
		return 0
	}
	var risk float32
	for i, n := range trapNbr {
		g := o.Occ[c] & n
		if g == 0 || g&(g-1) != 0 {
			continue
		}
		gt := typeAt(o, base, g)
		if enemyGE[gt+1]&g.Neighbors() == 0 {
			continue
		}
		tb := traps[i].Bit()
		switch {
		case o.Occ[c]&tb != 0:
			risk += pieceValue[typeAt(o, base, tb)]
		case o.Occ[c.Other()]&tb == 0:
			risk += pieceValue[gt]
		}
	}
	return risk
}

// mobility counts the single steps of the unfrozen pieces active (those of them
// in rabbits being rabbits) to empty squares, rabbits not stepping backward (south when
// north is true, else north).
func mobility(active, rabbits, empty engine.Bitboard, north bool) int {
	rabbits &= active
	m := (active.East() & empty).Count() + (active.West() & empty).Count()
	others := active &^ rabbits
	m += (others.North() & empty).Count() + (others.South() & empty).Count()
	if north {
		m += (rabbits.North() & empty).Count()
	} else {
		m += (rabbits.South() & empty).Count()
	}
	return m
}

// elephantDist returns the least centre distance of the elephants in e (6, the
// largest, when there is none).
func elephantDist(e engine.Bitboard) int {
	d := 6
	for ; e != 0; e &= e - 1 {
		d = min(d, int(centreDist[e.First()]))
	}
	return d
}

// reach2 counts the empty squares the pieces in b reach in one or two steps over
// empty squares.
func reach2(b, empty engine.Bitboard) int {
	r := b.Neighbors() & empty
	return ((r | r.Neighbors()) & empty).Count()
}

// rankSum returns the sum of the rank indices (0 = rank 1) of the squares of b.
func rankSum(b engine.Bitboard) int {
	s := 0
	for ; b != 0; b &= b - 1 {
		s += b.First().Rank()
	}
	return s
}

// valueOf sums the piece values of the pieces of bb (one colour's boards) on the
// squares of sel.
func valueOf(bb *[6]engine.Bitboard, sel engine.Bitboard) float32 {
	if sel == 0 {
		return 0
	}
	var v float32
	for t := range engine.NumTypes {
		v += float32((bb[t] & sel).Count()) * pieceValue[t]
	}
	return v
}

// framed sums the values of the pieces of colour c framed on a trap: standing on
// it with all four neighbours occupied, at least two of them by enemy pieces.
func framed(o *engine.Position, c engine.Color) float32 {
	base := 0
	if c == opp {
		base = oppBase
	}
	if o.Occ[c]&engine.Traps == 0 {
		return 0
	}
	occ := o.Occ[own] | o.Occ[opp]
	var v float32
	for i, n := range trapNbr {
		tb := traps[i].Bit()
		if o.Occ[c]&tb == 0 || n&^occ != 0 || (o.Occ[c.Other()]&n).Count() < 2 {
			continue
		}
		v += pieceValue[typeAt(o, base, tb)]
	}
	return v
}
