package train

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Report holds what a Run measured: the rows used, the metrics of the zero
// weights, the initial weights and the fitted ones on the training and the
// validation rows, the fit itself, and the weights that changed most.
type Report struct {
	// Options are the settings of the run.
	Options Options
	// Data are the paths given, Files the number of shard files they hold.
	Data  []string
	Files int
	// Target is the value target.
	Target Target
	// Stream says whether the rows were streamed rather than held in memory.
	Stream bool
	// FeatureNames names the features in order.
	FeatureNames []string
	// Read is the number of rows read; LeftOut those not used (unfinished
	// games for the result target).
	Read    int64
	LeftOut int64
	// TrainGames and ValGames count the games on each side of the split
	// (0 when streaming: not counted).
	TrainGames, ValGames int
	// InitGeneration and InitScale describe the initial weights; Scale is
	// the scale of the fitted weights (InitScale unless FitScale).
	InitGeneration int
	InitScale      float64
	Scale          float64
	// Zero, Initial and Fitted are the metrics of the zero weights (p = 1/2
	// everywhere), the initial and the fitted weights.
	Zero, Initial, Fitted SplitEval
	// Fit describes the optimization.
	Fit *FitResult
	// Changes lists every weight, the largest change first. Change is the
	// fitted weight at the initial scale minus the initial weight.
	Changes []WeightChange
	// Warnings are things the user should know, one line each.
	Warnings []string
}

// SplitEval is the Eval of the training and of the validation rows.
type SplitEval struct {
	Train, Val Eval
}

// WeightChange is the change of one weight by the fit.
type WeightChange struct {
	Feature string
	Initial float64
	Fitted  float64 // as written, at the fitted scale
	Change  float64 // at the initial scale
}

// metrics returns the measures stored in the lineage: of the fitted weights
// on each side ("train_logloss", "val_accuracy", ...), of the initial weights
// with the prefix "init_", and the row counts.
func (r *Report) metrics() map[string]float64 {
	m := map[string]float64{
		"train_rows": float64(r.Fitted.Train.All.Rows),
		"val_rows":   float64(r.Fitted.Val.All.Rows),
		"iterations": float64(r.Fit.Iterations),
	}
	add := func(prefix string, e Eval) {
		if e.All.Rows == 0 {
			return
		}
		m[prefix+"logloss"] = round(e.All.LogLoss)
		m[prefix+"accuracy"] = round(e.All.Accuracy)
		m[prefix+"brier"] = round(e.All.Brier)
	}
	add("train_", r.Fitted.Train)
	add("val_", r.Fitted.Val)
	add("init_train_", r.Initial.Train)
	add("init_val_", r.Initial.Val)
	return m
}

// round keeps 6 significant digits, enough for a metric and short to read.
func round(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	out, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return out
}

// notes returns the lineage's notes: the settings that made the weights, then
// the user's notes.
func (r *Report) notes() string {
	o := r.Options
	var b strings.Builder
	fmt.Fprintf(&b, "arimaalab train: L-BFGS %d iterations (%s)", r.Fit.Iterations, r.Fit.Status)
	toward := "zero"
	if o.L2ToInit {
		toward = "the initial weights"
	}
	fmt.Fprintf(&b, "; l2 %g towards %s; validation %g of games (seed %d)", o.L2, toward, o.Val, o.Seed)
	fmt.Fprintf(&b, "; cheap-search rows weight %g", o.CheapWeight)
	if o.EarlyTurns > 0 {
		fmt.Fprintf(&b, "; first %d turns weight %g", o.EarlyTurns, o.EarlyWeight)
	}
	if o.MaxRows > 0 {
		fmt.Fprintf(&b, "; first %d rows", o.MaxRows)
	}
	if len(o.Fix) > 0 {
		fmt.Fprintf(&b, "; fixed at their initial values: %s", strings.Join(o.Fix, ", "))
	}
	if o.RecomputeFeatures {
		b.WriteString("; features recomputed from the boards")
	}
	if r.Scale != r.InitScale {
		fmt.Fprintf(&b, "; scale moved from %.6g to %.6g to keep %s at %g", r.InitScale, r.Scale, o.Anchor, r.anchorInitial())
	}
	if o.Notes != "" {
		b.WriteString(". ")
		b.WriteString(o.Notes)
	}
	return b.String()
}

// anchorInitial returns the initial weight of the anchor feature.
func (r *Report) anchorInitial() float64 {
	for _, c := range r.Changes {
		if c.Feature == r.Options.Anchor {
			return c.Initial
		}
	}
	return 0
}

