package mcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/policy"
)

// mirrorStep returns s on the board of mirror: the piece of the other colour,
// the square of the other rank, north for south.
func mirrorStep(s engine.Step) engine.Step {
	d := s.Dir
	switch d {
	case engine.North:
		d = engine.South
	case engine.South:
		d = engine.North
	}
	return engine.Step{Piece: engine.Piece((int(s.Piece) + engine.NumTypes) % (2 * engine.NumTypes)), From: s.From ^ 56, Dir: d}
}

// TestHeuristicPriors: the prior of each step of a position, as the weights
// of priors.go give it before normalisation: by the piece's strength, a
// rabbit's forward step more the further it has come, a step onto a trap
// with no friend beside it little, an enemy piece pushed twice an own step
// and onto a trap it cannot hold six times, ending the turn little. The same
// position for Silver (colours and ranks swapped) gets the same priors.
func TestHeuristicPriors(t *testing.T) {
	// Gold: rabbits a4 and h2, a cat beside the empty trap c3, the
	// elephant under a silver dog beside the trap f6.
	p := build(t, engine.Gold, "Ra4 Rh2 Cb3 Ee5 de6 rh8")
	want := map[string]float64{
		"Ra4n": 0.8 + 0.3*3, "Ra4e": 0.8, // a rabbit three ranks up
		"Rh2n": 0.8 + 0.3*1, "Rh2w": 0.8,
		"Cb3n": 0.8, "Cb3w": 0.8, "Cb3s": 0.8, "Cb3e": 0.05, // onto c3 alone
		"Ee5s": 1.5, "Ee5w": 1.5, "Ee5e": 1.5,
		"de6w": 2, "de6n": 2, "de6e": 6, // pushed; onto f6 with no friend
	}
	const end = 0.05
	for _, mirrored := range []bool{false, true} {
		pos, names := p, want
		if mirrored {
			pos = mirror(p)
			names = map[string]float64{}
			turn := engine.NewTurn(p)
			for _, s := range turn.LegalSteps(nil) {
				names[mirrorStep(s).String()] = want[s.String()]
			}
		}
		for _, canEnd := range []bool{false, true} {
			w := &worker{sr: &search{s: &Searcher{cfg: Config{Priors: Heuristic}}}}
			turn := engine.NewTurn(pos)
			w.steps = turn.LegalSteps(nil)
			got := w.priors(&turn, canEnd)
			if len(w.steps) != len(names) {
				t.Fatalf("mirrored %v: %d steps %v, want %d", mirrored, len(w.steps), w.steps, len(names))
			}
			n := len(w.steps)
			sum := 0.0
			for _, x := range names {
				sum += x
			}
			if canEnd {
				n++
				sum += end
			}
			if len(got) != n {
				t.Fatalf("mirrored %v, can end %v: %d priors, want %d", mirrored, canEnd, len(got), n)
			}
			for i, s := range w.steps {
				x, ok := names[s.String()]
				if !ok {
					t.Fatalf("mirrored %v: step %v not expected", mirrored, s)
				}
				if math.Abs(float64(got[i])-x/sum) > 1e-6 {
					t.Errorf("mirrored %v, can end %v: prior of %v %.5f, want %.5f (weight %v of %v)", mirrored, canEnd, s, got[i], x/sum, x, sum)
				}
			}
			if canEnd && math.Abs(float64(got[n-1])-end/sum) > 1e-6 {
				t.Errorf("mirrored %v: prior of ending the turn %.5f, want %.5f", mirrored, got[n-1], end/sum)
			}
		}
	}

	// Uniform priors: the same for every action.
	w := &worker{sr: &search{s: &Searcher{cfg: Config{Priors: Uniform}}}}
	turn := engine.NewTurn(p)
	w.steps = turn.LegalSteps(nil)
	got := w.priors(&turn, true)
	for i, x := range got {
		if want := 1 / float32(len(w.steps)+1); x != want {
			t.Fatalf("uniform prior %d of %d: %v, want %v", i, len(got), x, want)
		}
	}
}

