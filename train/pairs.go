package train

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/setup"
	"github.com/arimaalab/arimaalab/weights"
)

// Comparison training. A search chooses its move by comparing the positions
// its moves lead to, so what matters in an evaluation is that it orders the
// positions after one position's moves as a stronger player would. RunPairs
// fits the weights to exactly that: from groups of labelled positions one
// move after a common position (analyze successors, then analyze label with
// a judge such as Sharp), every two positions of a group whose judged values
// differ by at least a margin make a pair, and the fit is a logistic
// regression of which of the two the judge prefers on the difference of
// their features (Bradley-Terry; Tesauro's comparison training). Absolute
// values, which the value target fits, play no part: a judge's score of a
// position includes its own search, and most of its variance between
// positions lies in material and setups, not in the choices a search makes.

// DefaultPairMargin is the least difference of root_value between two
// positions of a group for a pair: about a third of a rabbit at even
// material for labels written at analyze label's default scale.
const DefaultPairMargin = 0.03

// PairOptions are the settings of RunPairs. Of Options, the target, FitScale,
// Anchor, Stream, RecomputeFeatures (the features are always computed from
// the boards), CheapWeight and the early-turn weights play no part.
type PairOptions struct {
	Options
	// Margin is the least difference of root_value between two positions of
	// a group for them to make a pair (0: DefaultPairMargin).
	Margin float64
	// Leaf, when set, makes a function that gives the position whose
	// features stand for a row's position: for a search with tactical
	// leaves, the position after the side to move's best capture line
	// (mcts.CaptureLeaf), where the search reads the evaluation; for the
	// deep scan, the position after the best reply and the capture line
	// (mcts.ReplyLeaf). nil takes the row's own position. Each of the
	// Threads goroutines that compute features calls it once.
	Leaf func() LeafFunc
}

// LeafFunc gives the position whose features stand for a row's position p
// (a labelled position at the start of a turn), and false when no
// evaluation decides p's value (the rules do: the row is left out).
type LeafFunc func(p *engine.Position) (engine.Position, bool)

// PairsReport holds the measures of a comparison fit.
type PairsReport struct {
	Data  []string
	Files int
	Read  int64 // rows read
	// Skipped counts the rows left out because the rules decide them (see
	// LeafFunc).
	Skipped int64
	Groups  int // groups of two rows or more
	Margin  float64
	// Train and Val count the pairs of the training and validation groups
	// (whole groups on one side of the split, by game id as Run splits).
	Train, Val int
	// Initial and Fitted measure the initial and fitted weights on the
	// pairs: LogLoss is the mean cross-entropy of the judge's preference,
	// Accuracy the share of pairs ordered as the judge orders them.
	Initial, Fitted struct{ Train, Val Metrics }
	// Unit is what the fitted weights were divided by to keep the initial
	// weights' units (see RunPairs); Scale the scale of both.
	Unit, Scale float64
	Fit         *FitResult
	// Changes lists every weight, the largest change first, the fitted
	// weight as written.
	Changes  []WeightChange
	Warnings []string
}

