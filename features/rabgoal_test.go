package features

import (
	"math"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// refRabbitGoal computes the rabbit evaluation of both sides square by square,
// the way the figures of rabgoal.go read, on the oriented view without
// mirroring it (the opponent's rabbits run south), for TestRabbitGoalReference.
func refRabbitGoal(p *engine.Position) [2]float64 {
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
	dominated := func(sq engine.Square) bool {
		for e := range engine.Square(64) {
			if c := colorAt(e); c >= 0 && c != colorAt(sq) && typeOf(e) > typeOf(sq) && sq.Distance(e) == 1 {
				return true
			}
		}
		return false
	}
	tc := refControls(p)
	var out [2]float64
	for c := range 2 {
		goalRank, home := 7, 0
		tcW, tcE := tc[2], tc[3]
		anchors := []engine.Square{49, 51, 52, 54}
		if c == 1 {
			goalRank, home = 0, 7
			tcW, tcE = -tc[0], -tc[1]
			anchors = []engine.Square{9, 11, 12, 14}
		}
		// Who holds the squares before the goal, by wing.
		wingPoints := func(anchor []engine.Square) int {
			points := 0
			for r := 1; r <= 5; r++ {
				in := func(sq engine.Square) bool {
					for _, a := range anchor {
						if sq.Distance(a) <= r {
							return true
						}
					}
					return false
				}
				place := 0
				for t := elephant; t >= cat && place < 3; t-- {
					var mine, theirs bool
					for sq := range engine.Square(64) {
						if k := colorAt(sq); k >= 0 && typeOf(sq) == t && in(sq) {
							if k == c {
								mine = true
							} else {
								theirs = true
							}
						}
					}
					if !mine && !theirs {
						continue
					}
					if mine && !theirs {
						points += rgStrongestPoints[r-1][place]
					}
					if theirs && !mine {
						points -= rgStrongestPoints[r-1][place]
					}
					place++
				}
				n := 0
				for sq := range engine.Square(64) {
					if k := colorAt(sq); k >= 0 && in(sq) {
						w := 1
						if typeOf(sq) != rabbit {
							w = 2
						}
						if k == c {
							n += w
						} else {
							n -= w
						}
					}
				}
				points += rgAnyPoints[r-1] * n
			}
			return points / 2
		}
		left := wingPoints(anchors[:1])
		centre := wingPoints(anchors[1:3])
		right := wingPoints(anchors[3:])
		wing := [8]int{left, left, (left + centre) / 2, centre, centre, (right + centre) / 2, right, right}

		var powered [14]float64
		for sq := range engine.Square(64) {
			if colorAt(sq) != c || typeOf(sq) != rabbit {
				continue
			}
			rx, ry := int(sq.File()), int(sq.Rank())
			if ry == goalRank || ry == home {
				continue
			}
			dist := ry - goalRank
			if dist < 0 {
				dist = -dist
			}
			xpos := min(rx, 7-rx)
			var rtc int
			switch {
			case rx <= 2:
				rtc = tcW
			case rx >= 5:
				rtc = tcE
			case rx == 3:
				rtc = (2*tcW + tcE) / 3
			default:
				rtc = (2*tcE + tcW) / 3
			}
			tcIdx := min(max(rtc*15/50+30, 0), 60)
			fi := 0
			if frozen[c].Has(sq) {
				uf := ctlMaxUnfreeze
				for f := range engine.Square(64) {
					if f != sq && colorAt(f) == c && !frozen[c].Has(f) {
						uf = min(uf, sq.Distance(f)-1)
					}
				}
				fi = 3 + min(uf, 2)
			}
			blocked := 0
			for e := range engine.Square(64) {
				if colorAt(e) != 1-c {
					continue
				}
				dx := int(e.File()) - rx
				dy := int(e.Rank()) - ry // towards the goal
				if c == 1 {
					dy = -dy
				}
				if dx < -4 || dx > 4 || dy < -3 {
					continue
				}
				switch {
				case int(e.Rank()) == goalRank:
					blocked += rgRabbitBlocker[dy+3][dx+4] + 1
				case typeOf(e) == rabbit:
					blocked += rgRabbitBlocker[dy+3][dx+4]
				default:
					blocked += rgBlocker[dy+3][dx+4]
				}
				// A wall: on the goal rank within the files of the rabbit's
				// wing, both neighbours on the rank enemies or edges.
				if int(e.Rank()) == goalRank && int(e.File()) >= rgBackFrom[rx] && int(e.File()) <= rgBackTo[rx] && !dominated(e) {
					wall := true
					for _, f := range []int{int(e.File()) - 1, int(e.File()) + 1} {
						if f >= 0 && f <= 7 && colorAt(engine.Square(goalRank*8+f)) != 1-c {
							wall = false
						}
					}
					if wall {
						blocked++
					}
				}
			}
			if ry == home+1 || ry == home-1 {
				blocked += rgEdge[0][rx]
			} else {
				blocked += rgEdge[1][rx]
			}
			v := rgTrapByDist[dist]*rgTrapByFile[xpos]*rgFrozen[fi]*rgTrapFactor[tcIdx] +
				rgGoalByDist[dist]*rgGoalByFile[xpos]*rgFrozen[fi]*rgBlocked[min(blocked, 60)]*rgStrongest[min(max(wing[rx]+40, 0), 80)]
			for i, w := range rgSpread {
				powered[rx+i] += v * v * w
			}
		}
		for _, q := range powered {
			out[c] += math.Sqrt(q)
		}
		out[c] /= 1000
	}
	return out
}

// TestRabbitGoalReference checks rabbit_goal_own and rabbit_goal_opp against
// refRabbitGoal over positions of random play, both sides to move.
func TestRabbitGoalReference(t *testing.T) {
	for _, p := range randomPositions(2000, 9) {
		var out [N]float32
		Extract(&p, out[:])
		want := refRabbitGoal(&p)
		got := [2]float64{float64(out[fRabbitGoalOwn]), float64(out[fRabbitGoalOpp])}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-4*math.Max(1, want[i]) {
				t.Fatalf("%s: rabbit goal %v, reference %v", p.String(), got, want)
			}
		}
	}
}

