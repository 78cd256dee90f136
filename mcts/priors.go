package mcts

import (
	"math"
	"math/rand/v2"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/policy"
)

// Heuristic prior weights, before normalisation.
const (
	priorEnd        = 0.05 // ending the turn with steps left: full turns are nearly always better
	priorEnemy      = 2.0  // moving an enemy piece: half of a push or pull
	priorEnemyTrap  = 6.0  // moving an enemy piece onto a trap it cannot hold
	priorSuicide    = 0.05 // stepping onto a trap with no friend beside it
	priorRabbitStep = 0.3  // added per rank a rabbit has already advanced
)

// priorStrength weighs own steps by the piece's type: strong pieces move usefully more often.
var priorStrength = [engine.NumTypes]float32{engine.Rabbit: 0.8, engine.Cat: 0.8, engine.Dog: 0.9, engine.Horse: 1.1, engine.Camel: 1.3, engine.Elephant: 1.5}

// priors returns the normalised priors of w.steps, then ending the turn when canEnd.
func (w *worker) priors(turn *engine.Turn, canEnd bool) []float32 {
	n := len(w.steps)
	if canEnd {
		n++
	}
	out := w.priorBuf(n)
	switch w.sr.s.cfg.Priors {
	case Uniform:
		for i := range out {
			out[i] = 1 / float32(n)
		}
		return out
	case Learned:
		if len(w.features) < policy.N {
			w.features = make([]float32, policy.N)
		}
		w.sr.s.cfg.Policy.Priors(turn, w.steps, canEnd, out, w.features)
		return out
	}
	p := &turn.Pos
	side := p.Side
	var sum float32
	for i, s := range w.steps {
		to := s.To()
		var x float32
		if s.Piece.Color() == side {
			x = priorStrength[s.Piece.Type()]
			if s.Piece.Type() == engine.Rabbit {
				adv := s.From.Rank()
				if side == engine.Silver {
					adv = 7 - adv
				}
				if s.Dir == engine.North && side == engine.Gold || s.Dir == engine.South && side == engine.Silver {
					x += priorRabbitStep * float32(adv)
				}
			}
			if engine.Traps.Has(to) && p.Occ[side]&to.Bit().Neighbors()&^s.From.Bit() == 0 {
				x = priorSuicide
			}
		} else {
			x = priorEnemy
			o := s.Piece.Color()
			if engine.Traps.Has(to) && p.Occ[o]&to.Bit().Neighbors()&^s.From.Bit() == 0 {
				x = priorEnemyTrap
			}
		}
		out[i] = x
		sum += x
	}
	if canEnd {
		out[n-1] = priorEnd
		sum += priorEnd
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

func (w *worker) priorBuf(n int) []float32 {
	if cap(w.prior) < n {
		w.prior = make([]float32, n, 2*n)
	}
	return w.prior[:n]
}

// dirichlet draws k values from a symmetric Dirichlet distribution with parameter alpha.
func dirichlet(rng *rand.Rand, k int, alpha float64) []float64 {
	out := make([]float64, k)
	var sum float64
	for i := range out {
		out[i] = gamma(rng, alpha)
		sum += out[i]
	}
	if sum == 0 {
		for i := range out {
			out[i] = 1 / float64(k)
		}
		return out
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// gamma draws from Gamma(alpha, 1) by the method of Marsaglia and Tsang (2000);
// for alpha < 1 it draws Gamma(alpha+1) and scales by U^(1/alpha).
func gamma(rng *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		u := rng.Float64()
		return gamma(rng, alpha+1) * math.Pow(u, 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
