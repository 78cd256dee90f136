package policy

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// build returns the position of the pieces (such as "Ra4 de6") with side to move.
func build(t testing.TB, side engine.Color, pieces string) engine.Position {
	t.Helper()
	var p engine.Position
	for _, f := range strings.Fields(pieces) {
		pc, err := engine.PieceFromLetter(f[0])
		if err != nil {
			t.Fatal(err)
		}
		sq, err := engine.ParseSquare(f[1:])
		if err != nil {
			t.Fatal(err)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p
}

// turnAfter returns the turn from p after the steps before (standard notation).
func turnAfter(t testing.TB, p engine.Position, before string) engine.Turn {
	t.Helper()
	turn := engine.NewTurn(p)
	for _, f := range strings.Fields(before) {
		s, err := engine.ParseStep(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := turn.Step(s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return turn
}

// TestExtract: the features of single steps, for both colours (Silver's
// position is Gold's mirrored, so its features are the same).
func TestExtract(t *testing.T) {
	tests := []struct {
		name   string
		pieces string // for Gold; Silver gets the mirror
		before string // steps already played this turn (Gold's notation)
		step   string // "" for ending the turn
		want   map[string]float32
	}{
		{"elephant forward beside an empty trap", "Ed2 rh8", "", "Ed2n", map[string]float32{
			"own_elephant": 1, "forward_elephant": 1, "elephant_rank3": 1, "elephant_filed": 1, "guard_join": 1}},
		{"rabbit forward in the opening", "Ra2 Eh1 ea8 mb8 hc8 hd8 de8 df8 cg8 ch8", "", "Ra2n", map[string]float32{
			"own_rabbit": 1, "forward_rabbit": 1, "rabbit_rank3": 1, "rabbit_filea": 1, "rabbit_opening": 1}},
		{"a dog onto a trap alone is lost", "Dc2 rh8", "", "Dc2n", map[string]float32{
			"own_dog": 1, "forward_catdog": 1, "catdog_rank3": 1, "catdog_filec": 1, "own_loss": 2, "guard_leave": 1}},
		{"a cat onto a guarded trap", "Cc2 Db3 rh8", "", "Cc2n", map[string]float32{
			"own_cat": 1, "forward_catdog": 1, "catdog_rank3": 1, "catdog_filec": 1, "onto_trap": 1}},
		{"the last guard leaves: the horse on the trap falls", "Hc3 Dd3 rh8", "", "Dd3e", map[string]float32{
			"own_dog": 1, "catdog_rank3": 1, "catdog_filed": 1, "own_loss": 3.5, "guard_leave": 1, "guard_join": 1}},
		{"a horse escapes a camel and lands beside the elephant", "Hd4 Dd3 me4 ee5 rh8", "", "Hd4n", map[string]float32{
			"own_horse": 1, "forward_horsecamel": 1, "horsecamel_rank5": 1, "horsecamel_filed": 1,
			"from_stronger": 1, "to_stronger": 1, "frozen_after": 1}},
		{"the elephant steps away from a dog: a pull may follow", "Ed4 dd3 rh8", "", "Ed4n", map[string]float32{
			"own_elephant": 1, "forward_elephant": 1, "elephant_rank5": 1, "elephant_filed": 1, "pull_ready": 1}},
		{"the pulled dog follows towards the puller's side", "Ed4 dd3 rh8", "Ed4n", "dd3n", map[string]float32{
			"enemy_dog": 1, "enemy_away": 1, "pull_finish": 1, "enemy_our_half": 1}},
		{"a pushed cat", "Ec5 cc4 rh8", "", "cc4e", map[string]float32{
			"enemy_cat": 1, "enemy_our_half": 1}},
		{"a pushed cat onto an unguarded trap", "Ed4 cc4 rh8", "", "cc4s", map[string]float32{
			"enemy_cat": 1, "enemy_trap": 1, "enemy_towards": 1, "enemy_our_half": 1, "enemy_loss": 1.5}},
		{"ending after two steps", "Ed2 rh8", "Ed2n Ed3n", "", map[string]float32{"end_after2": 1}},
		{"a step beside an empty trap with no friend", "Cf1 rh8", "", "Cf1n", map[string]float32{
			"own_cat": 1, "forward_catdog": 1, "catdog_rank2": 1, "catdog_filec": 1, "guard_join": 1}},
	}
	for _, tc := range tests {
		for _, side := range []engine.Color{engine.Gold, engine.Silver} {
			t.Run(tc.name+"/"+side.Name(), func(t *testing.T) {
				pieces, before, step := tc.pieces, tc.before, tc.step
				if side == engine.Silver {
					pieces, before, step = mirrorText(pieces), mirrorText(before), mirrorText(step)
				}
				turn := turnAfter(t, build(t, side, pieces), before)
				s := engine.Step{Piece: engine.NoPiece}
				if step != "" {
					var err error
					if s, err = engine.ParseStep(step); err != nil {
						t.Fatal(err)
					}
					if err := turn.CheckStep(s); err != nil {
						t.Fatalf("%s: %v", step, err)
					}
				}
				out := make([]float32, N)
				Extract(&turn, s, out)
				for i, v := range out {
					if v != tc.want[names[i]] {
						t.Errorf("%s = %v, want %v", names[i], v, tc.want[names[i]])
					}
				}
				for n := range tc.want {
					if !slices.Contains(names, n) {
						t.Errorf("no feature %q", n)
					}
				}
			})
		}
	}
}

// mirrorText mirrors pieces, squares and directions of a list such as
// "Ed2 rh8" or "Ed2n dd3n": colours swapped, ranks mirrored, north for south.
func mirrorText(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		b := []byte(w)
		if b[0] >= 'a' {
			b[0] -= 'a' - 'A'
		} else {
			b[0] += 'a' - 'A'
		}
		b[2] = '1' + ('8' - b[2])
		if len(b) == 4 {
			switch b[3] {
			case 'n':
				b[3] = 's'
			case 's':
				b[3] = 'n'
			}
		}
		f[i] = string(b)
	}
	return strings.Join(f, " ")
}

// TestPriors: the priors are the softmax of the logits, in the order of the
// steps with ending the turn last.
func TestPriors(t *testing.T) {
	w := &Weights{}
	w.W[fOwn+int(engine.Elephant)] = 2
	w.W[fEnd] = -1
	turn := turnAfter(t, build(t, engine.Gold, "Ed2 Ra1 rh8"), "Ra1n")
	steps := turn.LegalSteps(nil)
	out := make([]float32, len(steps)+1)
	w.Priors(&turn, steps, true, out, make([]float32, N))
	var z []float64
	for _, s := range steps {
		v := 0.0
		if s.Piece.Type() == engine.Elephant {
			v = 2
		}
		z = append(z, v)
	}
	z = append(z, -1)
	var sum float64
	for _, v := range z {
		sum += math.Exp(v)
	}
	for i, v := range z {
		if want := math.Exp(v) / sum; math.Abs(float64(out[i])-want) > 1e-6 {
			t.Errorf("prior %d (%v) = %v, want %v", i, append(steps, engine.Step{Piece: engine.NoPiece})[i], out[i], want)
		}
	}
}

// TestFitRecovers: choices drawn from a known model on real positions (the
// moves of a recorded game file) are fitted back close to it.
func TestFitRecovers(t *testing.T) {
	ex := gameExamples(t)
	truth := &Weights{}
	truth.W[fOwn+int(engine.Elephant)] = 1.5
	truth.W[fOntoTrap] = -2
	truth.W[fFwd+group[engine.Rabbit]] = -1
	truth.W[fEnemy+int(engine.Dog)] = 1
	truth.W[fEnd+1] = -1
	rng := rand.New(rand.NewPCG(3, 4))
	for d := range ex.Len() {
		lo, hi := int(ex.Start[d]), int(ex.Start[d+1])
		var p []float64
		var sum float64
		for r := lo; r < hi; r++ {
			var z float64
			for j, f := range ex.X[r*N : (r+1)*N] {
				z += float64(f * truth.W[j])
			}
			p = append(p, math.Exp(z))
			sum += p[len(p)-1]
		}
		u := rng.Float64() * sum
		c := 0
		for ; c < len(p)-1 && u >= p[c]; c++ {
			u -= p[c]
		}
		ex.Chosen[d] = int32(c)
	}
	w, err := Fit(context.Background(), ex, FitOptions{L2: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{fOwn + int(engine.Elephant), fOntoTrap, fFwd + group[engine.Rabbit], fEnemy + int(engine.Dog), fEnd + 1} {
		// Features that vary within decisions are identified up to noise;
		// the own-type features only relative to each other.
		if math.Abs(float64(w.W[i]-truth.W[i])) > 0.5 {
			t.Errorf("%s: fitted %.3f, true %.3f", names[i], w.W[i], truth.W[i])
		}
	}
	if got, uni := Evaluate(w, ex).LogLik, Evaluate(&Weights{}, ex).LogLik; got <= uni {
		t.Errorf("log-likelihood %.4f, not above the uniform model's %.4f", got, uni)
	}
}

// gameExamples returns the decisions of every move of the repository's
// recorded games against Sharp at depth 4 of the last round of the strength
// work (docs/strength).
func gameExamples(t testing.TB) *Examples {
	t.Helper()
	file := filepath.Join("..", "docs", "strength", "twelfth-final-1s-vs-sharp4.games.txt")
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, file)
	if err != nil {
		t.Fatal(err)
	}
	ex := &Examples{}
	for _, r := range recs {
		if _, err := ex.AddRecord(r, func(string) bool { return true }); err != nil {
			t.Fatal(err)
		}
	}
	if ex.Len() < 1000 {
		t.Fatalf("%d decisions, want at least 1000", ex.Len())
	}
	return ex
}

// TestTrain: Sharp's moves of a game file are fitted and the held-out games
// are predicted better than by equal priors; the report and the notes say so.
func TestTrain(t *testing.T) {
	file := filepath.Join("..", "docs", "strength", "twelfth-final-1s-vs-sharp4.games.txt")
	w, rep, err := Train(context.Background(), TrainOptions{Archives: []string{file}, Players: []string{"sharp*"}, Val: 0.3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games+rep.HeldGames != 20 || rep.HeldGames == 0 {
		t.Errorf("games %d fitted, %d held out: want 20 in all, some held out", rep.Games, rep.HeldGames)
	}
	if rep.Held.LogLik < rep.Held.UniformLogLik+0.3 {
		t.Errorf("held-out log-likelihood %.4f, want 0.3 above the uniform %.4f", rep.Held.LogLik, rep.Held.UniformLogLik)
	}
	if !strings.Contains(w.Notes, "players sharp*") {
		t.Errorf("notes %q do not name the players", w.Notes)
	}
	var b strings.Builder
	if _, err := rep.WriteTo(&b); err != nil || !strings.Contains(b.String(), "held out") {
		t.Errorf("report %q, %v", b.String(), err)
	}
	if _, _, err := Train(context.Background(), TrainOptions{Archives: []string{file}, Players: []string{"nobody"}}); err == nil || !strings.Contains(err.Error(), "no moves") {
		t.Errorf("no moves of the players: err %v", err)
	}
	if _, _, err := Train(context.Background(), TrainOptions{Archives: []string{"missing.txt"}}); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: err %v", err)
	}
}

// TestAddRecordErrors: a move that does not replay is named by game and turn.
func TestAddRecordErrors(t *testing.T) {
	text := strings.Join(engineColumns(), "\t") + "\n" +
		"7\t\t\tA\tB" + strings.Repeat("\t", 23) + "1w Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\\n" +
		"1b ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7\\n2w Ee2n Ee3n Ee4n Ee5n Ee6n\\n2b\t\n"
	recs, err := engine.ReadArchive(strings.NewReader(text), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	var ex Examples
	_, err = ex.AddRecord(recs[0], func(string) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "game 7, turn 2w") {
		t.Errorf("err %v, want one naming game 7, turn 2w", err)
	}
}

func engineColumns() []string { return engine.ArchiveColumns() }

// TestParse: a saved model reads back the same; files of another feature
// version, with a weight missing or unknown, or not a number, are refused
// with the file's name.
func TestParse(t *testing.T) {
	w := &Weights{Notes: "test"}
	for i := range w.W {
		w.W[i] = float32(i) / 8
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "p.json")
	if err := w.Save(file); err != nil {
		t.Fatal(err)
	}
	got, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if got.W != w.W || got.Notes != w.Notes {
		t.Errorf("read back %+v, want %+v", got, w)
	}
	b, _ := os.ReadFile(file)
	for _, tc := range []struct{ name, old, new, want string }{
		{"version", Version, "p1-000000000000", "feature_version"},
		{"missing", `"own_cat"`, `"own_kitten"`, "no weight for feature \"own_cat\""},
		{"not json", "{", "[", "x.json"},
	} {
		_, err := Parse([]byte(strings.Replace(string(b), tc.old, tc.new, 1)), "x.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.json") {
			t.Errorf("%s: err %v, want one with %q and the file name", tc.name, err, tc.want)
		}
	}
	extra := strings.Replace(string(b), `"weights": {`, `"weights": {"own_kitten": 1,`, 1)
	if _, err := Parse([]byte(extra), "x.json"); err == nil || !strings.Contains(err.Error(), "unknown feature \"own_kitten\"") {
		t.Errorf("unknown feature: err %v", err)
	}
}

// TestAddVisits: the moves of a search's visit distribution become
// decisions weighted by their share of the visits; a move that does not play
// is named.
func TestAddVisits(t *testing.T) {
	p := build(t, engine.Gold, "Ra2 Ed2 rh8")
	var ex Examples
	n, err := ex.AddVisits(p, []string{"Ed2n Ed3n", "Ra2n", "Ed2e"}, []uint32{30, 10, 0})
	if err != nil || n != 2 {
		t.Fatalf("added %d, err %v; want 2 moves", n, err)
	}
	// Ed2n, Ed3n, end; Ra2n, end.
	want := []float32{0.75, 0.75, 0.75, 0.25, 0.25}
	if !slicesEqual(ex.Weight, want) {
		t.Errorf("weights %v, want %v", ex.Weight, want)
	}
	if _, err := ex.AddVisits(p, []string{"Ed2s Ed1s"}, []uint32{1}); err == nil || !strings.Contains(err.Error(), "Ed2s Ed1s") {
		t.Errorf("illegal move: err %v", err)
	}
}

func slicesEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}
