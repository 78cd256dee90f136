package features

import (
	"math"

	"github.com/arimaalab/arimaalab/engine"
)

// The rabbits' goal threat in the form of Sharp's evaluation (David Wu's bot;
// the figures below are those of its rabbit evaluation): every rabbit off its
// home rank and off the goal is worth a value by its distance from the goal,
// its file, whether it is frozen, how far its side holds the enemy trap on its
// wing (by the trap control of control.go), how many enemy pieces block its
// way (by where they stand from it, the edges counting too) and which side has
// the strongest pieces near the squares before the goal on its wing. The
// rabbits' values are spread over the files and summed file by file as the
// root of the summed squares, so that rabbits side by side on one wing add up
// to less than their sum. Sharp adds the side to move's sum and subtracts the
// opponent's, in thousandths of a rabbit; here the sums are in rabbits.

// The rabbit evaluation's figures, in Sharp's units (a thousandth of a
// rabbit) or as factors.
var (
	// rgTrapByDist is the value of a rabbit's hold on the trap of its wing, by
	// its distance from the goal in ranks (0 on the goal).
	rgTrapByDist = [8]float64{2000, 790, 490, 380, 270, 150, 70, 0}
	// rgTrapByFile scales rgTrapByDist by the file counted from the nearer
	// edge (0 for a and h).
	rgTrapByFile = [4]float64{0.97398, 0.985342, 0.887231, 1.02873}
	// rgTrapFactor is the share of rgTrapByDist by the hold on the trap,
	// indexed by the control times 15/50 plus 30, within 0 and 60.
	rgTrapFactor = [61]float64{
		0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.08, 0.094, 0.112,
		0.131, 0.149, 0.168, 0.186, 0.194, 0.213, 0.231, 0.250, 0.265,
		0.283, 0.301, 0.319, 0.337, 0.355, 0.370, 0.385, 0.398, 0.411,
		0.424, 0.439, 0.451, 0.462, 0.476, 0.490, 0.506, 0.525, 0.545,
		0.568, 0.591, 0.615, 0.639, 0.652, 0.685, 0.708, 0.730, 0.752,
		0.774, 0.795, 0.815, 0.835, 0.853, 0.871, 0.889, 0.904, 0.922,
		0.940, 0.956, 0.974, 0.992, 1.010, 1.030,
	}
	// rgGoalByDist is a rabbit's value as a runner, by its distance from the
	// goal in ranks.
	rgGoalByDist = [8]float64{3000, 2200, 1770, 1400, 1040, 640, 270, 0}
	// rgGoalByFile scales rgGoalByDist by the file from the nearer edge.
	rgGoalByFile = [4]float64{1.04329, 0.986563, 0.920916, 1.04774}
	// rgFrozen scales both values: unfrozen (first three) or frozen (last
	// three), by the steps a friend needs to unfreeze it (0, 1, 2 or more).
	rgFrozen = [6]float64{1.05, 0.935, 0.920, 0.970, 0.970, 0.860}
	// rgBlocked scales the runner's value by how blocked its way is (see
	// rgBlocker), from 0 to 60.
	rgBlocked = [61]float64{
		1.440, 1.428, 1.416, 1.404, 1.392, 1.380, 1.368, 1.356, 1.344, 1.332,
		1.320, 1.308, 1.296, 1.284, 1.272, 1.260, 1.248, 1.236, 1.228, 1.217,
		1.185, 1.125, 1.041, 0.981, 0.826, 0.750, 0.673, 0.540, 0.427, 0.301,
		0.225, 0.195, 0.178, 0.167, 0.162, 0.158, 0.154, 0.150, 0.146, 0.143,
		0.139, 0.135, 0.132, 0.128, 0.125, 0.122, 0.120, 0.119, 0.117, 0.116,
		0.115, 0.114, 0.113, 0.112, 0.111, 0.110, 0.110, 0.109, 0.108, 0.107,
		0.107,
	}
	// rgStrongest scales the runner's value by the strongest pieces near the
	// squares before the goal on its wing (see strongestPoints), indexed by
	// the points plus 40, within 0 and 80.
	rgStrongest = [81]float64{
		0.214, 0.216, 0.218, 0.221, 0.224, 0.228, 0.232, 0.236, 0.242, 0.248,
		0.256, 0.266, 0.276, 0.286, 0.296, 0.306, 0.316, 0.326, 0.336, 0.346,
		0.356, 0.366, 0.376, 0.386, 0.397, 0.409, 0.421, 0.433, 0.446, 0.460,
		0.472, 0.484, 0.494, 0.504, 0.515, 0.526, 0.538, 0.551, 0.564, 0.579,
		0.595, 0.612, 0.632, 0.655, 0.680, 0.705, 0.733, 0.759, 0.787, 0.815,
		0.842, 0.867, 0.890, 0.910, 0.925, 0.940, 0.955, 0.970, 0.980, 0.990,
		1.000, 1.010, 1.020, 1.030, 1.040, 1.050, 1.060, 1.070, 1.080, 1.090,
		1.100, 1.105, 1.110, 1.115, 1.120, 1.125, 1.130, 1.135, 1.140, 1.145,
		1.150,
	}
	// rgBlocker is how much an enemy piece other than a rabbit blocks a
	// rabbit, by where it stands from it: [dy+3][dx+4], dy counted towards
	// the rabbit's goal. rgRabbitBlocker is the same for an enemy rabbit.
	rgBlocker = [11][9]int{
		{0, 0, 0, 1, 1, 1, 0, 0, 0},
		{0, 0, 1, 1, 2, 1, 1, 0, 0},
		{0, 1, 1, 2, 4, 2, 1, 1, 0},
		{1, 2, 3, 7, 0, 7, 3, 2, 1},
		{1, 2, 4, 7, 10, 7, 4, 2, 1},
		{1, 2, 3, 6, 7, 6, 3, 2, 1},
		{1, 2, 3, 5, 7, 5, 3, 2, 1},
		{1, 2, 3, 5, 6, 5, 3, 2, 1},
		{1, 2, 3, 5, 6, 5, 3, 2, 1},
		{1, 2, 3, 5, 6, 5, 3, 2, 1},
		{1, 2, 3, 5, 6, 5, 3, 2, 1},
	}
	rgRabbitBlocker = [11][9]int{
		{0, 0, 0, 0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 0},
		{0, 0, 1, 3, 0, 3, 1, 0, 0},
		{0, 0, 1, 2, 6, 2, 1, 0, 0},
		{0, 0, 1, 2, 5, 2, 1, 0, 0},
		{0, 0, 1, 2, 4, 2, 1, 0, 0},
		{0, 0, 1, 2, 4, 2, 1, 0, 0},
		{0, 0, 1, 2, 4, 2, 1, 0, 0},
		{0, 0, 1, 2, 4, 2, 1, 0, 0},
		{0, 0, 1, 2, 4, 2, 1, 0, 0},
	}
	// rgEdge is how much the edges block a rabbit by its file: on the rank
	// before its home rank (rgEdge[0]) and beyond (rgEdge[1]).
	rgEdge = [2][8]int{{8, 4, 2, 0, 0, 2, 4, 8}, {10, 5, 2, 0, 0, 2, 5, 10}}
	// rgBackFrom and rgBackTo bound, by the rabbit's file, the files of the
	// goal rank where enemy pieces side by side make a wall.
	rgBackFrom = [8]int{0, 0, 0, 1, 2, 3, 4, 4}
	rgBackTo   = [8]int{3, 3, 4, 5, 6, 7, 7, 7}
	// rgStrongestPoints gives, for the areas one to five steps around the
	// squares before the goal, the points of the first three strength places
	// (elephant down to cat) that one side alone holds.
	rgStrongestPoints = [5][3]int{{7, 4, 2}, {28, 14, 7}, {24, 12, 6}, {16, 8, 4}, {8, 4, 2}}
	// rgAnyPoints weighs, for the same areas, the count of pieces (a piece
	// other than a rabbit counting twice).
	rgAnyPoints = [5]int{0, 3, 2, 1, 0}
	// rgSpread spreads a rabbit's squared value over seven files centred on
	// its own (the squares of 0.07, 0.13, 0.19, 0.22, 0.19, 0.13, 0.07).
	rgSpread = [7]float64{0.07 * 0.07, 0.13 * 0.13, 0.19 * 0.19, 0.22 * 0.22, 0.19 * 0.19, 0.13 * 0.13, 0.07 * 0.07}
)

