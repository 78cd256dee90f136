package engine

// The move generator tells positions apart by a 120-bit signature that is exact,
// not probabilistic, for the positions it compares.
//
// Every position it meets is reached from the same root in at most 4 steps, and
// each step changes at most 3 (piece, square) entries of the board: the piece
// leaves one square, enters another, and perhaps one piece is captured. So a
// position differs from the root in at most 12 entries, and two of them differ
// from each other in at most 24. The signature of a position is the XOR of one
// key per entry in which it differs from the root. Two positions have the same
// signature exactly when the keys of the entries in which they differ XOR to
// zero; if any 24 keys are linearly independent over GF(2), that happens only
// when they do not differ at all.
//
// The keys are the columns of the parity-check matrix of a binary BCH code of
// length 1023 with designed distance 25 (t = 12): for column i, the 12 field
// elements a^i, a^3i, ..., a^23i of GF(2^10), 10 bits each. By the BCH bound
// every 24 columns of that matrix are linearly independent.

// sig is a 120-bit signature; the top 8 bits of hi are free (the table keeps a stamp there).
type sig struct{ lo, hi uint64 }

func (s sig) xor(t sig) sig { return sig{s.lo ^ t.lo, s.hi ^ t.hi} }

// gfPoly is x^10 + x^3 + 1, a primitive polynomial over GF(2).
const gfPoly = 1<<10 | 1<<3 | 1

// gfExp returns the table of a^e for e in [0, 1023), a a root of gfPoly.
func gfExp() []uint16 {
	t := make([]uint16, 1023)
	x := uint16(1)
	for e := range t {
		t[e] = x
		x <<= 1
		if x&(1<<10) != 0 {
			x ^= gfPoly
		}
	}
	return t
}

// bchKeys[pc][sq] is the signature key of piece pc on square sq.
var bchKeys = func() (k [12][64]sig) {
	exp := gfExp()
	for pc := range 12 {
		for sq := range 64 {
			i := pc*64 + sq + 1 // column 1..768 of the code
			var s sig
			for j := range 12 {
				v := uint64(exp[(2*j+1)*i%1023])
				bit := 10 * j
				if bit < 64 {
					s.lo |= v << bit
					if bit+10 > 64 {
						s.hi |= v >> (64 - bit)
					}
				} else {
					s.hi |= v << (bit - 64)
				}
			}
			k[pc][sq] = s
		}
	}
	return k
}()
