package features

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

func TestNames(t *testing.T) {
	ns := Names()
	if len(ns) != N {
		t.Fatalf("len(Names()) = %d, N = %d", len(ns), N)
	}
	seen := map[string]int{}
	valid := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for i, n := range ns {
		if !valid.MatchString(n) {
			t.Errorf("name %d %q: want lower case letters, digits and _", i, n)
		}
		if j, ok := seen[n]; ok {
			t.Errorf("name %q at %d and %d", n, j, i)
		}
		seen[n] = i
		if Index(n) != i {
			t.Errorf("Index(%q) = %d, want %d", n, Index(n), i)
		}
	}
	if Index("no_such_feature") != -1 {
		t.Errorf("Index of an unknown name = %d, want -1", Index("no_such_feature"))
	}
	ns[0] = "changed"
	if Names()[0] == "changed" {
		t.Error("Names returns the package's own slice")
	}
}

func TestVersion(t *testing.T) {
	if got, want := Version(), versionOf(Names()); got != want {
		t.Errorf("Version() = %q, want versionOf(Names()) = %q", got, want)
	}
	format := regexp.MustCompile(`^f1-[0-9a-f]{12}$`)
	if !format.MatchString(Version()) {
		t.Errorf("Version() = %q, want f1- and 12 hex digits", Version())
	}
	base := []string{"bias", "harlog", "mobility_own"}
	tests := []struct {
		name  string
		names []string
		same  bool
	}{
		{"identical", []string{"bias", "harlog", "mobility_own"}, true},
		{"added", []string{"bias", "harlog", "mobility_own", "frames"}, false},
		{"removed", []string{"bias", "harlog"}, false},
		{"renamed", []string{"bias", "harlog2", "mobility_own"}, false},
		{"reordered", []string{"harlog", "bias", "mobility_own"}, false},
		{"joined differently", []string{"bias\nharlog", "mobility_own"}, true}, // same bytes: names never hold newlines
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.names) == versionOf(base); got != tt.same {
				t.Errorf("versionOf(%q) == versionOf(%q) is %v, want %v", tt.names, base, got, tt.same)
			}
		})
	}
}

// TestMirror checks that a position and its colour-flipped mirror (colours swapped,
// ranks mirrored, the other side to move) give exactly the same vector.
func TestMirror(t *testing.T) {
	ps := randomPositions(2000, 1)
	ps = append(ps, build(t, engine.Gold, standard), build(t, engine.Silver, standard))
	var a, b [N]float32
	for _, p := range ps {
		m := mirror(&p)
		Extract(&p, a[:])
		Extract(&m, b[:])
		if a != b {
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%s: %s = %v, mirrored %s: %v", p.String(), names[i], a[i], m.String(), b[i])
				}
			}
		}
	}
}

// TestRange checks that every feature is finite and of modest size over many
// positions of random play, and logs the ranges met.
func TestRange(t *testing.T) {
	var f [N]float32
	var lo, hi [N]float32
	for _, p := range randomPositions(3000, 2) {
		Extract(&p, f[:])
		for i, v := range f {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("%s: %s = %v", p.String(), names[i], v)
			}
			lo[i], hi[i] = min(lo[i], v), max(hi[i], v)
		}
	}
	for i := range f {
		limit := float32(30)
		if names[i] == "harlog" {
			limit = 80 // random play loses elephants: see docs/features.md
		}
		if lo[i] < -limit || hi[i] > limit {
			t.Errorf("%s ranges over [%v, %v]", names[i], lo[i], hi[i])
		}
		t.Logf("%-20s [%6.2f, %6.2f]", names[i], lo[i], hi[i])
	}
}

// harlogRef computes HarLog for Gold minus Silver from piece counts, written
// straight from the definition (in rabbit units).
func harlogRef(g, s [6]int) float64 {
	const q, gg = 1.447530126, 0.6314442034
	side := func(c, e [6]int) float64 {
		v := 0.0
		for t := 1; t < 6; t++ {
			stronger := 0
			for u := t + 1; u < 6; u++ {
				stronger += e[u]
			}
			for range c[t] {
				if stronger == 0 {
					v += 2 / q
				} else {
					v += 1 / (q + float64(stronger))
				}
			}
		}
		total := 0
		for _, n := range c {
			total += n
		}
		return v + gg*math.Log(float64(c[0]*total))
	}
	return (side(g, s) - side(s, g)) / (gg * math.Log(128.0/105))
}

