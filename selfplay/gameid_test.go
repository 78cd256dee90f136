package selfplay

import "testing"

// TestGameID: a game id is 24 bits of the run seed, 20 of shard and 20 of
// game index. The seed's bits are pinned: a run resumed by a later build
// must give its new shards' games the ids the same seed gave before, or the
// ids of one run would no longer tell its games apart from another's. Runs of
// different seeds get different top bits (here for seeds 0 to 999).
func TestGameID(t *testing.T) {
	for _, c := range []struct {
		seed         uint64
		shard, index int
		want         uint64
	}{
		{0, 0, 0, 0x38bc950000000000},
		{0, 3, 17, 0x38bc950000300011},
		{1, 0, 0, 0xbb767a0000000000},
		{42, 0, 0, 0xb15d780000000000},
		{1<<63 + 5, 3, 17, 0x520ffe0000300011},
		{42, 1<<20 - 1, 1<<20 - 1, 0xb15d78ffffffffff},
	} {
		if got := gameID(c.seed, c.shard, c.index); got != c.want {
			t.Errorf("gameID(%d, %d, %d) = %#x, want %#x", c.seed, c.shard, c.index, got, c.want)
		}
	}
	seen := map[uint64]uint64{}
	for seed := range uint64(1000) {
		top := gameID(seed, 0, 0) >> 40
		if other, ok := seen[top]; ok {
			t.Errorf("seeds %d and %d share the id bits %#x", other, seed, top)
		}
		seen[top] = seed
	}
}