// RunPairs fits the weights of the linear evaluation to a judge's
// comparisons (see the comment above DefaultPairMargin): the rows of
// opt.Data that share a game id, a turn and a side are a group (the
// positions after one position of a successors file, labelled); every two
// rows of a group whose root values differ by at least opt.Margin make a
// pair, the features of the one the judge prefers minus the other's with
// target 1 (and the reverse with target 0, equivalently, as the model has
// no bias). The fit starts from, and its L2 penalty pulls towards zero or,
// with L2ToInit, to, the initial weights (their proportions: a multiple of
// them, as the pairs leave the units free). Features in opt.Fix keep their
// proportions too: they are held at their initial values times the
// multiple of the initial weights closest to the free ones
// (FitOptions.FixedScaled), so that fixing, say, the goal weights keeps
// what a goal threat is worth against a rabbit.
//
// Only differences of scores are fitted, so the fitted weights' units are
// free: they are divided by the ratio of the value, to the fitted and the
// initial weights, of the first rabbit captured from the standard position
// (the initial scale is kept), so that they read in the initial weights'
// rabbits.
func RunPairs(ctx context.Context, opt PairOptions) (*weights.Weights, *PairsReport, error) {
	if opt.Threads <= 0 {
		opt.Threads = runtime.NumCPU()
	}
	if opt.Margin == 0 {
		opt.Margin = DefaultPairMargin
	}
	if !(opt.Margin > 0) || opt.Margin >= 2 {
		return nil, nil, fmt.Errorf("pair margin %v: want more than 0 and less than 2", opt.Margin)
	}
	init, w0, fixed, err := opt.start()
	if err != nil {
		return nil, nil, err
	}
	if noMultiple(w0, fixed, features.Index("bias")) {
		return nil, nil, fmt.Errorf("-fix %s: the kept weights follow the multiple of the free weights' initial values, and every free weight starts at 0 (new features, say), so they would stay at their initial size while the free ones grow with the pairs' free units; leave one weight free that is not 0, such as harlog",
			strings.Join(opt.Fix, ","))
	}
	names := features.Names()
	nf := len(names)
	ro := opt.RowOptions
	ro.RecomputeFeatures = true
	s, err := openShards(opt.Data, ro)
	if err != nil {
		return nil, nil, err
	}
	defer s.close()

	bar := progress.New(progressOut(opt.Progress), s.read, "reading groups", opt.ForceProgress)
	rows, read, err := s.groupRows(ctx, opt.Leaf, opt.Threads, func(done int64) { bar.Set(done) })
	bar.Finish()
	if err != nil {
		return nil, nil, err
	}
	rep := &PairsReport{Data: opt.Data, Files: len(s.r.Files()), Read: read, Skipped: read - int64(len(rows)), Margin: opt.Margin, Scale: init.Scale}
	trainSet, valSet, groups := pairsOf(rows, nf, opt.Margin)
	rep.Groups, rep.Train, rep.Val = groups, trainSet.Rows(), valSet.Rows()
	if rep.Train == 0 {
		return nil, nil, fmt.Errorf("%s: no pairs: %d rows in %d groups of two or more, none of them %v apart (pairs are made of rows that share a game id, a turn and a side: label a successors file, whose groups are the positions after one position)",
			strings.Join(opt.Data, " "), len(rows), groups, opt.Margin)
	}
	if opt.Val > 0 && rep.Val == 0 {
		rep.Warnings = append(rep.Warnings, "the validation set is empty: too few groups for the -val share")
	}

	measure := func(d *Dataset, w []float64) (Metrics, error) {
		if d.Rows() == 0 {
			return Metrics{}, nil
		}
		e, err := evaluate(ctx, d, opt.Threads, init.Scale, w)
		if err != nil {
			return Metrics{}, err
		}
		return e[0].All, nil
	}
	if rep.Initial.Train, err = measure(trainSet, w0); err != nil {
		return nil, nil, err
	}
	if rep.Initial.Val, err = measure(valSet, w0); err != nil {
		return nil, nil, err
	}

	fr, err := opt.fit(ctx, trainSet, init.Scale, w0, fixed, true)
	if err != nil {
		return nil, nil, err
	}
	rep.Fit = fr
	if rep.Fitted.Train, err = measure(trainSet, fr.Values); err != nil {
		return nil, nil, err
	}
	if rep.Fitted.Val, err = measure(valSet, fr.Values); err != nil {
		return nil, nil, err
	}

	// Back to the initial units: the fitted weights' value of a rabbit.
	values := slices.Clone(fr.Values)
	rep.Unit = 1
	u0, u := rabbitValue(w0), rabbitValue(values)
	if ratio := u / u0; ratio > 0 && !math.IsInf(ratio, 0) {
		rep.Unit = ratio
		for j := range values {
			if j != features.Index("bias") {
				values[j] /= ratio
			}
		}
	} else {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("units not moved: a rabbit is worth %.4g to the fitted weights and %.4g to the initial ones", u, u0))
	}
	for j, name := range names {
		rep.Changes = append(rep.Changes, WeightChange{Feature: name, Initial: w0[j], Fitted: values[j], Change: values[j] - w0[j]})
	}
	slices.SortStableFunc(rep.Changes, func(a, b WeightChange) int {
		return cmp.Compare(math.Abs(b.Change), math.Abs(a.Change))
	})

	out, err := weights.New(values, init.Scale, init.Generation+1)
	if err != nil {
		return nil, nil, err
	}
	created := opt.Created
	if created.IsZero() {
		created = time.Now()
	}
	notes := fmt.Sprintf("pairs: %d training and %d validation pairs from %d groups, margin %v; ordered as the judge: %.4f initial, %.4f fitted (validation %.4f, %.4f); fitted weights divided by %.4f",
		rep.Train, rep.Val, rep.Groups, rep.Margin, rep.Initial.Train.Accuracy, rep.Fitted.Train.Accuracy, rep.Initial.Val.Accuracy, rep.Fitted.Val.Accuracy, rep.Unit)
	if len(opt.Fix) > 0 {
		notes += fmt.Sprintf("; kept at a multiple of their initial values: %s", strings.Join(opt.Fix, ", "))
	}
	if opt.Notes != "" {
		notes += "; " + opt.Notes
	}
	out.Lineage = weights.Lineage{
		Parent:  init.Generation,
		Dataset: slices.Clone(opt.Data),
		Rows:    int64(rep.Train),
		Target:  "pairs",
		Metrics: map[string]float64{
			"train_pairs_logloss": round(rep.Fitted.Train.LogLoss), "train_pairs_accuracy": round(rep.Fitted.Train.Accuracy),
			"val_pairs_logloss": round(rep.Fitted.Val.LogLoss), "val_pairs_accuracy": round(rep.Fitted.Val.Accuracy),
		},
		Created: created.UTC().Truncate(time.Second),
		Notes:   notes,
	}
	if err := out.Check(); err != nil {
		return nil, nil, fmt.Errorf("the fitted weights: %w", err)
	}
	return out, rep, nil
}