// WriteTo prints the report as text: what was read, how the fit went, the
// summary table, the breakdown by phase and the largest changes.
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	mode := "in memory"
	if r.Stream {
		mode = "streamed"
	}
	fmt.Fprintf(&b, "data: %d files, %d rows read (%s), target %s\n", r.Files, r.Read, mode, r.Target)
	games := func(n int) string {
		if r.Stream {
			return ""
		}
		return fmt.Sprintf(", %d games", n)
	}
	fmt.Fprintf(&b, "rows: train %d (weight %.1f%s), validation %d (weight %.1f%s), left out %d\n",
		r.Zero.Train.All.Rows, r.Zero.Train.All.Weight, games(r.TrainGames),
		r.Zero.Val.All.Rows, r.Zero.Val.All.Weight, games(r.ValGames), r.LeftOut)
	if f := r.Fit; f != nil {
		fmt.Fprintf(&b, "fit: L-BFGS %d iterations, %d passes, %s, max |gradient| %.2g, objective %.6f, %.2fs, %d threads\n",
			f.Iterations, f.Evaluations, f.Status, f.GradNorm, f.Loss, f.Elapsed.Seconds(), r.Options.Threads)
	}
	if r.Scale != r.InitScale {
		fmt.Fprintf(&b, "scale: %.6g (initial %.6g)\n", r.Scale, r.InitScale)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", s)
	}

	b.WriteString("\n")
	fmt.Fprintf(&b, "%-18s %29s   %29s\n", "", "------------ train ------------", "--------- validation ----------")
	fmt.Fprintf(&b, "%-18s %9s %9s %9s   %9s %9s %9s\n", "weights", "logloss", "accuracy", "brier", "logloss", "accuracy", "brier")
	line := func(name string, e SplitEval) {
		fmt.Fprintf(&b, "%-18s %s   %s\n", name, cells(e.Train), cells(e.Val))
	}
	line("zero", r.Zero)
	line(fmt.Sprintf("initial (gen %d)", r.InitGeneration), r.Initial)
	line(fmt.Sprintf("fitted (gen %d)", r.InitGeneration+1), r.Fitted)

	side, which := r.Zero.Val, "validation"
	iside := r.Initial.Val
	fside := r.Fitted.Val
	if side.All.Rows == 0 {
		side, iside, fside, which = r.Zero.Train, r.Initial.Train, r.Fitted.Train, "training"
	}
	if len(side.ByPhase) > 0 && side.ByPhase[PhaseUnknown].Rows < side.All.Rows {
		fmt.Fprintf(&b, "\n%s rows by phase (pieces on the board: opening 28-32, middlegame 20-27, endgame 0-19)\n", which)
		fmt.Fprintf(&b, "%-12s %9s   %29s   %19s\n", "", "", "----------- logloss ---------", "----- accuracy ----")
		fmt.Fprintf(&b, "%-12s %9s   %9s %9s %9s   %9s %9s\n", "phase", "rows", "zero", "initial", "fitted", "initial", "fitted")
		for p := PhaseOpening; p < numPhases; p++ {
			z := side.ByPhase[p]
			if z.Rows == 0 {
				fmt.Fprintf(&b, "%-12s %9d\n", p, 0)
				continue
			}
			fmt.Fprintf(&b, "%-12s %9d   %9.4f %9.4f %9.4f   %9.4f %9.4f\n", p, z.Rows,
				z.LogLoss, iside.ByPhase[p].LogLoss, fside.ByPhase[p].LogLoss,
				iside.ByPhase[p].Accuracy, fside.ByPhase[p].Accuracy)
		}
	}

	if len(r.Changes) > 0 {
		fmt.Fprintf(&b, "\nweights that changed most (change at the initial scale %.6g)\n", r.InitScale)
		fmt.Fprintf(&b, "%-22s %10s %10s %10s\n", "feature", "initial", "fitted", "change")
		for _, c := range r.Changes[:min(10, len(r.Changes))] {
			fmt.Fprintf(&b, "%-22s %10.4f %10.4f %+10.4f\n", c.Feature, c.Initial, c.Fitted, c.Change)
		}
	}
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// cells formats logloss, accuracy and Brier score of e, or dashes when it has
// no rows.
func cells(e Eval) string {
	if e.All.Rows == 0 {
		return fmt.Sprintf("%9s %9s %9s", "-", "-", "-")
	}
	return fmt.Sprintf("%9.4f %9.4f %9.4f", e.All.LogLoss, e.All.Accuracy, e.All.Brier)
}
