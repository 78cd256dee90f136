package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/judge"
)

// TestRegret runs analyze regret with this project's engine as the judge
// (through sharpLike, which searches for Gold whatever the side to move, so
// Silver's positions must be mirrored): the report's figures, its JSON, the
// same report from the same seed, and the errors of bad command lines and
// bad files (one line each, naming the file and line).
func TestRegret(t *testing.T) {
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	t.Setenv(aeiHelperEnv, "sharp")
	helper := "'" + os.Args[0] + "' -test.run=^TestHelperAEIEngine$"
	judgeArgs := []string{"regret", "-engine", helper, "-option", "visits=40", "-option", "threads=1"}
	games := "testdata/games5.txt"
	positions := writeFile(t, "p.aei", "# two positions\n"+standard3353+"\n\ns"+standard3353[1:]+"\n")
	badPositions := writeFile(t, "bad.aei", standard3353+"\n\ng [rr]\n")

	args := append(judgeArgs, "-a", "random", "-b", "gen0,visits=40", "-n", "4", "-seed", "3", "-worst", "2", "-mover", "Guest63204", games)
	r := runCmd(t, "", args...)
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, w := range []string{"judge        arimaalab ", "with visits=40, threads=1\n", "positions    4\n",
		"\nrandom          4  ", "\ngen0            4  ", "random minus gen0, paired: ", "over 4 positions (the same move in ",
		"worst moves of random:\n", "worst moves of gen0:\n", " testdata/games5.txt:"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout has no %q:\n%s", w, r.stdout)
		}
	}
	if strings.Contains(r.stderr, "WARN") {
		t.Errorf("the engine reported errors:\n%s", r.stderr)
	}

	if !testing.Short() { // more engines and searches
		regretJSON(t, args, judgeArgs, positions)
	}

	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no files", []string{"regret", "-engine", helper, "-a", "random"}, 2, "want archive or position files"},
		{"no engine", []string{"regret", "-a", "random", games}, 2, "-engine is required"},
		{"no player", []string{"regret", "-engine", helper, games}, 2, "-a PLAYER is required"},
		{"bad player", append(judgeArgs, "-a", "random,visits", games), 2, `-a: player "random,visits": item "visits" is not KEY=VALUE`},
		{"bad second player", append(judgeArgs, "-a", "random", "-b", "gen0,speed=3", games), 2, `-b: `},
		{"bad option", []string{"regret", "-engine", helper, "-option", "depth", "-a", "random", games}, 2, `"depth" is not NAME=VALUE`},
		{"negative n", append(judgeArgs, "-a", "random", "-n", "-1", games), 2, "-n must not be negative"},
		{"negative decided", append(judgeArgs, "-a", "random", "-decided", "-1", games), 2, "-decided must not be negative"},
		{"mover in a position file", append(judgeArgs, "-a", "random", "-mover", "x", positions), 2, "-mover goes with archives"},
		{"turns in a position file", append(judgeArgs, "-a", "random", "-turns", "2-9", positions), 2, "-turns goes with archives; " + positions + " is a position file"},
		{"bad turns", append(judgeArgs, "-a", "random", "-turns", "9-3", games), 2, `-turns "9-3": want FIRST-LAST`},
		{"turns from 1", append(judgeArgs, "-a", "random", "-turns", "1-", games), 2, `-turns "1-": want FIRST-LAST`},
		{"no turns", append(judgeArgs, "-a", "random", "-turns", "400-", games), 1, "analyze regret: no positions of turns 400- in testdata/games5.txt"},
		{"missing base", append(judgeArgs, "-a", "random", "-base", "/nonexistent/base.json", games), 1, "analyze regret: -base: open /nonexistent/base.json"},
		{"bad base", append(judgeArgs, "-a", "random", "-base", badPositions, games), 1, "analyze regret: " + badPositions + ": not a regret report"},
		{"no such mover", append(judgeArgs, "-a", "random", "-mover", "nobody", games), 1, `analyze regret: no positions where "nobody" was to move in testdata/games5.txt`},
		{"bad position file", append(judgeArgs, "-a", "random", badPositions), 1, badPositions + ":3: "},
		{"missing file", append(judgeArgs, "-a", "random", "/nonexistent/games.txt"), 1, "/nonexistent/games.txt"},
		{"missing engine", []string{"regret", "-engine", "/nonexistent/engine", "-a", "random", games}, 1, "analyze regret: -engine: aei: starting the engine"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.err) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 && c.code == 1 {
			t.Errorf("%s: exit status %d, stderr %q; want %d and %q", c.name, r.code, r.stderr, c.code, c.err)
		}
	}
}

