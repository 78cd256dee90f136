package train

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
)

// judgedGroups writes, for the positions of the self-play shard, groups of
// the positions after some of their moves (a game id per group, as analyze
// label writes a successors file), each labelled by the judge's weights
// (root_value = tanh(scale*score/2), the score from the side to move),
// and returns the path.
func judgedGroups(t *testing.T, judge []float64, scale float64, perGroup int) string {
	t.Helper()
	src, err := data.ReadRows(filepath.Join(selfPlayDir, "shard-00000.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []data.Row
	f := make([]float32, features.N)
	for i, r := range src {
		var bb [data.BoardLen]engine.Bitboard
		for k := range bb {
			bb[k] = engine.Bitboard(r.Board[k])
		}
		p, err := engine.PositionFromBits(bb, engine.Color(r.Side))
		if err != nil {
			t.Fatal(err)
		}
		moves := engine.GenMoves(p, nil)
		for k := 0; k < perGroup && k < len(moves); k++ {
			q := moves[(k*len(moves))/perGroup].Pos
			if q.Occ[q.Side] == 0 || engine.EndOfTurn(&q, nil, nil).Over() {
				continue
			}
			features.Extract(&q, f)
			var s float64
			for j, v := range f {
				s += judge[j] * float64(v)
			}
			row := data.Row{GameID: uint64(i + 1), Turn: 2, Side: uint8(q.Side), Features: append([]float32(nil), f...),
				RootValue: float32(math.Tanh(scale * s / 2)), PliesLeft: 1, Termination: engine.NotOver.String(), FullSearch: true}
			for k, b := range q.Bits {
				row.Board[k] = uint64(b)
			}
			rows = append(rows, row)
		}
	}
	path := filepath.Join(t.TempDir(), "pairs.arrow")
	writeRows(t, path, rows)
	return path
}

// gen0Vector returns generation 0's weights and their values in feature
// order (a fresh slice each call).
func gen0Vector(t *testing.T) (*weights.Weights, []float64) {
	t.Helper()
	gen0, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, features.N)
	for j, name := range features.Names() {
		v[j], _ = gen0.Value(name)
	}
	return gen0, v
}

// pairOptions returns the settings of the tests of RunPairs.
func pairOptions(path string) PairOptions {
	o := DefaultOptions()
	o.Data, o.Val, o.Threads = []string{path}, 0.25, 2
	o.Created = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return PairOptions{Options: o}
}

// TestRunPairs fits generation 0 to a judge that weighs the position
// otherwise (the home traps, mobility and the elephant's centre heavier)
// on the judge's comparisons of positions after one position: the fitted
// weights order the held-out pairs as the judge does far more often than
// generation 0, a rabbit keeps its value, and the lineage says how it was
// fitted.
func TestRunPairs(t *testing.T) {
	gen0, judge := gen0Vector(t)
	judge[features.Index("trap_home_west")] = 0.8
	judge[features.Index("trap_home_east")] = 0.8
	judge[features.Index("mobility_own")] = 0.6
	judge[features.Index("elephant_centrality")] = -0.5
	path := judgedGroups(t, judge, gen0.Scale, 6)

	w, rep, err := RunPairs(context.Background(), pairOptions(path))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Groups == 0 || rep.Train == 0 || rep.Val == 0 {
		t.Fatalf("groups %d, pairs %d and %d", rep.Groups, rep.Train, rep.Val)
	}
	if rep.Fitted.Val.Accuracy < 0.95 || rep.Fitted.Val.Accuracy < rep.Initial.Val.Accuracy+0.05 {
		t.Errorf("held-out pairs ordered as the judge: %.3f fitted, %.3f initial; want 0.95 or more and 0.05 more", rep.Fitted.Val.Accuracy, rep.Initial.Val.Accuracy)
	}
	if got := w.Values[features.Index("trap_home_west")]; got < 0.3 {
		t.Errorf("trap_home_west %.3f, want it moved towards the judge's 0.8", got)
	}
	_, w0 := gen0Vector(t)
	if u0, u := rabbitValue(w0), rabbitValue(w.Values); math.Abs(u-u0) > 1e-9*math.Abs(u0) || u0 <= 0 {
		t.Errorf("a rabbit is worth %v to the fitted weights, %v to generation 0", u, u0)
	}
	if w.Lineage.Target != "pairs" || w.Generation != 1 || w.Scale != gen0.Scale || !strings.Contains(w.Lineage.Notes, "pairs:") {
		t.Errorf("target %q, generation %d, scale %v, notes %q", w.Lineage.Target, w.Generation, w.Scale, w.Lineage.Notes)
	}
	var b strings.Builder
	if _, err := rep.WriteTo(&b); err != nil || !strings.Contains(b.String(), "ordered") {
		t.Errorf("report: %v\n%s", err, b.String())
	}

	// The same data and settings give the same weights.
	again, _, err := RunPairs(context.Background(), pairOptions(path))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := again.Hash(), w.Hash(); a != b {
		t.Errorf("weights hash %s, then %s", b, a)
	}

	// -fix keeps the listed weights' proportions: each is its initial value
	// times one multiple, that of the free weights, whatever the units.
	o := pairOptions(path)
	o.Fix = []string{"trap_*"}
	fw, frep, err := RunPairs(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var ratios []float64
	for _, name := range []string{"trap_home_west", "trap_home_east", "trap_enemy_west", "trap_enemy_east"} {
		ratios = append(ratios, fw.Values[features.Index(name)]/w0[features.Index(name)])
	}
	for _, r := range ratios {
		if math.Abs(r-ratios[0]) > 1e-9 || !(r > 0) {
			t.Errorf("-fix trap_*: the fixed weights over their initial values %v, want one positive multiple", ratios)
			break
		}
	}
	if !strings.Contains(fw.Lineage.Notes, "multiple of their initial values: trap_*") {
		t.Errorf("-fix: notes %q do not name the kept features", fw.Lineage.Notes)
	}
	if frep.Unit == 1 || fw.Values[features.Index("harlog")] == w0[features.Index("harlog")] {
		t.Errorf("-fix: units divided by %v, harlog %v: want the free weights fitted and the units moved", frep.Unit, fw.Values[features.Index("harlog")])
	}

	// A leaf function gives the features of another position, one per
	// goroutine.
	o = pairOptions(path)
	o.Threads = 2
	var calls, makes atomic.Int64
	o.Leaf = func() LeafFunc {
		makes.Add(1)
		return func(p *engine.Position) (engine.Position, bool) { calls.Add(1); return *p, true }
	}
	lw, lrep, err := RunPairs(context.Background(), o)
	if err != nil || calls.Load() != rep.Read || makes.Load() != 2 {
		t.Errorf("leaf called %d times for %d rows, made %d times for 2 threads: %v", calls.Load(), rep.Read, makes.Load(), err)
	}
	if err == nil && (lrep.Train != rep.Train || lw.Values[features.Index("harlog")] != w.Values[features.Index("harlog")]) {
		t.Errorf("the identity leaf changed the fit: %d pairs, harlog %v; want %d, %v", lrep.Train, lw.Values[features.Index("harlog")], rep.Train, w.Values[features.Index("harlog")])
	}

	// Rows the leaf declines are left out and counted.
	o = pairOptions(path)
	n := 0
	o.Threads = 1
	o.Leaf = func() LeafFunc {
		return func(p *engine.Position) (engine.Position, bool) { n++; return *p, n%3 != 0 }
	}
	if _, srep, err := RunPairs(context.Background(), o); err != nil {
		t.Error(err)
	} else if srep.Read != rep.Read || srep.Skipped != rep.Read/3 || srep.Train+srep.Val >= rep.Train+rep.Val {
		t.Errorf("declined rows: read %d, skipped %d, pairs %d; want %d read, %d skipped, fewer pairs than %d", srep.Read, srep.Skipped, srep.Train+srep.Val, rep.Read, rep.Read/3, rep.Train+rep.Val)
	}
}

// TestRunPairsErrors checks the one-line errors: data without groups (a
// self-play shard: one row per game and turn), bad margins, a bad -fix.
func TestRunPairsErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(o *PairOptions)
		want string
	}{
		{"no groups", func(o *PairOptions) { o.Data = []string{selfPlayDir} }, "no pairs"},
		{"margin", func(o *PairOptions) { o.Margin = -1 }, "pair margin -1"},
		{"margin 2", func(o *PairOptions) { o.Margin = 2 }, "pair margin 2"},
		{"fix", func(o *PairOptions) { o.Fix = []string{"nothing_*"} }, "matches no feature"},
		{"fix all but zeros", func(o *PairOptions) {
			w, err := configs.Gen0()
			if err != nil {
				t.Fatal(err)
			}
			w = w.Clone()
			w.Values[slices.Index(w.Features, "frames")] = 0
			o.Init = w
			for _, n := range features.Names() {
				if n != "frames" && n != "bias" {
					o.Fix = append(o.Fix, n)
				}
			}
		}, "every free weight starts at 0"},
	} {
		o := pairOptions(selfPlayDir)
		c.edit(&o)
		_, _, err := RunPairs(context.Background(), o)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", c.name, err, c.want)
		}
	}
}