func TestKnownValues(t *testing.T) {
	full := [6]int{8, 2, 2, 2, 1, 1}
	noCamel := [6]int{8, 2, 2, 2, 0, 1}
	sevenRabbits := [6]int{7, 2, 2, 2, 1, 1}
	standardNoSilverCamel := "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ca2 Db2 Hc2 Md2 Ee2 Hf2 Dg2 Ch2 " +
		"ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ca7 db7 hc7 ed7 hf7 dg7 ch7"
	standardNoGoldRabbit := "Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ca2 Db2 Hc2 Md2 Ee2 Hf2 Dg2 Ch2 " +
		"ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ca7 db7 hc7 ed7 me7 hf7 dg7 ch7"

	tests := []struct {
		name  string
		side  engine.Color
		board string
		want  map[string]float64
	}{
		{"opening", engine.Gold, standard, map[string]float64{
			"bias": 1, "material_camel": 0, "material_rabbit": 0, "harlog": 0,
			"rabbit_free_path": 0, "goal_threat_own": 0, "goal_threat_opp": 0,
			"frozen_rabbits": 0, "mobility_own": 1, "mobility_opp": 1,
			"trap_home_west": 1 + 0.5*4, "trap_enemy_west": -1 - 0.5*4, "elephant_centrality": 0,
			"capture_risk_own": 0, "capture_risk_opp": 0,
		}},
		{"up a camel", engine.Gold, standardNoSilverCamel, map[string]float64{
			"material_camel": 1, "material_elephant": 0, "harlog": harlogRef(full, noCamel),
		}},
		{"down a camel", engine.Silver, standardNoSilverCamel, map[string]float64{
			"material_camel": -1, "harlog": -harlogRef(full, noCamel),
		}},
		{"down a rabbit", engine.Gold, standardNoGoldRabbit, map[string]float64{
			"material_rabbit": -1, "harlog": harlogRef(sevenRabbits, full),
		}},
		{"rabbit free path", engine.Gold, "Rd5 ea8 rh7", map[string]float64{
			"rabbit_free_path": 0, "rabbit_rank5": 1, "goal_threat_own": 1, "goal_threat_opp": 0,
		}},
		{"rabbit path blocked", engine.Gold, "Rd5 ea8 rh7 cd7", map[string]float64{
			"rabbit_free_path": -1, "goal_threat_own": 1, // d5-d6-e6-e7-e8
		}},
		{"goal in 4", engine.Gold, "Rd4 ea8", map[string]float64{
			"goal_threat_own": 1, "goal_reach8_own": 0, "rabbit_rank4": 1,
		}},
		{"goal in 5", engine.Gold, "Rd3 ea8", map[string]float64{
			"goal_threat_own": 0, "goal_reach8_own": 1,
		}},
		{"goal in 5 around a block", engine.Gold, "Rd4 ea8 cd7", map[string]float64{
			"goal_threat_own": 0, "goal_reach8_own": 1,
		}},
		{"goal walled off", engine.Gold, "Rd6 ea1 cc7 cd7 ce7 dc6 de6", map[string]float64{
			"goal_threat_own": 0, "goal_reach8_own": 0,
		}},
		{"piece squares, opening", engine.Gold, standard, map[string]float64{
			"rabbit_rank2": 0, "cat_rank2": 0, "camel_rank1": 0, "elephant_file_cf": 0,
		}},
		{"piece squares", engine.Gold, "Ra2 Rb2 Rc7 Ch1 Ca3 Dd2 Hb4 Hg5 Mc1 Ed6 rh7 rg7 cb7 dd8 he6 mb3 ee5", map[string]float64{
			"rabbit_rank2":     2 - 2, // a2 b2 against g7 h7 (the opponent's rank 2)
			"cat_rank1":        1,     // h1; a3 on rank 3 counts nowhere; b7 is the opponent's rank 2
			"cat_rank2":        -1,
			"cat_file_ah":      2,
			"cat_file_bg":      -1,
			"dog_rank2":        1 - 0, // d2 against d8 (the opponent's rank 1)
			"dog_rank1":        -1,
			"dog_file_cf":      0,
			"horse_rank4":      1 - 0, // b4 against e6 (the opponent's rank 3)
			"horse_rank5":      1,     // g5
			"horse_file_bg":    2 - 0,
			"camel_rank1":      1,
			"camel_rank6_8":    -1, // b3 is the opponent's rank 6
			"camel_file_cf":    1,
			"camel_file_bg":    -1,
			"elephant_rank6_8": 1,  // d6
			"elephant_rank4":   -1, // e5 is the opponent's rank 4
			"elephant_file_cf": 0,
		}},
		{"piece squares, silver to move", engine.Silver, "Ra2 Rb2 Rc7 Ch1 Ca3 Dd2 Hb4 Hg5 Mc1 Ed6 rh7 rg7 cb7 dd8 he6 mb3 ee5", map[string]float64{
			"rabbit_rank2": 0, "cat_rank1": -1, "cat_rank2": 1, "cat_file_ah": -2, "cat_file_bg": 1,
			"horse_rank4": -1, "camel_rank6_8": 1, "elephant_rank6_8": -1, "elephant_rank4": 1,
		}},
		{"opponent goal threat", engine.Gold, "Ea1 re4", map[string]float64{
			"goal_threat_own": 0, "goal_threat_opp": 1, "rabbit_rank5": -1,
		}},
		{"opponent goal threat, silver to move", engine.Silver, "Ea1 re4", map[string]float64{
			"goal_threat_own": 1, "goal_threat_opp": 0, "rabbit_rank5": 1,
		}},
		{"frozen own rabbit", engine.Gold, "Rd4 cd5", map[string]float64{
			"frozen_rabbits": 1, "frozen_cats_dogs": 0,
		}},
		{"rabbit unfrozen by a friend", engine.Gold, "Rd4 Dd3 cd5", map[string]float64{
			"frozen_rabbits": 0,
		}},
		{"frozen enemy horse", engine.Gold, "Ed4 hd5 Rh2 rh7", map[string]float64{
			"frozen_horses_camel": -1, "frozen_rabbits": 0,
		}},
		{"trap control, elephant at c3", engine.Gold, "Ec4", map[string]float64{
			"trap_home_west": 1 + 0.5*6, "trap_home_east": 0, "trap_enemy_west": 0,
		}},
		{"trap control, contested", engine.Gold, "Ec4 db3", map[string]float64{
			"trap_home_west": 0 + 0.5*(6-3),
		}},
		{"trap control, silver view", engine.Silver, "Ec4 db3", map[string]float64{
			"trap_enemy_west": 0 + 0.5*(3-6), "trap_home_west": 0,
		}},
		// c3: the dog beside it weighs 1.6, the elephant two steps away 3.5/2;
		// the dog is beside the elephant, one step from c3.
		{"trap danger, dog beside an elephant", engine.Gold, "Dc4 ed4 Eh8", map[string]float64{
			"trap_danger_own": 2 * 0.6 / (1 + math.Exp(1.6-1.75)), "trap_danger_opp": 0,
		}},
		{"trap danger, silver view", engine.Silver, "Dc4 ed4 Eh8", map[string]float64{
			"trap_danger_own": 0, "trap_danger_opp": 2 * 0.6 / (1 + math.Exp(1.6-1.75)),
		}},
		// A friendly cat beside c3 holds it (1.6+1.3, the elephant on e4 three
		// steps away); c6, two steps from the dog, with only the dog near
		// (0.8), is the worse trap; the dog's stronger enemy is two steps
		// away (half).
		{"trap danger, guarded and further", engine.Gold, "Dc4 Cb3 ee4 Eh8", map[string]float64{
			"trap_danger_own": 2 * 0.3 / (1 + math.Exp(0.8)) / 2,
		}},
		{"trap danger, no stronger enemy near", engine.Gold, "Dc4 ch4 Eh8", map[string]float64{
			"trap_danger_own": 0,
		}},
		// The dog on c4 is the only guard of c3 (2 steps to push it in) and
		// frozen beside the elephant; c3's control is 1.6 - 3.5/2.
		{"trap threat, a frozen guard", engine.Gold, "Dc4 ed4 Eh8", map[string]float64{
			"trap_threat_own": 2 * 61.0 / 64 / (1 + math.Exp(1.6-1.75)), "trap_threat_opp": 0,
		}},
		{"trap threat, silver view", engine.Silver, "Dc4 ed4 Eh8", map[string]float64{
			"trap_threat_own": 0, "trap_threat_opp": 2 * 61.0 / 64 / (1 + math.Exp(1.6-1.75)),
		}},
		// The elephant needs a step to reach the dog, which runs freely
		// (0.45). At c3 two guards: 2 + 4 + 1 - 2 = 5 steps, control 2.9;
		// at c6 none: 4 + 1 = 5 steps, control 0.8, the worse. The cat on b3
		// is 4 steps from the elephant (3, and one more): c3 in 2 + 4 + 4 - 2
		// = 8 steps, the only trap 3 steps or less from it.
		{"trap threat, guarded and further", engine.Gold, "Dc4 Cb3 ee4 Eh8", map[string]float64{
			"trap_threat_own": 2*34.0/64/(1+math.Exp(0.8))*0.45 + 1.5*19.0/64/(1+math.Exp(2.9))*0.45,
		}},
		{"trap control, f6", engine.Gold, "Mf7 Re6 dg6", map[string]float64{
			"trap_enemy_east": 1 + 0.5*(5-3),
		}},
		{"dog can be pushed into c3", engine.Gold, "Dc4 hc5", map[string]float64{
			"capture_risk_own": 2, "capture_risk_opp": 0,
		}},
		{"dog can be pushed into c3, silver to move", engine.Silver, "Dc4 hc5", map[string]float64{
			"capture_risk_own": 0, "capture_risk_opp": 2,
		}},
		{"second guard saves the dog", engine.Gold, "Dc4 Rb3 hc5", map[string]float64{
			"capture_risk_own": 0,
		}},
		{"rabbit on trap, lone guard", engine.Gold, "Rc3 Cd3 de3", map[string]float64{
			"capture_risk_own": 1,
		}},
		{"rabbit on trap, guard not threatened", engine.Gold, "Rc3 Cd3 re3", map[string]float64{
			"capture_risk_own": 0,
		}},
		{"horse beside the enemy elephant, c6 held by one silver piece", engine.Gold, "Hc5 ed5 rb6", map[string]float64{
			"exposed_own": 3.5, "draggable_own": 3.5, "exposed_opp": 0, "draggable_opp": 0,
		}},
		{"horse beside the enemy elephant, every trap near held twice", engine.Gold, "Hd5 ee5 Cb6 Dd6", map[string]float64{
			"exposed_own": 3.5, "draggable_own": 0,
		}},
		{"a rabbit beside a rabbit is not exposed; beside a cat it is", engine.Gold, "Rd5 re5 Ra8 ca7", map[string]float64{
			"exposed_own": 1, "draggable_own": 0,
		}},
		{"exposure seen from silver", engine.Silver, "Hc5 ed5 rb6", map[string]float64{
			"exposed_own": 0, "exposed_opp": 3.5, "draggable_opp": 3.5,
		}},
		{"the elephant is never exposed", engine.Gold, "Ed4 ed5", map[string]float64{
			"exposed_own": 0, "exposed_opp": 0,
		}},
		{"elephant mobility and centre", engine.Gold, "Ed4 ea8", map[string]float64{
			"elephant_centrality": 6, "elephant_mobility": 12 - 5,
		}},
		{"mobility", engine.Gold, "Ra1 ra8 rb7", map[string]float64{
			"mobility_own": 2.0 / 8, "mobility_opp": 5.0 / 8,
		}},
		{"frozen pieces do not move", engine.Gold, "Ra1 ca2 rh8", map[string]float64{
			"mobility_own": 0, "frozen_rabbits": 1,
		}},
		{"camel and horses advanced", engine.Gold, "Md6 md7 Hb5 Hg4 ha3", map[string]float64{
			"camel_advance": 5 - 1, "horse_advance": float64(4+3-5) / 2,
		}},
		{"camel hostage", engine.Gold, "Ed7 mc7 Ra1 ra8", map[string]float64{
			"hostages_held": 6.5, "hostages_lost": 0, "frozen_horses_camel": -1,
		}},
		{"camel hostage, silver view", engine.Silver, "Ed7 mc7 Ra1 ra8", map[string]float64{
			"hostages_held": 0, "hostages_lost": 6.5,
		}},
		{"framed horse", engine.Gold, "hc6 hb6 Ec7 Mc5 Dd6", map[string]float64{
			"frames": 3.5,
		}},
		{"not framed with a free neighbour", engine.Gold, "hc6 hb6 Ec7 Mc5", map[string]float64{
			"frames": 0,
		}},
	}
	var f [N]float32
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := build(t, tt.side, tt.board)
			Extract(&p, f[:])
			for name, want := range tt.want {
				i := Index(name)
				if i < 0 {
					t.Fatalf("no feature %q", name)
				}
				if math.Abs(float64(f[i])-want) > 1e-4 {
					t.Errorf("%s = %v, want %v\n%s", name, f[i], want, p.Diagram())
				}
			}
		})
	}
}