// Tables of the rabbit evaluation, computed once at start-up and never written
// afterwards.
var (
	// rgAreas[i][r] holds the squares r+1 steps or less from the squares
	// before the goal that anchor wing i: b7; d7 and e7; g7 (oriented view).
	rgAreas = func() (t [3][5]engine.Bitboard) {
		anchors := [3]engine.Bitboard{
			engine.Square(49).Bit(),
			engine.Square(51).Bit() | engine.Square(52).Bit(),
			engine.Square(54).Bit(),
		}
		for i, a := range anchors {
			for r := range t[i] {
				a |= a.Neighbors()
				t[i][r] = a
			}
		}
		return t
	}()
	// rgPlaces[r][mine][theirs] is the points of strongestPoints' area r
	// by the types from cat up (bit 0 cat, bit 4 elephant) that each side
	// has there.
	rgPlaces = func() (t [5][32][32]int8) {
		for r := range t {
			for mine := range 32 {
				for theirs := range 32 {
					place, points := 0, 0
					for b := 4; b >= 0 && place < len(rgStrongestPoints[r]); b-- {
						m, e := mine>>b&1 != 0, theirs>>b&1 != 0
						switch {
						case m && e:
						case m:
							points += rgStrongestPoints[r][place]
						case e:
							points -= rgStrongestPoints[r][place]
						default:
							continue
						}
						place++
					}
					t[r][mine][theirs] = int8(points)
				}
			}
		}
		return t
	}()
	// rgBlocks[0][sq][e] is how much an enemy piece other than a rabbit on e
	// blocks a rabbit on sq, rgBlocks[1] an enemy rabbit: by rgBlocker and
	// rgRabbitBlocker, any piece on the goal rank as a rabbit and 1 more (0
	// where e is outside rgWindowOf(sq)).
	rgBlocks = func() (t [2][64][64]int8) {
		for sq := range engine.Square(64) {
			for e := range engine.Square(64) {
				if !rgWindowOf(sq).Has(e) {
					continue
				}
				dy, dx := int(e.Rank())-int(sq.Rank())+3, int(e.File())-int(sq.File())+4
				if e.Rank() == 7 {
					t[0][sq][e] = int8(rgRabbitBlocker[dy][dx] + 1)
					t[1][sq][e] = t[0][sq][e]
					continue
				}
				t[0][sq][e] = int8(rgBlocker[dy][dx])
				t[1][sq][e] = int8(rgRabbitBlocker[dy][dx])
			}
		}
		return t
	}()
	// rgBlockBits[k][j][sq] holds the squares e where bit j of
	// rgBlocks[k][sq][e] is set: how much the enemy pieces on a set of
	// squares block, summed by bit (the figures are below 16).
	rgBlockBits = func() (t [2][4][64]engine.Bitboard) {
		for k := range rgBlocks {
			for sq := range engine.Square(64) {
				for e := range engine.Square(64) {
					for j := range t[k] {
						if rgBlocks[k][sq][e]>>j&1 != 0 {
							t[k][j][sq] |= e.Bit()
						}
					}
				}
			}
		}
		return t
	}()
	// rgWallFiles[f] holds the goal rank's squares where a wall blocks a
	// rabbit on file f.
	rgWallFiles = func() (t [8]engine.Bitboard) {
		for f := range t {
			t[f] = fileSpan(rgBackFrom[f], rgBackTo[f]) & rankMask(7)
		}
		return t
	}()
)