// pairRow is a row read for comparison training: its group, whether the
// group is held out, its root value and its features.
type pairRow struct {
	game uint64
	turn uint16
	side uint8
	val  bool
	v    float32
	f    []float32
}

// pairJob is a run of rows of one record for groupRows' workers: the rows
// read, their positions and where they stand in their file.
type pairJob struct {
	rows    []pairRow
	pos     []engine.Position
	file    int
	fileRow []int64 // each row's index in its file
}

// pairChunk is the most rows of a pairJob: small enough that a record's rows
// spread over the workers when each leaf costs a search.
const pairChunk = 64

// groupRows reads every row (up to MaxRows) and computes its features at
// the leaf of its position (the position itself when newLeaf is nil) on
// threads workers (scan), each with its own leaf function, made once. Rows
// whose leaf function says no evaluation decides them are left out; read
// counts them too. The rows come out in file order whatever threads is.
func (s *shards) groupRows(ctx context.Context, newLeaf func() LeafFunc, threads int, progress func(int64)) (used []pairRow, read int64, err error) {
	threads = max(threads, 1)
	leaves := make([]LeafFunc, threads)
	if newLeaf != nil {
		for w := range leaves {
			leaves[w] = newLeaf()
		}
	}
	produce := func(ctx context.Context, emit func(*pairJob) error) error {
		return s.records(func() bool { return read < s.read }, func(rec arrow.Record, file int, fileRow int64) error {
			defer rec.Release()
			c, err := data.ColumnsOf(rec)
			if err != nil {
				return fmt.Errorf("%s: %w", s.r.Files()[file], err)
			}
			j := &pairJob{file: file}
			for i := 0; i < c.Len && read < s.read; i++ {
				r, p, err := s.pairRow(c, i)
				if err != nil {
					return s.rowError(file, fileRow+int64(i), c, i, "%v", err)
				}
				read++
				j.rows, j.pos, j.fileRow = append(j.rows, r), append(j.pos, p), append(j.fileRow, fileRow+int64(i))
				if len(j.rows) == pairChunk {
					if err := emit(j); err != nil {
						return err
					}
					j = &pairJob{file: file}
				}
			}
			if len(j.rows) > 0 {
				return emit(j)
			}
			return nil
		})
	}
	work := func(w int, j *pairJob) (*pairJob, error) {
		kept := j.rows[:0]
		for k := range j.rows {
			r := j.rows[k]
			ok, err := s.leafFeatures(&r, &j.pos[k], leaves[w])
			if err != nil {
				return nil, fmt.Errorf("%s: row %d (game %d, turn %d): %w", s.r.Files()[j.file], j.fileRow[k], r.game, r.turn, err)
			}
			if ok {
				kept = append(kept, r)
			}
		}
		j.rows = kept
		return j, nil
	}
	var done int64
	reduce := func(j *pairJob) error {
		used = append(used, j.rows...)
		done += int64(len(j.fileRow))
		progress(done)
		return nil
	}
	if err := scan(ctx, threads, produce, work, func(*pairJob) {}, reduce); err != nil {
		return nil, 0, err
	}
	return used, read, nil
}

