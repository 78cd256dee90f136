package pipeline

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
)

// saveGen0 writes the generation-0 weights to path, with the sign of every
// weight flipped when losing: a player that gives its pieces away.
func saveGen0(t *testing.T, path string, losing bool) string {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	if losing {
		// Every weight turned round: an evaluation that seeks what
		// generation 0 avoids (losing material, letting rabbits through).
		flipped := 0
		for i := range w.Values {
			w.Values[i] = -w.Values[i]
			if w.Values[i] != 0 {
				flipped++
			}
		}
		if flipped == 0 {
			t.Fatal("generation 0 has no weight to flip")
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := w.Save(path); err != nil {
		t.Fatal(err)
	}
	return w.Hash()
}

// TestGateDecides plays the gate of generation 1 twice: a candidate that
// gives its material away against generation 0, which must be rejected, and
// generation 0 as the candidate against that player as the best, which must
// be promoted. The best weights of generation 1 are those the decision
// names. At 100 simulations a move, generation 0 won all 8 games (4 each
// way), so a promotion decided by the games cannot go the wrong way by
// chance.
func TestGateDecides(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two gates of 4 games")
	}
	for _, tc := range []struct {
		name      string
		candLoses bool
		promoted  bool
		best      int
	}{
		{"a losing candidate is rejected", true, false, 0},
		{"a winning candidate is promoted", false, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := tiny(t, dir)
			c.Gate.Games, c.Gate.MaxTurns, c.Gate.Search.Visits = 4, 80, 100
			prev := saveGen0(t, filepath.Join(genDir(dir, 0), "weights.json"), !tc.candLoses)
			cand := saveGen0(t, filepath.Join(genDir(dir, 1), "candidate.json"), tc.candLoses)
			d, err := gateStage(context.Background(), c, 1, 2, slog.New(slog.DiscardHandler), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("candidate: %d wins, %d losses, %d draws, score %.3f, promoted %v", d.Wins, d.Losses, d.Draws, d.Score, d.Promoted)
			if d.Games != c.Gate.Games || d.Wins+d.Losses+d.Draws != d.Games {
				t.Errorf("decision of %d games (%d wins, %d losses, %d draws), want %d", d.Games, d.Wins, d.Losses, d.Draws, c.Gate.Games)
			}
			if d.Promoted != tc.promoted || d.Best != tc.best {
				t.Errorf("promoted %v, best %d; want %v, %d (score %.3f)", d.Promoted, d.Best, tc.promoted, tc.best, d.Score)
			}
			if (d.Score > c.Gate.PromoteScore) != tc.promoted {
				t.Errorf("score %.3f against promote_score %v: the games do not show the expected winner", d.Score, c.Gate.PromoteScore)
			}
			var saved Decision
			if err := readJSON(filepath.Join(genDir(dir, 1), "decision.json"), &saved); err != nil || saved != d {
				t.Errorf("decision.json: %+v, %v; want %+v", saved, err, d)
			}
			best, err := loadWeights(filepath.Join(genDir(dir, 1), "weights.json"))
			if err != nil {
				t.Fatal(err)
			}
			want := prev
			if tc.promoted {
				want = cand
			}
			if best.Hash() != want {
				t.Errorf("generation 1's best weights are not the %s's", map[bool]string{true: "candidate", false: "previous best"}[tc.promoted])
			}
		})
	}
}