// TestLearnedPriors: with learned priors a node's priors are the step
// model's (the embedded one when the config names none), and the embedded
// model, fitted on strong players' moves, puts the elephant's step forward
// first, a step onto a trap with no friend beside it far below a horse's
// step forward, and ending a turn after one step below the elephant's step.
func TestLearnedPriors(t *testing.T) {
	s, err := New(Config{Priors: Learned, Visits: 10}, materialEval{})
	if err != nil {
		t.Fatal(err)
	}
	if s.cfg.Policy == nil {
		t.Fatal("no step model with priors learned")
	}
	p := build(t, engine.Gold, "Ra1 Cc2 Ed2 Hb2 rh8 ea8")
	turn := engine.NewTurn(p)
	a1, err := engine.ParseSquare("a1")
	if err != nil {
		t.Fatal(err)
	}
	turn.Play(engine.Step{Piece: engine.MakePiece(engine.Gold, engine.Rabbit), From: a1, Dir: engine.North})
	w := &worker{sr: &search{s: s}}
	w.steps = turn.LegalSteps(nil)
	got := slices.Clone(w.priors(&turn, true))
	want := make([]float32, len(w.steps)+1)
	s.cfg.Policy.Priors(&turn, w.steps, true, want, make([]float32, policy.N))
	if !slices.Equal(got, want) {
		t.Fatalf("priors %v, want the model's %v", got, want)
	}
	prior := func(step string) float32 {
		for i, x := range w.steps {
			if x.String() == step {
				return got[i]
			}
		}
		t.Fatalf("no step %s", step)
		return 0
	}
	if suicide, plain := prior("Cc2n"), prior("Hb2n"); suicide >= plain/10 {
		t.Errorf("cat onto the unguarded trap %.4f, not a tenth of the horse's step forward %.4f", suicide, plain)
	}
	if top := slices.Max(got); prior("Ed2n") != top {
		t.Errorf("the elephant's step forward %.4f, not the first (%.4f)", prior("Ed2n"), top)
	}
	if end, plain := got[len(got)-1], prior("Ed2n"); end >= plain {
		t.Errorf("ending after one step %.4f, not below the elephant's step %.4f", end, plain)
	}
	if _, err := New(Config{Priors: "learnt"}, materialEval{}); err == nil || !strings.Contains(err.Error(), "learned") {
		t.Errorf("unknown priors: err %v", err)
	}
}

// TestGamma: draws of Gamma(alpha, 1) have mean and variance alpha, below 1
// (drawn through alpha+1) and above.
func TestGamma(t *testing.T) {
	const n = 20000
	for _, alpha := range []float64{0.03, 0.3, 1, 2.5, 10} {
		rng := rand.New(rand.NewPCG(1, uint64(alpha*100)))
		var sum, sq float64
		for range n {
			x := gamma(rng, alpha)
			if !(x >= 0) || math.IsInf(x, 0) {
				t.Fatalf("alpha %v: draw %v", alpha, x)
			}
			sum += x
			sq += x * x
		}
		mean := sum / n
		variance := sq/n - mean*mean
		// The mean's standard error is sqrt(alpha/n); the variance's is
		// about sqrt((mu4 - alpha²)/n), mu4 = 3alpha² + 6alpha.
		if se := math.Sqrt(alpha / n); math.Abs(mean-alpha) > 5*se {
			t.Errorf("alpha %v: mean %v, want %v ± %v", alpha, mean, alpha, 5*se)
		}
		if se := math.Sqrt((2*alpha*alpha + 6*alpha) / n); math.Abs(variance-alpha) > 5*se {
			t.Errorf("alpha %v: variance %v, want %v ± %v", alpha, variance, alpha, 5*se)
		}
	}
}

// TestDirichlet: draws are k shares summing to 1, each of mean 1/k and
// variance (k-1)/(k²(k alpha+1)); when every gamma draw underflows to 0 the
// shares are equal.
func TestDirichlet(t *testing.T) {
	const n, k, alpha = 5000, 4, 0.3
	rng := rand.New(rand.NewPCG(3, 4))
	var sum, sq [k]float64
	for range n {
		d := dirichlet(rng, k, alpha)
		if len(d) != k {
			t.Fatalf("%d shares, want %d", len(d), k)
		}
		total := 0.0
		for i, x := range d {
			if !(x >= 0 && x <= 1) {
				t.Fatalf("share %v", d)
			}
			total += x
			sum[i] += x
			sq[i] += x * x
		}
		if math.Abs(total-1) > 1e-12 {
			t.Fatalf("shares %v sum to %v", d, total)
		}
	}
	wantVar := float64(k-1) / (k * k * (k*alpha + 1))
	for i := range k {
		mean := sum[i] / n
		variance := sq[i]/n - mean*mean
		if se := math.Sqrt(wantVar / n); math.Abs(mean-1.0/k) > 5*se {
			t.Errorf("share %d: mean %v, want %v ± %v", i, mean, 1.0/k, 5*se)
		}
		if math.Abs(variance-wantVar) > 0.1*wantVar {
			t.Errorf("share %d: variance %v, want %v ± 10 %%", i, variance, wantVar)
		}
	}
	for _, x := range dirichlet(rng, 5, 1e-9) {
		if x != 0.2 {
			t.Fatalf("shares of underflowed draws: %v, want 1/5 each", x)
		}
	}
}
