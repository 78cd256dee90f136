package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// FitOptions are the settings of Fit.
type FitOptions struct {
	// Scale is the fixed scale s of the model p = sigmoid(s * w·f); the
	// weights w are fitted in the units it sets (> 0).
	Scale float64
	// L2 is the weight of the penalty L2/2 * sum_j (w_j - Center_j)^2 over
	// every feature but Bias, added to the weighted mean cross-entropy.
	L2 float64
	// Center is what the penalty pulls the weights towards; nil means zero.
	Center []float64
	// ScaleCenter, with a Center, pulls the weights towards Center times
	// the multiplier that brings it closest to them (c = w·Center /
	// Center·Center over the penalized weights) instead of Center itself:
	// the penalty then keeps the weights' proportions, not their size, for
	// a fit whose units are free (comparison training).
	ScaleCenter bool
	// Bias is the index of the feature left out of the penalty (the constant
	// feature), or -1 for none.
	Bias int
	// Threads is the number of goroutines computing the loss and its
	// gradient (0: one). The result does not depend on it.
	Threads int
	// MaxIter is the maximum number of L-BFGS iterations (0: 500).
	MaxIter int
	// GradTol stops the fit when the largest component of the gradient,
	// with respect to the standardized weights, is below it (0: 1e-6).
	GradTol float64
	// Progress, when set, is called after each iteration.
	Progress func(iter int, loss float64)
	// Fixed, when set (one entry per feature), marks the weights that keep
	// their initial values: only the others are fitted.
	Fixed []bool
	// FixedScaled, with Fixed, holds the fixed weights (but Bias) at their
	// initial values times the multiplier c that brings the free weights'
	// initial values closest to the free weights (c = w·init / init·init
	// over the free weights but Bias) instead of at their initial values,
	// and leaves them out of the penalty: in a fit whose units are free
	// (comparison training) they keep their proportions to the others, not
	// their size. With ScaleCenter the penalty's multiplier is then taken
	// over the free weights too.
	FixedScaled bool
}

// The defaults of FitOptions.
const (
	DefaultMaxIter = 500
	DefaultGradTol = 1e-6
)

// FitResult is the outcome of a fit.
type FitResult struct {
	// Values are the fitted weights, in feature order, in the units of Scale.
	Values []float64
	// Loss is the objective at Values: weighted mean cross-entropy plus
	// penalty.
	Loss float64
	// GradNorm is the largest component of the gradient at Values with
	// respect to the standardized weights.
	GradNorm float64
	// Iterations and Evaluations count the L-BFGS iterations and the
	// evaluations of the loss and its gradient (each one pass over the rows).
	Iterations  int
	Evaluations int
	// Status says why the fit stopped, such as "GradientThreshold".
	Status string
	// Rows and Weight are the number of rows fitted and the sum of their
	// weights.
	Rows   int64
	Weight float64
	// Elapsed is the time the fit took.
	Elapsed time.Duration
}

// Fit fits the weights of the model p = sigmoid(Scale * w·f) to the rows of
// d by minimizing the weighted mean cross-entropy plus an L2 penalty, with
// L-BFGS from the weights init (in feature order). The loss and its gradient
// are computed by opt.Threads goroutines over fixed blocks of rows whose
// partial sums are added in block order, so the result is the same bits
// whatever the number of threads.
func Fit(ctx context.Context, d *Dataset, init []float64, opt FitOptions) (*FitResult, error) {
	return fit(ctx, d, init, opt)
}

func errLen(got, want int) error {
	return fmt.Errorf("train: %d weights for %d features", got, want)
}

