package material

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/rating"
)

// Sequential is a sequential test of the mean of paired differences, such as
// a trial's net material minus its control's game by game: a generalized
// sequential probability ratio test of H0: mean = D0 against H1: mean = D1,
// the differences taken as normal with a variance unknown and fitted under
// each hypothesis (the generalized likelihood ratio). After n pairs its
// log-likelihood ratio is
//
//	LLR = n/2 × ln(Σ(d - D0)² / Σ(d - D1)²)
//
// and the test stops at Wald's bounds: H1 is accepted at log((1-Beta)/Alpha)
// or above, H0 at log(Beta/(1-Alpha)) or below. Run as the games come in, it
// stops a trial that does nothing, or one that clearly helps, long before a
// fixed number of pairs that sees the same difference (most of the fifty-one
// rounds of docs/strength.md were such trials); looked at only once at the
// end, it is an ordinary likelihood ratio test. The variance fitted from a
// few pairs is unreliable, so no verdict comes before MinPairs pairs.
type Sequential struct {
	D0, D1      float64
	Alpha, Beta float64
	// MinPairs is the number of pairs before which the test gives no
	// verdict (0: DefaultMinPairs).
	MinPairs int
}

// DefaultMinPairs is the smallest number of pairs that a Sequential test
// judges by default: with fewer, the variance fitted under a hypothesis can
// be near zero by chance and the ratio huge. From 10 pairs on the error
// rates stay near Alpha and Beta (checked by simulation in the tests).
const DefaultMinPairs = 10

// ParseSequential reads "D0,D1" or "D0,D1,ALPHA,BETA" (alpha and beta 0.05
// when not given), such as "0,0.5" or "0,-0.3,0.05,0.1".
func ParseSequential(s string) (Sequential, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return Sequential{}, fmt.Errorf("sequential test %q: want d0,d1 or d0,d1,alpha,beta", s)
	}
	v := []float64{0, 0, 0.05, 0.05}
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return Sequential{}, fmt.Errorf("sequential test %q: %w", s, err)
		}
		v[i] = x
	}
	t := Sequential{D0: v[0], D1: v[1], Alpha: v[2], Beta: v[3]}
	return t, t.Validate()
}

// Validate checks the hypotheses and the error rates.
func (t Sequential) Validate() error {
	switch {
	case t.D0 == t.D1 || math.IsNaN(t.D0) || math.IsNaN(t.D1):
		return errors.New("sequential test: d0 and d1 must differ")
	case !(t.Alpha > 0 && t.Alpha < 1) || !(t.Beta > 0 && t.Beta < 1):
		return errors.New("sequential test: alpha and beta must be in (0, 1)")
	case t.Alpha+t.Beta >= 1:
		return errors.New("sequential test: alpha + beta must be less than 1")
	case t.MinPairs < 0:
		return errors.New("sequential test: negative minimum of pairs")
	}
	return nil
}

// Bounds returns Wald's bounds on the log-likelihood ratio
// (rating.WaldBounds): H0 is accepted at lower or below, H1 at upper or
// above.
func (t Sequential) Bounds() (lower, upper float64) {
	return rating.WaldBounds(t.Alpha, t.Beta)
}

// LLR returns the log-likelihood ratio of H1 against H0 given the
// differences d; 0 for fewer than two. Differences that all equal one
// hypothesis give the largest ratio a float64 holds, signed for it.
func (t Sequential) LLR(d []float64) float64 {
	if len(d) < 2 {
		return 0
	}
	var s0, s1 float64
	for _, x := range d {
		s0 += (x - t.D0) * (x - t.D0)
		s1 += (x - t.D1) * (x - t.D1)
	}
	return ratio(len(d), s0, s1)
}

// ratio is the log-likelihood ratio of n differences whose squared
// distances from D0 and D1 sum to s0 and s1.
func ratio(n int, s0, s1 float64) float64 {
	switch {
	case s0 == s1:
		return 0
	case s1 == 0:
		return math.MaxFloat64
	case s0 == 0:
		return -math.MaxFloat64
	}
	return float64(n) / 2 * math.Log(s0/s1)
}

// Outcome is where a sequential test stands after a run of pairs.
type Outcome struct {
	// Verdict is "H0", "H1" or "" (go on).
	Verdict string
	// Pairs is the pair at which the verdict came (all of them when none
	// did); LLR the ratio there.
	Pairs int
	LLR   float64
}

// Run walks the differences in order, as the games came, and returns the
// verdict at the first pair (MinPairs or later) where the ratio reaches a
// bound, or no verdict and the ratio over them all.
func (t Sequential) Run(d []float64) Outcome {
	lower, upper := t.Bounds()
	least := max(t.Least(), 2)
	var s0, s1 float64
	for n, x := range d {
		s0 += (x - t.D0) * (x - t.D0)
		s1 += (x - t.D1) * (x - t.D1)
		if n+1 < least {
			continue
		}
		llr := ratio(n+1, s0, s1)
		switch {
		case llr >= upper:
			return Outcome{Verdict: "H1", Pairs: n + 1, LLR: llr}
		case llr <= lower:
			return Outcome{Verdict: "H0", Pairs: n + 1, LLR: llr}
		}
	}
	if len(d) < 2 {
		return Outcome{Pairs: len(d)}
	}
	return Outcome{Pairs: len(d), LLR: ratio(len(d), s0, s1)}
}

// Least returns the first pair at which the test may give a verdict:
// MinPairs, or DefaultMinPairs when that is 0.
func (t Sequential) Least() int {
	if t.MinPairs == 0 {
		return DefaultMinPairs
	}
	return t.MinPairs
}

// MeasureIndex returns the index, in the order of Table's and Paired's rows, of
// the measure a short name gives: first-loss, net, lost, taken, turns, short
// or siege; -1 for another name.
func MeasureIndex(name string) int {
	switch name {
	case "first-loss":
		return 0
	case "net":
		return 1
	case "lost":
		return 2
	case "taken":
		return 3
	case "turns":
		return 4
	case "short":
		return 5
	case "siege":
		return siegeMeasure
	}
	return -1
}

// siegeMeasure is the index of the siege, the last measure, there only when
// every game has it.
const siegeMeasure = 6

// Differences returns, for measure k (see MeasureIndex), a's value minus b's game
// by game: the games must be paired, as for Paired.
func Differences(a, b []Game, k int) ([]float64, error) {
	if err := checkPaired(a, b); err != nil {
		return nil, err
	}
	switch {
	case k < 0 || k > siegeMeasure:
		return nil, fmt.Errorf("measure %d: there is none", k)
	case k == siegeMeasure && !sieged(a, b):
		return nil, errors.New("turns under a goal siege: not measured in these games")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = measures(a[i])[k] - measures(b[i])[k]
	}
	return d, nil
}
