package rating

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat"
)

// RatingModel is the model of game results that ratings are fitted to.
type RatingModel string

// The rating models.
const (
	// BradleyTerry: player i scores against j with expectation
	// 1/(1 + 10^((r_j - r_i)/400)); a draw counts as half a win and half a
	// loss.
	BradleyTerry RatingModel = "bt"
	// Davidson: with strengths pi = 10^(r/400) and a draw parameter nu,
	// P(i wins) = pi_i/D, P(draw) = nu sqrt(pi_i pi_j)/D, P(j wins) = pi_j/D,
	// D = pi_i + pi_j + nu sqrt(pi_i pi_j).
	Davidson RatingModel = "davidson"
)

// Unit is the results of one unit of resampling of a pairing, from its first
// player's view: a game pair (the same setups with colours swapped), or a lone
// game.
type Unit struct{ W, D, L int }

// PairingData is what two players' games say: the units of their games, from
// I's view.
type PairingData struct {
	I, J  int
	Units []Unit
}

// FitOptions are the settings of a rating fit.
type FitOptions struct {
	// Model is BradleyTerry (default) or Davidson.
	Model RatingModel
	// Anchor is the player whose rating is fixed at 0.
	Anchor int
	// Prior adds this many virtual draws to every pairing that played, so that
	// a player who won or lost every game still gets a finite rating (as
	// BayesElo's prior does); 0 gives the plain maximum-likelihood fit.
	Prior float64
	// Bootstrap, when positive, is the number of bootstrap replicates (game
	// pairs resampled within each pairing) the 95% intervals are taken from;
	// 0 takes them from the observed Fisher information.
	Bootstrap int
	// Seed makes the bootstrap reproducible.
	Seed uint64
	// Names, when set, names the players in error messages.
	Names []string
}

// name names player i in messages.
func (o FitOptions) name(i int) string {
	if i < len(o.Names) {
		return fmt.Sprintf("%q", o.Names[i])
	}
	return fmt.Sprintf("player %d", i)
}

// Ratings are fitted ratings on the Elo scale, with 95% intervals.
type Ratings struct {
	Model  RatingModel
	Anchor int
	// Elo is each player's rating; Elo[Anchor] is 0.
	Elo []float64
	// SE is each rating's standard error (0 for the anchor): from the inverse
	// of the observed Fisher information, or the bootstrap's deviation.
	SE []float64
	// Low and High bound the 95% intervals: Elo -/+ Z95 SE, or the 2.5% and
	// 97.5% quantiles of the bootstrap.
	Low, High []float64
	// Interval is "fisher" or "bootstrap".
	Interval string
	// Replicates is the number of bootstrap fits that succeeded.
	Replicates int
	// DrawNu is Davidson's draw parameter nu.
	DrawNu float64
	// LogLik is the log-likelihood at the fit (virtual draws included).
	LogLik float64
}

// eloK turns Elo into the natural logarithm of strength: ln(10)/400.
const eloK = math.Ln10 / 400

// tally is a pairing's aggregated counts, virtual draws included.
type tally struct {
	i, j    int
	w, d, l float64
}

// Fit fits ratings to the results of n players. Every player must be
// connected to the anchor by games.
func Fit(n int, data []PairingData, opt FitOptions) (*Ratings, error) {
	if opt.Model == "" {
		opt.Model = BradleyTerry
	}
	if opt.Model != BradleyTerry && opt.Model != Davidson {
		return nil, fmt.Errorf("ratings: unknown model %q (bt or davidson)", opt.Model)
	}
	if n < 1 || opt.Anchor < 0 || opt.Anchor >= n {
		return nil, fmt.Errorf("ratings: anchor %d of %d players", opt.Anchor, n)
	}
	if opt.Prior < 0 || opt.Bootstrap < 0 {
		return nil, errors.New("ratings: negative prior or bootstrap")
	}
	ts := tallies(data, opt.Prior)
	if i := connected(n, opt.Anchor, ts); i >= 0 {
		return nil, fmt.Errorf("ratings: %s has no games linking it to the anchor", opt.name(i))
	}
	if opt.Prior == 0 {
		if i := bounded(n, ts); i >= 0 {
			return nil, fmt.Errorf("ratings: %s won or lost every game against a group of players, so the maximum-likelihood ratings are infinite: add a prior", opt.name(i))
		}
	}
	elo, nu, ll, x, err := fitPoint(n, ts, opt)
	if err != nil {
		return nil, err
	}
	r := &Ratings{Model: opt.Model, Anchor: opt.Anchor, Elo: elo, DrawNu: nu, LogLik: ll,
		SE: make([]float64, n), Low: make([]float64, n), High: make([]float64, n)}
	if opt.Bootstrap == 0 {
		r.Interval = "fisher"
		if err := r.fisher(n, ts, opt, x); err != nil {
			return nil, err
		}
		return r, nil
	}
	r.Interval = "bootstrap"
	return r, r.bootstrap(n, data, opt)
}

