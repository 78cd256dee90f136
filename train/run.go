package train

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/weights"
)

// Options are the settings of Run.
type Options struct {
	RowOptions

	// Data names the shards: files, directories or glob patterns.
	Data []string
	// Init is the starting point of the fit and the parent of the result;
	// nil means the embedded generation-0 weights (configs.Gen0).
	Init *weights.Weights
	// L2 weighs the penalty L2/2 * |w - c|^2 on every weight but the bias,
	// in the units of the scale, where c is zero, or the initial weights
	// with L2ToInit.
	L2       float64
	L2ToInit bool
	// Fix lists features, by name or path.Match pattern (such as
	// "material_*"), whose weights keep their initial values: the fit moves
	// only the others (fitting, say, the positional weights to a reference
	// engine's scores while the material stays as it is). Each must match a
	// feature; it does not go with FitScale, which would move them all.
	Fix []string
	// FitScale moves the scale after the fit so that the weight of the
	// feature Anchor keeps its initial value (the evaluation is the same;
	// only the units of the weights change). Without it the scale of Init is
	// kept.
	FitScale bool
	Anchor   string
	// Stream computes every pass over the memory-mapped files instead of
	// holding the rows in memory: for datasets larger than memory.
	Stream bool
	// Threads is the number of goroutines (0: one per CPU). The weights do
	// not depend on it.
	Threads int
	// MaxIter and GradTol bound the L-BFGS iterations (see FitOptions).
	MaxIter int
	GradTol float64
	// Notes are added to the lineage's notes.
	Notes string
	// Created is the time written in the lineage (zero: now).
	Created time.Time
	// Progress receives progress bars (nil: none); they are shown only on a
	// terminal unless ForceProgress.
	Progress      io.Writer
	ForceProgress bool
}

// DefaultOptions returns the default settings: DefaultRowOptions, L2 1e-4
// towards zero, the scale of the initial weights kept (anchor "harlog" when
// fitted), one thread per CPU, DefaultMaxIter and DefaultGradTol.
func DefaultOptions() Options {
	return Options{RowOptions: DefaultRowOptions(), L2: 1e-4, Anchor: "harlog",
		MaxIter: DefaultMaxIter, GradTol: DefaultGradTol}
}

// Result is the outcome of Run.
type Result struct {
	// Weights are the fitted weights: generation Init.Generation+1, with
	// their lineage. Run does not save them.
	Weights *weights.Weights
	// Report holds the measures of the fit; WriteTo prints it.
	Report *Report
}

// Run fits the weights of the linear evaluation to the shards of opt.Data:
// it reads the rows (into memory, or streamed with opt.Stream), splits them
// by game, measures the zero weights and the initial ones, fits with L-BFGS,
// measures the result and returns the next generation of weights with its
// lineage and a report.
func Run(ctx context.Context, opt Options) (*Result, error) {
	if opt.Threads <= 0 {
		opt.Threads = runtime.NumCPU()
	}
	init, w0, fixed, err := opt.start()
	if err != nil {
		return nil, err
	}
	names := features.Names()
	if fixed != nil && opt.FitScale {
		return nil, errors.New("-fix does not go with -fit-scale: moving the scale would change the fixed weights")
	}
	anchor := -1
	if opt.FitScale {
		if anchor = features.Index(opt.Anchor); anchor < 0 {
			return nil, fmt.Errorf("anchor %q is not a feature", opt.Anchor)
		}
		if w0[anchor] == 0 {
			return nil, fmt.Errorf("anchor %q has initial weight 0: choose a feature with a nonzero weight", opt.Anchor)
		}
	}

	s, err := openShards(opt.Data, opt.RowOptions)
	if err != nil {
		return nil, err
	}
	defer s.close()

	rep := &Report{
		Data: opt.Data, Files: len(s.r.Files()), Target: opt.Target, Options: opt,
		InitGeneration: init.Generation, InitScale: init.Scale, Stream: opt.Stream,
		FeatureNames: names,
	}
	var train, val source
	if opt.Stream {
		train, val = &stream{s: s}, &stream{s: s, val: true}
		rep.Read = s.read
	} else {
		bar := progress.New(progressOut(opt.Progress), s.read, "loading rows", opt.ForceProgress)
		l, err := s.load(ctx, opt.Threads, func(done, _ int64) { bar.Set(done) })
		bar.Finish()
		if err != nil {
			return nil, err
		}
		train, val = l.Train, l.Val
		rep.Read, rep.LeftOut = l.Read, l.LeftOut
		rep.TrainGames, rep.ValGames = countGames(l.Train.GameID), countGames(l.Val.GameID)
	}

	zero := make([]float64, len(names))
	before, err := evaluate(ctx, train, opt.Threads, init.Scale, zero, w0)
	if err != nil {
		return nil, err
	}
	rep.Zero.Train, rep.Initial.Train = before[0], before[1]
	if before[0].All.Rows == 0 {
		return nil, fmt.Errorf("%s: no training rows (%d rows read, %d left out by the target %s)", strings.Join(opt.Data, " "), s.read, s.read-rowsOf(before[0]), opt.Target)
	}
	if opt.Val > 0 {
		vb, err := evaluate(ctx, val, opt.Threads, init.Scale, zero, w0)
		if err != nil {
			return nil, err
		}
		rep.Zero.Val, rep.Initial.Val = vb[0], vb[1]
	}
	if opt.Stream {
		rep.LeftOut = s.read - rowsOf(rep.Zero.Train) - rowsOf(rep.Zero.Val)
	}
	if opt.Val > 0 && rep.Zero.Val.All.Rows == 0 {
		rep.Warnings = append(rep.Warnings, "the validation set is empty: too few games for the -val share")
	}

	fr, err := opt.fit(ctx, train, init.Scale, w0, fixed, false)
	if err != nil {
		return nil, err
	}
	rep.Fit = fr

	after, err := evaluate(ctx, train, opt.Threads, init.Scale, fr.Values)
	if err != nil {
		return nil, err
	}
	rep.Fitted.Train = after[0]
	if opt.Val > 0 {
		va, err := evaluate(ctx, val, opt.Threads, init.Scale, fr.Values)
		if err != nil {
			return nil, err
		}
		rep.Fitted.Val = va[0]
	}

	// The written weights: the fitted ones at the initial scale, or rescaled
	// so that the anchor keeps its initial weight.
	values, scale := slices.Clone(fr.Values), init.Scale
	if anchor >= 0 {
		ratio := values[anchor] / w0[anchor]
		if ratio > 0 && !math.IsInf(ratio, 0) {
			scale = init.Scale * ratio
			for j := range values {
				values[j] /= ratio
			}
		} else {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("scale not moved: the fitted weight of %q is %.4g, of the other sign than its initial %.4g", opt.Anchor, values[anchor], w0[anchor]))
		}
	}
	rep.Scale = scale
	for j, name := range names {
		rep.Changes = append(rep.Changes, WeightChange{
			Feature: name, Initial: w0[j], Fitted: values[j], Change: fr.Values[j] - w0[j],
		})
	}
	slices.SortStableFunc(rep.Changes, func(a, b WeightChange) int {
		return cmp.Compare(math.Abs(b.Change), math.Abs(a.Change))
	})

	out, err := weights.New(values, scale, init.Generation+1)
	if err != nil {
		return nil, err
	}
	created := opt.Created
	if created.IsZero() {
		created = time.Now()
	}
	out.Lineage = weights.Lineage{
		Parent:  init.Generation,
		Dataset: slices.Clone(opt.Data),
		Rows:    rowsOf(rep.Fitted.Train),
		Target:  opt.Target.String(),
		Metrics: rep.metrics(),
		Created: created.UTC().Truncate(time.Second),
		Notes:   rep.notes(),
	}
	if err := out.Check(); err != nil {
		return nil, fmt.Errorf("the fitted weights: %w", err)
	}
	return &Result{Weights: out, Report: rep}, nil
}