// TestAgainstReference compares features with slow square-by-square versions.
func TestAgainstReference(t *testing.T) {
	var f [N]float32
	var buf []engine.Step
	for _, p := range randomPositions(1500, 3) {
		Extract(&p, f[:])
		us, them := p.Side, p.Side.Other()

		// Piece squares: every piece's rank from its own home and its file.
		want := map[string]int{}
		for sq := range engine.Square(64) {
			pc := p.At(sq)
			if pc == engine.NoPiece || pc.Type() == engine.Rabbit {
				continue
			}
			sign, rank := 1, sq.Rank()
			if pc.Color() != us {
				sign = -1
			}
			if pc.Color() == engine.Silver {
				rank = 7 - rank
			}
			name := []string{"", "cat", "dog", "horse", "camel", "elephant"}[pc.Type()]
			switch {
			case rank == 2:
			case rank >= 5:
				want[name+"_rank6_8"] += sign
			default:
				want[fmt.Sprintf("%s_rank%d", name, rank+1)] += sign
			}
			if f := min(sq.File(), 7-sq.File()); f < 3 {
				want[name+"_file_"+[]string{"ah", "bg", "cf"}[f]] += sign
			}
		}
		for _, n := range Names() {
			if strings.Contains(n, "_rank") && !strings.HasPrefix(n, "rabbit") || strings.Contains(n, "_file_") {
				if got := f[Index(n)]; int(got) != want[n] {
					t.Fatalf("%s: %s = %v, reference %d", p.String(), n, got, want[n])
				}
			}
		}

		// Mobility: the legal steps of own pieces (pushes and pulls left out
		// but the puller's own step kept), from the engine's step generator.
		turn := engine.NewTurn(p)
		buf = turn.LegalSteps(buf[:0])
		own := 0
		for _, s := range buf {
			if s.Piece.Color() == us {
				own++
			}
		}
		if got := f[Index("mobility_own")] * 8; int(got) != own {
			t.Fatalf("%s: mobility_own*8 = %v, engine has %d own steps", p.String(), got, own)
		}

		for _, c := range []engine.Color{us, them} {
			var in4, in8 int
			for b := p.Bits[engine.MakePiece(c, engine.Rabbit)]; b != 0; b &= b - 1 {
				d := refGoalSteps(&p, b.First(), c)
				switch {
				case d <= 4:
					in4++
				case d <= 8:
					in8++
				}
			}
			suffix := "_own"
			if c == them {
				suffix = "_opp"
			}
			if got := f[Index("goal_threat"+suffix)]; int(got) != in4 {
				t.Fatalf("%s: goal_threat%s = %v, reference %d", p.String(), suffix, got, in4)
			}
			if got := f[Index("goal_reach8"+suffix)]; int(got) != in8 {
				t.Fatalf("%s: goal_reach8%s = %v, reference %d", p.String(), suffix, got, in8)
			}
		}

		// Frozen pieces against the engine's IsFrozen, square by square.
		var groups [2][3]int
		for sq := range engine.Square(64) {
			pc := p.At(sq)
			if pc == engine.NoPiece || !p.IsFrozen(sq) {
				continue
			}
			g := [6]int{0, 1, 1, 2, 2, -1}[pc.Type()]
			if g < 0 {
				t.Fatalf("%s: frozen elephant on %s", p.String(), sq)
			}
			k := 0
			if pc.Color() != us {
				k = 1
			}
			groups[k][g]++
		}
		for g, name := range []string{"frozen_rabbits", "frozen_cats_dogs", "frozen_horses_camel"} {
			if got, want := f[Index(name)], groups[0][g]-groups[1][g]; int(got) != want {
				t.Fatalf("%s: %s = %v, reference %d", p.String(), name, got, want)
			}
		}

		// Exposure, square by square.
		for _, c := range []struct {
			side   engine.Color
			suffix string
		}{{us, "_own"}, {them, "_opp"}} {
			exposed, draggable := exposureReference(&p, c.side)
			if got := f[Index("exposed"+c.suffix)]; math.Abs(float64(got)-exposed) > 1e-4 {
				t.Fatalf("%s: exposed%s = %v, reference %v", p.String(), c.suffix, got, exposed)
			}
			if got := f[Index("draggable"+c.suffix)]; math.Abs(float64(got)-draggable) > 1e-4 {
				t.Fatalf("%s: draggable%s = %v, reference %v", p.String(), c.suffix, got, draggable)
			}
		}
	}
}

