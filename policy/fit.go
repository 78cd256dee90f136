package policy

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// FitOptions are the settings of Fit.
type FitOptions struct {
	// L2 is the penalty on the squared weights, per decision (default 1e-4).
	L2 float64
	// MaxIter bounds the L-BFGS iterations (default 300).
	MaxIter int
}

// Fit returns the weights that maximise the likelihood of the choices of ex
// under the softmax of each decision's logits, with an L2 penalty, by
// L-BFGS (gonum's optimize), starting from zero.
func Fit(ctx context.Context, ex *Examples, opt FitOptions) (*Weights, error) {
	if ex.Len() == 0 {
		return nil, fmt.Errorf("policy: no decisions to fit")
	}
	if opt.L2 == 0 {
		opt.L2 = 1e-4
	}
	if opt.MaxIter == 0 {
		opt.MaxIter = 300
	}
	var ctxErr error
	problem := optimize.Problem{
		Func: func(x []float64) float64 {
			return objective(ex, x, opt.L2, nil)
		},
		Grad: func(grad, x []float64) {
			objective(ex, x, opt.L2, grad)
		},
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				ctxErr = err
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: 1e-6,
		MajorIterations:   opt.MaxIter,
		Converger:         &optimize.FunctionConverge{Relative: 1e-9, Iterations: 10},
	}
	res, err := optimize.Minimize(problem, make([]float64, N), settings, &optimize.LBFGS{})
	if ctxErr != nil {
		return nil, ctxErr
	}
	if res == nil || math.IsNaN(res.F) {
		return nil, fmt.Errorf("policy: L-BFGS: %w", err)
	}
	w := &Weights{}
	for i, v := range res.X {
		w.W[i] = float32(v)
	}
	return w, nil
}

// objective returns the weighted mean negative log-likelihood of the choices
// of ex under the weights x plus l2 times their squared norm, and sets grad
// to its gradient when grad is not nil.
func objective(ex *Examples, x []float64, l2 float64, grad []float64) float64 {
	if grad != nil {
		clear(grad)
	}
	var loss, total float64
	z := make([]float64, 0, 64)
	for d := range ex.Len() {
		wd := float64(ex.weight(d))
		if wd == 0 {
			continue
		}
		total += wd
		lo, hi := int(ex.Start[d]), int(ex.Start[d+1])
		z = z[:0]
		top := math.Inf(-1)
		for r := lo; r < hi; r++ {
			row := ex.X[r*N : (r+1)*N]
			var v float64
			for j, f := range row {
				if f != 0 {
					v += float64(f) * x[j]
				}
			}
			z = append(z, v)
			top = max(top, v)
		}
		var sum float64
		for i := range z {
			z[i] = math.Exp(z[i] - top)
			sum += z[i]
		}
		c := int(ex.Chosen[d])
		loss -= wd * math.Log(z[c]/sum)
		if grad == nil {
			continue
		}
		for i := range z {
			p := z[i] / sum
			if i == c {
				p--
			}
			p *= wd
			if p == 0 {
				continue
			}
			row := ex.X[(lo+i)*N : (lo+i+1)*N]
			for j, f := range row {
				if f != 0 {
					grad[j] += p * float64(f)
				}
			}
		}
	}
	n := max(total, 1e-300)
	loss /= n
	for _, v := range x {
		loss += l2 * v * v
	}
	if grad != nil {
		for j := range grad {
			grad[j] = grad[j]/n + 2*l2*x[j]
		}
	}
	return loss
}

// Score summarises how well weights predict the decisions of ex, each
// counted with its weight: the mean log-likelihood of the choices, the share
// of decisions whose choice has the highest logit, and the same for the
// uniform model's log-likelihood.
type Score struct {
	Decisions     int
	LogLik        float64 // mean log-likelihood of the choices
	Top1          float64 // share of decisions whose choice ranks first
	UniformLogLik float64 // mean log-likelihood under equal priors
}

// Evaluate scores w on ex.
func Evaluate(w *Weights, ex *Examples) Score {
	s := Score{Decisions: ex.Len()}
	var total float64
	for d := range ex.Len() {
		wd := float64(ex.weight(d))
		total += wd
		lo, hi := int(ex.Start[d]), int(ex.Start[d+1])
		c := lo + int(ex.Chosen[d])
		top, best := math.Inf(-1), -1
		zs := make([]float64, 0, hi-lo)
		for r := lo; r < hi; r++ {
			var v float64
			for j, f := range ex.X[r*N : (r+1)*N] {
				v += float64(f) * float64(w.W[j])
			}
			zs = append(zs, v)
			if v > top {
				top, best = v, r
			}
		}
		var sum float64
		for _, v := range zs {
			sum += math.Exp(v - top)
		}
		s.LogLik += wd * (zs[c-lo] - top - math.Log(sum))
		s.UniformLogLik -= wd * math.Log(float64(hi-lo))
		if best == c {
			s.Top1 += wd
		}
	}
	if total > 0 {
		n := total
		s.LogLik /= n
		s.Top1 /= n
		s.UniformLogLik /= n
	}
	return s
}

// weight returns the weight of decision d (1 when no weights are kept).
func (e *Examples) weight(d int) float32 {
	if e.Weight == nil {
		return 1
	}
	return e.Weight[d]
}
