package main

import (
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
			"gen0 minus gen0, game by game over 10 games\n", "  first loss (turn)                    -1.50 ("}},
		{name: "no opponent", args: []string{"material", games}, wantCode: 2, wantErr: "-opponent is required"},
		{name: "unknown opponent", args: []string{"material", "-opponent", "nobody", games}, wantCode: 1,
			wantErr: games + ": game 1: no player \"nobody\""},
		{name: "unpaired", args: []string{"material", "-opponent", "sharp4", games, "-base", base, "-base", base}, wantCode: 1,
			wantErr: "10 games against 20"},
	})
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