// pairRow reads row i of c, and its position.
func (s *shards) pairRow(c *data.Columns, i int) (pairRow, engine.Position, error) {
	rv := c.RootValue[i]
	if !finite(rv) || rv < -1 || rv > 1 {
		return pairRow{}, engine.Position{}, fmt.Errorf("root_value %v is not in [-1, 1]", rv)
	}
	if c.Side[i] > 1 {
		return pairRow{}, engine.Position{}, fmt.Errorf("side %d is not 0 or 1", c.Side[i])
	}
	var bb [data.BoardLen]engine.Bitboard
	for k := range bb {
		bb[k] = engine.Bitboard(c.Board[i*data.BoardLen+k])
	}
	p, err := engine.PositionFromBits(bb, engine.Color(c.Side[i]))
	if err != nil {
		return pairRow{}, engine.Position{}, fmt.Errorf("board: %w", err)
	}
	r := pairRow{game: c.GameID[i], turn: c.Turn[i], side: c.Side[i], val: InValidation(c.GameID[i], s.opt.Seed, s.opt.Val), v: rv}
	return r, p, nil
}

// leafFeatures sets r's features to those of the leaf of p (p itself when
// leaf is nil) and reports whether the row is used. Features are seen from
// the side to move; when the leaf's side to move is the other side (a leaf
// after a reply), they are negated, so that the linear evaluation's value of
// them is still the value for the row's side (the bias's difference between
// two rows is 0 either way). Every feature must be finite.
func (s *shards) leafFeatures(r *pairRow, p *engine.Position, leaf LeafFunc) (bool, error) {
	q := *p
	if leaf != nil {
		var ok bool
		if q, ok = leaf(p); !ok {
			return false, nil
		}
	}
	r.f = make([]float32, s.nf)
	features.Extract(&q, r.f)
	if q.Side != p.Side {
		for j := range r.f {
			r.f[j] = -r.f[j]
		}
	}
	return true, s.checkFinite(r.f)
}

// pairsOf groups rows by game id, turn and side and returns the training
// and validation pairs and the number of groups of two rows or more. A
// pair's features are the preferred row's minus the other's, its target 1.
func pairsOf(rows []pairRow, nf int, margin float64) (trainSet, valSet *Dataset, groups int) {
	var tx, vx []float32
	var tn, vn int
	for _, idx := range groupsOf(rows) {
		if len(idx) < 2 {
			continue
		}
		groups++
		for a := range idx {
			for b := a + 1; b < len(idx); b++ {
				ra, rb := &rows[idx[a]], &rows[idx[b]]
				if math.Abs(float64(ra.v)-float64(rb.v)) < margin {
					continue
				}
				if ra.v < rb.v {
					ra, rb = rb, ra
				}
				dst := &tx
				if ra.val {
					dst, vn = &vx, vn+1
				} else {
					tn++
				}
				for j := range nf {
					*dst = append(*dst, ra.f[j]-rb.f[j])
				}
			}
		}
	}
	ones := func(n int) []float32 {
		y := make([]float32, n)
		for i := range y {
			y[i] = 1
		}
		return y
	}
	// NewDataset cannot fail here: the features are checked finite, the
	// targets are 1 and the weights nil.
	trainSet, _ = NewDataset(nf, tx, ones(tn), nil)
	valSet, _ = NewDataset(nf, vx, ones(vn), nil)
	return trainSet, valSet, groups
}