// exposureReference computes the exposed and draggable sums of side's pieces
// square by square: a piece other than the elephant beside a stronger enemy
// piece is exposed; it is draggable when some trap two steps or less away
// (Manhattan distance) has at most one piece of side beside it.
func exposureReference(p *engine.Position, side engine.Color) (exposed, draggable float64) {
	values := [engine.NumTypes]float64{1, 1.5, 2, 3.5, 6.5, 10}
	for sq := range engine.Square(64) {
		pc := p.At(sq)
		if pc == engine.NoPiece || pc.Color() != side || pc.Type() == engine.Elephant {
			continue
		}
		threatened := false
		for nb := sq.Bit().Neighbors(); nb != 0; nb &= nb - 1 {
			q := p.At(nb.First())
			if q != engine.NoPiece && q.Color() != side && q.Type() > pc.Type() {
				threatened = true
			}
		}
		if !threatened {
			continue
		}
		exposed += values[pc.Type()]
		for tr := engine.Traps; tr != 0; tr &= tr - 1 {
			trap := tr.First()
			guards := 0
			for nb := trap.Bit().Neighbors(); nb != 0; nb &= nb - 1 {
				if q := p.At(nb.First()); q != engine.NoPiece && q.Color() == side {
					guards++
				}
			}
			if sq.Distance(trap) <= 2 && guards <= 1 {
				draggable += values[pc.Type()]
				break
			}
		}
	}
	return exposed, draggable
}

