package train

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/weights"
)

// TestRecoverKnownWeights fits data drawn from known logistic models and
// checks that the weights come back: within 0.05 of each true weight for
// 200,000 rows with drawn (0/1) targets, whose standard errors are about
// 0.005-0.02 here (that of a weight is about 1/(scale*sd*sqrt(n/5))), and within 1e-3 for exact (soft) targets, whose minimum
// is the true weights themselves.
func TestRecoverKnownWeights(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 100_000 // the race detector is slow; the errors grow by sqrt(2) only
	}
	for _, tc := range []struct {
		name     string
		nf       int
		scale    float64 // of the model and of the fit
		sd       float64 // of the features
		a        float64 // the true weights spread over [-a, a]
		soft     bool
		weighted bool
		tol      float64
	}{
		{"drawn targets, scale 1", 8, 1, 1, 1, false, false, 0.05},
		{"drawn targets, weighted rows", 8, 1, 1, 1, false, true, 0.05},
		{"drawn targets, scale 0.5, wider features", 6, 0.5, 2, 2, false, false, 0.05},
		{"soft targets, weighted rows", 12, 0.5, 1, 2, true, true, 1e-3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := trueWeights(tc.nf, tc.a)
			d := synthetic(n, tc.nf, tc.scale, tc.sd, want, 1, tc.soft, tc.weighted)
			r, err := Fit(context.Background(), d, make([]float64, tc.nf), FitOptions{Scale: tc.scale, Bias: 0, Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			for j := range want {
				if math.Abs(r.Values[j]-want[j]) > tc.tol {
					t.Errorf("weight %d: %.4f, want %.4f ± %g", j, r.Values[j], want[j], tc.tol)
				}
			}
			if r.Status != "GradientThreshold" {
				t.Errorf("status %q, want GradientThreshold (%d iterations, |g| %g)", r.Status, r.Iterations, r.GradNorm)
			}
			t.Logf("%d iterations, %d passes, |g| %.2g, loss %.5f", r.Iterations, r.Evaluations, r.GradNorm, r.Loss)
		})
	}
}

// TestL2 checks the penalty: a very large L2 pulls every weight but the
// bias to its centre (zero, or the given one), and the bias is left free.
func TestL2(t *testing.T) {
	nf := 5
	want := trueWeights(nf, 1)
	d := synthetic(20_000, nf, 1, 1, want, 2, false, false)
	center := []float64{9, 1, -1, 2, -2}
	for _, tc := range []struct {
		name   string
		center []float64
	}{{"towards zero", nil}, {"towards a centre", center}} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Fit(context.Background(), d, make([]float64, nf), FitOptions{Scale: 1, L2: 1e6, Center: tc.center, Bias: 0})
			if err != nil {
				t.Fatal(err)
			}
			for j := 1; j < nf; j++ {
				c := 0.0
				if tc.center != nil {
					c = tc.center[j]
				}
				if math.Abs(r.Values[j]-c) > 1e-4 {
					t.Errorf("weight %d: %.6f, want its centre %v", j, r.Values[j], c)
				}
			}
			// The bias is free: with the others at zero it fits the base rate.
			if tc.center == nil {
				var mean float64
				for _, y := range d.Y {
					mean += float64(y)
				}
				mean /= float64(d.Rows())
				if logit := math.Log(mean / (1 - mean)); math.Abs(r.Values[0]-logit) > 1e-3 {
					t.Errorf("bias %.5f, want the logit of the base rate %.5f", r.Values[0], logit)
				}
			}
		})
	}
}

