package weights

import (
	"errors"
	"fmt"
	"math"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
)

// Linear is the linear evaluation: a weighted sum of the features of a position,
// squashed into [-1, 1]. It is immutable and safe for concurrent use.
type Linear struct {
	w [features.N]float32 // in feature order
	// ported says whether any term ported from Sharp's evaluation has a
	// weight: without one, Score extracts the features without them.
	ported     bool
	scale      float32
	generation int
	hash       string
}

// NewLinear returns the evaluation of w, which must pass Check.
func NewLinear(w *Weights) (*Linear, error) {
	if w == nil {
		return nil, errors.New("weights: nil weights")
	}
	if err := w.Check(); err != nil {
		return nil, err
	}
	l := &Linear{scale: float32(w.Scale), generation: w.Generation, hash: w.Hash()}
	for i, name := range w.Features {
		j := features.Index(name)
		if j < 0 { // Check makes this impossible
			return nil, fmt.Errorf("%s: unknown feature %q", w.name(), name)
		}
		l.w[j] = float32(w.Values[i])
		if features.Ported(j) && l.w[j] != 0 {
			l.ported = true
		}
	}
	return l, nil
}

// Evaluate returns the value of p for the side to move, in [-1, 1]:
// 2*sigmoid(Scale*Score(p)) - 1, which is tanh(Scale*Score(p)/2). It allocates
// nothing.
func (l *Linear) Evaluate(p *engine.Position) float32 {
	return l.Squash(l.Score(p))
}

// Score returns the raw weighted sum of the features of p, for the side to move.
// The terms ported from Sharp's evaluation are computed only when weighted
// (see features.ExtractBase).
func (l *Linear) Score(p *engine.Position) float32 {
	var f [features.N]float32
	if l.ported {
		features.Extract(p, f[:])
	} else {
		features.ExtractBase(p, f[:])
	}
	return l.Dot(f[:])
}

// Dot returns the weighted sum of a feature vector f (from features.Extract).
// It panics if len(f) < features.N.
func (l *Linear) Dot(f []float32) float32 {
	f = f[:features.N]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= features.N; i += 4 {
		s0 += l.w[i] * f[i]
		s1 += l.w[i+1] * f[i+1]
		s2 += l.w[i+2] * f[i+2]
		s3 += l.w[i+3] * f[i+3]
	}
	for ; i < features.N; i++ {
		s0 += l.w[i] * f[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Squash turns a score into a value in [-1, 1]: tanh(Scale*score/2).
func (l *Linear) Squash(score float32) float32 {
	return float32(math.Tanh(float64(l.scale) * float64(score) / 2))
}

// Weight returns the weight of feature i (in features.Names order).
func (l *Linear) Weight(i int) float32 { return l.w[i] }

// Scale returns the scale of the squashing.
func (l *Linear) Scale() float32 { return l.scale }

// Generation returns the generation of the weights.
func (l *Linear) Generation() int { return l.generation }

// Hash returns the Hash of the weights.
func (l *Linear) Hash() string { return l.hash }
