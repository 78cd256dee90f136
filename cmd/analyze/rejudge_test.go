package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/judge"
)

// TestRejudgeVerb judges a regret report's moves again: with the same judge
// the regrets are the report's (no difference, all of them seen, correlation
// 1); with another judge the report is that judge's, and serves as -base for
// its runs; bad command lines and files are errors.
func TestRejudgeVerb(t *testing.T) {
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	t.Setenv(aeiHelperEnv, "sharp")
	helper := "'" + os.Args[0] + "' -test.run=^TestHelperAEIEngine$"
	judgeArgs := []string{"-engine", helper, "-option", "visits=40", "-option", "threads=1"}
	games := "testdata/games5.txt"
	regretArgs := append(append([]string{"regret"}, judgeArgs...), "-a", "random", "-b", "gen0,visits=20", "-n", "3", "-seed", "3", "-mover", "Guest63204", "-json", games)
	r := runCmd(t, "", regretArgs...)
	if r.code != 0 {
		t.Fatalf("regret: exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	report := writeFile(t, "report.json", r.stdout)

	same := runCmd(t, "", append(append([]string{"rejudge"}, judgeArgs...), report)...)
	if same.code != 0 {
		t.Fatalf("rejudge: exit status %d; stderr:\n%s", same.code, same.stderr)
	}
	for _, w := range []string{"positions    3\n", "the same moves by the earlier judge (arimaalab ", "\n  random  ", "\n  gen0    ", "random minus gen0, paired: "} {
		if !strings.Contains(same.stdout, w) {
			t.Errorf("rejudged by the same judge: no %q in\n%s", w, same.stdout)
		}
	}
	if n := strings.Count(same.stdout, "+0.000 (+0.000 to +0.000)            1.00  100 %\n"); n != 2 {
		t.Errorf("rejudged by the same judge: %d players with the same regrets, want 2:\n%s", n, same.stdout)
	}

	// Two engines share the positions and give the same report.
	if two := runCmd(t, "", append(append([]string{"rejudge", "-workers", "2"}, judgeArgs...), report)...); two.code != 0 || two.stdout != same.stdout {
		t.Errorf("-workers 2: exit status %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", two.code, two.stdout, same.stdout, two.stderr)
	}

	other := append([]string{"rejudge", "-engine", helper, "-option", "visits=10", "-option", "threads=1", "-json"}, report)
	o := runCmd(t, "", other...)
	var rep judge.Report
	if err := json.Unmarshal([]byte(o.stdout), &rep); err != nil || o.code != 0 {
		t.Fatalf("rejudge -json: %v, exit status %d; stderr:\n%s", err, o.code, o.stderr)
	}
	if !strings.Contains(rep.Judge, "visits=10") || rep.Rejudged == nil || !strings.Contains(rep.Rejudged.From, "visits=40") ||
		len(rep.Players) != 2 || len(rep.Players[1].Moves) != 3 || rep.Players[1].Name != "gen0" {
		t.Fatalf("rejudged report %+v", rep)
	}
	base := writeFile(t, "base.json", o.stdout)
	rb := runCmd(t, "", "regret", "-engine", helper, "-option", "visits=10", "-option", "threads=1", "-a", "random",
		"-n", "3", "-seed", "3", "-mover", "Guest63204", "-base", base, games)
	if rb.code != 0 || !strings.Contains(rb.stdout, "random minus random ("+base+"), paired with the earlier report: +0.000 (+0.000 to +0.000) rabbits over 3 positions (the same move in 3)") {
		t.Errorf("regret -base with the rejudged report: exit status %d, stdout:\n%s\nstderr:\n%s", rb.code, rb.stdout, rb.stderr)
	}

	notReport := writeFile(t, "games.json", "judge sharp\n")
	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no report", append([]string{"rejudge"}, judgeArgs...), 2, "want one report FILE"},
		{"two reports", append(append([]string{"rejudge"}, judgeArgs...), report, report), 2, "want one report FILE"},
		{"no engine", []string{"rejudge", report}, 2, "-engine is required"},
		{"no workers", append(append([]string{"rejudge", "-workers", "0"}, judgeArgs...), report), 2, "-workers must be at least 1"},
		{"negative worst", append(append([]string{"rejudge", "-worst", "-1"}, judgeArgs...), report), 2, "-worst must not be negative"},
		{"missing report", append(append([]string{"rejudge"}, judgeArgs...), "/nonexistent/r.json"), 1, "analyze rejudge: open /nonexistent/r.json"},
		{"not a report", append(append([]string{"rejudge"}, judgeArgs...), notReport), 1, "analyze rejudge: " + notReport + ": not a regret report"},
		{"missing engine", []string{"rejudge", "-engine", "/nonexistent/engine", report}, 1, "analyze rejudge: -engine: aei: starting the engine"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.err) || c.code == 1 && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%s: exit status %d, stderr %q; want %d and %q", c.name, r.code, r.stderr, c.code, c.err)
		}
	}
}