// rabbitInput holds what rabbitGoal needs of a position in the oriented view,
// the side whose rabbits are valued moving north: its pieces (base 0) and the
// enemy's (base oppBase), each side's frozen pieces, the pieces of either side
// beside a stronger enemy, and the side's control of the enemy traps on rank 6
// (west, east) as trapControls gives it.
type rabbitInput struct {
	o         *engine.Position
	frozen    engine.Bitboard
	free      engine.Bitboard
	dominated engine.Bitboard
	tcWest    int
	tcEast    int
}

// rabbitGoal returns the value of the rabbits of the side at base 0 of in.o as
// runners to the goal on rank 8, in rabbits.
func rabbitGoal(in *rabbitInput) float32 {
	o := in.o
	rabbits := o.Bits[rabbit] &^ rankMask(0) &^ rankMask(7)
	if rabbits == 0 {
		return 0
	}
	var wing [3]int
	for i := range rgAreas {
		wing[i] = strongestPoints(o, &rgAreas[i])
	}
	wingOf := [8]int{wing[0], wing[0], (wing[0] + wing[1]) / 2, wing[1], wing[1], (wing[2] + wing[1]) / 2, wing[2], wing[2]}

	oppOcc := o.Occ[opp]
	oppRab := o.Bits[oppBase+rabbit]
	goalRank := rankMask(7)
	// Enemy pieces on the goal rank flanked by enemies or edges, not beside
	// a stronger piece, make a wall.
	flankedW := ^(^oppOcc).West() // east neighbour an enemy, or the h file
	flankedE := ^(^oppOcc).East() // west neighbour an enemy, or the a file
	wall := goalRank & oppOcc & flankedW & flankedE &^ in.dominated
	var powered [8 + len(rgSpread) - 1]float64
	for b := rabbits; b != 0; b &= b - 1 {
		sq := b.First()
		rx, ry := int(sq.File()), int(sq.Rank())
		dist := 7 - ry
		xpos := min(rx, 7-rx)

		tc := in.tcWest
		switch rx {
		case 0, 1, 2:
		case 3:
			tc = (2*in.tcWest + in.tcEast) / 3
		case 4:
			tc = (2*in.tcEast + in.tcWest) / 3
		default:
			tc = in.tcEast
		}
		tcIdx := min(max(tc*15/50+30, 0), 60)

		frozenIdx := 0
		if in.frozen.Has(sq) {
			frozenIdx = 3 + min(unfreezeSteps(sq, in.frozen, in.free), 2)
		}

		// How blocked the way is: enemy pieces from three ranks behind the
		// rabbit to the goal, four files either side.
		blocked := 0
		for j := range 4 {
			blocked += ((oppOcc &^ oppRab & rgBlockBits[0][j][sq]).Count() + (oppRab & rgBlockBits[1][j][sq]).Count()) << j
		}
		blocked += (wall & rgWallFiles[rx]).Count()
		if ry == 1 {
			blocked += rgEdge[0][rx]
		} else {
			blocked += rgEdge[1][rx]
		}

		trapScore := rgTrapByDist[dist] * rgTrapByFile[xpos] * rgFrozen[frozenIdx] * rgTrapFactor[tcIdx]
		goalScore := rgGoalByDist[dist] * rgGoalByFile[xpos] * rgFrozen[frozenIdx] *
			rgBlocked[min(blocked, 60)] * rgStrongest[min(max(wingOf[rx]+40, 0), 80)]
		v := trapScore + goalScore
		v *= v
		for i, w := range rgSpread {
			powered[rx+i] += v * w
		}
	}
	sum := 0.0
	for _, p := range powered {
		sum += math.Sqrt(p)
	}
	return float32(sum / 1000)
}

