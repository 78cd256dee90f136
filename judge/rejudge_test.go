package judge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestRejudge judges the moves of a report again: the new judge's scores of
// the positions before and after each move, the earlier report's players,
// positions and moves kept, and the comparison of the two judges' regrets.
func TestRejudge(t *testing.T) {
	var pos [3]engine.Position
	for i := range pos {
		pos[i] = positionAt(t, "", reachMoves, 2*i) // Gold to move
	}
	// Two players, three positions; the second plays the same move as the
	// first in the first position.
	a := []string{"Ee2n", "Ee3n", "Ee4n"}
	b := []string{"Ee2n", "Ee3w", "Ee4w"}
	oldRegret := [2][3]float64{{1, 0, 2}, {1, 0.5, 0}}
	old := &Report{Judge: "deep judge", Positions: 3}
	for k, moves := range [][]string{a, b} {
		pr := PlayerReport{Name: []string{"cand", "gen0"}[k]}
		for i, m := range moves {
			pr.Moves = append(pr.Moves, Move{Index: i, Where: "f:2 game 1 " + []string{"3g", "4g", "5g"}[i],
				Position: pos[i].String(), Move: m, Regret: oldRegret[k][i], Turn: 3 + i})
		}
		old.Players = append(old.Players, pr)
	}

	// Two judges share the positions: each position is scored once, by
	// one of them.
	j, j2 := &tableJudge{}, &tableJudge{}
	rep, err := Rejudge(context.Background(), []Judge{j, j2}, "shallow judge", old, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Judge != "shallow judge" || rep.Positions != 3 || len(rep.Players) != 2 || rep.Paired == nil || rep.Rejudged == nil || rep.Rejudged.From != "deep judge" {
		t.Fatalf("report %+v", rep)
	}
	var now [2][3]float64
	for k, p := range rep.Players {
		moves := [][]string{a, b}[k]
		for i, m := range p.Moves {
			tn := engine.NewTurn(pos[i])
			if err := tn.PlayMove(moves[i]); err != nil {
				t.Fatal(err)
			}
			after := tn.End()
			before := tableScore(pos[i])
			want := before + tableScore(after)
			if m.Move != moves[i] || m.Where != old.Players[k].Moves[i].Where || m.Position != pos[i].String() || m.Turn != 3+i ||
				!near(m.Before, before) || !near(m.After, -tableScore(after)) || !near(m.Regret, want) {
				t.Errorf("%s, position %d: %+v, want regret %v", p.Name, i, m, want)
			}
			now[k][i] = m.Regret
		}
	}
	// The shared move's position after is judged once, as is each position
	// before: 3 before, 5 different after.
	calls := 0
	for _, tj := range []*tableJudge{j, j2} {
		for p, c := range tj.calls {
			calls += c
			if c != 1 {
				t.Errorf("%s judged %d times", p, c)
			}
		}
	}
	if calls != 3+5 {
		t.Errorf("%d positions judged, want 8", calls)
	}
	for k, c := range rep.Rejudged.Players {
		var from, mean, seen, all float64
		for i := range 3 {
			from += oldRegret[k][i] / 3
			mean += now[k][i] / 3
			seen += min(max(oldRegret[k][i], 0), max(now[k][i], 0))
			all += max(oldRegret[k][i], 0)
		}
		if c.Name != old.Players[k].Name || c.Positions != 3 || !near(c.FromMean, from) || !near(c.Mean, mean) ||
			!near(c.Diff, mean-from) || c.Interval == nil || !near(c.Seen, seen/all) || c.Correlation < -1 || c.Correlation > 1 {
			t.Errorf("comparison %+v, want from %v, mean %v, seen %v", c, from, mean, seen/all)
		}
	}

	// The report reads back, and serves as a base for runs of the new judge.
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(strings.NewReader(string(data)), "r.json")
	if err != nil || back.Rejudged == nil || back.Rejudged.Players[1].Name != "gen0" {
		t.Fatalf("read back: %+v, %v", back, err)
	}
	if p, err := PairWithBase(rep, back, "r.json"); err != nil || p.Positions != 3 || p.Same != 3 || !near(p.MeanDiff, 0) {
		t.Errorf("paired with itself: %+v, %v", p, err)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"judge        shallow judge\n", "the same moves by the earlier judge (deep judge):", "\n  cand  ", "\n  gen0  "} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("text has no %q:\n%s", w, text.String())
		}
	}

	// Reports it cannot judge again.
	bad := func(edit func(r *Report)) *Report {
		var r Report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		r.Judge = "deep judge"
		edit(&r)
		return &r
	}
	for _, c := range []struct {
		name string
		rep  *Report
		err  string
	}{
		{"no judges", nil, "no judges"},
		{"no moves", &Report{Judge: "x", Players: []PlayerReport{{Name: "gen0"}}}, "the report holds no judged moves"},
		{"moves missing", bad(func(r *Report) { r.Players[1].Moves = r.Players[1].Moves[:2] }), "judged 3 and 2 moves"},
		{"other positions", bad(func(r *Report) { r.Players[1].Moves[2].Where = "elsewhere" }), "judged other positions"},
		{"bad position", bad(func(r *Report) { r.Players[0].Moves[1].Position = "g [xx]" }), "f:2 game 1 4g: "},
		{"illegal move", bad(func(r *Report) { r.Players[1].Moves[0].Move = "Ee2w Ee2w" }), "f:2 game 1 3g: gen0: move \"Ee2w Ee2w\""},
	} {
		judges := []Judge{&tableJudge{}}
		if c.rep == nil {
			c.rep, judges = rep, nil
		}
		if _, err := Rejudge(context.Background(), judges, "j", c.rep, Config{}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}