func tallies(data []PairingData, prior float64) []tally {
	var ts []tally
	for _, p := range data {
		t := tally{i: p.I, j: p.J}
		for _, u := range p.Units {
			t.w += float64(u.W)
			t.d += float64(u.D)
			t.l += float64(u.L)
		}
		if t.w+t.d+t.l == 0 || p.I == p.J {
			continue
		}
		t.d += prior
		ts = append(ts, t)
	}
	return ts
}

// connected returns a player that does not meet the anchor through games,
// or -1.
func connected(n, anchor int, ts []tally) int {
	adj := make([][]int, n)
	for _, t := range ts {
		adj[t.i] = append(adj[t.i], t.j)
		adj[t.j] = append(adj[t.j], t.i)
	}
	seen := make([]bool, n)
	stack := []int{anchor}
	seen[anchor] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range adj[v] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			return i
		}
	}
	return -1
}

// bounded checks that the maximum-likelihood ratings exist (Zermelo's
// condition): in the graph with an edge from i to j when i scored against j (a
// win or a draw), every player reaches every other. Otherwise some group of
// players won every game against the rest and their ratings would grow without
// bound. It returns a player outside the strongly connected whole, or -1.
func bounded(n int, ts []tally) int {
	out := make([][]int, n)
	in := make([][]int, n)
	for _, t := range ts {
		if t.w+t.d > 0 { // i scored against j
			out[t.i] = append(out[t.i], t.j)
			in[t.j] = append(in[t.j], t.i)
		}
		if t.l+t.d > 0 {
			out[t.j] = append(out[t.j], t.i)
			in[t.i] = append(in[t.i], t.j)
		}
	}
	reach := func(adj [][]int) []bool {
		seen := make([]bool, n)
		seen[0] = true
		stack := []int{0}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, u := range adj[v] {
				if !seen[u] {
					seen[u] = true
					stack = append(stack, u)
				}
			}
		}
		return seen
	}
	fwd, back := reach(out), reach(in)
	for i := range n {
		if !fwd[i] || !back[i] {
			return i
		}
	}
	return -1
}

// model is a log-likelihood over the free parameters: the ratings of every
// player but the anchor (in Elo), then for Davidson ln(nu).
type model struct {
	n, anchor int
	ts        []tally
	davidson  bool
}

func (m *model) dim() int {
	if m.davidson {
		return m.n
	}
	return m.n - 1
}

// ratings expands the free parameters into every player's rating.
func (m *model) ratings(x []float64) []float64 {
	r := make([]float64, m.n)
	k := 0
	for i := range r {
		if i == m.anchor {
			continue
		}
		r[i] = x[k]
		k++
	}
	return r
}

// index returns the parameter index of player i, or -1 for the anchor.
func (m *model) index(i int) int {
	switch {
	case i == m.anchor:
		return -1
	case i > m.anchor:
		return i - 1
	}
	return i
}

