package match

import (
	"math/rand/v2"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/setup"
)

// SetupConfig says how the setups of a match are drawn: a share are uniformly
// random arrangements of the 16 pieces on the home ranks, the rest the standard
// setup with a few random exchanges of two squares (as self-play draws them).
type SetupConfig struct {
	// RandomShare is the probability of a random arrangement.
	RandomShare float64 `json:"random_share"`
	// Swaps is the number of random exchanges of a perturbed standard setup.
	Swaps int `json:"swaps"`
}

// DefaultSetups returns the default setup distribution: half random
// arrangements, half standard setups with three swaps.
func DefaultSetups() SetupConfig { return SetupConfig{RandomShare: 0.5, Swaps: 3} }

// drawSetups returns the setups of game pair k: Gold's and Silver's, drawn
// from the match seed and k alone.
func drawSetups(c SetupConfig, seed uint64, pairing, k int) [2][]engine.Placement {
	rng := rand.New(rand.NewPCG(mix(seed, 0x5e7f, uint64(pairing)), uint64(k)))
	return [2][]engine.Placement{setup.Draw(rng, engine.Gold, c.RandomShare, c.Swaps), setup.Draw(rng, engine.Silver, c.RandomShare, c.Swaps)}
}

// mix hashes a few numbers into a seed (SplitMix64 steps).
func mix(xs ...uint64) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, x := range xs {
		h ^= x
		h += 0x9E3779B97F4A7C15
		h = (h ^ h>>30) * 0xBF58476D1CE4E5B9
		h = (h ^ h>>27) * 0x94D049BB133111EB
		h ^= h >> 31
	}
	return h
}
