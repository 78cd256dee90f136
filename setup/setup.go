// Package setup draws Arimaa setups from seeded distributions, for self-play and
// matches: random arrangements of the 16 pieces and perturbed standard setups.
package setup

import (
	"math/rand/v2"

	"github.com/arimaalab/arimaalab/engine"
)

// standard lists Gold's standard setup (the pieces in front of the rabbits)
// from a1 to h2: rank 1 rabbits, rank 2 pieces.
var standard = [16]engine.PieceType{
	engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit,
	engine.Horse, engine.Dog, engine.Cat, engine.Camel, engine.Elephant, engine.Cat, engine.Dog, engine.Horse,
}

// Standard returns the standard setup of side c: the pieces in front of the
// rabbits, Gold's elephant on e2 and camel on d2, Silver's setup the same turned
// half round (elephant d7, camel e7).
func Standard(c engine.Color) []engine.Placement { return place(c, standard) }

// Draw returns a setup for side c: with probability randomShare a uniformly
// random arrangement of the 16 pieces on c's two home ranks, otherwise the
// standard setup with swaps random exchanges of two squares.
func Draw(rng *rand.Rand, c engine.Color, randomShare float64, swaps int) []engine.Placement {
	types := standard
	if rng.Float64() < randomShare {
		rng.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	} else {
		for range swaps {
			i, j := rng.IntN(16), rng.IntN(16)
			types[i], types[j] = types[j], types[i]
		}
	}
	return place(c, types)
}

// place puts the types on c's home ranks, a1 to h2 for Gold, h8 to a7 for Silver.
func place(c engine.Color, types [16]engine.PieceType) []engine.Placement {
	out := make([]engine.Placement, 16)
	for i, t := range types {
		file, rank := i%8, i/8 // Gold: rank 1 then rank 2
		if c == engine.Silver {
			file, rank = 7-file, 7-rank // Silver: Gold's setup turned half round
		}
		out[i] = engine.Placement{Piece: engine.MakePiece(c, t), Square: engine.MakeSquare(file, rank)}
	}
	return out
}