// strongestPoints is Sharp's count of who holds the squares around an anchor:
// in areas, the squares one to five steps around it, points for the strongest types
// (elephant down to cat) that one side has there and the other does not, and
// in the areas two to four steps around it, the pieces each side has there.
// Positive favours the side at base 0.
func strongestPoints(o *engine.Position, areas *[5]engine.Bitboard) int {
	points := 0
	for r, area := range areas {
		mine := nonZero(o.Bits[cat]&area) | nonZero(o.Bits[dog]&area)<<1 | nonZero(o.Bits[horse]&area)<<2 |
			nonZero(o.Bits[camel]&area)<<3 | nonZero(o.Bits[elephant]&area)<<4
		theirs := nonZero(o.Bits[oppBase+cat]&area) | nonZero(o.Bits[oppBase+dog]&area)<<1 | nonZero(o.Bits[oppBase+horse]&area)<<2 |
			nonZero(o.Bits[oppBase+camel]&area)<<3 | nonZero(o.Bits[oppBase+elephant]&area)<<4
		points += int(rgPlaces[r][mine][theirs])
		if w := rgAnyPoints[r]; w != 0 {
			n := (o.Occ[own] & area).Count() + (o.Occ[own] &^ o.Bits[rabbit] & area).Count() -
				(o.Occ[opp] & area).Count() - (o.Occ[opp] &^ o.Bits[oppBase+rabbit] & area).Count()
			points += w * n
		}
	}
	return points / 2
}

// rgWindowOf returns the squares from three ranks behind sq to rank 8, four
// files either side of it.
func rgWindowOf(sq engine.Square) engine.Bitboard {
	f, r := int(sq.File()), int(sq.Rank())
	return fileSpan(max(f-4, 0), min(f+4, 7)) & rankSpan(max(r-3, 0), 7)
}

// fileSpan returns the files from a to b (0 = a file), inclusive.
func fileSpan(a, b int) engine.Bitboard {
	var m engine.Bitboard
	for f := a; f <= b; f++ {
		m |= engine.FileA << f
	}
	return m
}

// rankSpan returns the ranks from a to b (0 = rank 1), inclusive.
func rankSpan(a, b int) engine.Bitboard {
	var m engine.Bitboard
	for r := a; r <= b; r++ {
		m |= rankMask(r)
	}
	return m
}
