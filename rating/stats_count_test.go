package rating

import (
	"math"
	"testing"
)

// TestStatsCounts: games, pairs, points and the pentanomial counts of a
// tally in which every count differs, so that each enters with its own weight.
func TestStatsCounts(t *testing.T) {
	s := Stats{Wins: 7, Losses: 3, Draws: 5, LL: 1, LD: 2, WL: 3, DD: 4, WD: 5, WW: 6}
	if got := s.Games(); got != 15 {
		t.Errorf("Games() = %d, want 15", got)
	}
	if got := s.Pairs(); got != 21 {
		t.Errorf("Pairs() = %d, want 21", got)
	}
	if got := s.Points(); got != 9.5 {
		t.Errorf("Points() = %v, want 9.5", got)
	}
	if got, want := s.Ptnml(), [5]int{1, 2, 7, 5, 6}; got != want {
		t.Errorf("Ptnml() = %v, want %v", got, want)
	}
	var z Stats
	for _, score := range []float64{1, 1, 0, 0.5, 1, 0} {
		z.AddGame(score)
	}
	if z.Wins != 3 || z.Losses != 2 || z.Draws != 1 {
		t.Errorf("AddGame: W/L/D %d/%d/%d, want 3/2/1", z.Wins, z.Losses, z.Draws)
	}
}

// TestEstimateZeroSpread: samples whose every unit scores the same have no
// spread; the Elo is that of the score (infinite at the ends) and the LOS
// 0, 1/2 or 1.
func TestEstimateZeroSpread(t *testing.T) {
	for _, c := range []struct {
		e        Estimate
		elo, los float64
	}{
		{Stats{Losses: 4, LL: 2}.Pentanomial(), math.Inf(-1), 0},
		{Stats{Losses: 3}.Trinomial(), math.Inf(-1), 0},
		{Stats{Wins: 3}.Trinomial(), math.Inf(1), 1},
		{Stats{Draws: 6, DD: 3}.Pentanomial(), 0, 0.5},
		{Stats{Draws: 5}.Trinomial(), 0, 0.5},
	} {
		if c.e.Elo != c.elo || c.e.LOS != c.los || c.e.Variance != 0 {
			t.Errorf("%+v: Elo %v, LOS %v; want %v, %v", c.e, c.e.Elo, c.e.LOS, c.elo, c.los)
		}
	}
	for _, c := range []struct{ score, elo float64 }{{0, math.Inf(-1)}, {-0.5, math.Inf(-1)}, {1, math.Inf(1)}, {1.5, math.Inf(1)}} {
		if got := ScoreToElo(c.score); got != c.elo {
			t.Errorf("ScoreToElo(%v) = %v, want %v", c.score, got, c.elo)
		}
	}
}
