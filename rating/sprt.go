package rating

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRTModel is how the SPRT hypotheses are stated: logistic Elo (the score
// expected from an Elo difference) or normalized Elo (the score difference in
// units of its standard deviation), as fastchess offers them.
type SPRTModel string

// The SPRT models.
const (
	Logistic   SPRTModel = "logistic"
	Normalized SPRTModel = "normalized"
)

// SPRT is a generalized sequential probability ratio test (GSPRT) of
// H0: elo = Elo0 against H1: elo = Elo1, computed as fastchess does from the
// pentanomial counts (or the trinomial ones): the log-likelihood ratio of the
// maximum-likelihood distributions of pair scores under each hypothesis, given
// the observed distribution (M. Van den Bergh, "Comments on Normalized Elo").
type SPRT struct {
	Elo0  float64   `json:"elo0"`
	Elo1  float64   `json:"elo1"`
	Alpha float64   `json:"alpha"`
	Beta  float64   `json:"beta"`
	Model SPRTModel `json:"model"`
}

// ParseSPRT reads "elo0,elo1,alpha,beta" such as "0,10,0.05,0.05".
func ParseSPRT(s string, model SPRTModel) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1,alpha,beta", s)
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return SPRT{}, fmt.Errorf("sprt %q: %w", s, err)
		}
		v[i] = x
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3], Model: model}
	return t, t.Validate()
}

// Validate checks the settings as fastchess does.
func (t SPRT) Validate() error {
	switch {
	case !(t.Elo0 < t.Elo1):
		return errors.New("sprt: elo0 must be less than elo1")
	case !(t.Alpha > 0 && t.Alpha < 1):
		return errors.New("sprt: alpha must be in (0, 1)")
	case !(t.Beta > 0 && t.Beta < 1):
		return errors.New("sprt: beta must be in (0, 1)")
	case t.Alpha+t.Beta >= 1:
		return errors.New("sprt: alpha + beta must be less than 1")
	case t.Model != Logistic && t.Model != Normalized:
		return fmt.Errorf("sprt: unknown model %q (logistic or normalized)", t.Model)
	}
	return nil
}

// Bounds returns the LLR bounds: log(beta/(1-alpha)) below which H0 is
// accepted and log((1-beta)/alpha) above which H1 is (WaldBounds).
func (t SPRT) Bounds() (lower, upper float64) {
	return WaldBounds(t.Alpha, t.Beta)
}

// WaldBounds returns Wald's bounds on the log-likelihood ratio of H1 against
// H0 for a sequential test with error rates alpha (accepting H1 when H0
// holds) and beta (accepting H0 when H1 holds): H0 is accepted at
// lower = ln(beta/(1-alpha)) or below, H1 at upper = ln((1-beta)/alpha) or
// above.
func WaldBounds(alpha, beta float64) (lower, upper float64) {
	return math.Log(beta / (1 - alpha)), math.Log((1 - beta) / alpha)
}

// Verdict is the state of an SPRT.
type Verdict int

// The verdicts.
const (
	Continue Verdict = iota
	AcceptH0         // elo0 is the more likely: the first player is not stronger by elo1
	AcceptH1         // elo1 is the more likely: the first player is stronger
)