// refGoalSteps returns the fewest steps in which the rabbit of c on sq reaches
// its goal rank stepping forward or sideways over empty squares (99 if never),
// by breadth-first search over squares.
func refGoalSteps(p *engine.Position, sq engine.Square, c engine.Color) int {
	goal, fwd := 7, 1
	if c == engine.Silver {
		goal, fwd = 0, -1
	}
	dist := map[engine.Square]int{sq: 0}
	queue := []engine.Square{sq}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.Rank() == goal {
			return dist[s]
		}
		f, r := s.File(), s.Rank()
		for _, d := range [][2]int{{0, fwd}, {1, 0}, {-1, 0}} {
			nf, nr := f+d[0], r+d[1]
			if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
				continue
			}
			n := engine.MakeSquare(nf, nr)
			if _, ok := dist[n]; ok || p.At(n) != engine.NoPiece {
				continue
			}
			dist[n] = dist[s] + 1
			queue = append(queue, n)
		}
	}
	return 99
}

// refFreePath reports whether every square ahead of the rabbit of c on sq, in
// its file, is empty.
func refFreePath(p *engine.Position, sq engine.Square, c engine.Color) bool {
	fwd := 1
	if c == engine.Silver {
		fwd = -1
	}
	for r := sq.Rank() + fwd; r >= 0 && r <= 7; r += fwd {
		if p.At(engine.MakeSquare(sq.File(), r)) != engine.NoPiece {
			return false
		}
	}
	return true
}

