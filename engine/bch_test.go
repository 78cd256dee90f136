package engine

import (
	"math/rand/v2"
	"testing"
)

func TestGFPolyPrimitive(t *testing.T) {
	exp := gfExp()
	seen := make(map[uint16]bool, len(exp))
	for e, v := range exp {
		if v == 0 || v >= 1<<10 {
			t.Fatalf("a^%d = %d is not a nonzero element of GF(2^10)", e, v)
		}
		if seen[v] {
			t.Fatalf("a^%d repeats an earlier power: x^10+x^3+1 is not primitive", e)
		}
		seen[v] = true
	}
}

func TestBCHKeys(t *testing.T) {
	seen := map[sig]bool{}
	for pc := range 12 {
		for sq := range 64 {
			k := bchKeys[pc][sq]
			if k.hi>>stampShift != 0 {
				t.Fatalf("key %d/%d uses the stamp byte", pc, sq)
			}
			if k == (sig{}) || seen[k] {
				t.Fatalf("key %d/%d is zero or repeated", pc, sq)
			}
			seen[k] = true
		}
	}
	// Any 24 keys are independent: random subsets of up to 24 never XOR to zero.
	// (The BCH bound proves it; this checks the construction.)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		n := 1 + rng.IntN(24)
		var s sig
		used := map[int]bool{}
		for len(used) < n {
			i := rng.IntN(768)
			if used[i] {
				continue
			}
			used[i] = true
			s = s.xor(bchKeys[i/64][i%64])
		}
		if s == (sig{}) {
			t.Fatalf("%d keys XOR to zero", n)
		}
	}
	// Exhaustively for small sets: no two distinct pairs XOR alike and no pair
	// XORs to a key, so every 4 keys are independent.
	pairs := make(map[sig]int, 768*767/2)
	for i := range 768 {
		for j := i + 1; j < 768; j++ {
			s := bchKeys[i/64][i%64].xor(bchKeys[j/64][j%64])
			if seen[s] {
				t.Fatalf("keys %d and %d XOR to a third key", i, j)
			}
			if k, ok := pairs[s]; ok {
				t.Fatalf("pairs %d and %d/%d XOR alike", k, i, j)
			}
			pairs[s] = i*768 + j
		}
	}
}
