package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/judge"
)

// deepCheckReport is a regret report of two judged moves of real games.
const deepCheckReport = `{"judge": "sharp 2015 with depth=8", "positions": 2, "players": [{"name": "gen0", "positions": 2, "moves": [
 {"index": 0, "where": "g.txt:41 game 40 11s", "position": "s [   rr    dmrrrrrrh ch MR     c  CHE    R Dde  C   D  H  R RRRRR ]", "move": "ra6s rd8w rf7s re8e", "best": "ed3e dc3x ee3n ee4e ef4e", "regret": 1.278},
 {"index": 1, "where": "g.txt:12 game 11 9g", "position": "g [c mcr d  drrr rrhr  Eeh        r         H    H R CMCDD RRRRRR R]", "move": "Ee6w re7s Cc2w Md2w", "best": "Ee6s re7s Ee5e re6s", "regret": 0.487}]}]}`

// TestDeepCheckVerb checks a report's moves with the deep scan: the text
// names the bands and the JSON holds every move; bad command lines and
// files are one-line errors.
func TestDeepCheckVerb(t *testing.T) {
	if testing.Short() {
		t.Skip("two positions at two turns, twice: seconds under -race")
	}
	report := writeFile(t, "report.json", deepCheckReport)
	r := runCmd(t, "", "deepcheck", report)
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, w := range []string{"judge     sharp 2015 with depth=8\n", "weights   configs/gen0.json (embedded)\n", "gen0: 2 positions, regret 1.77 rabbits\n",
		"searched at two turns (the first 48)", "never valued (beyond the 512 best by the evaluation)", "the two-turn value puts the judge's best move above the move played in "} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("no %q in\n%s", w, r.stdout)
		}
	}
	j := runCmd(t, "", "deepcheck", "-weights", "../../configs/sharp8-reply.json", "-json", report)
	var dc judge.DeepCheck
	if err := json.Unmarshal([]byte(j.stdout), &dc); err != nil || j.code != 0 {
		t.Fatalf("-json: %v, exit status %d; stderr:\n%s", err, j.code, j.stderr)
	}
	if dc.Weights != "../../configs/sharp8-reply.json" || len(dc.Players) != 1 || len(dc.Players[0].Moves) != 2 || dc.Players[0].Moves[1].Where != "g.txt:12 game 11 9g" {
		t.Errorf("-json: %+v", dc)
	}

	notReport := writeFile(t, "games.json", "judge sharp\n")
	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no report", []string{"deepcheck"}, 2, "want one report FILE"},
		{"two reports", []string{"deepcheck", report, report}, 2, "want one report FILE"},
		{"missing report", []string{"deepcheck", "/nonexistent/r.json"}, 1, "analyze deepcheck: open /nonexistent/r.json"},
		{"not a report", []string{"deepcheck", notReport}, 1, "analyze deepcheck: " + notReport + ": not a regret report"},
		{"missing weights", []string{"deepcheck", "-weights", "/nonexistent/w.json", report}, 1, "analyze deepcheck: -weights: open /nonexistent/w.json"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.err) || c.code == 1 && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%s: exit status %d, stderr %q; want %d and %q", c.name, r.code, r.stderr, c.code, c.err)
		}
	}
}
