package match

import (
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/rating"
)

// game returns a record of gold against silver won by winner (Gold or
// Silver), or unfinished when over is false, on the setups named s.
func game(id, gold, silver string, winner engine.Color, over bool, s string) engine.Record {
	r := engine.Record{ID: id, Gold: gold, Silver: silver, Result: winner, Termination: engine.Goal,
		Moves: []string{"1w " + s + "-gold", "1b " + s + "-silver", "2w Ed2n"}}
	if !over {
		r.Termination = engine.NotOver
	}
	return r
}

func TestArchivePool(t *testing.T) {
	g, s := engine.Gold, engine.Silver
	tests := []struct {
		name  string
		recs  []engine.Record
		names []string
		// units of each pairing, in order, as "W-D-L" per unit
		units                [][]rating.Unit
		games, paired, unfin int
		wins, draws, losses  []int // the Stats of each pairing
		pairs                []int // the pairs counted in each pairing's Stats
	}{
		{
			name:  "a pair with colours swapped, won by each side",
			recs:  []engine.Record{game("1", "a", "b", g, true, "x"), game("2", "b", "a", g, true, "x")},
			names: []string{"a", "b"}, units: [][]rating.Unit{{{W: 1, L: 1}}},
			games: 2, paired: 2, wins: []int{1}, losses: []int{1}, draws: []int{0}, pairs: []int{1},
		},
		{
			name:  "other setups: two lone games",
			recs:  []engine.Record{game("1", "a", "b", g, true, "x"), game("2", "b", "a", s, true, "y")},
			names: []string{"a", "b"}, units: [][]rating.Unit{{{W: 1}, {W: 1}}},
			games: 2, wins: []int{2}, losses: []int{0}, draws: []int{0}, pairs: []int{0},
		},
		{
			name:  "the same colours twice: two lone games",
			recs:  []engine.Record{game("1", "a", "b", s, true, "x"), game("2", "a", "b", s, true, "x")},
			names: []string{"a", "b"}, units: [][]rating.Unit{{{L: 1}, {L: 1}}},
			games: 2, wins: []int{0}, losses: []int{2}, draws: []int{0}, pairs: []int{0},
		},
		{
			name:  "an unfinished game is a draw",
			recs:  []engine.Record{game("1", "a", "b", g, false, "x"), game("2", "b", "a", s, true, "x")},
			names: []string{"a", "b"}, units: [][]rating.Unit{{{W: 1, D: 1}}},
			games: 2, paired: 2, unfin: 1, wins: []int{1}, losses: []int{0}, draws: []int{1}, pairs: []int{1},
		},
		{
			name: "three players, the pairing's first player the one seen first",
			recs: []engine.Record{
				game("1", "a", "b", s, true, "x"), game("2", "b", "a", g, true, "x"),
				game("3", "c", "b", g, true, "z"),
			},
			names: []string{"a", "b", "c"}, units: [][]rating.Unit{{{L: 2}}, {{L: 1}}},
			games: 3, paired: 2, wins: []int{0, 0}, losses: []int{2, 1}, draws: []int{0, 0}, pairs: []int{1, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p ArchivePool
			if err := p.Add(tc.recs); err != nil {
				t.Fatal(err)
			}
			if strings.Join(p.Names, ",") != strings.Join(tc.names, ",") {
				t.Errorf("names %v, want %v", p.Names, tc.names)
			}
			if p.Games != tc.games || p.Paired != tc.paired || p.Unfinished != tc.unfin {
				t.Errorf("games %d paired %d unfinished %d, want %d %d %d", p.Games, p.Paired, p.Unfinished, tc.games, tc.paired, tc.unfin)
			}
			if len(p.Data) != len(tc.units) {
				t.Fatalf("%d pairings, want %d", len(p.Data), len(tc.units))
			}
			for k, d := range p.Data {
				if len(d.Units) != len(tc.units[k]) {
					t.Fatalf("pairing %d: units %v, want %v", k, d.Units, tc.units[k])
				}
				for u := range d.Units {
					if d.Units[u] != tc.units[k][u] {
						t.Errorf("pairing %d: units %v, want %v", k, d.Units, tc.units[k])
					}
				}
				st := p.Stats[k]
				if st.Wins != tc.wins[k] || st.Draws != tc.draws[k] || st.Losses != tc.losses[k] || st.Pairs() != tc.pairs[k] {
					t.Errorf("pairing %d: stats %+v, want %d-%d-%d and %d pairs", k, st, tc.wins[k], tc.draws[k], tc.losses[k], tc.pairs[k])
				}
			}
		})
	}
}

// TestArchivePoolSelf refuses a game a player plays against itself, naming
// the game.
func TestArchivePoolSelf(t *testing.T) {
	var p ArchivePool
	err := p.Add([]engine.Record{game("7", "a", "a", engine.Gold, true, "x")})
	if err == nil || !strings.Contains(err.Error(), `game 7: gold and silver are both "a"`) {
		t.Fatalf("err %v", err)
	}
	if p.Index("a") != -1 || p.Games != 0 {
		t.Errorf("a refused game was counted")
	}
}

// TestArchivePoolAcrossCalls keeps players and pairings across calls of Add,
// as analyze rate adds one file at a time.
func TestArchivePoolAcrossCalls(t *testing.T) {
	var p ArchivePool
	for _, r := range []engine.Record{game("1", "a", "b", engine.Gold, true, "x"), game("2", "b", "a", engine.Gold, true, "x")} {
		if err := p.Add([]engine.Record{r}); err != nil {
			t.Fatal(err)
		}
	}
	if len(p.Data) != 1 || len(p.Data[0].Units) != 2 || p.Paired != 0 || p.Index("b") != 1 {
		t.Errorf("pool %+v: want one pairing of two lone games (a pair never spans two calls)", p)
	}
}
