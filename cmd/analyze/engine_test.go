package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// aeiHelperEnv makes TestHelperAEIEngine serve AEI on stdin and stdout.
const aeiHelperEnv = "ARIMAALAB_ANALYZE_AEI_HELPER"

// TestHelperAEIEngine is not a test: run as a child process with aeiHelperEnv
// set, it is an AEI engine for the tests of analyze best -engine.
func TestHelperAEIEngine(t *testing.T) {
	if os.Getenv(aeiHelperEnv) == "" {
		return
	}
	e, err := aei.NewEngine(aei.Config{})
	if err != nil {
		os.Exit(1)
	}
	if err := e.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

func TestBestEngine(t *testing.T) {
	t.Setenv(aeiHelperEnv, "1")
	// A race-enabled program exiting with status 0 sleeps a second first.
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	helper := "'" + os.Args[0] + "' -test.run=^TestHelperAEIEngine$"
	over := build(t, engine.Silver, "Ra8 rh2")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string // in stdout
		wantErr  string   // in stderr
	}{
		{name: "visits", args: []string{"-engine", helper, "-visits", "200", "-threads", "2", "-position", standard3353},
			want: []string{"engine       arimaalab ", "position     " + standard3353, "info         nodes 200\n", "info         pv ", "log          Debug: search 200 simulations"}},
		{name: "time", args: []string{"-engine", helper, "-time", "500ms", "-position", standard3353},
			want: []string{"info         score ", "Debug: search 0.225 s (Gold's hard limit 0.500 s)"}},
		{name: "goal", args: []string{"-engine", helper, "-position", build(t, engine.Gold, "Ra7 ca8 Db8 rh8 ea1")},
			want: []string{"move         Db8e ca8e Ra7n\n"}},
		{name: "game over", args: []string{"-engine", helper, "-position", over}, wantCode: 1, wantErr: "analyze best: -engine: aei: go: the game is over"},
		{name: "missing engine", args: []string{"-engine", "/nonexistent/engine", "-position", standard3353}, wantCode: 1, wantErr: "analyze best: -engine: aei: starting the engine"},
		{name: "json", args: []string{"-engine", helper, "-json", "-position", standard3353}, wantCode: 2, wantErr: "-json does not go with -engine"},
		{name: "seed", args: []string{"-engine", helper, "-seed", "3", "-position", standard3353}, wantCode: 2, wantErr: "-seed does not go with -engine"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"best"}, tc.args...)...)
			if r.code != tc.wantCode {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.wantErr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout does not contain %q:\n%s", w, r.stdout)
				}
			}
			if tc.wantCode != 0 {
				return
			}
			pos, err := engine.ParsePosition(tc.args[len(tc.args)-1])
			if err != nil {
				t.Fatal(err)
			}
			turn := engine.NewTurn(pos)
			if err := turn.PlayMove(field(t, r.stdout, "move")); err != nil {
				t.Errorf("the move printed is not legal: %v", err)
			}
		})
	}
}
