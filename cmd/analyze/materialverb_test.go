package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMaterial(t *testing.T) {
	const games = "../../docs/strength/sixth-rabbits-1s-vs-sharp4.games.txt" // gen0 against Sharp, 10 games
	const base = "../../docs/strength/sixth-default-1s-vs-sharp4.games.txt"  // the same setups, the bot before
	runVerbCases(t, []verbCase{
		{name: "one file", args: []string{"material", "-opponent", "sharp4", games}, wantOut: []string{
			"gen0: 10 games, 0 won\n", "  first loss (turn)                    7.70 (", "  net material at turn 15 (rabbits)    -3.70 ("}},
		{name: "at", args: []string{"material", "-opponent", "sharp4", "-at", "200", games}, wantOut: []string{
			"  net material at turn 200 (rabbits)   -8.90 ("}},
		{name: "paired", args: []string{"material", "-opponent", "sharp4", games, "-base", base}, wantOut: []string{
			"gen0 minus gen0, game by game over 10 games (the mean, its 95 % interval, the least true difference these games see four times in five)\n",
			"  first loss (turn)                    -1.50 (-4.58 to +1.58)     4.28\n"}},
		{name: "no opponent", args: []string{"material", games}, wantCode: 2, wantErr: "-opponent is required"},
		{name: "unknown opponent", args: []string{"material", "-opponent", "nobody", games}, wantCode: 1,
			wantErr: games + ": game 1: no player \"nobody\""},
		{name: "unpaired", args: []string{"material", "-opponent", "sharp4", games, "-base", base, "-base", base}, wantCode: 1,
			wantErr: "10 games against 20"},
		{name: "sprt", args: []string{"material", "-opponent", "sharp4", "-sprt", "first-loss:0,-5", games, "-base", base}, wantOut: []string{
			"sequential test of first loss (turn): H0 +0.00 against H1 -5.00 (alpha 0.05, beta 0.05; bounds -2.94 and +2.94; no verdict before pair 10)\n",
			"  no verdict after 10 pairs: LLR -2.12, go on\n"}},
		{name: "sprt without base", args: []string{"material", "-opponent", "sharp4", "-sprt", "net:0,1", games}, wantCode: 2,
			wantErr: "-sprt needs -base"},
		{name: "sprt measure", args: []string{"material", "-opponent", "sharp4", "-sprt", "elo:0,1", games, "-base", base}, wantCode: 2,
			wantErr: `unknown measure "elo"`},
		{name: "sprt hypotheses", args: []string{"material", "-opponent", "sharp4", "-sprt", "net:1,1", games, "-base", base}, wantCode: 2,
			wantErr: "d0 and d1 must differ"},
		{name: "sprt siege", args: []string{"material", "-opponent", "sharp4", "-sprt", "siege:0,-1", games, "-base", base}, wantCode: 1,
			wantErr: "turns under a goal siege: not measured in these games"},
	})
}

// TestMaterialSiege measures the goal sieges of the first two games of an
// archive (the goal search over every move of the last turns takes about a
// second a game for the whole archive): 3 and 2 turns.
func TestMaterialSiege(t *testing.T) {
	data, err := os.ReadFile("../../docs/strength/forty-ninth-control-1s-vs-sharp4.games.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	two := filepath.Join(t.TempDir(), "two.games.txt")
	if err := os.WriteFile(two, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	runVerbCases(t, []verbCase{
		{name: "siege", args: []string{"material", "-opponent", "sharp4", "-siege", two}, wantOut: []string{
			"gen0: 2 games, 0 won\n", "  turns under a goal siege             2.50 ("}},
		{name: "paired", args: []string{"material", "-opponent", "sharp4", "-siege", two, "-base", two}, wantOut: []string{
			"  turns under a goal siege             +0.00"}},
	})
	if r := runCmd(t, "", "material", "-opponent", "sharp4", two); r.code != 0 || strings.Contains(r.stdout, "siege") {
		t.Errorf("without -siege: exit %d, stdout:\n%s\nwant no siege row", r.code, r.stdout)
	}
}

// verbCase is a run of analyze: its arguments, the exit status wanted, what
// stdout must contain and the one line stderr must contain ("" for any).
type verbCase struct {
	name     string
	args     []string
	wantCode int
	wantOut  []string
	wantErr  string
}

// runVerbCases runs each case as a subtest.
func runVerbCases(t *testing.T, tests []verbCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", r.code, tt.wantCode, r.stderr)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
			if !strings.Contains(r.stderr, tt.wantErr) || tt.wantErr != "" && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Errorf("stderr %q, want one line with %q", r.stderr, tt.wantErr)
			}
		})
	}
}
