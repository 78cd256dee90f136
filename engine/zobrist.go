package engine

// zobrist holds the hashing keys: one per piece and square, and one for Silver to move.
// The keys are fixed: a given position hashes the same in every run and build.
type zobristKeys struct {
	piece  [12][64]uint64
	silver uint64
}

var zobrist = func() *zobristKeys {
	z := new(zobristKeys)
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		x := s
		x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
		x = (x ^ x>>27) * 0x94D049BB133111EB
		return x ^ x>>31
	}
	for p := range z.piece {
		for sq := range z.piece[p] {
			z.piece[p][sq] = next()
		}
	}
	z.silver = next()
	return z
}()
