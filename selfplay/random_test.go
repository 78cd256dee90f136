package selfplay

import (
	"math"
	"testing"

	"github.com/arimaalab/arimaalab/data"
)

func TestTemperatureSchedule(t *testing.T) {
	c := Config{TemperatureStart: 1, TemperatureEnd: 0.2, TemperatureHalfLife: 6, TemperatureCutoff: 30}
	tests := []struct {
		plies int
		want  float64
	}{
		{0, 1},
		{6, 0.6},  // one half-life: half way from start to end
		{12, 0.4}, // two
		{29, 0.2 + 0.8*math.Pow(0.5, 29.0/6)},
		{30, 0}, // the cutoff: the most visited move
		{200, 0},
	}
	for _, tc := range tests {
		if got := c.temperature(tc.plies); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("temperature after %d plies: %v, want %v", tc.plies, got, tc.want)
		}
	}
	c.TemperatureCutoff = 0
	if got := c.temperature(0); got != 0 {
		t.Errorf("temperature with cutoff 0: %v, want 0 from the first ply", got)
	}
}

// randomRows plays a small self-play run of c and returns its rows, each
// with its ply in the game (0 for the first move after the setups).
func randomRows(t *testing.T, c Config) ([]data.Row, []int) {
	t.Helper()
	dir := t.TempDir()
	run(t, c, dir, -1, 2)
	_, n, _ := Plan(c, 0, 0)
	var rows []data.Row
	var plies []int
	for i := range n {
		rs, err := data.ReadRows(ShardPath(dir, i))
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range rs {
			k := 0
			if j > 0 && rs[j-1].GameID == r.GameID {
				k = plies[len(plies)-1] + 1
			}
			rows = append(rows, r)
			plies = append(plies, k)
		}
	}
	return rows, plies
}

// TestMoveTemperature: before the cutoff, self-play draws its move among
// the searched ones with the schedule's temperature, as mcts.Result.Sample
// does. The rows keep the searched moves and their visits (the policy), so
// the share of the most visited move's visits that the move played had can
// be compared with what draws at the schedule's temperature give: within 4
// standard deviations. A move always the most visited (temperature 0) is
// far outside.
func TestMoveTemperature(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 8 games (20 s under the race detector)")
	}
	c := testConfig(t)
	c.Games, c.GamesPerShard, c.MaxTurns = 8, 4, 8
	c.Search.Visits, c.CheapVisits = 200, 100
	c.TemperatureStart, c.TemperatureEnd, c.TemperatureHalfLife, c.TemperatureCutoff = 4, 1, 4, 12
	// The schedule, as docs/selfplay.md gives it: from start to end with
	// the half-life, 0 from the cutoff.
	schedule := func(plies int) float64 {
		if plies >= c.TemperatureCutoff {
			return 0
		}
		return c.TemperatureEnd + (c.TemperatureStart-c.TemperatureEnd)*math.Pow(0.5, float64(plies)/c.TemperatureHalfLife)
	}
	rows, plies := randomRows(t, c)
	var n int
	var got, want, variance, greedy float64
	for i, r := range rows {
		temp := schedule(plies[i])
		if temp == 0 || len(r.Policy) < 2 || r.RootValue == 1 {
			continue // no draw: one move listed, or a proven win
		}
		top := float64(r.Policy[0].Visits)
		var sum, mean, sq float64
		played := -1.0
		for _, p := range r.Policy {
			top = max(top, float64(p.Visits))
			sum += math.Pow(float64(p.Visits), 1/temp)
		}
		if sum == 0 {
			continue
		}
		for _, p := range r.Policy {
			x := float64(p.Visits) / top
			w := math.Pow(float64(p.Visits), 1/temp) / sum
			mean += w * x
			sq += w * x * x
			if p.Move == r.Move {
				played = x
			}
		}
		if played < 0 {
			t.Fatalf("row %d: move %q not among the searched %v", i, r.Move, r.Policy)
		}
		n++
		got += played
		want += mean
		variance += sq - mean*mean
		greedy++ // the most visited move scores 1
	}
	sd := math.Sqrt(variance)
	t.Logf("%d rows drew a move: the visits of the move played over those of the most visited sum to %.1f; draws at the schedule's temperature give %.1f ± %.1f", n, got, want, sd)
	if n < 50 || want > 0.7*float64(n) {
		t.Fatalf("%d rows drew a move, expected to score %.1f: too few, or too close to the most visited move's %d, for the test to tell draws from it", n, want, n)
	}
	if math.Abs(got-want) > 4*sd {
		t.Errorf("moves played score %.1f, want %.1f ± %.1f (4 sd) as draws at the schedule's temperature", got, want, 4*sd)
	}
}

// TestPlayoutCap: a turn gets the full search with probability full_share
// (within 4 standard deviations over the run), and the rows say which: a
// full search's row has search.visits simulations, a cheap one's
// cheap_visits.
func TestPlayoutCap(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 16 games (30 s under the race detector)")
	}
	c := testConfig(t)
	c.Games, c.GamesPerShard, c.MaxTurns = 16, 8, 12
	c.FullShare = 0.25
	rows, _ := randomRows(t, c)
	full := 0
	for i, r := range rows {
		want := c.CheapVisits
		if r.FullSearch {
			full++
			want = c.Search.Visits
		}
		if int(r.Visits) != want && !(r.Visits == 0 && r.RootValue == 1) { // a goal found at the root needs no search
			t.Errorf("row %d (full search %v): %d simulations, want %d", i, r.FullSearch, r.Visits, want)
		}
	}
	n := float64(len(rows))
	share, sd := float64(full)/n, math.Sqrt(c.FullShare*(1-c.FullShare)/n)
	t.Logf("%d of %d turns got the full search: %.3f, full_share %v ± %.3f", full, len(rows), share, c.FullShare, sd)
	if math.Abs(share-c.FullShare) > 4*sd {
		t.Errorf("%d of %d turns got the full search (%.3f), want full_share %v ± %.3f (4 sd)", full, len(rows), share, c.FullShare, 4*sd)
	}
}