// TestLeafFeaturesOtherSide checks that a leaf with the other side to move
// (a position after the opponent's reply) gives its features negated, so
// that the linear value of a row's features stays the value for the row's
// own side to move, and that a declined leaf leaves the row out.
func TestLeafFeaturesOtherSide(t *testing.T) {
	s := &shards{nf: features.N}
	p, err := engine.ParsePosition("g [rdrchmrcr rrrr d h           e D         D EM   H C  C HRRR RRRR]")
	if err != nil {
		t.Fatal(err)
	}
	q := p
	q.SetSide(p.Side.Other())
	var r pairRow
	if ok, err := s.leafFeatures(&r, &p, func(*engine.Position) (engine.Position, bool) { return q, true }); !ok || err != nil {
		t.Fatalf("leaf declined (%v)", err)
	}
	want := make([]float32, features.N)
	features.Extract(&q, want)
	for j := range want {
		if r.f[j] != -want[j] {
			t.Fatalf("feature %s: %v, want %v (negated)", features.Names()[j], r.f[j], -want[j])
		}
	}
	if ok, _ := s.leafFeatures(&r, &p, func(*engine.Position) (engine.Position, bool) { return p, true }); !ok || r.f[features.Index("bias")] != 1 {
		t.Errorf("a leaf on the row's own side: bias %v, want 1 (not negated)", r.f[features.Index("bias")])
	}
	if ok, _ := s.leafFeatures(&r, &p, func(*engine.Position) (engine.Position, bool) { return p, false }); ok {
		t.Error("a declined leaf kept its row")
	}
}

