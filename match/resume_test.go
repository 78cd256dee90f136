package match

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestGamesFileFollowsResults: the games file holds one record for each line
// of the results file and no other, whatever happened to the results file
// between runs (deleted or emptied by hand, or a fresh run into a directory
// holding an old games file).
func TestGamesFileFollowsResults(t *testing.T) {
	a, b := player(t, "gen0,visits=8"), player(t, "gen0,visits=4")
	tests := []struct {
		name   string
		damage func(dir string) error // done to the output of a finished match
		resume bool
	}{
		{"results deleted, resumed", func(dir string) error { return os.Remove(filepath.Join(dir, ResultsFile)) }, true},
		{"results deleted, run again", func(dir string) error { return os.Remove(filepath.Join(dir, ResultsFile)) }, false},
		{"results emptied, resumed", func(dir string) error { return os.Truncate(filepath.Join(dir, ResultsFile), 0) }, true},
		{"results cut to one game", func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, ResultsFile))
			if err != nil {
				return err
			}
			var first []byte
			for i, c := range b {
				if c == '\n' {
					first = b[:i+1]
					break
				}
			}
			return os.WriteFile(filepath.Join(dir, ResultsFile), first, 0o644)
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Games: 4, Seed: 3, MaxTurns: 12, Setups: DefaultSetups(), Concurrency: 2, Out: t.TempDir()}
			if _, err := Run(context.Background(), a, b, opt); err != nil {
				t.Fatal(err)
			}
			if err := tc.damage(opt.Out); err != nil {
				t.Fatal(err)
			}
			opt.Resume = tc.resume
			res, err := Run(context.Background(), a, b, opt)
			if err != nil {
				t.Fatal(err)
			}
			results := readResults(t, opt.Out)
			games := readGames(t, opt.Out)
			if len(results) != opt.Games || len(games) != opt.Games {
				t.Fatalf("%d results and %d game records after the rerun (%d resumed), want %d of each", len(results), len(games), res.Resumed, opt.Games)
			}
			ids := map[string]bool{}
			for _, l := range results {
				var g GameResult
				if err := json.Unmarshal([]byte(l), &g); err != nil {
					t.Fatal(err)
				}
				ids[g.ID] = true
			}
			for i, rec := range games {
				if !ids[rec.ID] || (i > 0 && games[i-1].ID == rec.ID) {
					t.Errorf("game record %s: a duplicate, or not in the results", rec.ID)
				}
			}
		})
	}
}
