package train

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
)

// RowOptions say how the rows of a dataset become training rows: the target,
// the split into training and validation sets, and the row weights.
type RowOptions struct {
	// Target is what the evaluation is fitted to.
	Target Target
	// Val is the share of games held out for validation, in [0, 1). A game
	// is wholly on one side: see InValidation.
	Val float64
	// Seed chooses the held-out games.
	Seed uint64
	// MaxRows, when positive, reads only the first MaxRows rows of the data
	// (in file order, before the split and the rows left out).
	MaxRows int64
	// RecomputeFeatures recomputes every row's features from its board with
	// the current features package, instead of reading the features column;
	// so data of older feature sets, mixed or not, serves a newer one.
	// Without it, data of a feature set other than the current one is an
	// error.
	RecomputeFeatures bool
	// CheapWeight is the weight of the rows whose search was the cheap one
	// (full_search false; playout-cap randomization), in [0, 1].
	CheapWeight float64
	// EarlyTurns and EarlyWeight weight the rows of the first EarlyTurns
	// turns of each side (turn numbers 2 to EarlyTurns+1) by EarlyWeight, in
	// [0, 1]. EarlyTurns 0 leaves them alone.
	EarlyTurns  int
	EarlyWeight float64
}

// DefaultRowOptions returns the default row settings: the result target,
// 10% of the games held out with seed 1, cheap-search rows weighted 0.5, the
// early turns at full weight.
func DefaultRowOptions() RowOptions {
	return RowOptions{Target: Target{Kind: TargetResult}, Val: 0.1, Seed: 1, CheapWeight: 0.5, EarlyWeight: 0.5}
}

// check validates the settings.
func (o *RowOptions) check() error {
	switch {
	case !(o.Val >= 0 && o.Val < 1):
		return fmt.Errorf("validation share %v is not in [0, 1)", o.Val)
	case !(o.CheapWeight >= 0 && o.CheapWeight <= 1):
		return fmt.Errorf("cheap-search row weight %v is not in [0, 1]", o.CheapWeight)
	case !(o.EarlyWeight >= 0 && o.EarlyWeight <= 1):
		return fmt.Errorf("early-turn row weight %v is not in [0, 1]", o.EarlyWeight)
	case o.EarlyTurns < 0:
		return fmt.Errorf("early turns %d is negative", o.EarlyTurns)
	case o.MaxRows < 0:
		return fmt.Errorf("max rows %d is negative", o.MaxRows)
	}
	_, err := ParseTarget(o.Target.String())
	return err
}

// shards is a set of open shard files with what is needed to turn their rows
// into training rows.
type shards struct {
	r     *data.Reader
	opt   RowOptions
	nf    int      // features of a training row
	names []string // their names
	read  int64    // rows to read: all, or MaxRows
}

// openShards opens the data and checks it: at least one file, no empty
// shard, and the current feature set unless the features are recomputed.
func openShards(paths []string, opt RowOptions) (*shards, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, errors.New("no data files given")
	}
	open := data.Open
	if opt.RecomputeFeatures {
		// The features column is never read: shards of any feature sets
		// serve, mixed (labels scored before a change of the feature set
		// among them).
		open = data.OpenMixed
	}
	r, err := open(paths...)
	if err != nil {
		return nil, err
	}
	s := &shards{r: r, opt: opt, nf: features.N, names: features.Names(), read: r.Rows()}
	for i, name := range r.Files() {
		if r.FileRows(i) == 0 {
			r.Close()
			return nil, fmt.Errorf("%s: empty shard (no rows)", name)
		}
	}
	if !opt.RecomputeFeatures {
		m := r.Meta(0)
		if m.FeatureVersion != features.Version() || !slices.Equal(m.FeatureNames, s.names) {
			r.Close()
			return nil, fmt.Errorf("%s: feature set %s (%d features), features package has %s (%d); use -recompute-features to recompute them from the boards",
				r.Files()[0], m.FeatureVersion, len(m.FeatureNames), features.Version(), features.N)
		}
	}
	if opt.MaxRows > 0 {
		s.read = min(s.read, opt.MaxRows)
	}
	return s, nil
}