// negLogLik returns minus the log-likelihood and stores its gradient in grad
// when grad is not nil.
func (m *model) negLogLik(grad, x []float64) float64 {
	r := m.ratings(x)
	for i := range grad {
		grad[i] = 0
	}
	var ll float64
	eta := 0.0
	if m.davidson {
		eta = x[len(x)-1]
	}
	for _, t := range m.ts {
		gi, gj := eloK*r[t.i], eloK*r[t.j]
		var di, dj, deta float64 // d(ll)/d(gamma_i), d(ll)/d(gamma_j), d(ll)/d(eta)
		if !m.davidson {
			s := t.w + t.d/2
			nn := t.w + t.d + t.l
			z := gi - gj
			ll += s*logSigmoid(z) + (nn-s)*logSigmoid(-z)
			p := sigmoid(z)
			di = s - nn*p
			dj = -di
		} else {
			nn := t.w + t.d + t.l
			gd := eta + (gi+gj)/2
			c := max(gi, gj, gd)
			ei, ej, ed := math.Exp(gi-c), math.Exp(gj-c), math.Exp(gd-c)
			den := ei + ej + ed
			ll += t.w*gi + t.l*gj + t.d*gd - nn*(c+math.Log(den))
			di = t.w + t.d/2 - nn*(ei+ed/2)/den
			dj = t.l + t.d/2 - nn*(ej+ed/2)/den
			deta = t.d - nn*ed/den
		}
		if grad != nil {
			if k := m.index(t.i); k >= 0 {
				grad[k] -= eloK * di
			}
			if k := m.index(t.j); k >= 0 {
				grad[k] -= eloK * dj
			}
			if m.davidson {
				grad[len(grad)-1] -= deta
			}
		}
	}
	return -ll
}

// hessBT stores the Hessian of minus the Bradley-Terry log-likelihood.
func (m *model) hessBT(h *mat.SymDense, x []float64) {
	r := m.ratings(x)
	d := m.dim()
	for i := range d {
		for j := i; j < d; j++ {
			h.SetSym(i, j, 0)
		}
	}
	for _, t := range m.ts {
		nn := t.w + t.d + t.l
		p := sigmoid(eloK * (r[t.i] - r[t.j]))
		// k*k rounds as a product of float64s (the constant's exact square would not).
		k := float64(eloK)
		v := k * k * nn * p * (1 - p)
		ki, kj := m.index(t.i), m.index(t.j)
		if ki >= 0 {
			h.SetSym(ki, ki, h.At(ki, ki)+v)
		}
		if kj >= 0 {
			h.SetSym(kj, kj, h.At(kj, kj)+v)
		}
		if ki >= 0 && kj >= 0 {
			h.SetSym(ki, kj, h.At(ki, kj)-v)
		}
	}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// logSigmoid returns log(1/(1+e^-z)) without overflow.
func logSigmoid(z float64) float64 {
	if z < 0 {
		return z - math.Log1p(math.Exp(z))
	}
	return -math.Log1p(math.Exp(-z))
}

// divergeElo is the rating gap beyond which a fit is taken to diverge (a
// player who won or lost every game, with no prior).
const divergeElo = 4000

// fitPoint returns the maximum-likelihood ratings, Davidson's nu, the
// log-likelihood and the free parameters.
func fitPoint(n int, ts []tally, opt FitOptions) ([]float64, float64, float64, []float64, error) {
	m := &model{n: n, anchor: opt.Anchor, ts: ts, davidson: opt.Model == Davidson}
	x0 := make([]float64, m.dim())
	if n == 1 {
		return []float64{0}, 0, 0, x0, nil
	}
	p := optimize.Problem{
		Func: func(x []float64) float64 { return m.negLogLik(nil, x) },
		Grad: func(g, x []float64) { m.negLogLik(g, x) },
	}
	var method optimize.Method
	if m.davidson {
		var draws float64
		for _, t := range ts {
			draws += t.d
		}
		if draws == 0 {
			return nil, 0, 0, nil, errors.New("ratings: the Davidson model needs draws (or a prior); use bt")
		}
		method = &optimize.BFGS{}
	} else {
		p.Hess = m.hessBT
		method = &optimize.Newton{}
	}
	settings := &optimize.Settings{
		GradientThreshold: 1e-10,
		MajorIterations:   1000,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-15, Iterations: 20},
	}
	res, err := optimize.Minimize(p, x0, settings, method)
	if err != nil && res == nil {
		return nil, 0, 0, nil, fmt.Errorf("ratings: %w", err)
	}
	x := res.X
	elo := m.ratings(x)
	lo, hi := slices.Min(elo), slices.Max(elo)
	if hi-lo > divergeElo || math.IsNaN(hi-lo) {
		return nil, 0, 0, nil, errors.New("ratings: the fit diverges (a player won or lost every game): add a prior")
	}
	if err != nil && res.Status != optimize.GradientThreshold && res.Status != optimize.FunctionConvergence {
		g := make([]float64, len(x))
		m.negLogLik(g, x)
		if norm := mat.Norm(mat.NewVecDense(len(g), g), math.Inf(1)); norm > 1e-6 {
			return nil, 0, 0, nil, fmt.Errorf("ratings: %w (gradient %g)", err, norm)
		}
	}
	nu := 0.0
	if m.davidson {
		nu = math.Exp(x[len(x)-1])
	}
	return elo, nu, -res.F, x, nil
}

