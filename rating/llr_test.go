package rating

import (
	"fmt"
	"math"
	"testing"
)

// The GSPRT's log-likelihood ratio compares the best fits of the observed
// distribution under each hypothesis. For three scores (loss, draw, win) the
// distributions that meet a hypothesis form a curve, one point per draw share
// d, so the best fit can be found without the package's method (a root of the
// Lagrange condition for the logistic model, a fixed-point iteration for the
// normalized one): search d for the largest likelihood. The tests below do
// that and compare the LLRs.

// fitOnCurve returns the largest sum_i phat_i log p_i over the distributions
// p(d) for d in (lo, hi): a grid, then golden-section search around its best
// point. The log-likelihood is unimodal along these curves for the samples used.
func fitOnCurve(phat []float64, p func(d float64) ([]float64, bool), lo, hi float64) float64 {
	ll := func(d float64) float64 {
		q, ok := p(d)
		if !ok {
			return math.Inf(-1)
		}
		var s float64
		for i := range phat {
			s += phat[i] * math.Log(q[i])
		}
		return s
	}
	const grid = 2000
	best, bestLL := lo, math.Inf(-1)
	for k := 1; k < grid; k++ {
		d := lo + (hi-lo)*float64(k)/grid
		if v := ll(d); v > bestLL {
			best, bestLL = d, v
		}
	}
	a, b := math.Max(lo, best-(hi-lo)/grid), math.Min(hi, best+(hi-lo)/grid)
	g := (math.Sqrt(5) - 1) / 2
	for range 200 {
		c, e := b-g*(b-a), a+g*(b-a)
		if ll(c) > ll(e) {
			b = e
		} else {
			a = c
		}
	}
	return ll((a + b) / 2)
}

// logisticCurve returns the distributions (loss, draw, win) with mean score s.
func logisticCurve(s float64) (func(d float64) ([]float64, bool), float64) {
	return func(d float64) ([]float64, bool) {
		w, l := s-d/2, 1-s-d/2
		return []float64{l, d, w}, w > 0 && l > 0
	}, 2 * math.Min(s, 1-s)
}

// normalizedCurve returns the distributions (loss, draw, win) whose
// normalized score (mu - 1/2)/sigma is t: for each draw share d the win share
// is found by bisection, (mu - 1/2)/sigma rising with it.
func normalizedCurve(t float64) func(d float64) ([]float64, bool) {
	tOf := func(l, d, w float64) float64 {
		mu := w + d/2
		v := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
		return (mu - 0.5) / math.Sqrt(v)
	}
	return func(d float64) ([]float64, bool) {
		rest := 1 - d
		a, b := 0.0, rest
		for range 200 {
			m := (a + b) / 2
			if tOf(rest-m, d, m) < t {
				a = m
			} else {
				b = m
			}
		}
		w := (a + b) / 2
		l := rest - w
		return []float64{l, d, w}, w > 0 && l > 0 && math.Abs(tOf(l, d, w)-t) < 1e-9
	}
}

// TestLLRTrinomialBestFits compares LLRTrinomial with the LLR of the best fits
// found along each hypothesis's curve, for both models, samples on either side
// of the hypotheses and between them.
func TestLLRTrinomialBestFits(t *testing.T) {
	samples := []Stats{
		{Wins: 6, Losses: 2, Draws: 2},
		{Wins: 30, Losses: 41, Draws: 17},
		{Wins: 120, Losses: 97, Draws: 210},
		{Wins: 5, Losses: 5, Draws: 40},
		{Wins: 3, Losses: 1, Draws: 1},
	}
	hyps := [][2]float64{{0, 10}, {-20, 20}, {5, 60}, {-100, -40}}
	for _, s := range samples {
		n := float64(s.Games())
		phat := []float64{float64(s.Losses) / n, float64(s.Draws) / n, float64(s.Wins) / n}
		for _, h := range hyps {
			t.Run(fmt.Sprintf("%d-%d-%d/%g,%g", s.Wins, s.Draws, s.Losses, h[0], h[1]), func(t *testing.T) {
				for _, m := range []SPRTModel{Logistic, Normalized} {
					var ll [2]float64
					for k, elo := range h {
						if m == Logistic {
							curve, hi := logisticCurve(EloToScore(elo))
							ll[k] = fitOnCurve(phat, curve, 0, hi)
						} else {
							ll[k] = fitOnCurve(phat, normalizedCurve(elo/neloScale), 0, 1)
						}
					}
					w := n * (ll[1] - ll[0])
					got := SPRT{Elo0: h[0], Elo1: h[1], Alpha: 0.05, Beta: 0.05, Model: m}.LLRTrinomial(s)
					if !(math.Abs(got-w) <= 1e-6*math.Max(1, math.Abs(w))) { // NaN fails too
						t.Errorf("%s: LLR %.9f, the best fits on the hypotheses' curves give %.9f", m, got, w)
					}
				}
			})
		}
	}
}

// TestSolveTheta: the root of sum_i w_i x_i/(1 + theta x_i) inside the
// interval where every 1 + theta x_i is positive, also where the root lies near
// an end of it (nearly all the weight on one score); 0 when the mean is at an
// end of the scores (every x_i of one sign, or 0).
func TestSolveTheta(t *testing.T) {
	cases := []struct{ w, x []float64 }{
		{[]float64{0.2, 0.2, 0.6}, []float64{-0.5, 0, 0.5}},
		{[]float64{0.001, 0.999}, []float64{-0.5, 0.5}},
		{[]float64{0.999, 0.001}, []float64{-0.5, 0.5}},
		{[]float64{0.3, 0.1, 0.2, 0.4}, []float64{-0.9, -0.2, 0.05, 0.1}},
		{[]float64{0.5, 0.5}, []float64{-0.01, 0.99}},
	}
	for _, c := range cases {
		theta := solveTheta(c.w, c.x)
		var f, scale float64
		for i, v := range c.x {
			den := 1 + theta*v
			if !(den > 0) {
				t.Fatalf("w %v x %v: theta %v leaves 1 + theta x_%d = %v", c.w, c.x, theta, i, den)
			}
			f += c.w[i] * v / den
			scale += math.Abs(c.w[i] * v / den)
		}
		if !(math.Abs(f) <= 1e-9*scale) {
			t.Errorf("w %v x %v: theta %v, f(theta) = %v, want 0", c.w, c.x, theta, f)
		}
	}
	for _, x := range [][]float64{{0, 0.5, 1}, {-1, -0.5, 0}, {0.1, 0.2}, {0, 0}} {
		if theta := solveTheta([]float64{0.2, 0.3, 0.5}[:len(x)], x); theta != 0 {
			t.Errorf("x %v (the mean at an end): theta %v, want 0", x, theta)
		}
	}
}