// TestRabbitGoalKnown checks the evaluation of one rabbit worked out by hand
// from the figures of rabgoal.go, and the same position mirrored.
func TestRabbitGoalKnown(t *testing.T) {
	// Gold's rabbit on d5, three ranks from the goal on the d file, unfrozen;
	// Gold's elephant on e4, Silver's elephant on a8 and rabbit on h8 (on its
	// home rank, so not valued).
	p := build(t, engine.Gold, "Rd5 Ee4 ea8 rh8")
	tc := controlsOf(&p)
	tcIdx := min(max((2*tc[2]+tc[3])/3*15/50+30, 0), 60)
	// Blockers: ea8 and rh8 stand on the goal rank four files or less away,
	// each 1 more than an enemy rabbit there blocks (0, three files and four
	// away); neither is a wall (beyond the files b to f); the d file adds 0.
	const blocked = 2
	// The centre wing (d7, e7): within 2 steps the rabbit (3 points a
	// piece); within 3 the elephant, Gold's alone (24), and two pieces
	// (the elephant counting twice; 2 points a piece); within 4 and 5 both
	// elephants (0), and as many pieces on each side. (3 + 24 + 6) / 2.
	const centre = 16
	v := rgTrapByDist[3]*rgTrapByFile[3]*rgFrozen[0]*rgTrapFactor[tcIdx] +
		rgGoalByDist[3]*rgGoalByFile[3]*rgFrozen[0]*rgBlocked[blocked]*rgStrongest[centre+40]
	v /= 1000
	if ref := refRabbitGoal(&p); math.Abs(ref[0]-v) > 1e-9 || ref[1] != 0 {
		t.Errorf("reference %v, by hand %.6f and 0", ref, v)
	}
	var out [N]float32
	Extract(&p, out[:])
	if math.Abs(float64(out[fRabbitGoalOwn])-v) > 1e-5 || out[fRabbitGoalOpp] != 0 {
		t.Errorf("rabbit_goal_own, _opp = %v, %v; by hand %.6f, 0", out[fRabbitGoalOwn], out[fRabbitGoalOpp], v)
	}
	m := mirror(&p)
	var mout [N]float32
	Extract(&m, mout[:])
	if mout[fRabbitGoalOwn] != out[fRabbitGoalOwn] || mout[fRabbitGoalOpp] != out[fRabbitGoalOpp] {
		t.Errorf("mirrored: %v, %v; want %v, %v", mout[fRabbitGoalOwn], mout[fRabbitGoalOpp], out[fRabbitGoalOwn], out[fRabbitGoalOpp])
	}
}