// refTrapControl returns, for each colour c and trap i (c3, f3, c6, f6),
// c's influence at the trap less the other colour's, from the definitions in
// docs/features.md.
func refTrapControl(p *engine.Position) [2][4]float64 {
	strength := []float64{1, 1.3, 1.6, 2, 2.5, 3.5}
	var control [2][4]float64
	for sq := range engine.Square(64) {
		pc := p.At(sq)
		if pc == engine.NoPiece {
			continue
		}
		for i, tr := range refTraps {
			w := []float64{0.5, 1, 0.5, 0}[min(sq.Distance(tr), 3)]
			control[pc.Color()][i] += w * strength[pc.Type()]
			control[pc.Color().Other()][i] -= w * strength[pc.Type()]
		}
	}
	return control
}

// refTraps lists the four traps, c3, f3, c6, f6.
var refTraps = []engine.Square{18, 21, 42, 45}

// refFrozen reports whether the piece on sq is frozen: beside a stronger
// enemy piece and beside no piece of its own colour.
func refFrozen(p *engine.Position, sq engine.Square) bool {
	pc := p.At(sq)
	stronger, friend := false, false
	for _, n := range refNeighbours(sq) {
		q := p.At(n)
		switch {
		case q == engine.NoPiece:
		case q.Color() == pc.Color():
			friend = true
		case q.Type() > pc.Type():
			stronger = true
		}
	}
	return stronger && !friend
}

// refNeighbours lists the squares beside sq.
func refNeighbours(sq engine.Square) []engine.Square {
	var out []engine.Square
	for n := range engine.Square(64) {
		if n.Distance(sq) == 1 {
			out = append(out, n)
		}
	}
	return out
}

// TestTrapDangerReference checks trap_danger_own and trap_danger_opp against
// a plain reimplementation over squares and coordinates.
func TestTrapDangerReference(t *testing.T) {
	var f [N]float32
	for _, p := range randomPositions(1500, 5) {
		Extract(&p, f[:])
		control := refTrapControl(&p)
		var danger [2]float64
		for sq := range engine.Square(64) {
			pc := p.At(sq)
			if pc == engine.NoPiece || pc.Type() == engine.Elephant {
				continue
			}
			c := pc.Color()
			worst := 0.0
			for i, tr := range refTraps {
				if d := sq.Distance(tr); d <= 2 {
					worst = max(worst, []float64{1, 0.6, 0.3}[d]/(1+math.Exp(control[c][i])))
				}
			}
			near := 3
			for e := range engine.Square(64) {
				q := p.At(e)
				if q != engine.NoPiece && q.Color() != c && q.Type() > pc.Type() {
					near = min(near, sq.Distance(e))
				}
			}
			switch near {
			case 1:
				danger[c] += float64(pieceValue[pc.Type()]) * worst
			case 2:
				danger[c] += float64(pieceValue[pc.Type()]) * worst / 2
			}
		}
		for _, tt := range []struct {
			name string
			want float64
		}{
			{"trap_danger_own", danger[p.Side]},
			{"trap_danger_opp", danger[p.Side.Other()]},
		} {
			if got := float64(f[Index(tt.name)]); math.Abs(got-tt.want) > 1e-4 {
				t.Fatalf("%s: %s = %v, reference %v", p.String(), tt.name, got, tt.want)
			}
		}
	}
}