// fit is Fit over any source.
//
// Internally the parameters are standardized: x_j = Scale * rms_j * w_j,
// where rms_j is the root weighted mean square of feature j over the rows (1
// for a feature that is always 0), so that every parameter moves the scores of
// typical rows by the same amount. This conditions L-BFGS well and makes
// GradTol unitless; it does not change the minimum.
func fit(ctx context.Context, src source, init []float64, opt FitOptions) (*FitResult, error) {
	start := time.Now()
	nf := src.numFeatures()
	if len(init) != nf {
		return nil, errLen(len(init), nf)
	}
	if opt.Fixed != nil && len(opt.Fixed) != nf {
		return nil, fmt.Errorf("train: %d fixed marks for %d features", len(opt.Fixed), nf)
	}
	if opt.Center != nil && len(opt.Center) != nf {
		return nil, fmt.Errorf("train: %d penalty centres for %d features", len(opt.Center), nf)
	}
	if !(opt.Scale > 0) || math.IsInf(opt.Scale, 0) {
		return nil, fmt.Errorf("train: scale %v is not a positive number", opt.Scale)
	}
	if !(opt.L2 >= 0) || math.IsInf(opt.L2, 0) {
		return nil, fmt.Errorf("train: L2 %v is not a non-negative number", opt.L2)
	}
	for j, v := range init {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("train: initial weight %d is %v", j, v)
		}
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = DefaultMaxIter
	}
	if opt.GradTol <= 0 {
		opt.GradTol = DefaultGradTol
	}
	threads := max(opt.Threads, 1)

	st, err := src.sum(ctx, threads, statSq+nf, statsKernel(nf))
	if err != nil {
		return nil, err
	}
	rows, wsum := st[statRows], st[statWeight]
	if rows == 0 {
		return nil, errors.New("train: no rows to fit")
	}
	if !(wsum > 0) {
		return nil, errors.New("train: the rows to fit all have weight 0")
	}
	rms := make([]float64, nf)
	for j := range rms {
		rms[j] = math.Sqrt(st[statSq+j] / wsum)
		if !(rms[j] > 0) {
			rms[j] = 1
		}
	}
	s := opt.Scale
	center := opt.Center
	if center == nil {
		center = make([]float64, nf)
	}

	ob := &objective{src: src, threads: threads, nf: nf, s: s, rms: rms, wsum: wsum,
		l2: opt.L2, center: center, scaleCenter: opt.ScaleCenter && opt.Center != nil, bias: opt.Bias, fixed: opt.Fixed, ctx: ctx,
		v: make([]float64, nf), grad: make([]float64, nf)}
	if opt.FixedScaled && slices.Contains(opt.Fixed, true) {
		ob.init = init
	}
	x0 := make([]float64, nf)
	for j := range x0 {
		x0[j] = init[j] * s * rms[j]
	}
	problem := optimize.Problem{
		Func: ob.value,
		Grad: ob.gradient,
		Status: func() (optimize.Status, error) {
			if ob.err != nil {
				return optimize.Failure, ob.err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: opt.GradTol,
		MajorIterations:   opt.MaxIter,
		// Stop when 20 iterations in a row improve the loss by less than a
		// relative 1e-12: the gradient threshold is usually met long before.
		Converger: &optimize.FunctionConverge{Relative: 1e-12, Iterations: 20},
		Recorder:  &recorder{ctx: ctx, progress: opt.Progress},
	}
	method := &optimize.LBFGS{
		Linesearcher:      &optimize.MoreThuente{},
		GradStopThreshold: opt.GradTol,
	}
	res, err := optimize.Minimize(problem, x0, settings, method)
	if ob.err != nil {
		return nil, ob.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	status := ""
	switch {
	case res == nil:
		return nil, fmt.Errorf("train: L-BFGS: %w", err)
	case err != nil:
		// A line search that cannot improve any more is the usual end of a fit
		// near the minimum, at the limit of floating-point precision: the best
		// point found is the answer.
		if math.IsNaN(res.F) || math.IsInf(res.F, 0) {
			return nil, fmt.Errorf("train: L-BFGS: %w", err)
		}
		status = err.Error()
	default:
		status = res.Status.String()
	}
	out := &FitResult{
		Values:      make([]float64, nf),
		Loss:        res.F,
		Iterations:  res.MajorIterations,
		Evaluations: ob.evals,
		Status:      status,
		Rows:        int64(rows),
		Weight:      wsum,
		Elapsed:     time.Since(start),
	}
	c := ob.multiplier(res.X)
	for j := range nf {
		out.Values[j] = res.X[j] / (s * rms[j])
		if opt.Fixed != nil && opt.Fixed[j] {
			// Never moved, but the standardization's round trip may round
			// the last bit.
			out.Values[j] = init[j]
			if ob.init != nil && j != opt.Bias {
				out.Values[j] = c * init[j]
			}
		}
	}
	if res.Gradient != nil {
		out.GradNorm = floats.Norm(res.Gradient, math.Inf(1))
	}
	return out, nil
}

// objective computes the loss and its gradient with respect to the
// standardized parameters, one pass over the rows for both, and remembers the
// last point so that Func and Grad at the same point cost one pass.
type objective struct {
	ctx     context.Context
	src     source
	threads int
	nf      int
	s       float64
	rms     []float64
	wsum    float64
	l2      float64
	center  []float64
	// scaleCenter: the centre is center times the best multiplier.
	scaleCenter bool
	bias        int
	fixed       []bool // weights left at the starting point: their gradient is 0
	// init, set for FitOptions.FixedScaled, holds the initial weights: the
	// fixed ones (but bias) are init times the free weights' multiplier.
	init []float64

	v     []float64 // the effective weights of the last point
	x     []float64 // the last point (nil before the first)
	fx    float64   // the loss there
	grad  []float64 // and its gradient
	evals int
	err   error // the first error of a pass; stops the optimization
}

// value implements optimize.Problem.Func.
func (o *objective) value(x []float64) float64 {
	o.eval(x)
	return o.fx
}

// gradient implements optimize.Problem.Grad. The components of fixed
// weights are 0, so L-BFGS, whose steps are made of gradients, never moves
// them.
func (o *objective) gradient(grad, x []float64) {
	o.eval(x)
	copy(grad, o.grad)
	for j, f := range o.fixed {
		if f {
			grad[j] = 0
		}
	}
}

// eval computes the loss and gradient at x unless x is the last point.
func (o *objective) eval(x []float64) {
	if o.x != nil && slices.Equal(x, o.x) {
		return
	}
	o.x = append(o.x[:0], x...)
	if o.err != nil {
		o.fx = math.NaN()
		return
	}
	for j := range o.nf {
		o.v[j] = x[j] / o.rms[j]
	}
	// With FixedScaled, the fixed weights follow the free ones' multiplier
	// cf, whose derivative is init_i / ci.
	cf, ci := o.multiplier(x), 0.0
	if o.init != nil {
		for j, f := range o.fixed {
			if f && j != o.bias {
				o.v[j] = o.s * cf * o.init[j]
			} else if j != o.bias {
				ci += o.init[j] * o.init[j]
			}
		}
	}
	o.evals++
	acc, err := o.src.sum(o.ctx, o.threads, 1+o.nf, lossGradKernel(o.v))
	if err != nil {
		o.err = err
		o.fx = math.NaN()
		for j := range o.grad {
			o.grad[j] = math.NaN()
		}
		return
	}
	loss := acc[0] / o.wsum
	c := 1.0
	if o.scaleCenter {
		// The multiplier minimizing the penalty (over the weights it
		// covers); by the envelope theorem the penalty's gradient at it is
		// that of a fixed centre.
		var wc, cc float64
		for j := range o.nf {
			if j != o.bias && (o.init == nil || !o.fixed[j]) {
				wc += o.v[j] / o.s * o.center[j]
				cc += o.center[j] * o.center[j]
			}
		}
		if cc > 0 {
			c = wc / cc
		}
	}
	// dL/dw of the fixed weights, through cf, moves the free ones.
	var g float64
	for j := range o.nf {
		if o.init != nil && o.fixed[j] && j != o.bias {
			g += acc[1+j] / o.wsum * o.s * o.init[j]
		}
	}
	for j := range o.nf {
		o.grad[j] = acc[1+j] / o.wsum / o.rms[j]
		if o.init != nil && j != o.bias {
			if o.fixed[j] {
				continue // not fitted, not penalized
			}
			if ci > 0 {
				o.grad[j] += g * o.init[j] / ci / (o.s * o.rms[j])
			}
		}
		if j == o.bias || o.l2 == 0 {
			continue
		}
		w := o.v[j] / o.s
		d := w - c*o.center[j]
		loss += o.l2 / 2 * d * d
		o.grad[j] += o.l2 * d / (o.s * o.rms[j])
	}
	o.fx = loss
}

// multiplier returns, for FitOptions.FixedScaled, the c of the standardized
// point x: w·init / init·init over the free weights but bias (1 when those
// initial values are all 0, or without FixedScaled).
func (o *objective) multiplier(x []float64) float64 {
	if o.init == nil {
		return 1
	}
	var wc, cc float64
	for j, f := range o.fixed {
		if !f && j != o.bias {
			wc += x[j] / (o.rms[j] * o.s) * o.init[j]
			cc += o.init[j] * o.init[j]
		}
	}
	if cc > 0 {
		return wc / cc
	}
	return 1
}

// recorder reports progress and stops the optimization when the context is
// done.
type recorder struct {
	ctx      context.Context
	progress func(iter int, loss float64)
	iter     int
}

func (r *recorder) Init() error { return nil }

func (r *recorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if op == optimize.MajorIteration && r.progress != nil {
		r.progress(r.iter, loc.F)
		r.iter++
	}
	return nil
}
