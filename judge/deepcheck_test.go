package judge

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// deepCheckMoves are judged moves of real games (a report of Sharp at depth
// 8): the position, the move played, the judge's best, the regret.
var deepCheckMoves = [][4]string{
	{"s [   rr    dmrrrrrrh ch MR     c  CHE    R Dde  C   D  H  R RRRRR ]", "ra6s rd8w rf7s re8e", "ed3e dc3x ee3n ee4e ef4e", "1.278"},
	{"s [   r  r rrm rrcrRd rc    h    MR  E   h  Hde  H  DCCDR   RRRR R ]", "ce6s ce5s ce4e hg4e", "hb5w ed3e dc3x ee3n ee4e", "1.056"},
	{"g [c mcr d  drrr rrhr  Eeh        r         H    H R CMCDD RRRRRR R]", "Ee6w re7s Cc2w Md2w", "Ee6s re7s Ee5e re6s", "0.487"},
	// The judge's own move played.
	{"g [c mcr d  drrr rrhr  Eeh        r         H    H R CMCDD RRRRRR R]", "Ee6s re7s Ee5e re6s", "Ee6s re7s Ee5e re6s", "0"},
}

func deepCheckSearcher(t *testing.T) *mcts.Searcher {
	t.Helper()
	s, err := mcts.New(mcts.Config{Scan: mcts.ScanDeep}, gen0Linear(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCheckDeep checks four judged moves: each check is what CheckMoves
// says of the judge's move and the move played, the positions fall in one
// band each and the bands add up to the player's regret, Prefers counts the
// moves whose judge's move the two-turn value puts higher, and bad reports
// are errors naming the move.
func TestCheckDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("four positions at two turns: seconds under -race")
	}
	s := deepCheckSearcher(t)
	rep := &Report{Judge: "sharp", Positions: len(deepCheckMoves)}
	pr := PlayerReport{Name: "gen0"}
	for i, m := range deepCheckMoves {
		var regret float64
		fmt.Sscan(m[3], &regret)
		pr.Moves = append(pr.Moves, Move{Index: i, Where: fmt.Sprintf("f:%d", i+1), Position: m[0], Move: m[1], Best: m[2], Regret: regret})
	}
	rep.Players = []PlayerReport{pr}
	calls := 0
	dc, err := CheckDeep(context.Background(), rep, s, "gen0", func(done, total int) {
		calls++
		if done != calls || total != len(deepCheckMoves) {
			t.Errorf("progress %d of %d at call %d", done, total, calls)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if dc.Judge != "sharp" || dc.Weights != "gen0" || len(dc.Players) != 1 || len(dc.Players[0].Moves) != len(deepCheckMoves) {
		t.Fatalf("check %+v", dc)
	}
	p := dc.Players[0]
	var bands, prefers DeepShare
	var total float64
	for i, m := range deepCheckMoves {
		pos, err := engine.ParsePosition(m[0])
		if err != nil {
			t.Fatal(err)
		}
		var after []engine.Position
		for _, mv := range []string{m[2], m[1]} {
			tr := engine.NewTurn(pos)
			if err := tr.PlayMove(mv); err != nil {
				t.Fatal(err)
			}
			after = append(after, tr.End())
		}
		want, err := s.CheckMoves(pos, nil, after)
		if err != nil {
			t.Fatal(err)
		}
		got := p.Moves[i]
		if got.Best != want[0] || got.Move != want[1] || got.Where != pr.Moves[i].Where || got.Regret != pr.Moves[i].Regret {
			t.Errorf("move %d: %+v, want best %+v, move %+v", i, got, want[0], want[1])
		}
		bands.add(got.Regret)
		total += got.Regret
		if want[0].TwoTurn > want[1].TwoTurn {
			prefers.add(got.Regret)
		}
	}
	if got := p.Moves[3]; got.Best != got.Move {
		t.Errorf("the judge's move played: %+v and %+v", got.Best, got.Move)
	}
	if n := p.Searched.Positions + p.Ordered.Positions + p.Unvalued.Positions; n != bands.Positions || n != p.Positions {
		t.Errorf("bands of %d positions, want %d", n, p.Positions)
	}
	if r := p.Searched.Regret + p.Ordered.Regret + p.Unvalued.Regret; math.Abs(r-total) > 1e-9 || math.Abs(p.Regret-total) > 1e-9 {
		t.Errorf("bands of %v rabbits, player %v, want %v", r, p.Regret, total)
	}
	if p.Prefers.Positions != prefers.Positions || math.Abs(p.Prefers.Share-prefers.Regret/total) > 1e-9 {
		t.Errorf("prefers %+v, want %d positions, share %v", p.Prefers, prefers.Positions, prefers.Regret/total)
	}
	var b bytes.Buffer
	if err := dc.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gen0: 4 positions, regret 2.82 rabbits", "searched at two turns (the first 48)",
		fmt.Sprintf("the two-turn value puts the judge's best move above the move played in %d positions", prefers.Positions)} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text does not contain %q:\n%s", want, b.String())
		}
	}

	for _, tc := range []struct {
		name string
		m    Move
		want string
	}{
		{"bad position", Move{Where: "f:9", Position: "g [nonsense]", Move: "Ee2n", Best: "Ee2n"}, "f:9: "},
		{"illegal move", Move{Where: "f:8", Position: deepCheckMoves[2][0], Move: "Ee6n Ee7n", Best: deepCheckMoves[2][2]}, `f:8: move "Ee6n Ee7n"`},
	} {
		bad := &Report{Players: []PlayerReport{{Name: "gen0", Moves: []Move{tc.m}}}}
		if _, err := CheckDeep(context.Background(), bad, s, "gen0", nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	if _, err := CheckDeep(context.Background(), &Report{}, s, "gen0", nil); err == nil {
		t.Error("an empty report: no error")
	}
}