// TestTrapThreatReference checks trap_threat_own and trap_threat_opp against
// a plain reimplementation of their definition (docs/features.md) over
// squares and coordinates.
func TestTrapThreatReference(t *testing.T) {
	steps := []float64{64, 62, 61, 58, 53, 34, 30, 22, 19, 9, 6}
	var f [N]float32
	threatened := 0
	for _, p := range randomPositions(1500, 9) {
		Extract(&p, f[:])
		control := refTrapControl(&p)
		var threat [2]float64
		for sq := range engine.Square(64) {
			pc := p.At(sq)
			if pc == engine.NoPiece || pc.Type() == engine.Elephant {
				continue
			}
			c := pc.Color()
			// The steps the nearest stronger enemy piece needs to stand beside it.
			attack, beside := 99, false
			for e := range engine.Square(64) {
				q := p.At(e)
				if q == engine.NoPiece || q.Color() == c || q.Type() <= pc.Type() {
					continue
				}
				n := e.Distance(sq) - 1
				if refFrozen(&p, e) {
					n++
				}
				attack = min(attack, n)
				beside = beside || e.Distance(sq) == 1
			}
			if attack > 3 {
				continue
			}
			if attack == 3 {
				attack = 4
			}
			worst := 0.0
			for i, tr := range refTraps {
				k := sq.Distance(tr)
				if k > 3 {
					continue
				}
				guards := 0
				for g := range engine.Square(64) {
					if q := p.At(g); q != engine.NoPiece && q.Color() == c && g.Distance(tr) <= 1 {
						guards++
					}
				}
				n := 2*k + 2*guards + attack
				if k <= 1 {
					n -= 2
				}
				if n <= 10 {
					worst = max(worst, steps[n]/64/(1+math.Exp(control[c][i])))
				}
			}
			free := 0.45
			if beside {
				free = 0.65
				if refFrozen(&p, sq) {
					free = 1
				}
			}
			if worst > 0 {
				threatened++
			}
			threat[c] += float64(pieceValue[pc.Type()]) * worst * free
		}
		for _, tt := range []struct {
			name string
			want float64
		}{
			{"trap_threat_own", threat[p.Side]},
			{"trap_threat_opp", threat[p.Side.Other()]},
		} {
			if got := float64(f[Index(tt.name)]); math.Abs(got-tt.want) > 1e-4 {
				t.Fatalf("%s: %s = %v, reference %v", p.String(), tt.name, got, tt.want)
			}
		}
	}
	if threatened < 1500 {
		t.Errorf("%d threatened pieces in 1,500 positions: the positions test too little", threatened)
	}
}

func TestFreePathReference(t *testing.T) {
	var f [N]float32
	for _, p := range randomPositions(1000, 4) {
		Extract(&p, f[:])
		want := 0
		for _, c := range []engine.Color{p.Side, p.Side.Other()} {
			for b := p.Bits[engine.MakePiece(c, engine.Rabbit)]; b != 0; b &= b - 1 {
				if refFreePath(&p, b.First(), c) {
					if c == p.Side {
						want++
					} else {
						want--
					}
				}
			}
		}
		if got := f[Index("rabbit_free_path")]; int(got) != want {
			t.Fatalf("%s: rabbit_free_path = %v, reference %d", p.String(), got, want)
		}
	}
}

func TestExtractPanicsOnShortSlice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Extract into a short slice did not panic")
		}
	}()
	p := build(t, engine.Gold, standard)
	Extract(&p, make([]float32, N-1))
}

func TestNoAllocation(t *testing.T) {
	ps := randomPositions(50, 5)
	out := make([]float32, N)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		Extract(&ps[i%len(ps)], out)
		i++
	})
	if allocs != 0 {
		t.Errorf("Extract allocates %v times per call", allocs)
	}
}

