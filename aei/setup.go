package aei

import (
	"math/rand/v2"

	"github.com/arimaalab/arimaalab/engine"
)

// drawSetup returns a setup for side c in notation: the eight rabbits on the
// home rank and the other pieces in front of them, the elephant on the d or e
// file, the camel beside the centre (files c to f), a horse on each wing (b or
// c, f or g) and the cats and dogs on the squares left, drawn with rng.
func drawSetup(c engine.Color, rng *rand.Rand) string {
	const (
		a = iota
		b
		cf // the c file
		d
		e
		f
		g
		h
	)
	var front [8]engine.PieceType
	var used [8]bool
	put := func(file int, t engine.PieceType) {
		front[file] = t
		used[file] = true
	}
	free := func(files ...int) []int {
		var out []int
		for _, x := range files {
			if !used[x] {
				out = append(out, x)
			}
		}
		return out
	}
	pick := func(files []int) int { return files[rng.IntN(len(files))] }

	put(pick([]int{d, e}), engine.Elephant)
	put(pick(free(cf, d, e, f)), engine.Camel)
	put(pick(free(b, cf)), engine.Horse)
	put(pick(free(f, g)), engine.Horse)
	rest := free(a, b, cf, d, e, f, g, h)
	small := []engine.PieceType{engine.Cat, engine.Cat, engine.Dog, engine.Dog}
	rng.Shuffle(len(small), func(i, j int) { small[i], small[j] = small[j], small[i] })
	for i, x := range rest {
		put(x, small[i])
	}

	frontRank, backRank := 1, 0
	if c == engine.Silver {
		frontRank, backRank = 6, 7
	}
	pls := make([]engine.Placement, 0, 16)
	for file, t := range front {
		pls = append(pls, engine.Placement{Piece: engine.MakePiece(c, t), Square: engine.MakeSquare(file, frontRank)})
	}
	for file := range 8 {
		pls = append(pls, engine.Placement{Piece: engine.MakePiece(c, engine.Rabbit), Square: engine.MakeSquare(file, backRank)})
	}
	return engine.FormatSetup(pls)
}
