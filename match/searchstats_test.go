package match

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/mcts"
)

// TestSearchStatsSums counts searches: every search is a move, a deep scan
// counts where one ran, and one that valued one move or none is thin.
func TestSearchStatsSums(t *testing.T) {
	var s SearchStats
	if got := s.String(); got != "no moves searched" {
		t.Errorf("empty: %q", got)
	}
	for _, r := range []mcts.Result{
		{Simulations: 100},
		{Simulations: 300, Deep: &mcts.DeepStats{Listed: 50, Valued: 1}},
		{Simulations: 200, Deep: &mcts.DeepStats{Listed: 54, Valued: 31, Verified: 3}},
	} {
		s.addResult(&r)
	}
	want := SearchStats{Moves: 3, Simulations: 600, DeepScans: 2, DeepValued: 32, DeepVerified: 3, DeepThin: 1}
	if s != want {
		t.Errorf("sums %+v, want %+v", s, want)
	}
	if got, w := s.String(), "3 moves, 200 simulations a move; deep scan: 16.0 moves valued at two turns, 1.50 given a third, one or none valued in 50 % of scans"; got != w {
		t.Errorf("String:\n got %q\nwant %q", got, w)
	}
	var both SearchStats
	both.add(s)
	both.add(s)
	if both.Moves != 6 || both.Simulations != 1200 || both.DeepThin != 2 || both.DeepValued != 64 {
		t.Errorf("two sums added: %+v", both)
	}
	if got := (SearchStats{Moves: 2, Simulations: 10}).String(); got != "2 moves, 5 simulations a move; no deep scan" {
		t.Errorf("without a deep scan: %q", got)
	}
}

// TestSearchStatsStep counts the step search's moves: those it ran, those
// that finished two whole turns, those over part of the root's cut, and its
// nodes.
func TestSearchStatsStep(t *testing.T) {
	var s SearchStats
	for _, r := range []mcts.Result{
		{Simulations: 100, Step: &mcts.StepResult{Depth: 8, Nodes: 3000}},
		{Simulations: 100, Step: &mcts.StepResult{Depth: 4, Nodes: 1000}},
		{Simulations: 100, Step: &mcts.StepResult{Depth: 8, Nodes: 2000, Narrow: true}},
		{Simulations: 100, Step: &mcts.StepResult{Depth: 8, Nodes: 6000}},
	} {
		s.addResult(&r)
	}
	want := SearchStats{Moves: 4, Simulations: 400, StepSearches: 4, StepTwoTurns: 3, StepNarrow: 1, StepNodes: 12000}
	if s != want {
		t.Errorf("sums %+v, want %+v", s, want)
	}
	if got, w := s.String(), "4 moves, 100 simulations a move; step search: two turns finished in 75 % of 4 searches (over part of the cut in 25 %), 3000 nodes a search; no deep scan"; got != w {
		t.Errorf("String:\n got %q\nwant %q", got, w)
	}
	var both SearchStats
	both.add(s)
	both.add(s)
	if both.StepSearches != 8 || both.StepTwoTurns != 6 || both.StepNarrow != 2 || both.StepNodes != 24000 {
		t.Errorf("two sums added: %+v", both)
	}
}

// TestMatchSearchStats plays a short match of the search with the deep scan
// against the random mover: each result line carries the search's sums for
// its moves in that game and none for the random mover, and the summary and
// its file sum them over the match. The search is bounded by simulations, not
// time, so that a loaded machine cannot leave every deep scan out (a search
// bounded by time whose tree overruns its share lists none: at 100 ms a move
// that happened under load).
func TestMatchSearchStats(t *testing.T) {
	out := t.TempDir()
	res, err := Run(context.Background(), player(t, "gen0,visits=200,scan=deep"), player(t, "random"),
		Options{Games: 2, Seed: 3, MaxTurns: 4, Setups: DefaultSetups(), Out: out, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var sum SearchStats
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var g GameResult
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if g.SearchA == nil || g.SearchB != nil {
			t.Fatalf("game %d: search sums A %v, B %v; want A's alone", g.Game, g.SearchA, g.SearchB)
		}
		moves := g.Plies / 2 // the search plays Silver in odd games
		if g.Game%2 == 0 {
			moves = (g.Plies + 1) / 2
		}
		if s := g.SearchA; s.Moves != moves || s.Simulations < int64(moves) || s.DeepScans > moves || s.DeepThin > s.DeepScans {
			t.Errorf("game %d (%d plies): %+v, want %d moves", g.Game, g.Plies, *s, moves)
		}
		sum.add(*g.SearchA)
	}
	if sum.DeepScans == 0 {
		t.Errorf("no deep scan in %d moves with scan=deep", sum.Moves)
	}
	if res.SearchA == nil || *res.SearchA != sum || res.SearchB != nil {
		t.Errorf("the match's sums %v and %v, want %+v and none", res.SearchA, res.SearchB, sum)
	}
	var b strings.Builder
	if err := res.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	if want := "Search of gen0: " + sum.String() + "\n"; !strings.Contains(b.String(), want) || strings.Contains(b.String(), "Search of random") {
		t.Errorf("summary lacks %q or has the random mover's:\n%s", want, b.String())
	}
	js, err := json.Marshal(res.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var back SummaryJSON
	if err := json.Unmarshal(js, &back); err != nil || back.SearchA == nil || *back.SearchA != sum || back.SearchB != nil {
		t.Errorf("summary file's sums %v, %v (%v), want %+v", back.SearchA, back.SearchB, err, sum)
	}
}
