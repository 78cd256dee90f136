package data

import (
	"io"
	"math"
	"path/filepath"
	"testing"
)

// summarize reads the shard at path batch by batch into a Summary.
func summarize(t *testing.T, path string) *Summary {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := NewSummary(r)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return s
		}
		if err != nil {
			t.Fatal(err)
		}
		c, err := ColumnsOf(rec)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(c)
	}
}

// TestSummaryOfKnownGames: two games written by hand, one won by Silver
// by goal and one unfinished at the turn limit.
func TestSummaryOfKnownGames(t *testing.T) {
	rows := testRows(5, 1)
	set := func(i int, game uint64, turn uint16, result int8, left uint16, term string, full bool) {
		r := &rows[i]
		r.GameID, r.Turn, r.Side, r.Result, r.PliesLeft, r.Termination, r.FullSearch = game, turn, uint8(turn%2), result, left, term, full
	}
	// Game 7: turns 2 to 4, the side of turn 3 (1, Silver) wins.
	set(0, 7, 2, -1, 3, "goal", true)
	set(1, 7, 3, 1, 2, "goal", false)
	set(2, 7, 4, -1, 1, "goal", true)
	// Game 9: turns 2 and 3, unfinished.
	set(3, 9, 2, 0, 2, "max-turns", false)
	set(4, 9, 3, 0, 1, "max-turns", false)
	path := writeShard(t, filepath.Join(t.TempDir(), "s.arrow"), testMeta(0), WriterOptions{BatchRows: 2}, rows)
	s := summarize(t, path)
	want := []GameSummary{
		{ID: 7, Rows: 3, Length: 3, Winner: 1, Termination: "goal"},
		{ID: 9, Rows: 2, Length: 2, Winner: -1, Termination: "max-turns"},
	}
	if len(s.Games) != len(want) {
		t.Fatalf("%d games, want %d", len(s.Games), len(want))
	}
	for i := range want {
		if s.Games[i] != want[i] {
			t.Errorf("game %d: %+v, want %+v", i, s.Games[i], want[i])
		}
	}
	if s.Rows != 5 || s.FullSearch != 2 || s.Shards != 1 {
		t.Errorf("rows %d, full searches %d, shards %d; want 5, 2, 1", s.Rows, s.FullSearch, s.Shards)
	}
	if g, sv, u := s.Results(); g != 0 || sv != 1 || u != 1 {
		t.Errorf("results %d, %d, %d; want 0, 1, 1", g, sv, u)
	}
	if n := s.Terminations(); n["goal"] != 1 || n["max-turns"] != 1 || len(n) != 2 {
		t.Errorf("terminations %v", n)
	}
}

// TestSummaryMatchesRows: over many games read in small batches, the
// summary's figures are those of the rows written.
func TestSummaryMatchesRows(t *testing.T) {
	for _, batch := range []int{1, 7, 4096} {
		rows := testRows(300, 5)
		path := writeShard(t, filepath.Join(t.TempDir(), "s.arrow"), testMeta(0), WriterOptions{BatchRows: batch}, rows)
		s := summarize(t, path)
		var full int64
		sums := make([]float64, len(rows[0].Features))
		games := map[uint64]int{}
		for _, r := range rows {
			if r.FullSearch {
				full++
			}
			for k, v := range r.Features {
				sums[k] += float64(v)
			}
			games[r.GameID]++
		}
		if s.Rows != int64(len(rows)) || s.FullSearch != full || len(s.Games) != len(games) {
			t.Fatalf("batch %d: rows %d, full %d, games %d; want %d, %d, %d", batch, s.Rows, s.FullSearch, len(s.Games), len(rows), full, len(games))
		}
		for _, g := range s.Games {
			if g.Rows != games[g.ID] {
				t.Errorf("batch %d: game %d has %d rows, want %d", batch, g.ID, g.Rows, games[g.ID])
			}
		}
		for k := range sums {
			if math.Abs(s.FeatureSums[k]-sums[k]) > 1e-6*math.Max(1, math.Abs(sums[k])) {
				t.Errorf("batch %d: feature %d sums to %v, want %v", batch, k, s.FeatureSums[k], sums[k])
			}
		}
	}
}