// String returns "continue", "H0 accepted" or "H1 accepted".
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Verdict returns the test's state for a log-likelihood ratio.
func (t SPRT) Verdict(llr float64) Verdict {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// LLR returns the log-likelihood ratio of the pentanomial counts of s (the
// game pairs), as fastchess computes it by default for paired games. A count of
// zero is replaced by 1e-3, as fastchess does, so that the distributions stay
// inside the simplex.
func (t SPRT) LLR(s Stats) float64 {
	p := s.Ptnml()
	counts := make([]float64, len(p))
	for i, c := range p {
		counts[i] = regularize(c)
	}
	scores := []float64{0, 0.25, 0.5, 0.75, 1}
	if t.Model == Normalized {
		return llrNormalized(scores, counts, math.Sqrt2*t.Elo0/neloScale, math.Sqrt2*t.Elo1/neloScale)
	}
	return llrLogistic(scores, counts, EloToScore(t.Elo0), EloToScore(t.Elo1))
}

// LLRTrinomial returns the log-likelihood ratio of the wins, draws and losses
// of s, treating the games as independent.
func (t SPRT) LLRTrinomial(s Stats) float64 {
	counts := []float64{regularize(s.Losses), regularize(s.Draws), regularize(s.Wins)}
	scores := []float64{0, 0.5, 1}
	if t.Model == Normalized {
		return llrNormalized(scores, counts, t.Elo0/neloScale, t.Elo1/neloScale)
	}
	return llrLogistic(scores, counts, EloToScore(t.Elo0), EloToScore(t.Elo1))
}

func regularize(c int) float64 {
	if c == 0 {
		return 1e-3
	}
	return float64(c)
}

// shares returns the total of counts and each count's share.
func shares(counts []float64) (total float64, p []float64) {
	for _, c := range counts {
		total += c
	}
	p = make([]float64, len(counts))
	for i, c := range counts {
		p[i] = c / total
	}
	return total, p
}

// llrLogistic returns N * sum_i phat_i log(p1_i/p0_i), where p_s is the
// distribution on the scores a_i closest to the observed one phat (in the
// maximum-likelihood sense) among those with mean s: p_i = phat_i/(1 + theta
// (a_i - s)), theta the root of sum_i phat_i (a_i - s)/(1 + theta (a_i - s)).
func llrLogistic(scores, counts []float64, s0, s1 float64) float64 {
	total, phat := shares(counts)
	mle := func(s float64) []float64 {
		x := make([]float64, len(scores))
		for i, a := range scores {
			x[i] = a - s
		}
		theta := solveTheta(phat, x)
		p := make([]float64, len(scores))
		for i := range p {
			p[i] = phat[i] / (1 + theta*x[i])
		}
		return p
	}
	return llr(total, phat, mle(s0), mle(s1))
}

// llrNormalized is llrLogistic with the hypotheses on the normalized score
// t = (mu - 1/2)/sigma: the constrained maximum-likelihood distribution is found
// by the fixed-point iteration of Van den Bergh's section 4.1, from the uniform
// distribution.
func llrNormalized(scores, counts []float64, t0, t1 float64) float64 {
	total, phat := shares(counts)
	n := len(scores)
	mle := func(tStar float64) []float64 {
		p := make([]float64, n)
		for i := range p {
			p[i] = 1 / float64(n)
		}
		phi := make([]float64, n)
		for range 1000 {
			var mu, v float64
			for i, a := range scores {
				mu += p[i] * a
			}
			for i, a := range scores {
				v += p[i] * (a - mu) * (a - mu)
			}
			sigma := math.Sqrt(v)
			for i, a := range scores {
				z := (a - mu) / sigma
				phi[i] = a - 0.5 - 0.5*tStar*sigma*(1+z*z)
			}
			theta := solveTheta(phat, phi)
			var diff float64
			for i := range p {
				q := phat[i] / (1 + theta*phi[i])
				diff = math.Max(diff, math.Abs(q-p[i]))
				p[i] = q
			}
			if diff < normTol {
				break
			}
		}
		return p
	}
	return llr(total, phat, mle(t0), mle(t1))
}

// normTol stops the fixed-point iteration of the normalized model's outcome
// probabilities: the largest change of one in a pass.
const normTol = 1e-9

func llr(total float64, phat, p0, p1 []float64) float64 {
	var sum float64
	for i := range phat {
		sum += phat[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * sum
}

// solveTheta returns the root of f(theta) = sum_i w_i x_i / (1 + theta x_i) on
// the interval where every 1 + theta x_i is positive, (-1/max x, -1/min x); f
// falls strictly there (f' = -sum w_i x_i^2/(1 + theta x_i)^2), from +Inf to
// -Inf when min x < 0 < max x, so bisection finds the root to the last bit.
func solveTheta(w, x []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !(lo < 0 && hi > 0) {
		return 0 // the mean is at an end of the scores: no distribution has it but a point mass
	}
	f := func(theta float64) float64 {
		var s float64
		for i, v := range x {
			s += w[i] * v / (1 + theta*v)
		}
		return s
	}
	a, b := -1/hi, -1/lo
	for range 200 {
		m := a + (b-a)/2
		if m <= a || m >= b {
			break
		}
		if f(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
	return a + (b-a)/2
}
