package train

import (
	"context"
	"fmt"
	"math"

	"github.com/arimaalab/arimaalab/data"
)

// Dataset is a set of training rows held in memory: the feature vectors as one
// contiguous row-major slice, a target and a weight per row, and optionally
// each row's game and phase.
type Dataset struct {
	// NumFeatures is the number of features of a row.
	NumFeatures int
	// X holds the features: row i is X[i*NumFeatures : (i+1)*NumFeatures].
	X []float32
	// Y holds the targets, probabilities in [0, 1] that the side to move wins.
	Y []float32
	// W holds the row weights (>= 0) of the loss and of the metrics.
	W []float32
	// GameID holds each row's game (nil when unknown).
	GameID []uint64
	// Phase holds each row's game phase (nil when unknown).
	Phase []Phase
}

// NewDataset returns a Dataset of len(y) rows of numFeatures features made of
// the given slices (not copied). x must hold len(y)*numFeatures values, w one
// per row (nil means every weight 1). Every value must be finite, every target
// in [0, 1] and every weight non-negative.
func NewDataset(numFeatures int, x, y, w []float32) (*Dataset, error) {
	if numFeatures < 1 {
		return nil, fmt.Errorf("train: %d features", numFeatures)
	}
	if len(x) != len(y)*numFeatures {
		return nil, fmt.Errorf("train: %d feature values for %d rows of %d features", len(x), len(y), numFeatures)
	}
	if w == nil {
		w = make([]float32, len(y))
		for i := range w {
			w[i] = 1
		}
	}
	if len(w) != len(y) {
		return nil, fmt.Errorf("train: %d row weights for %d rows", len(w), len(y))
	}
	for i, v := range x {
		if !finite(v) {
			return nil, fmt.Errorf("train: row %d: feature %d is %v", i/numFeatures, i%numFeatures, v)
		}
	}
	for i := range y {
		if !(y[i] >= 0 && y[i] <= 1) {
			return nil, fmt.Errorf("train: row %d: target %v is not in [0, 1]", i, y[i])
		}
		if !(w[i] >= 0) || math.IsInf(float64(w[i]), 0) {
			return nil, fmt.Errorf("train: row %d: weight %v is not a finite non-negative number", i, w[i])
		}
	}
	return &Dataset{NumFeatures: numFeatures, X: x, Y: y, W: w}, nil
}

// Rows returns the number of rows.
func (d *Dataset) Rows() int { return len(d.Y) }

// blockRows is the number of rows of a block of work over an in-memory
// Dataset. It is fixed, so that the partial sums, added in block order, are
// the same whatever the number of threads.
const blockRows = 4096

// sum implements source.
func (d *Dataset) sum(ctx context.Context, threads, accLen int, work func(b *block, acc []float64)) ([]float64, error) {
	n := d.Rows()
	nb := (n + blockRows - 1) / blockRows
	total := make([]float64, accLen)
	err := scan(ctx, threads,
		func(ctx context.Context, emit func(int) error) error {
			for i := range nb {
				if err := emit(i); err != nil {
					return err
				}
			}
			return nil
		},
		func(_ int, i int) ([]float64, error) {
			lo, hi := i*blockRows, min((i+1)*blockRows, n)
			f := d.NumFeatures
			b := block{n: hi - lo, x: d.X[lo*f : hi*f], y: d.Y[lo:hi], c: d.W[lo:hi]}
			if d.Phase != nil {
				b.phase = d.Phase[lo:hi]
			}
			acc := make([]float64, accLen)
			work(&b, acc)
			return acc, nil
		},
		func(int) {},
		func(acc []float64) error {
			for k, v := range acc {
				total[k] += v
			}
			return nil
		})
	return total, err
}

// numFeatures implements source.
func (d *Dataset) numFeatures() int { return d.NumFeatures }

// source is a set of rows that can be visited block by block: a Dataset in
// memory or a stream over shard files.
type source interface {
	numFeatures() int
	// sum calls work for every block of rows, from up to threads goroutines,
	// each with a zeroed acc of accLen values, and returns the sum of the accs
	// added in block order.
	sum(ctx context.Context, threads, accLen int, work func(b *block, acc []float64)) ([]float64, error)
}

// block is a run of rows in the layout of a Dataset.
type block struct {
	n     int
	x     []float32 // n*F
	y, c  []float32 // targets and weights
	phase []Phase   // nil when unknown
}

// Phase is the stage of the game of a row, from the material on the board.
type Phase uint8

// The phases. A row's phase counts the pieces on the board, both sides
// together (32 at the start).
const (
	PhaseUnknown    Phase = iota // no board (synthetic data)
	PhaseOpening                 // 28 to 32 pieces: at most 4 captured
	PhaseMiddlegame              // 20 to 27 pieces
	PhaseEndgame                 // 19 pieces or fewer
	numPhases
)

// PhaseOf returns the phase of a position with the given number of pieces on
// the board.
func PhaseOf(pieces int) Phase {
	switch {
	case pieces >= 28:
		return PhaseOpening
	case pieces >= 20:
		return PhaseMiddlegame
	default:
		return PhaseEndgame
	}
}

// String returns the name of the phase.
func (p Phase) String() string {
	switch p {
	case PhaseOpening:
		return "opening"
	case PhaseMiddlegame:
		return "middlegame"
	case PhaseEndgame:
		return "endgame"
	}
	return "unknown"
}

// InValidation reports whether the rows of the game go to the validation set
// when a share frac of the games is held out with the given seed: the
// dataset's split by game, data.HeldOut.
func InValidation(gameID, seed uint64, frac float64) bool {
	return data.HeldOut(gameID, seed, frac)
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float32) bool { return v-v == 0 }
