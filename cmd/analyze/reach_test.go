package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReach runs analyze reach with this project's engine as the judge
// (through sharpLike, as TestRegret does) on two games compared with
// themselves: every pair's difference is 0, since each position is judged
// once; a second run takes every score from the cache; bad command lines and
// files get one-line errors.
func TestReach(t *testing.T) {
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	t.Setenv(aeiHelperEnv, "sharp")
	helper := "'" + os.Args[0] + "' -test.run=^TestHelperAEIEngine$"
	data, err := os.ReadFile("testdata/games5.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	games := writeFile(t, "games.txt", strings.Join([]string{lines[0], lines[2], lines[3]}, "\n")+"\n") // Guest63204 against bot_ArimaaScoreP1
	cache := filepath.Join(t.TempDir(), "scores.jsonl")
	args := []string{"reach", "-engine", helper, "-option", "visits=40", "-option", "threads=1", "-opponent", "bot_ArimaaScoreP1",
		"-turns", "8,3", "-workers", "2", "-cache", cache, "-base", games, games}

	r := runCmd(t, "", args...)
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	// The first game ends at turn 7, lost by Guest63204: 3 positions.
	for _, w := range []string{"judge      arimaalab ", "positions  3 scored, 0 from the cache\n", "A: Guest63204, 2 games of ",
		"  3           2      0  ", "  8           2      1  ", "unpaired: 0 of A, 0 of B", "  3           2  +0.000 (+0.000 to +0.000)",
		"  mean        2  +0.000 (+0.000 to +0.000)"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout has no %q:\n%s", w, r.stdout)
		}
	}
	again := runCmd(t, "", args...)
	if again.code != 0 || !strings.Contains(again.stdout, "positions  0 scored, 3 from the cache\n") {
		t.Errorf("again: exit status %d, stdout:\n%s\nstderr:\n%s", again.code, again.stdout, again.stderr)
	}
	if again.stdout[strings.Index(again.stdout, "score "):] != r.stdout[strings.Index(r.stdout, "score "):] {
		t.Errorf("the report from the cache differs:\n%s\nbefore:\n%s", again.stdout, r.stdout)
	}

	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no files", []string{"reach", "-engine", helper, "-opponent", "x"}, 2, "want at least one archive FILE"},
		{"no opponent", []string{"reach", "-engine", helper, games}, 2, "-opponent is required"},
		{"no engine", []string{"reach", "-opponent", "x", games}, 2, "-engine is required"},
		{"bad turns", []string{"reach", "-engine", helper, "-opponent", "x", "-turns", "6,one", games}, 2, `-turns "6,one": "one" is not a turn of 2 or more`},
		{"turn 1", []string{"reach", "-engine", helper, "-opponent", "x", "-turns", "1", games}, 2, `"1" is not a turn of 2 or more`},
		{"no workers", []string{"reach", "-engine", helper, "-opponent", "x", "-workers", "0", games}, 2, "-workers must be at least 1"},
		{"no such opponent", []string{"reach", "-engine", helper, "-opponent", "nobody", games}, 1, games + `:2: game `},
		{"missing file", []string{"reach", "-engine", helper, "-opponent", "x", "/nonexistent/games.txt"}, 1, "/nonexistent/games.txt"},
		{"bad cache", []string{"reach", "-engine", helper, "-opponent", "bot_ArimaaScoreP1", "-cache", games, games}, 1, games + ":1: not a cached score"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.err) || c.code == 1 && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%s: exit status %d, stderr %q; want %d and %q", c.name, r.code, r.stderr, c.code, c.err)
		}
	}
}