// regretJSON checks the JSON report of the command line args, and of a
// position file.
func regretJSON(t *testing.T, args, judgeArgs []string, positions string) {
	// The JSON: four positions, each where Guest63204 was to move, every move
	// legal there, the regret Before - After; the same again from the same seed.
	js := runCmd(t, "", append(args, "-json")...)
	if js.code != 0 {
		t.Fatalf("-json: exit status %d; stderr:\n%s", js.code, js.stderr)
	}
	var rep judge.Report
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Positions != 4 || len(rep.Players) != 2 || rep.Paired == nil || len(rep.Players[0].Worst) != 2 {
		t.Fatalf("report %+v", rep)
	}
	for _, p := range rep.Players {
		for _, m := range p.Moves {
			pos, err := engine.ParsePosition(m.Position)
			if err != nil {
				t.Fatal(err)
			}
			gid := map[engine.Color]string{engine.Gold: "game 669205", engine.Silver: "game 669204"}[pos.Side] // Guest63204's colours
			if turn := engine.NewTurn(pos); turn.PlayMove(m.Move) != nil || !strings.Contains(m.Where, gid) || m.Before-m.After != m.Regret ||
				m.Before < -1 || m.Before > 1 {
				t.Errorf("%s: %+v", p.Name, m)
			}
		}
	}
	if again := runCmd(t, "", append(args, "-json")...); again.stdout != js.stdout {
		t.Errorf("the same seed gave another report:\n%s\n%s", js.stdout, again.stdout)
	}

	// -base: the same run paired with its own report, the same moves and
	// regrets; a report of another judge is refused before the run.
	base := writeFile(t, "base.json", js.stdout)
	rb := runCmd(t, "", append(args, "-base", base)...)
	if rb.code != 0 || !strings.Contains(rb.stdout, "random minus random ("+base+"), paired with the earlier report: +0.000 (+0.000 to +0.000) rabbits over 4 positions (the same move in 4)") {
		t.Errorf("-base: exit status %d, stdout:\n%s\nstderr:\n%s", rb.code, rb.stdout, rb.stderr)
	}
	other := writeFile(t, "other.json", strings.Replace(js.stdout, `"judge": "arimaalab`, `"judge": "another`, 1))
	if r := runCmd(t, "", append(args, "-base", other)...); r.code != 1 || !strings.Contains(r.stderr, "-base "+other+": judged by \"another") {
		t.Errorf("-base of another judge: exit status %d, stderr %q", r.code, r.stderr)
	}

	// -turns: only the positions of turns 2 to 4 are drawn.
	rt := runCmd(t, "", append(judgeArgs, "-a", "random", "-n", "3", "-turns", "2-4", "-json", "-mover", "Guest63204", "testdata/games5.txt")...)
	var trep judge.Report
	if err := json.Unmarshal([]byte(rt.stdout), &trep); err != nil || trep.Positions != 3 {
		t.Fatalf("-turns: %v, %d positions; stderr:\n%s", err, trep.Positions, rt.stderr)
	}
	for _, m := range trep.Players[0].Moves {
		if m.Turn < 2 || m.Turn > 4 {
			t.Errorf("-turns 2-4: a move of turn %d (%s)", m.Turn, m.Where)
		}
	}

	// -decided: a bound of a billionth leaves out every position the judge
	// does not score exactly 0, naming the score.
	rd := runCmd(t, "", append(judgeArgs, "-a", "random", "-n", "4", "-seed", "3", "-decided", "1e-9", "-mover", "Guest63204", "testdata/games5.txt")...)
	if !strings.Contains(rd.stdout+rd.stderr, ": decided, the judge scores it ") {
		t.Errorf("-decided: exit status %d, stdout:\n%s\nstderr:\n%s", rd.code, rd.stdout, rd.stderr)
	}

	// A position file: Gold's and Silver's standard positions.
	r := runCmd(t, "", append(judgeArgs, "-a", "gen0,visits=40", "-json", positions)...)
	if r.code != 0 {
		t.Fatalf("positions: exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	rep = judge.Report{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Positions != 2 || rep.Paired != nil || len(rep.Players[0].Moves) != 2 {
		t.Errorf("positions: %+v", rep)
	}
}
