package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/weights"
)

// Measuring an evaluation on a judge's comparisons. RunPairs fits weights to
// the pairs of labelled groups and reports the share of pairs they order as
// the judge does on its own split; Order measures given weights on given
// labels without fitting, and two sets of weights against each other pair
// by pair, with intervals. The labels a search's choices depend on are the
// ones at the positions its own search selects (analyze successors
// -replies with the same weights), and there one evaluation can order
// worse than another although it orders better elsewhere: Order is the
// measure to take there before a set of weights is played.

// OrderOptions are the settings of Order. Of Options, only Data, RowOptions
// (the features are always computed from the boards), Threads, Progress
// and ForceProgress apply.
type OrderOptions struct {
	Options
	// Weights are the evaluations measured: one, or two to compare pair by
	// pair (the first minus the second).
	Weights []*weights.Weights
	// Margin is the least difference of root_value between two positions of
	// a group for them to make a pair (0: DefaultPairMargin), as RunPairs.
	Margin float64
	// Leaf gives the position whose features stand for a row's position, as
	// PairOptions.Leaf (nil: the row's own position).
	Leaf func() LeafFunc
}

// Share is a share of pairs with its 95 % interval. The interval treats
// the groups (the positions after one position) as the independent units,
// since the pairs of one group share their rows: a ratio estimate's normal
// interval over the groups.
type Share struct {
	Value, Low, High float64
}

// OrderReport holds what Order measured.
type OrderReport struct {
	Data    []string
	Files   int
	Read    int64 // rows read
	Skipped int64 // rows the rules decide (see LeafFunc), left out
	Groups  int   // groups with at least one pair
	Pairs   int
	Margin  float64
	// Weights describes each evaluation measured (its generation and
	// hash), and Ordered the share of pairs each orders as the judge does:
	// the one the judge prefers scored strictly higher.
	Weights []string
	Ordered []Share
	// Diff, with two evaluations, is the first's share minus the second's,
	// pair by pair over the same pairs.
	Diff *Share
}

// Order measures how often each of opt.Weights orders the pairs of the
// labelled groups of opt.Data as the judge does: the rows that share a game
// id, a turn and a side are a group, and every two rows of a group whose
// root values differ by at least the margin are a pair (as RunPairs makes
// them). An evaluation orders a pair as the judge when it scores the row the
// judge prefers strictly higher, at the features of each row's leaf.
func Order(ctx context.Context, opt OrderOptions) (*OrderReport, error) {
	if len(opt.Weights) < 1 || len(opt.Weights) > 2 {
		return nil, fmt.Errorf("order: %d evaluations: want one or two", len(opt.Weights))
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.NumCPU()
	}
	if opt.Margin == 0 {
		opt.Margin = DefaultPairMargin
	}
	if !(opt.Margin > 0) || opt.Margin >= 2 {
		return nil, fmt.Errorf("pair margin %v: want more than 0 and less than 2", opt.Margin)
	}
	ws := make([]*weights.Linear, len(opt.Weights))
	rep := &OrderReport{Data: opt.Data, Margin: opt.Margin}
	for i, w := range opt.Weights {
		l, err := weights.NewLinear(w)
		if err != nil {
			return nil, err
		}
		ws[i] = l
		rep.Weights = append(rep.Weights, fmt.Sprintf("generation %d, hash %s", l.Generation(), l.Hash()))
	}
	ro := opt.RowOptions
	ro.RecomputeFeatures = true
	s, err := openShards(opt.Data, ro)
	if err != nil {
		return nil, err
	}
	defer s.close()
	rep.Files = len(s.r.Files())
	bar := progress.New(progressOut(opt.Progress), s.read, "reading groups", opt.ForceProgress)
	rows, read, err := s.groupRows(ctx, opt.Leaf, opt.Threads, func(done int64) { bar.Set(done) })
	bar.Finish()
	if err != nil {
		return nil, err
	}
	rep.Read, rep.Skipped = read, read-int64(len(rows))

	// Each row's score by each evaluation, as the search computes it.
	scores := make([][]float32, len(ws))
	for i, l := range ws {
		scores[i] = make([]float32, len(rows))
		for r := range rows {
			scores[i][r] = l.Dot(rows[r].f)
		}
	}
	// Per group: its pairs, and each evaluation's pairs ordered.
	var n []float64
	ok := make([][]float64, len(ws))
	for _, idx := range groupsOf(rows) {
		var pairs float64
		good := make([]float64, len(ws))
		for a := range idx {
			for b := a + 1; b < len(idx); b++ {
				hi, lo := idx[a], idx[b]
				if math.Abs(float64(rows[hi].v)-float64(rows[lo].v)) < opt.Margin {
					continue
				}
				if rows[hi].v < rows[lo].v {
					hi, lo = lo, hi
				}
				pairs++
				for i := range ws {
					if scores[i][hi] > scores[i][lo] {
						good[i]++
					}
				}
			}
		}
		if pairs == 0 {
			continue
		}
		n = append(n, pairs)
		for i := range ws {
			ok[i] = append(ok[i], good[i])
		}
	}
	rep.Groups = len(n)
	for _, m := range n {
		rep.Pairs += int(m)
	}
	if rep.Pairs == 0 {
		return nil, fmt.Errorf("%s: no pairs: %d rows, none of a group %v apart (pairs are made of rows that share a game id, a turn and a side: label a successors file, whose groups are the positions after one position)",
			strings.Join(opt.Data, " "), len(rows), opt.Margin)
	}
	for i := range ws {
		rep.Ordered = append(rep.Ordered, ratioShare(ok[i], n))
	}
	if len(ws) == 2 {
		d := make([]float64, len(n))
		for g := range n {
			d[g] = ok[0][g] - ok[1][g]
		}
		diff := ratioShare(d, n)
		rep.Diff = &diff
	}
	return rep, nil
}

// ratioShare is sum(x)/sum(n) over the groups with the 95 % normal
// interval of a ratio estimate whose units are the groups.
func ratioShare(x, n []float64) Share {
	var sx, sn float64
	for g := range n {
		sx += x[g]
		sn += n[g]
	}
	r := sx / sn
	if len(n) < 2 {
		return Share{r, r, r}
	}
	var v float64
	for g := range n {
		e := x[g] - r*n[g]
		v += e * e
	}
	k := float64(len(n))
	h := 1.96 * math.Sqrt(v*k/(k-1)) / sn
	return Share{r, r - h, r + h}
}

// WriteTo writes the report for people.
func (r *OrderReport) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "data       %s (%d files)\n", strings.Join(r.Data, " "), r.Files)
	fmt.Fprintf(&b, "rows       %d read, %d decided by the rules left out\n", r.Read, r.Skipped)
	fmt.Fprintf(&b, "pairs      %d in %d groups, margin %v\n", r.Pairs, r.Groups, r.Margin)
	for i, s := range r.Ordered {
		fmt.Fprintf(&b, "ordered    %.2f %% (%.2f to %.2f) as the judge: %s\n", 100*s.Value, 100*s.Low, 100*s.High, r.Weights[i])
	}
	if r.Diff != nil {
		fmt.Fprintf(&b, "difference %+.2f points (%+.2f to %+.2f), the first minus the second, pair by pair\n", 100*r.Diff.Value, 100*r.Diff.Low, 100*r.Diff.High)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