func TestExtractDoesNotModifyPosition(t *testing.T) {
	var f [N]float32
	for _, p := range randomPositions(200, 6) {
		q := p
		Extract(&p, f[:])
		if p != q {
			t.Fatalf("Extract changed %s into %s", q.String(), p.String())
		}
	}
}

// BenchmarkExtract measures Extract, and ExtractBase (without the ported
// terms), over random positions.
func BenchmarkExtract(b *testing.B) {
	ps := randomPositions(1024, 7)
	ps = slices.Clip(ps)
	for _, c := range []struct {
		name    string
		extract func(*engine.Position, []float32)
	}{{"all", Extract}, {"base", ExtractBase}} {
		b.Run(c.name, func(b *testing.B) {
			var out [N]float32
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				c.extract(&ps[i&1023], out[:])
				i++
			}
		})
	}
}

// TestExtractBase: ExtractBase is Extract with the ported terms, and only
// they, set to 0, and those are the seven terms named for Sharp's.
func TestExtractBase(t *testing.T) {
	ported := map[string]bool{
		"rabbit_goal_own": true, "rabbit_goal_opp": true,
		"piece_threat_own": true, "piece_threat_opp": true,
		"trap_attack_own": true, "trap_attack_opp": true, "trap_defence": true,
	}
	for i, name := range Names() {
		if Ported(i) != ported[name] {
			t.Errorf("Ported(%d) (%s) = %v", i, name, Ported(i))
		}
	}
	nonzero := 0
	for _, p := range randomPositions(300, 11) {
		var all, base [N]float32
		for i := range base {
			base[i] = float32(i) + 0.5 // stale values, to be overwritten
		}
		Extract(&p, all[:])
		ExtractBase(&p, base[:])
		for i := range all {
			switch {
			case Ported(i) && base[i] != 0:
				t.Fatalf("%s: ported %s is %v, want 0", p.String(), Names()[i], base[i])
			case Ported(i) && all[i] != 0:
				nonzero++
			case !Ported(i) && base[i] != all[i]:
				t.Fatalf("%s: %s is %v, Extract has %v", p.String(), Names()[i], base[i], all[i])
			}
		}
	}
	if nonzero == 0 {
		t.Fatal("no ported term is ever nonzero: the test tests nothing")
	}
}

// BenchmarkExtractClueless measures Extract over the 32 positions of real games
// in the engine's test data (skipped when the file is missing).
func BenchmarkExtractClueless(b *testing.B) {
	data, err := os.ReadFile("../engine/testdata/clueless32.aei")
	if err != nil {
		b.Skip(err)
	}
	var ps []engine.Position
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		p, err := engine.ParsePosition(line)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	var out [N]float32
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Extract(&ps[i%len(ps)], out[:])
		i++
	}
}

// TestLoseChance checks the table behind loseChance against the logistic it
// holds, controls given in twentieths.
func TestLoseChance(t *testing.T) {
	for _, x := range []int{-800, -640, -70, -35, -13, 0, 1, 16, 49, 245, 639, 800} {
		want := 1 / (1 + math.Exp(float64(x)/20))
		if got := float64(loseChance(x)); math.Abs(got-want) > 1e-6 {
			t.Errorf("loseChance(%d) = %v, want %v", x, got, want)
		}
	}
}

// TestTypeAt: typeAt names the type of the piece on a square for every type,
// colour and square, with the other colour's pieces and the colour's other
// types elsewhere on the board.
func TestTypeAt(t *testing.T) {
	for _, c := range []engine.Color{engine.Gold, engine.Silver} {
		base := 0
		if c == engine.Silver {
			base = oppBase
		}
		for ty := range engine.NumTypes {
			for sq := range engine.Square(64) {
				var o engine.Position
				// Every type of both colours somewhere else: the square's
				// piece must be told from them.
				for k := range o.Bits {
					o.Bits[k] = ^sq.Bit() &^ (engine.Bitboard(1)<<uint(k*5%64) - 1)
				}
				o.Bits[base+ty] |= sq.Bit()
				if got := typeAt(&o, base, sq.Bit()); got != ty {
					t.Fatalf("%v type %d on %v: typeAt %d", c, ty, sq, got)
				}
			}
		}
	}
}

// TestMaxWeight: maxWeight is the larger of two weights for zeros, equal
// weights, subnormals and the largest float32.
func TestMaxWeight(t *testing.T) {
	vals := []float32{0, math.SmallestNonzeroFloat32, 1e-30, 0.25, 0.5, 1, 3, 1e20, math.MaxFloat32}
	for _, a := range vals {
		for _, b := range vals {
			if got, want := maxWeight(a, b), max(a, b); got != want {
				t.Errorf("maxWeight(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
}
