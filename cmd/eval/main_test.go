package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runEval(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestMatch runs the README's command: generation 0 against the random mover.
func TestMatch(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runEval(t, "-a", "gen0,visits=200", "-b", "random", "-games", "2", "-out", dir, "-sprt", "0,200,0.05,0.05")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Results of gen0 vs random", "Games: 2, Wins: 2", "Ptnml(0-2): [0, 0, 0, 0, 1]", "LLR: ",
		"Material of gen0: first piece lost at turn ", "Material of random: first piece lost at turn "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"match.json", "results.jsonl", "games.txt", "summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// The same command again needs -resume, and fails before any results
	// block; with -resume nothing is replayed.
	if code, out, errs := runEval(t, "-a", "gen0,visits=200", "-b", "random", "-games", "2", "-out", dir, "-sprt", "0,200,0.05,0.05"); code != 1 || !strings.Contains(errs, "-resume") || out != "" {
		t.Errorf("rerun without -resume: exit %d, %s, stdout %q", code, errs, out)
	}
	code, out, errs = runEval(t, "-a", "gen0,visits=200", "-b", "random", "-games", "2", "-out", dir, "-sprt", "0,200,0.05,0.05", "-resume")
	if code != 0 || !strings.Contains(out, "Resumed: 2 games") {
		t.Errorf("resume: exit %d, %s\n%s", code, errs, out)
	}
}

// TestPool runs a small pool with flags after the players.
func TestPool(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runEval(t, "-pool", "gen0,visits=16", "random", "-games-per-pair", "2", "-out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "| 1 | gen0 | 0 | +0.0 |") || !strings.Contains(out, "| 2 | random | - |") {
		t.Errorf("unexpected table:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "ratings.png")); err != nil {
		t.Error(err)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-a", "gen0"},
		{"-a", "gen0", "-b", "random", "extra"},
		{"-a", "gen0,visits=x", "-b", "random"},
		{"-a", "gen0", "-b", "random", "-sprt", "10,0,0.05,0.05"},
		{"-pool"},
		{"-bogus"},
	} {
		if code, _, _ := runEval(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runEval(t, "-a", "missing.json", "-b", "random", "-games", "2"); code != 1 || !strings.Contains(errs, "missing.json") {
		t.Errorf("a missing weights file: exit %d, %s", code, errs)
	}
}