// start checks the L2 weight and returns the initial weights (Init, or the
// embedded generation 0), their values in feature order, and the mask of
// the features that Fix keeps (nil for none).
func (opt *Options) start() (init *weights.Weights, w0 []float64, fixed []bool, err error) {
	if !(opt.L2 >= 0) || math.IsInf(opt.L2, 0) {
		return nil, nil, nil, fmt.Errorf("L2 %v is not a non-negative number", opt.L2)
	}
	init = opt.Init
	if init == nil {
		if init, err = configs.Gen0(); err != nil {
			return nil, nil, nil, err
		}
	}
	if err := init.Check(); err != nil {
		return nil, nil, nil, err
	}
	names := features.Names()
	w0 = make([]float64, len(names))
	for j, name := range names {
		w0[j], _ = init.Value(name) // Check guarantees every name
	}
	if fixed, err = fixedMask(names, opt.Fix); err != nil {
		return nil, nil, nil, fmt.Errorf("-fix %w", err)
	}
	return init, w0, fixed, nil
}

// fit fits the rows of src from w0 at the given scale with opt's penalty,
// threads and stopping rules, the features of fixed kept, with a progress
// bar.
//
// With L2ToInit the penalty pulls towards w0, or, with freeUnits (a fit
// whose units are free), towards w0 times the multiplier that brings it
// closest to the weights (see FitOptions.ScaleCenter); freeUnits also holds
// the fixed weights at that multiple of their values
// (FitOptions.FixedScaled).
func (opt *Options) fit(ctx context.Context, src source, scale float64, w0 []float64, fixed []bool, freeUnits bool) (*FitResult, error) {
	center := []float64(nil)
	if opt.L2ToInit {
		center = w0
	}
	maxIter := cmp.Or(opt.MaxIter, DefaultMaxIter)
	bar := progress.New(progressOut(opt.Progress), int64(maxIter), "fitting", opt.ForceProgress)
	defer bar.Finish()
	return fit(ctx, src, w0, FitOptions{
		Scale: scale, L2: opt.L2, Center: center, ScaleCenter: freeUnits, Bias: features.Index("bias"), Threads: opt.Threads,
		MaxIter: maxIter, GradTol: opt.GradTol, Fixed: fixed, FixedScaled: freeUnits,
		Progress: func(iter int, loss float64) {
			bar.Describe(fmt.Sprintf("fitting: loss %.6f", loss))
			bar.Set(int64(iter))
		},
	})
}

// progressOut returns w, or io.Discard for nil.
func progressOut(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// rowsOf returns the rows an Eval counts.
func rowsOf(e Eval) int64 { return e.All.Rows }

// countGames returns the number of distinct games of ids.
func countGames(ids []uint64) int {
	seen := make(map[uint64]struct{})
	for _, id := range ids {
		seen[id] = struct{}{}
	}
	return len(seen)
}

// CheckFix reports an error for a pattern of Options.Fix that is malformed
// or matches no feature.
func CheckFix(patterns []string) error {
	_, err := fixedMask(features.Names(), patterns)
	return err
}

// fixedMask returns, for each feature of names, whether one of the patterns
// (names or path.Match patterns) matches it; nil for no patterns. A pattern
// that matches no feature, or is malformed, is an error.
func fixedMask(names, patterns []string) ([]bool, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	mask := make([]bool, len(names))
	for _, p := range patterns {
		found := false
		for j, name := range names {
			ok, err := path.Match(p, name)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", p, err)
			}
			if ok {
				mask[j], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%q matches no feature", p)
		}
	}
	return mask, nil
}