// fisher sets the standard errors and intervals from the inverse of the
// observed Fisher information (the Hessian of minus the log-likelihood at the
// fit, analytic for Bradley-Terry, by central differences of the gradient for
// Davidson).
func (r *Ratings) fisher(n int, ts []tally, opt FitOptions, x []float64) error {
	m := &model{n: n, anchor: opt.Anchor, ts: ts, davidson: opt.Model == Davidson}
	d := m.dim()
	if d == 0 {
		return nil
	}
	h := mat.NewSymDense(d, nil)
	if m.davidson {
		jac := mat.NewDense(d, d, nil)
		fd.Jacobian(jac, func(y, x []float64) { m.negLogLik(y, x) }, x, &fd.JacobianSettings{Formula: fd.Central})
		for i := range d {
			for j := i; j < d; j++ {
				h.SetSym(i, j, (jac.At(i, j)+jac.At(j, i))/2)
			}
		}
	} else {
		m.hessBT(h, x)
	}
	var chol mat.Cholesky
	if !chol.Factorize(h) {
		return errors.New("ratings: the Fisher information is singular (too few games)")
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	for i := range n {
		k := m.index(i)
		if k < 0 {
			r.Low[i], r.High[i] = r.Elo[i], r.Elo[i]
			continue
		}
		r.SE[i] = math.Sqrt(cov.At(k, k))
		r.Low[i] = r.Elo[i] - Z95*r.SE[i]
		r.High[i] = r.Elo[i] + Z95*r.SE[i]
	}
	return nil
}

// bootstrap sets the intervals from refits on resampled data: the units of
// each pairing drawn with replacement, as many as it has.
func (r *Ratings) bootstrap(n int, data []PairingData, opt FitOptions) error {
	rng := rand.New(rand.NewPCG(opt.Seed, 0xb007))
	samples := make([][]float64, n)
	failed := 0
	for range opt.Bootstrap {
		re := make([]PairingData, len(data))
		for i, p := range data {
			units := make([]Unit, len(p.Units))
			for k := range units {
				units[k] = p.Units[rng.IntN(len(p.Units))]
			}
			re[i] = PairingData{I: p.I, J: p.J, Units: units}
		}
		ts := tallies(re, opt.Prior)
		if opt.Prior == 0 && bounded(n, ts) >= 0 {
			failed++
			continue
		}
		elo, _, _, _, err := fitPoint(n, ts, opt)
		if err != nil {
			failed++
			continue
		}
		for i, e := range elo {
			samples[i] = append(samples[i], e)
		}
	}
	if failed*10 > opt.Bootstrap {
		return fmt.Errorf("ratings: %d of %d bootstrap fits failed: add a prior or play more games", failed, opt.Bootstrap)
	}
	r.Replicates = opt.Bootstrap - failed
	for i := range n {
		s := samples[i]
		slices.Sort(s)
		r.SE[i] = stat.StdDev(s, nil)
		r.Low[i] = stat.Quantile(0.025, stat.LinInterp, s, nil)
		r.High[i] = stat.Quantile(0.975, stat.LinInterp, s, nil)
	}
	return nil
}
