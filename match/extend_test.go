package match

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/rating"
)

func randoms(n int) []Player {
	var ps []Player
	for i := range n {
		ps = append(ps, NewRandomPlayer("r"+string(rune('0'+i))))
	}
	return ps
}

// TestPoolExtend grows a finished pool of four players by a fifth: only the
// four new pairings are played, the earlier results stay as they were, and
// the games are those of the five played in one go.
func TestPoolExtend(t *testing.T) {
	opt := PoolOptions{GamesPerPair: 2, Seed: 3, MaxTurns: 24, Setups: DefaultSetups(), Concurrency: 2, Fit: rating.FitOptions{Prior: 1}}

	whole := opt
	whole.Out = t.TempDir()
	if _, err := RunPool(context.Background(), randoms(5), whole); err != nil {
		t.Fatal(err)
	}

	grown := opt
	grown.Out = t.TempDir()
	first, err := RunPool(context.Background(), randoms(4), grown)
	if err != nil {
		t.Fatal(err)
	}
	if first.Games != 12 {
		t.Fatalf("four players played %d games, want 12", first.Games)
	}
	before, err := os.ReadFile(filepath.Join(grown.Out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}

	grown.Resume = true
	if _, err := RunPool(context.Background(), randoms(5), grown); err == nil || !strings.Contains(err.Error(), `["r4"] are new`) {
		t.Fatalf("a new player without Extend: %v, want a refusal naming r4", err)
	}
	if _, err := RunPool(context.Background(), randoms(3), grown); err == nil || !strings.Contains(err.Error(), `"r3" played the earlier games`) {
		t.Fatalf("a player dropped: %v, want a refusal naming r3", err)
	}
	grown.Extend = true
	played := 0
	grown.Progress = func(int, int, GameResult) { played++ }
	res, err := RunPool(context.Background(), randoms(5), grown)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 12 || played != 8 || res.Games != 20 {
		t.Errorf("extended pool: %d resumed, %d played, %d in all; want 12, 8, 20", res.Resumed, played, res.Games)
	}
	after, err := os.ReadFile(filepath.Join(grown.Out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(after), string(before)) {
		t.Error("the earlier results changed")
	}
	got, want := readResults(t, grown.Out), readResults(t, whole.Out)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("extended pool's results differ from the whole pool's:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(readGames(t, grown.Out)); n != 20 {
		t.Errorf("%d game records, want 20", n)
	}
	// Resuming the extended pool plays nothing more, players in any order.
	ps := randoms(5)
	slices.Reverse(ps)
	again, err := RunPool(context.Background(), ps, grown)
	if err != nil || again.Resumed != 20 || again.Games != 20 {
		t.Errorf("resumed extended pool: %v, %d resumed of %d", err, again.Resumed, again.Games)
	}
}

func TestPairingOrders(t *testing.T) {
	tests := []struct {
		name string
		got  [][2]int
		want [][2]int
	}{
		{"join 4", joinOrder(4, 0, -1), [][2]int{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}}},
		{"join 4 after 3", joinOrder(4, 3, -1), [][2]int{{0, 3}, {1, 3}, {2, 3}}},
		{"gauntlet 2 of 4", joinOrder(4, 0, 2), [][2]int{{2, 0}, {2, 1}, {2, 3}}},
		{"gauntlet after 3", joinOrder(5, 3, 2), [][2]int{{2, 3}, {2, 4}}},
		{"legacy 4", legacyOrder(4, -1), [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
		{"legacy gauntlet", legacyOrder(3, 2), [][2]int{{2, 0}, {2, 1}}},
	}
	for _, tc := range tests {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// TestPoolLegacyOrder resumes and extends a pool whose pool.json predates
// the list of pairings: its games were numbered row by row.
func TestPoolLegacyOrder(t *testing.T) {
	out := t.TempDir()
	opt := PoolOptions{GamesPerPair: 2, Seed: 3, MaxTurns: 16, Setups: DefaultSetups(), Out: out, Fit: rating.FitOptions{Prior: 1}}
	if _, err := RunPool(context.Background(), randoms(4), opt); err != nil {
		t.Fatal(err)
	}
	// Rewrite the pool as the earlier code wrote it: pairings numbered row
	// by row, and no list of them.
	meta, err := os.ReadFile(filepath.Join(out, "pool.json"))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(string(meta), `  "pairings"`)
	end := strings.Index(string(meta)[cut:], "]\n  ],\n") + cut + len("]\n  ],\n")
	os.WriteFile(filepath.Join(out, "pool.json"), []byte(string(meta)[:cut]+string(meta)[end:]), 0o644)
	// join order {0,1},{0,2},{1,2},{0,3},... -> row order {0,1},{0,2},{0,3},{1,2},...
	toRow := map[string]string{`"pairing":2,`: `"pairing":3,`, `"pairing":3,`: `"pairing":2,`}
	data, _ := os.ReadFile(filepath.Join(out, ResultsFile))
	var lines []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		for from, to := range toRow {
			if strings.HasPrefix(l, "{"+from) {
				l = strings.Replace(l, from, to, 1)
				break
			}
		}
		lines = append(lines, l)
	}
	os.WriteFile(filepath.Join(out, ResultsFile), []byte(strings.Join(lines, "")), 0o644)

	opt.Resume, opt.Extend = true, true
	res, err := RunPool(context.Background(), randoms(5), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 12 || res.Games != 20 {
		t.Fatalf("%d resumed, %d games; want 12 and 20", res.Resumed, res.Games)
	}
	var names []string
	for _, p := range res.Pairings {
		names = append(names, p.A+"-"+p.B)
	}
	want := []string{"r0-r1", "r0-r2", "r0-r3", "r1-r2", "r1-r3", "r2-r3", "r0-r4", "r1-r4", "r2-r4", "r3-r4"}
	if !slices.Equal(names, want) {
		t.Errorf("pairings %v, want %v", names, want)
	}
}
