package material

import (
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestSiege counts a goal loss's siege back from the player's last move
// with a scripted count of safe moves: the turns with at most one safe move
// in ten, up to the first with more; every position asked is the player's to
// move. A game the player won is no siege and asks nothing.
func TestSiege(t *testing.T) {
	recs := readArchive(t, "../docs/strength/sixth-rabbits-1s-vs-sharp4.games.txt")
	var rec engine.Record
	var c engine.Color
	for _, r := range recs {
		if r.Termination == engine.Goal {
			rec, c = r, r.Result.Other()
			break
		}
	}
	if rec.Moves == nil {
		t.Fatal("no game lost by a goal in the archive")
	}
	tests := []struct {
		name   string
		counts [][2]int // safe and all moves of the positions asked, the last first
		want   int
	}{
		{"three turns", [][2]int{{0, 50}, {1, 100}, {10, 100}, {11, 100}}, 3},
		{"no siege", [][2]int{{30, 100}}, 0},
		{"no moves", [][2]int{{0, 40}, {0, 0}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			asked := 0
			safe := func(p *engine.Position) (int, int) {
				if p.Side != c {
					t.Errorf("asked of a position with %s to move, want %s", p.Side.Name(), c.Name())
				}
				if asked >= len(tc.counts) {
					t.Fatalf("asked %d times, want at most %d", asked+1, len(tc.counts))
				}
				asked++
				return tc.counts[asked-1][0], tc.counts[asked-1][1]
			}
			got, err := Siege(rec, c, safe)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || asked != len(tc.counts) {
				t.Errorf("siege %d after %d positions asked, want %d after %d", got, asked, tc.want, len(tc.counts))
			}
		})
	}
	got, err := Siege(rec, c.Other(), func(*engine.Position) (int, int) {
		t.Error("the winner's positions asked")
		return 0, 1
	})
	if err != nil || got != 0 {
		t.Errorf("the winner's siege %d (%v), want 0", got, err)
	}
}

// TestMeasureSiegeRows checks that the siege is a row of Table and Paired
// only when every game has it measured.
func TestMeasureSiegeRows(t *testing.T) {
	a := []Game{{Color: engine.Gold, Turns: 30, Siege: 4, Sieged: true}, {Color: engine.Silver, Turns: 30, Siege: 2, Sieged: true}}
	b := []Game{{Color: engine.Gold, Turns: 30, Siege: 1, Sieged: true}, {Color: engine.Silver, Turns: 30, Siege: 1, Sieged: true}}
	rows, sums := Table(a, 15)
	if len(rows) != 7 || rows[6] != "turns under a goal siege" || sums[6].Mean != 3 {
		t.Errorf("rows %q, siege %v, want a last row of mean 3", rows, sums[len(sums)-1].Mean)
	}
	rows, sums, err := Paired(a, b, 15)
	if err != nil || len(rows) != 7 || sums[6].Mean != 2 {
		t.Errorf("paired rows %q (%v), want a siege row of mean +2", rows, err)
	}
	b[1].Sieged = false
	if rows, _, _ := Paired(a, b, 15); len(rows) != 6 {
		t.Errorf("paired rows %q with a game of the base unmeasured, want no siege row", rows)
	}
	if rows, _ := Table(b, 15); len(rows) != 6 {
		t.Errorf("rows %q with a game unmeasured, want no siege row", rows)
	}
}
