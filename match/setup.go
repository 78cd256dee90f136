package match

import (
	"math/rand/v2"

	"github.com/arimaalab/arimaalab/engine"
)

// standardSetup lists Gold's standard setup (the pieces in front of the
// rabbits) from a1 to h2: rank 1 rabbits, rank 2 pieces.
var standardSetup = [16]engine.PieceType{
	engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit,
	engine.Horse, engine.Dog, engine.Cat, engine.Camel, engine.Elephant, engine.Cat, engine.Dog, engine.Horse,
}

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
	return [2][]engine.Placement{drawSetup(rng, engine.Gold, c), drawSetup(rng, engine.Silver, c)}
}

// drawSetup returns a setup for side c.
func drawSetup(rng *rand.Rand, c engine.Color, cfg SetupConfig) []engine.Placement {
	types := standardSetup
	if rng.Float64() < cfg.RandomShare {
		rng.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	} else {
		for range cfg.Swaps {
			i, j := rng.IntN(16), rng.IntN(16)
			types[i], types[j] = types[j], types[i]
		}
	}
	out := make([]engine.Placement, 16)
	for i, t := range types {
		file, rank := i%8, i/8 // Gold: rank 1 then rank 2
		if c == engine.Silver {
			rank = 7 - rank // Silver: rank 8 then rank 7, mirrored
		}
		out[i] = engine.Placement{Piece: engine.MakePiece(c, t), Square: engine.MakeSquare(file, rank)}
	}
	return out
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
