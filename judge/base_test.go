package judge

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPairWithBase pairs a run with an earlier report by position: the
// positions both judged only, the differences of regret, the same moves,
// and the errors of another judge, no common position and bad files.
func TestPairWithBase(t *testing.T) {
	pos := []string{"g [a]", "g [b]", "g [c]", "g [d]"} // compared as text only
	mk := func(name string, moves []Move) *Report {
		return &Report{Judge: "sharp depth=8", Players: []PlayerReport{{Name: name, Moves: moves}}}
	}
	run := mk("cand", []Move{
		{Where: "f:2 game 1 3g", Position: pos[0], Move: "Ee2n", Regret: 0.5},
		{Where: "f:2 game 1 5g", Position: pos[1], Move: "Ee3n", Regret: 0.25},
		{Where: "f:2 game 1 7g", Position: pos[2], Move: "Ee4n", Regret: 1},
		{Where: "f:9 game 2 3s", Position: pos[3], Move: "ed7s", Regret: 0},
	})
	base := mk("gen0", []Move{
		{Where: "f:2 game 1 3g", Position: pos[0], Move: "Ee2n", Regret: 0.5},
		{Where: "f:2 game 1 5g", Position: pos[1], Move: "Ed2n", Regret: 1},
		{Where: "f:2 game 1 7g", Position: pos[2], Move: "Ed2n", Regret: 0.5},
		{Where: "f:9 game 2 9s", Position: pos[3], Move: "ed7s", Regret: 3}, // not in the run
	})
	p, err := PairWithBase(run, base, "base.json")
	if err != nil {
		t.Fatal(err)
	}
	// Differences 0, -0.75, +0.5: mean -0.25/3.
	if p.A != "cand" || p.B != "gen0 (base.json)" || p.Positions != 3 || p.Same != 1 || !near(p.MeanDiff, -0.25/3) || p.Interval == nil || p.Interval.Lo >= p.MeanDiff || p.Interval.Hi <= p.MeanDiff {
		t.Errorf("paired %+v, interval %+v", p, p.Interval)
	}

	other := mk("gen0", base.Players[0].Moves)
	other.Judge = "sharp depth=4"
	if _, err := PairWithBase(run, other, "b4.json"); err == nil || !strings.Contains(err.Error(), "b4.json: judged by \"sharp depth=4\"") {
		t.Errorf("another judge: %v", err)
	}
	apart := mk("gen0", base.Players[0].Moves[3:])
	if _, err := PairWithBase(run, apart, "apart.json"); err == nil || !strings.Contains(err.Error(), "apart.json: no position of this run is in the report") {
		t.Errorf("no common position: %v", err)
	}

	// ReadReport: the JSON of a report reads back; other files are errors
	// naming the file.
	data, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(strings.NewReader(string(data)), "base.json")
	if err != nil || back.Judge != base.Judge || len(back.Players[0].Moves) != 4 {
		t.Errorf("read back: %+v, %v", back, err)
	}
	for _, c := range []struct{ name, data, err string }{
		{"not JSON", "judge sharp\n", "x.json: not a regret report"},
		{"another JSON", `{"games": 3}`, "x.json: not a regret report"},
		{"no moves", `{"judge": "sharp", "players": [{"name": "gen0"}]}`, "x.json: the report holds no judged moves"},
		{"no judge", `{"players": [{"name": "gen0", "moves": [{"where": "f:1", "move": "Ee2n"}]}]}`, "x.json: the report names no judge"},
	} {
		if _, err := ReadReport(strings.NewReader(c.data), "x.json"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}