// close releases the files.
func (s *shards) close() error { return s.r.Close() }

// rowError is the error of row i (in its file) of a record of file file.
func (s *shards) rowError(file int, row int64, c *data.Columns, i int, format string, args ...any) error {
	return fmt.Errorf("%s: row %d (game %d, turn %d): %s", s.r.Files()[file], row, c.GameID[i], c.Turn[i], fmt.Sprintf(format, args...))
}

// decide returns what row i of c becomes: whether it is a validation row,
// its target, weight and phase, and whether it is used at all.
func (s *shards) decide(c *data.Columns, i int) (val bool, y, w float32, ph Phase, ok bool, err error) {
	res, rv := c.Result[i], c.RootValue[i]
	if res < -1 || res > 1 {
		return false, 0, 0, 0, false, fmt.Errorf("result %d is not -1, 0 or 1", res)
	}
	if !finite(rv) {
		return false, 0, 0, 0, false, fmt.Errorf("root_value is %v", rv)
	}
	if c.Side[i] > 1 {
		return false, 0, 0, 0, false, fmt.Errorf("side %d is not 0 or 1", c.Side[i])
	}
	y, ok = s.opt.Target.of(res, rv)
	if !ok {
		return false, 0, 0, 0, false, nil
	}
	w = 1
	if !c.FullSearch.Value(i) {
		w *= float32(s.opt.CheapWeight)
	}
	if int(c.Turn[i]) <= s.opt.EarlyTurns+1 {
		w *= float32(s.opt.EarlyWeight)
	}
	pieces := 0
	for _, b := range c.Board[i*data.BoardLen : (i+1)*data.BoardLen] {
		pieces += bits.OnesCount64(b)
	}
	return InValidation(c.GameID[i], s.opt.Seed, s.opt.Val), y, w, PhaseOf(pieces), true, nil
}

// fill writes the features of row i of c to out (s.nf values): a copy of
// the features column, or recomputed from the board. Every value must be
// finite.
func (s *shards) fill(c *data.Columns, i int, out []float32) error {
	out = out[:s.nf]
	if s.opt.RecomputeFeatures {
		return s.extract(c, i, nil, out)
	}
	copy(out, c.Features[i*s.nf:(i+1)*s.nf])
	return s.checkFinite(out)
}

// extract writes to out (s.nf values) the features of row i's board, or,
// when leaf is set, of the position leaf gives for it. Every value must be
// finite.
func (s *shards) extract(c *data.Columns, i int, leaf func(*engine.Position) engine.Position, out []float32) error {
	var bb [data.BoardLen]engine.Bitboard
	for k := range bb {
		bb[k] = engine.Bitboard(c.Board[i*data.BoardLen+k])
	}
	p, err := engine.PositionFromBits(bb, engine.Color(c.Side[i]))
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	if leaf != nil {
		p = leaf(&p)
	}
	features.Extract(&p, out[:s.nf])
	return s.checkFinite(out[:s.nf])
}

// checkFinite returns an error naming the first feature of f that is not
// finite.
func (s *shards) checkFinite(f []float32) error {
	for j, v := range f {
		if !finite(v) {
			return fmt.Errorf("feature %q is %v", s.names[j], v)
		}
	}
	return nil
}

// records reads the shards' record batches from the start, in file order,
// while more reports true, and calls fn with each, the index of its file
// and the row in that file of its first row. fn holds the record as
// Reader.Next gives it.
func (s *shards) records(more func() bool, fn func(rec arrow.Record, file int, fileRow int64) error) error {
	s.r.Reset()
	file, fileRow := -1, int64(0)
	for more() {
		rec, err := s.r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if f := s.r.File(); f != file {
			file, fileRow = f, 0
		}
		n := rec.NumRows()
		if err := fn(rec, file, fileRow); err != nil {
			return err
		}
		fileRow += n
	}
	return nil
}