// groupsOf returns the indices of the rows of each group (the rows that
// share a game id, a turn and a side), the groups in the order of their
// first rows.
func groupsOf(rows []pairRow) [][]int {
	type key struct {
		game uint64
		turn uint16
		side uint8
	}
	at := map[key]int{}
	var groups [][]int
	for i, r := range rows {
		k := key{r.game, r.turn, r.side}
		g, ok := at[k]
		if !ok {
			g = len(groups)
			at[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// rabbitValue is the score, to the weights w (in feature order), of the
// first rabbit captured from the standard position: Gold to move with one
// Silver rabbit fewer, less the standard position.
func rabbitValue(w []float64) float64 {
	score := func(p *engine.Position) float64 {
		f := make([]float32, features.N)
		features.Extract(p, f)
		var s float64
		for j, v := range f {
			s += w[j] * float64(v)
		}
		return s
	}
	var p engine.Position
	for _, c := range []engine.Color{engine.Gold, engine.Silver} {
		for _, pl := range setup.Standard(c) {
			p.Put(pl.Piece, pl.Square)
		}
	}
	p.SetSide(engine.Gold)
	// Silver's standard setup has a rabbit on a8 (see setup.Standard).
	q := p
	q.Remove(engine.MakePiece(engine.Silver, engine.Rabbit), 56)
	return score(&q) - score(&p)
}

// WriteTo prints the report as text: what was read, how the fit went, the
// pairs ordered as the judge orders them before and after, and the largest
// changes.
func (r *PairsReport) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "data: %d files, %d rows read, %d groups of two or more\n", r.Files, r.Read, r.Groups)
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "left out: %d rows that the rules decide after the reply (a game's end or a goal)\n", r.Skipped)
	}
	fmt.Fprintf(&b, "pairs (root values %v apart or more): train %d, validation %d\n", r.Margin, r.Train, r.Val)
	if f := r.Fit; f != nil {
		fmt.Fprintf(&b, "fit: L-BFGS %d iterations, %d passes, %s, max |gradient| %.2g, objective %.6f, %.2fs\n",
			f.Iterations, f.Evaluations, f.Status, f.GradNorm, f.Loss, f.Elapsed.Seconds())
	}
	if r.Unit != 1 {
		fmt.Fprintf(&b, "units: the fitted weights divided by %.4f, so that a rabbit is worth what it was\n", r.Unit)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", s)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%-10s %19s   %19s\n", "", "------ train ------", "--- validation ----")
	fmt.Fprintf(&b, "%-10s %9s %9s   %9s %9s\n", "weights", "logloss", "ordered", "logloss", "ordered")
	cell := func(m Metrics) string {
		if m.Rows == 0 {
			return fmt.Sprintf("%9s %9s", "-", "-")
		}
		return fmt.Sprintf("%9.4f %9.4f", m.LogLoss, m.Accuracy)
	}
	fmt.Fprintf(&b, "%-10s %s   %s\n", "initial", cell(r.Initial.Train), cell(r.Initial.Val))
	fmt.Fprintf(&b, "%-10s %s   %s\n", "fitted", cell(r.Fitted.Train), cell(r.Fitted.Val))
	b.WriteString("(ordered: the share of pairs that the weights order as the judge does)\n")
	if len(r.Changes) > 0 {
		fmt.Fprintf(&b, "\nweights that changed most (as written, at the scale %.6g)\n", r.Scale)
		fmt.Fprintf(&b, "%-22s %10s %10s %10s\n", "feature", "initial", "fitted", "change")
		for _, c := range r.Changes[:min(12, len(r.Changes))] {
			fmt.Fprintf(&b, "%-22s %10.4f %10.4f %+10.4f\n", c.Feature, c.Initial, c.Fitted, c.Change)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// noMultiple reports whether some weight but the bias is fixed and every
// free weight but the bias starts at 0: comparison training then has no
// multiple of the initial weights for the fixed ones to follow
// (FitOptions.FixedScaled), and they would keep their size while the free
// weights take the pairs' free units (measured: fitted so, the free weights
// grew to several rabbits and ordered fewer pairs than the initial ones).
func noMultiple(w0 []float64, fixed []bool, bias int) bool {
	anyFixed, anyFree := false, false
	for j, f := range fixed {
		switch {
		case j == bias:
		case f:
			anyFixed = true
		case w0[j] != 0:
			anyFree = true
		}
	}
	return anyFixed && !anyFree
}