// TestScaleCenter checks the penalty towards a multiple of the centre: with
// a heavy penalty, a fixed centre holds the weights at the centre, while a
// scaled one lets them grow along it, keeping its proportions, as far as the
// data want (pairs all ordered one way want large weights).
func TestScaleCenter(t *testing.T) {
	// Two features, rows ordered by 2*f0 + f1 > 0, targets 1.
	var x, y []float32
	for i := range 200 {
		a, b := float32(i%7)-2, float32(i%5)-1
		if 2*a+b <= 0 {
			a, b = -a, -b
		}
		if 2*a+b == 0 {
			continue
		}
		x, y = append(x, a, b), append(y, 1)
	}
	d, err := NewDataset(2, x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	center := []float64{2, 1}
	for _, scaled := range []bool{false, true} {
		r, err := Fit(context.Background(), d, center, FitOptions{Scale: 1, L2: 100, Center: center, ScaleCenter: scaled, Bias: -1})
		if err != nil {
			t.Fatal(err)
		}
		w := r.Values
		ratio := w[0] / w[1]
		if math.Abs(ratio-2) > 0.01 {
			t.Errorf("scaled %v: weights %v, want them in the centre's proportion 2:1", scaled, w)
		}
		if !scaled && math.Abs(w[0]-2) > 0.05 {
			t.Errorf("fixed centre: weights %v, want about the centre %v", w, center)
		}
		if scaled && w[0] < 4 {
			t.Errorf("scaled centre: weights %v, want them grown well past the centre %v along it", w, center)
		}
	}
}

// TestFixedScaled fits rows whose true weights are twice the initial ones,
// with two weights fixed: held at a multiple of their initial values, they
// follow the free weights to the true ones (held at their values, they
// could not, and the free ones would make up for them).
func TestFixedScaled(t *testing.T) {
	nf := 6
	init := trueWeights(nf, 1)
	init[0] = 0
	want := make([]float64, nf)
	for j := range want {
		want[j] = 2 * init[j]
	}
	d := synthetic(50_000, nf, 1, 1, want, 3, true, false)
	fixed := []bool{false, true, false, false, true, false}
	for _, scaled := range []bool{true, false} {
		r, err := Fit(context.Background(), d, init, FitOptions{Scale: 1, Bias: 0, Fixed: fixed, FixedScaled: scaled})
		if err != nil {
			t.Fatal(err)
		}
		for j := range want {
			switch {
			case scaled && math.Abs(r.Values[j]-want[j]) > 0.02:
				t.Errorf("scaled: weight %d (fixed %v) %.4f, want %.4f", j, fixed[j], r.Values[j], want[j])
			case !scaled && fixed[j] && r.Values[j] != init[j]:
				t.Errorf("held: weight %d %v, want %v", j, r.Values[j], init[j])
			}
		}
		if scaled && math.Abs(r.Values[1]/init[1]-r.Values[4]/init[4]) > 1e-12 {
			t.Errorf("scaled: fixed weights %v and %v over %v and %v: want one multiple", r.Values[1], r.Values[4], init[1], init[4])
		}
		if !scaled && math.Abs(r.Values[2]-want[2]) < 0.05 {
			t.Errorf("held: weight 2 %.4f, want it pulled off %.4f by the held ones", r.Values[2], want[2])
		}
	}
}

// TestRunPairsReplyLeaf fits at the deep scan's leaves (mcts.ReplyLeaf, as
// train -pairs -pair-reply does) on a few rows: every row read is either
// used or counted as left out, and the features there are not those of the
// rows' own positions (the fit's initial order differs).
func TestRunPairsReplyLeaf(t *testing.T) {
	gen0, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := weights.NewLinear(gen0)
	if err != nil {
		t.Fatal(err)
	}
	path := judgedGroups(t, gen0.Values, gen0.Scale, 4)
	o := pairOptions(path)
	o.MaxRows = 80
	_, prep, err := RunPairs(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Leaf = func() LeafFunc {
		r, err := mcts.NewReplyLeaf(ev)
		if err != nil {
			t.Error(err)
			return nil
		}
		return r.Leaf
	}
	_, rrep, err := RunPairs(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rrep.Read != 80 || rrep.Skipped < 0 || rrep.Skipped >= rrep.Read || rrep.Train == 0 {
		t.Errorf("read %d, left out %d, %d pairs; want 80 read, some pairs", rrep.Read, rrep.Skipped, rrep.Train)
	}
	if rrep.Initial.Train.Accuracy == prep.Initial.Train.Accuracy && rrep.Initial.Train.LogLoss == prep.Initial.Train.LogLoss {
		t.Errorf("the reply leaves gave the rows' own features: initial log-loss %v both", rrep.Initial.Train.LogLoss)
	}
}