// TestDeterministicAcrossThreads fits the same rows with 1, 2 and 5
// threads: the weights must be the same bits.
func TestDeterministicAcrossThreads(t *testing.T) {
	nf := 10
	d := synthetic(50_000, nf, 1, 1, trueWeights(nf, 1), 3, false, true)
	var first []float64
	for _, threads := range []int{1, 2, 5} {
		r, err := Fit(context.Background(), d, make([]float64, nf), FitOptions{Scale: 1, L2: 1e-4, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r.Values
			continue
		}
		for j := range first {
			if math.Float64bits(first[j]) != math.Float64bits(r.Values[j]) {
				t.Fatalf("threads %d: weight %d is %v, with 1 thread %v", threads, j, r.Values[j], first[j])
			}
		}
	}
}

// runOptions returns the options of a run over the test self-play data.
func runOptions(threads int) Options {
	o := DefaultOptions()
	o.Data = []string{selfPlayDir}
	o.Target = Target{Kind: TargetValue}
	o.Val = 0.25
	o.Threads = threads
	o.Created = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return o
}

// TestRunDeterministic runs the whole trainer on real self-play data with 1
// and 2 threads, in memory and streamed: the weights files must be the same
// bytes across threads, and streaming must agree with memory closely.
func TestRunDeterministic(t *testing.T) {
	var files [][]byte
	for _, threads := range []int{1, 2} {
		res, err := Run(context.Background(), runOptions(threads))
		if err != nil {
			t.Fatal(err)
		}
		b, err := res.Weights.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("weights differ across threads:\n%s\n%s", files[0], files[1])
	}

	mem, err := Run(context.Background(), runOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	var streamed [2]*Result
	for i, threads := range []int{1, 2} {
		o := runOptions(threads)
		o.Stream = true
		if streamed[i], err = Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := streamed[0].Weights.Marshal()
	b, _ := streamed[1].Weights.Marshal()
	if !bytes.Equal(a, b) {
		t.Fatalf("streamed weights differ across threads:\n%s\n%s", a, b)
	}
	s := streamed[0]
	if s.Report.Fitted.Train.All.Rows != mem.Report.Fitted.Train.All.Rows || s.Report.Fitted.Val.All.Rows != mem.Report.Fitted.Val.All.Rows || s.Report.LeftOut != mem.Report.LeftOut {
		t.Fatalf("streamed rows %d/%d (left out %d), in memory %d/%d (%d)",
			s.Report.Fitted.Train.All.Rows, s.Report.Fitted.Val.All.Rows, s.Report.LeftOut,
			mem.Report.Fitted.Train.All.Rows, mem.Report.Fitted.Val.All.Rows, mem.Report.LeftOut)
	}
	// The sums are added in another order, so the last bits differ; the
	// optimum is the same.
	for j, v := range mem.Weights.Values {
		if d := math.Abs(v - s.Weights.Values[j]); d > 1e-3*max(1, math.Abs(v)) {
			t.Errorf("%s: streamed %.6f, in memory %.6f", mem.Weights.Features[j], s.Weights.Values[j], v)
		}
	}
	// Both stop at the gradient threshold, not at one point: the piece-square
	// counts (whose sum over a type's ranks is its material) leave flat
	// directions where they stop a little apart (2.8e-6 in log-loss, measured).
	if d := math.Abs(s.Report.Fitted.Val.All.LogLoss - mem.Report.Fitted.Val.All.LogLoss); d > 1e-5 {
		t.Errorf("validation log-loss streamed %.8f, in memory %.8f", s.Report.Fitted.Val.All.LogLoss, mem.Report.Fitted.Val.All.LogLoss)
	}
}

// TestRealSelfPlay trains on the 8 games of the test self-play run. The
// value target is used: with the result target 8 games are too few (the 5 or
// so training games are separable, and validation log-loss is erratic),
// while the value target gives every row its own target.
func TestRealSelfPlay(t *testing.T) {
	res, err := Run(context.Background(), runOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	zero, fitted := r.Zero.Val.All, r.Fitted.Val.All
	if zero.Rows == 0 {
		t.Fatal("no validation rows")
	}
	if !(fitted.LogLoss < zero.LogLoss) {
		t.Errorf("validation log-loss %.4f, not below the zero weights' %.4f", fitted.LogLoss, zero.LogLoss)
	}
	if !(r.Fitted.Train.All.LogLoss < r.Zero.Train.All.LogLoss) {
		t.Errorf("training log-loss %.4f, not below the zero weights' %.4f", r.Fitted.Train.All.LogLoss, r.Zero.Train.All.LogLoss)
	}
	w := res.Weights
	gen0, _ := configs.Gen0()
	if w.Generation != gen0.Generation+1 || w.Lineage.Parent != gen0.Generation {
		t.Errorf("generation %d, parent %d", w.Generation, w.Lineage.Parent)
	}
	if w.Scale != gen0.Scale {
		t.Errorf("scale %v, want the initial %v", w.Scale, gen0.Scale)
	}
	if w.Lineage.Target != "value" || !slices.Equal(w.Lineage.Dataset, []string{selfPlayDir}) || w.Lineage.Rows != r.Fitted.Train.All.Rows {
		t.Errorf("lineage %+v", w.Lineage)
	}
	for _, k := range []string{"train_logloss", "val_logloss", "train_accuracy", "val_accuracy", "train_brier", "val_brier", "train_rows", "val_rows"} {
		if _, ok := w.Lineage.Metrics[k]; !ok {
			t.Errorf("lineage metrics lack %s: %v", k, w.Lineage.Metrics)
		}
	}
	if w.Lineage.Metrics["val_logloss"] != round(fitted.LogLoss) {
		t.Errorf("val_logloss %v, report %v", w.Lineage.Metrics["val_logloss"], fitted.LogLoss)
	}
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	// The file round-trips.
	path := filepath.Join(t.TempDir(), "gen1.json")
	if err := w.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := weights.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != w.Hash() {
		t.Errorf("hash %s after a round trip, %s before", back.Hash(), w.Hash())
	}
	var out bytes.Buffer
	if _, err := r.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"zero", "initial (gen 0)", "fitted (gen 1)", "validation rows by phase", "opening", "weights that changed most"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, out.String())
		}
	}
	t.Logf("\n%s", out.String())
}

// TestSplitByGame loads real data and checks that no game has rows on both
// sides, that each side holds the games InValidation puts there, and that the
// rows are all there.
func TestSplitByGame(t *testing.T) {
	opt := DefaultRowOptions()
	opt.Target = Target{Kind: TargetValue}
	for _, seed := range []uint64{1, 2, 3} {
		opt.Seed, opt.Val = seed, 0.3
		l, err := Load(context.Background(), []string{selfPlayDir}, opt, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		train, val := map[uint64]bool{}, map[uint64]bool{}
		for _, g := range l.Train.GameID {
			train[g] = true
			if InValidation(g, seed, opt.Val) {
				t.Fatalf("seed %d: game %d in training but InValidation", seed, g)
			}
		}
		for _, g := range l.Val.GameID {
			val[g] = true
			if train[g] {
				t.Fatalf("seed %d: game %d on both sides", seed, g)
			}
			if !InValidation(g, seed, opt.Val) {
				t.Fatalf("seed %d: game %d in validation but not InValidation", seed, g)
			}
		}
		if int64(l.Train.Rows()+l.Val.Rows()) != l.Read || l.LeftOut != 0 {
			t.Fatalf("seed %d: %d + %d rows of %d read, %d left out", seed, l.Train.Rows(), l.Val.Rows(), l.Read, l.LeftOut)
		}
		if len(train)+len(val) != 8 {
			t.Fatalf("seed %d: %d + %d games, want 8", seed, len(train), len(val))
		}
	}
	// Over many games the share held out is close to the asked one.
	in := 0
	for g := range uint64(100_000) {
		if InValidation(g, 7, 0.1) {
			in++
		}
	}
	if in < 9_700 || in > 10_300 {
		t.Errorf("%d of 100000 games held out, want about 10000", in)
	}
}

// TestLoadRows checks what Load makes of each row: the same features as the
// file, in file order on each side, the targets and weights of the options,
// and the result target leaving out unfinished games.
func TestLoadRows(t *testing.T) {
	var rows []data.Row
	r, err := data.Open(selfPlayDir)
	if err != nil {
		t.Fatal(err)
	}
	files := r.Files()
	r.Close()
	for _, f := range files {
		rs, err := data.ReadRows(f)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rs...)
	}
	for _, tc := range []struct {
		name string
		opt  func(*RowOptions)
	}{
		{"result", func(o *RowOptions) {}},
		{"value, recomputed", func(o *RowOptions) { o.Target = Target{Kind: TargetValue}; o.RecomputeFeatures = true }},
		{"blend, early turns", func(o *RowOptions) {
			o.Target = Target{Kind: TargetBlend, Lambda: 0.25}
			o.EarlyTurns, o.EarlyWeight, o.CheapWeight = 5, 0.2, 0.75
		}},
		{"max rows", func(o *RowOptions) { o.MaxRows = 100 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultRowOptions()
			opt.Val = 0.3
			tc.opt(&opt)
			l, err := Load(context.Background(), []string{selfPlayDir}, opt, 3, nil)
			if err != nil {
				t.Fatal(err)
			}
			var ti, vi int
			used := rows
			if opt.MaxRows > 0 {
				used = rows[:opt.MaxRows]
			}
			if l.Read != int64(len(used)) {
				t.Fatalf("read %d rows, want %d", l.Read, len(used))
			}
			for _, row := range used {
				y, ok := opt.Target.of(row.Result, row.RootValue)
				if !ok {
					continue
				}
				d, i := l.Train, ti
				if InValidation(row.GameID, opt.Seed, opt.Val) {
					d, i = l.Val, vi
					vi++
				} else {
					ti++
				}
				if i >= d.Rows() {
					t.Fatalf("too few rows loaded")
				}
				if d.GameID[i] != row.GameID || d.Y[i] != y {
					t.Fatalf("row %d: game %d y %v, want game %d y %v", i, d.GameID[i], d.Y[i], row.GameID, y)
				}
				want := float32(1)
				if !row.FullSearch {
					want *= float32(opt.CheapWeight)
				}
				if int(row.Turn) <= opt.EarlyTurns+1 {
					want *= float32(opt.EarlyWeight)
				}
				if d.W[i] != want {
					t.Fatalf("row %d (turn %d, full %v): weight %v, want %v", i, row.Turn, row.FullSearch, d.W[i], want)
				}
				if !slices.Equal(d.X[i*features.N:(i+1)*features.N], row.Features) {
					t.Fatalf("row %d: features differ from the file's", i)
				}
			}
			if ti != l.Train.Rows() || vi != l.Val.Rows() {
				t.Fatalf("%d/%d rows loaded, want %d/%d", l.Train.Rows(), l.Val.Rows(), ti, vi)
			}
			if int64(ti+vi)+l.LeftOut != l.Read {
				t.Fatalf("left out %d", l.LeftOut)
			}
		})
	}
}

// TestTarget checks ParseTarget and the targets of rows.
func TestTarget(t *testing.T) {
	for _, tc := range []struct {
		in      string
		result  int8
		value   float32
		y       float32
		ok      bool
		wantErr bool
	}{
		{"result", 1, -0.5, 1, true, false},
		{"result", -1, 0.5, 0, true, false},
		{"result", 0, 0.5, 0.5, false, false},
		{"value", 0, 0.5, 0.75, true, false},
		{"value", 1, -1, 0, true, false},
		{"blend:0.5", 1, 0, 0.75, true, false},
		{"blend:0.25", -1, 1, 0.75, true, false},
		{"blend:0.5", 0, 0.5, 0.75, true, false}, // unfinished: the value alone
		{"blend:1.5", 0, 0, 0, false, true},
		{"blend:x", 0, 0, 0, false, true},
		{"values", 0, 0, 0, false, true},
	} {
		tg, err := ParseTarget(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: error %v", tc.in, err)
			continue
		}
		if err != nil {
			continue
		}
		if tg.String() != tc.in {
			t.Errorf("%s: String %q", tc.in, tg.String())
		}
		y, ok := tg.of(tc.result, tc.value)
		if ok != tc.ok || (ok && y != tc.y) {
			t.Errorf("%s of (%d, %v): %v %v, want %v %v", tc.in, tc.result, tc.value, y, ok, tc.y, tc.ok)
		}
	}
}

// TestMetrics checks the metrics on a case worked by hand.
func TestMetrics(t *testing.T) {
	// One feature; weights give z = 0, ln 3, -ln 3 on three rows: p = 1/2, 3/4, 1/4.
	d, err := NewDataset(1, []float32{0, 1, -1}, []float32{1, 1, 0.5}, []float32{1, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Evaluate(context.Background(), d, []float64{math.Log(3)}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ll := (math.Log(2) + 2*-math.Log(0.75) + math.Log(4/math.Sqrt(3))) / 4
	// brier: (1/2)^2 + 2*(1/4)^2 + (1/4)^2 over 4.
	br := (0.25 + 2*0.0625 + 0.0625) / 4
	// accuracy over the decisive rows (the first two): half of 1 plus 2, of 3.
	acc := (0.5 + 2) / 3
	m := e.All
	if m.Rows != 3 || m.Weight != 4 || math.Abs(m.LogLoss-ll) > 1e-12 || math.Abs(m.Brier-br) > 1e-12 || math.Abs(m.Accuracy-acc) > 1e-12 {
		t.Fatalf("metrics %+v, want log-loss %v brier %v accuracy %v", m, ll, br, acc)
	}
	if e.ByPhase[PhaseUnknown] != m {
		t.Fatalf("phase unknown %+v, all %+v", e.ByPhase[PhaseUnknown], m)
	}
}

// TestRecomputeFeatures writes shards of another feature set: refused
// without recomputing, and with it the features come from the boards and
// match those self-play stored, also with shards of the current set mixed in.
func TestRecomputeFeatures(t *testing.T) {
	dir := t.TempDir()
	rows, err := data.ReadRows(filepath.Join(selfPlayDir, "shard-00000.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	meta := data.Meta{FeatureNames: []string{"bias", "old_feature"}, FeatureVersion: "f1-000000000000"}
	path := filepath.Join(dir, "old.arrow")
	w, err := data.Create(path, meta, data.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored := make(map[uint64][]float32) // by game and turn
	for i := range rows {
		stored[rows[i].GameID<<16|uint64(rows[i].Turn)<<1|uint64(rows[i].Side)] = rows[i].Features
		rows[i].Features = []float32{1, 0.5}
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	opt := DefaultRowOptions()
	_, err = Load(context.Background(), []string{path}, opt, 2, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "f1-000000000000") {
		t.Fatalf("old feature set: error %v, want one naming the file and its feature set", err)
	}
	opt.RecomputeFeatures, opt.Val, opt.Target = true, 0, Target{Kind: TargetValue}
	l, err := Load(context.Background(), []string{path}, opt, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Train.NumFeatures != features.N || l.Train.Rows() != len(rows) {
		t.Fatalf("%d rows of %d features", l.Train.Rows(), l.Train.NumFeatures)
	}
	for i, row := range rows {
		got := l.Train.X[i*features.N : (i+1)*features.N]
		if want := stored[row.GameID<<16|uint64(row.Turn)<<1|uint64(row.Side)]; !slices.Equal(got, want) {
			t.Fatalf("row %d: recomputed %v, stored %v", i, got, want)
		}
	}
	// Shards of the old and the current feature set, mixed: the rows of both
	// serve, each with the features of its board.
	l, err = Load(context.Background(), []string{path, filepath.Join(selfPlayDir, "shard-00000.arrow")}, opt, 2, nil)
	if err != nil {
		t.Fatalf("old and current feature sets mixed: %v", err)
	}
	if l.Train.Rows() != 2*len(rows) {
		t.Fatalf("mixed: %d rows, want %d", l.Train.Rows(), 2*len(rows))
	}
	for i, row := range rows {
		got := l.Train.X[(len(rows)+i)*features.N : (len(rows)+i+1)*features.N]
		if want := stored[row.GameID<<16|uint64(row.Turn)<<1|uint64(row.Side)]; !slices.Equal(got, want) {
			t.Fatalf("mixed, row %d of the current shard: %v, stored %v", i, got, want)
		}
	}
}

// writeRows writes rows as a shard of the current feature set.
func writeRows(t *testing.T, path string, rows []data.Row) {
	t.Helper()
	w, err := data.Create(path, data.Meta{FeatureNames: features.Names(), FeatureVersion: features.Version()}, data.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBadInput checks that bad data and bad settings give one-line errors
// naming the file, in memory and streamed, and never a panic.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good, err := data.ReadRows(filepath.Join(selfPlayDir, "shard-00000.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	bad := func(name string, edit func(rows []data.Row)) string {
		rows := slices.Clone(good)
		for i := range rows {
			rows[i].Features = slices.Clone(rows[i].Features)
		}
		edit(rows)
		path := filepath.Join(dir, name+".arrow")
		writeRows(t, path, rows)
		return path
	}
	nanFeature := bad("nan-feature", func(r []data.Row) { r[len(r)/2].Features[7] = float32(math.NaN()) })
	infFeature := bad("inf-feature", func(r []data.Row) { r[3].Features[0] = float32(math.Inf(1)) })
	nanValue := bad("nan-value", func(r []data.Row) { r[5].RootValue = float32(math.NaN()) })
	badResult := bad("bad-result", func(r []data.Row) { r[9].Result = 3 })
	unfinished := bad("unfinished", func(r []data.Row) {
		for i := range r {
			r[i].Result, r[i].Termination = 0, "max-turns"
		}
	})
	emptyFile := filepath.Join(dir, "empty-file.arrow")
	if err := os.WriteFile(emptyFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	emptyShard := filepath.Join(dir, "empty-shard.arrow")
	writeRows(t, emptyShard, nil)
	otherSet := filepath.Join(dir, "other-set.arrow")
	w, err := data.Create(otherSet, data.Meta{FeatureNames: []string{"bias", "x"}, FeatureVersion: "f1-111111111111"}, data.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	row := good[0]
	row.Features = []float32{1, 2}
	if err := w.Write(&row); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	goodFile := filepath.Join(selfPlayDir, "shard-00000.arrow")
	otherWeights, _ := configs.Gen0()
	otherWeights.FeatureVersion = "f1-000000000000"
	otherWeights.Source = "old.json"

	for _, tc := range []struct {
		name string
		opt  func(o *Options)
		want []string // substrings of the error
	}{
		{"no data", func(o *Options) { o.Data = nil }, []string{"no data files"}},
		{"missing file", func(o *Options) { o.Data = []string{filepath.Join(dir, "nope.arrow")} }, []string{"nope.arrow"}},
		{"no shards in directory", func(o *Options) { o.Data = []string{t.TempDir()} }, []string{"no .arrow files"}},
		{"empty file", func(o *Options) { o.Data = []string{emptyFile} }, []string{emptyFile, "empty"}},
		{"empty shard", func(o *Options) { o.Data = []string{goodFile, emptyShard} }, []string{emptyShard, "empty shard"}},
		{"mismatched feature sets", func(o *Options) { o.Data = []string{goodFile, otherSet} }, []string{otherSet, "feature"}},
		{"other feature set", func(o *Options) { o.Data = []string{otherSet} }, []string{otherSet, "feature set f1-111111111111", "-recompute-features"}},
		{"NaN feature", func(o *Options) { o.Data = []string{nanFeature} }, []string{nanFeature, "harlog", "NaN"}},
		{"Inf feature", func(o *Options) { o.Data = []string{infFeature} }, []string{infFeature, "bias", "+Inf"}},
		{"NaN value", func(o *Options) { o.Data = []string{nanValue} }, []string{nanValue, "root_value NaN"}},
		{"bad result", func(o *Options) { o.Data = []string{badResult} }, []string{badResult, "result 3"}},
		{"only unfinished games", func(o *Options) { o.Data = []string{unfinished}; o.Target = Target{Kind: TargetResult} }, []string{"no training rows"}},
		{"other weights", func(o *Options) { o.Init = otherWeights }, []string{"old.json", "feature set f1-000000000000"}},
		{"bad validation share", func(o *Options) { o.Val = 1 }, []string{"validation share"}},
		{"bad cheap weight", func(o *Options) { o.CheapWeight = -1 }, []string{"cheap"}},
		{"bad L2", func(o *Options) { o.L2 = math.NaN() }, []string{"L2"}},
		{"bad anchor", func(o *Options) { o.FitScale, o.Anchor = true, "nope" }, []string{`"nope"`}},
	} {
		for _, stream := range []bool{false, true} {
			name := tc.name
			if stream {
				name += ", streamed"
			}
			t.Run(name, func(t *testing.T) {
				o := runOptions(2)
				o.Stream = stream
				tc.opt(&o)
				_, err := Run(context.Background(), o)
				if err == nil {
					t.Fatal("no error")
				}
				msg := err.Error()
				if strings.Contains(msg, "\n") {
					t.Errorf("error of several lines: %q", msg)
				}
				for _, s := range tc.want {
					if !strings.Contains(msg, s) {
						t.Errorf("error %q lacks %q", msg, s)
					}
				}
			})
		}
	}
}

// TestNewDataset checks the constructor's validation.
func TestNewDataset(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name    string
		nf      int
		x, y, w []float32
	}{
		{"no features", 0, nil, nil, nil},
		{"short x", 2, []float32{1}, []float32{1}, nil},
		{"weights length", 1, []float32{1}, []float32{1}, []float32{1, 1}},
		{"NaN feature", 1, []float32{nan}, []float32{1}, nil},
		{"NaN target", 1, []float32{1}, []float32{nan}, nil},
		{"target above 1", 1, []float32{1}, []float32{1.5}, nil},
		{"negative weight", 1, []float32{1}, []float32{1}, []float32{-1}},
	} {
		if _, err := NewDataset(tc.nf, tc.x, tc.y, tc.w); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := Fit(context.Background(), &Dataset{NumFeatures: 2}, []float64{0, 0}, FitOptions{Scale: 1}); err == nil {
		t.Error("fit of no rows: no error")
	}
	d := synthetic(10, 2, 1, 1, []float64{0, 1}, 1, false, false)
	if _, err := Fit(context.Background(), d, []float64{0}, FitOptions{Scale: 1}); err == nil {
		t.Error("fit with the wrong number of weights: no error")
	}
	if _, err := Fit(context.Background(), d, []float64{0, 0}, FitOptions{Scale: 0}); err == nil {
		t.Error("fit with scale 0: no error")
	}
}

// TestCancel checks that a cancelled context stops a fit and a streamed run
// with the context's error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := synthetic(50_000, 4, 1, 1, trueWeights(4, 1), 1, false, false)
	if _, err := Fit(ctx, d, make([]float64, 4), FitOptions{Scale: 1, Threads: 2}); err != context.Canceled {
		t.Errorf("fit: error %v, want context.Canceled", err)
	}
	o := runOptions(2)
	o.Stream = true
	if _, err := Run(ctx, o); err != context.Canceled {
		t.Errorf("run: error %v, want context.Canceled", err)
	}

	// Cancelled in the middle of a fit.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	_, err := Fit(ctx, d, make([]float64, 4), FitOptions{Scale: 1, Threads: 2, Progress: func(iter int, _ float64) {
		if iter == 2 {
			cancel()
		}
	}})
	if err != context.Canceled {
		t.Errorf("fit cancelled at iteration 2: error %v, want context.Canceled", err)
	}
}

// TestFitScale checks that moving the scale keeps the evaluation and puts
// the anchor back at its initial weight.
func TestFitScale(t *testing.T) {
	o := runOptions(2)
	plain, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.FitScale = true
	moved, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	gen0, _ := configs.Gen0()
	a, _ := moved.Weights.Value("harlog")
	a0, _ := gen0.Value("harlog")
	if math.Abs(a-a0) > 1e-12 {
		t.Errorf("harlog %v after moving the scale, want %v", a, a0)
	}
	for j, v := range plain.Weights.Values {
		p := plain.Weights.Scale * v
		m := moved.Weights.Scale * moved.Weights.Values[j]
		if math.Abs(p-m) > 1e-12*max(1, math.Abs(p)) {
			t.Errorf("%s: effective weight %v, %v with the scale moved", plain.Weights.Features[j], p, m)
		}
	}
}

// TestFixed fits synthetic rows with some weights fixed: those keep their
// starting values to the bit, and the others still move to the best fit
// given them (the true weights, where the fixed ones start at theirs).
func TestFixed(t *testing.T) {
	nf := 6
	want := trueWeights(nf, 1)
	d := synthetic(50_000, nf, 1, 1, want, 1, true, false)
	init := make([]float64, nf)
	fixed := []bool{false, true, false, false, true, false}
	for j, f := range fixed {
		if f {
			init[j] = want[j]
		}
	}
	r, err := Fit(context.Background(), d, init, FitOptions{Scale: 1, Bias: 0, Fixed: fixed})
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		switch {
		case fixed[j] && r.Values[j] != init[j]:
			t.Errorf("fixed weight %d moved: %v, want %v", j, r.Values[j], init[j])
		case !fixed[j] && math.Abs(r.Values[j]-want[j]) > 0.02:
			t.Errorf("weight %d: %.4f, want %.4f", j, r.Values[j], want[j])
		}
	}
	if _, err := Fit(context.Background(), d, init, FitOptions{Scale: 1, Bias: 0, Fixed: fixed[:2]}); err == nil {
		t.Error("a mask of the wrong length was accepted")
	}
}

// TestFix checks Run's -fix: the listed features keep generation 0's
// weights, patterns match several, and bad lists are refused by name.
func TestFix(t *testing.T) {
	o := runOptions(2)
	o.Fix = []string{"material_*", "harlog"}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	gen0, _ := configs.Gen0()
	moved := 0
	for j, name := range res.Weights.Features {
		v0, _ := gen0.Value(name)
		fixed := name == "harlog" || strings.HasPrefix(name, "material_")
		if fixed && res.Weights.Values[j] != v0 {
			t.Errorf("%s: %v, want it fixed at %v", name, res.Weights.Values[j], v0)
		}
		if !fixed && res.Weights.Values[j] != v0 {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no weight moved")
	}
	if !strings.Contains(res.Weights.Lineage.Notes, "fixed at their initial values: material_*, harlog") {
		t.Errorf("lineage notes %q lack the fixed features", res.Weights.Lineage.Notes)
	}
	for _, tc := range []struct {
		fix      []string
		fitScale bool
		want     string
	}{
		{[]string{"nosuch"}, false, `-fix "nosuch" matches no feature`},
		{[]string{"material_["}, false, `-fix "material_["`},
		{[]string{"harlog"}, true, "-fix does not go with -fit-scale"},
	} {
		o := runOptions(2)
		o.Fix, o.FitScale = tc.fix, tc.fitScale
		if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-fix %q, fit-scale %v: error %v, want %q", tc.fix, tc.fitScale, err, tc.want)
		}
	}
}
