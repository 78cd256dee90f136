package selfplay

import (
	"math/rand/v2"

	"github.com/arimaalab/arimaalab/engine"
)

// standardSetup lists Gold's standard setup (the pieces in front of the rabbits)
// from a1 to h2: rank 1 rabbits, rank 2 pieces.
var standardSetup = [16]engine.PieceType{
	engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit, engine.Rabbit,
	engine.Horse, engine.Dog, engine.Cat, engine.Camel, engine.Elephant, engine.Cat, engine.Dog, engine.Horse,
}

// drawSetup returns a setup for side c: with probability randomShare a uniformly
// random arrangement of the 16 pieces on c's two home ranks, otherwise the
// standard setup with swaps random exchanges of two squares.
func drawSetup(rng *rand.Rand, c engine.Color, randomShare float64, swaps int) []engine.Placement {
	types := standardSetup
	if rng.Float64() < randomShare {
		rng.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	} else {
		for range swaps {
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
