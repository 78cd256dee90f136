package train

import (
	"context"
	"math"
)

// The model: a row with features f has the score z = v·f, where v = Scale *
// Values are the effective weights, and the predicted probability that the
// side to move wins is p = sigmoid(z). Its cross-entropy against the target y
// is softplus(z) - y*z, which is -y*log(p) - (1-y)*log(1-p) computed without
// overflow or log(0).

// dot returns x·v, x of float32 and v of float64, summed in float64 with four
// accumulators (a fixed order, so the same inputs give the same bits).
func dot(x []float32, v []float64) float64 {
	x = x[:len(v)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(v); j += 4 {
		s0 += float64(x[j]) * v[j]
		s1 += float64(x[j+1]) * v[j+1]
		s2 += float64(x[j+2]) * v[j+2]
		s3 += float64(x[j+3]) * v[j+3]
	}
	for ; j < len(v); j++ {
		s0 += float64(x[j]) * v[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds a*x to g.
func axpy(g []float64, a float64, x []float32) {
	x = x[:len(g)]
	for j := range g {
		g[j] += a * float64(x[j])
	}
}

// logistic returns sigmoid(z) and softplus(z) = log(1 + e^z).
func logistic(z float64) (p, softplus float64) {
	e := math.Exp(-math.Abs(z))
	if z >= 0 {
		return 1 / (1 + e), z + math.Log1p(e)
	}
	return e / (1 + e), math.Log1p(e)
}

// The layout of the accumulator of statsKernel.
const (
	statRows   = 0 // rows
	statWeight = 1 // sum of the row weights
	statSq     = 2 // then the weighted sum of f_j^2 for each feature j
)

// statsKernel sums what fit needs to know of a set of rows before fitting.
func statsKernel(nf int) func(b *block, acc []float64) {
	return func(b *block, acc []float64) {
		sq := acc[statSq : statSq+nf]
		for i := range b.n {
			c := float64(b.c[i])
			acc[statRows]++
			acc[statWeight] += c
			x := b.x[i*nf : (i+1)*nf]
			for j := range sq {
				f := float64(x[j])
				sq[j] += c * f * f
			}
		}
	}
}

// lossGradKernel sums, for the effective weights v, the weighted
// cross-entropy into acc[0] and its gradient with respect to v into acc[1:].
func lossGradKernel(v []float64) func(b *block, acc []float64) {
	nf := len(v)
	return func(b *block, acc []float64) {
		g := acc[1 : 1+nf]
		var loss float64
		for i := range b.n {
			x := b.x[i*nf : (i+1)*nf]
			z := dot(x, v)
			p, sp := logistic(z)
			y, c := float64(b.y[i]), float64(b.c[i])
			loss += c * (sp - y*z)
			if r := c * (p - y); r != 0 {
				axpy(g, r, x)
			}
		}
		acc[0] += loss
	}
}

// Metrics are the measures of a set of predictions against their targets,
// every one weighted by the row weights.
type Metrics struct {
	// Rows is the number of rows and Weight the sum of their weights.
	Rows   int64
	Weight float64
	// LogLoss is the mean cross-entropy -y*log(p) - (1-y)*log(1-p), in nats:
	// log 2 = 0.693 for p = 1/2 everywhere.
	LogLoss float64
	// Accuracy is the share of the decisive rows (y != 1/2) where the
	// prediction is on the target's side of 1/2 (a prediction of exactly 1/2
	// counts half).
	Accuracy float64
	// Brier is the mean squared error (p - y)^2: 0.25 for p = 1/2 and a
	// decisive target.
	Brier float64
}

// Eval is the Metrics of a set of rows, and of each game phase among them.
type Eval struct {
	All Metrics
	// ByPhase is indexed by Phase; synthetic rows all have PhaseUnknown.
	ByPhase []Metrics
}

// The fields of one (weights, phase) cell of the metrics accumulator.
const (
	mRows = iota
	mWeight
	mLoss
	mBrier
	mDecisive // weight of the rows with y != 1/2
	mCorrect  // weight of those predicted on the right side
	mFields
)

// metricsKernel accumulates the metrics of each effective weight vector of
// vs, by phase: the cell of vs[k] and phase p starts at (k*numPhases+p)*mFields.
func metricsKernel(nf int, vs [][]float64) func(b *block, acc []float64) {
	return func(b *block, acc []float64) {
		for i := range b.n {
			x := b.x[i*nf : (i+1)*nf]
			y, c := float64(b.y[i]), float64(b.c[i])
			ph := PhaseUnknown
			if b.phase != nil {
				ph = b.phase[i]
			}
			for k, v := range vs {
				z := dot(x, v)
				p, sp := logistic(z)
				m := acc[(k*int(numPhases)+int(ph))*mFields:][:mFields]
				m[mRows]++
				m[mWeight] += c
				m[mLoss] += c * (sp - y*z)
				m[mBrier] += c * (p - y) * (p - y)
				if y != 0.5 {
					m[mDecisive] += c
					switch {
					case p == 0.5:
						m[mCorrect] += c / 2
					case (p > 0.5) == (y > 0.5):
						m[mCorrect] += c
					}
				}
			}
		}
	}
}

// metricsOf turns one cell (or a sum of cells) of the metrics accumulator into
// Metrics.
func metricsOf(m []float64) Metrics {
	out := Metrics{Rows: int64(m[mRows]), Weight: m[mWeight]}
	if m[mWeight] > 0 {
		out.LogLoss = m[mLoss] / m[mWeight]
		out.Brier = m[mBrier] / m[mWeight]
	}
	if m[mDecisive] > 0 {
		out.Accuracy = m[mCorrect] / m[mDecisive]
	}
	return out
}

// evaluate returns the Eval of each weight vector of values (file units, so
// the effective weights are scale*values) over the rows of src.
func evaluate(ctx context.Context, src source, threads int, scale float64, values ...[]float64) ([]Eval, error) {
	nf := src.numFeatures()
	vs := make([][]float64, len(values))
	for k, w := range values {
		vs[k] = make([]float64, nf)
		for j := range nf {
			vs[k][j] = scale * w[j]
		}
	}
	cell := int(numPhases) * mFields
	acc, err := src.sum(ctx, threads, len(vs)*cell, metricsKernel(nf, vs))
	if err != nil {
		return nil, err
	}
	out := make([]Eval, len(vs))
	for k := range vs {
		all := make([]float64, mFields)
		out[k].ByPhase = make([]Metrics, numPhases)
		for p := range int(numPhases) {
			m := acc[k*cell+p*mFields:][:mFields]
			out[k].ByPhase[p] = metricsOf(m)
			for f := range all {
				all[f] += m[f]
			}
		}
		out[k].All = metricsOf(all)
	}
	return out, nil
}

// Evaluate returns the Metrics of the weights values (in feature order) with
// the given scale over the rows of d, in all and by phase, computed by up to
// threads goroutines (0: one).
func Evaluate(ctx context.Context, d *Dataset, values []float64, scale float64, threads int) (Eval, error) {
	if len(values) != d.NumFeatures {
		return Eval{}, errLen(len(values), d.NumFeatures)
	}
	e, err := evaluate(ctx, d, threads, scale, values)
	if err != nil {
		return Eval{}, err
	}
	return e[0], nil
}
