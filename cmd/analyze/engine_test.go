package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// aeiHelperEnv makes TestHelperAEIEngine serve AEI on stdin and stdout: "1"
// this project's engine, "sharp" the same engine acting as Sharp does (see
// sharpLike).
const aeiHelperEnv = "ARIMAALAB_ANALYZE_AEI_HELPER"

// TestHelperAEIEngine is not a test: run as a child process with aeiHelperEnv
// set, it is an AEI engine for the tests of analyze best -engine.
func TestHelperAEIEngine(t *testing.T) {
	mode := os.Getenv(aeiHelperEnv)
	if mode == "" {
		return
	}
	e, err := aei.NewEngine(aei.Config{})
	if err != nil {
		os.Exit(1)
	}
	if mode == "sharp" {
		err = sharpLike(e, os.Stdin, os.Stdout)
	} else {
		err = e.Run(context.Background(), os.Stdin, os.Stdout)
	}
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// sharpLike runs e on in and out as Sharp behaves: makemove, setposition, go
// and stop before the first newgame get "log Error: ... called without
// newgame" and nothing else, and setposition ignores the side to move (Gold
// is always to move).
func sharpLike(e *aei.Engine, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- e.Run(context.Background(), pr, w) }()
	newgame := false
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "newgame":
			newgame = true
		case "makemove", "setposition", "go", "stop":
			if !newgame {
				fmt.Fprintf(w, "log Error: %s called without newgame\n", cmd)
				continue
			}
		}
		if cmd == "setposition" && len(rest) > 2 {
			line = "setposition g " + rest[2:]
		}
		if _, err := io.WriteString(pw, line+"\n"); err != nil {
			break
		}
	}
	pw.Close()
	return <-done
}

// lockedWriter serializes the writes of the engine and of sharpLike.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestBestEngine(t *testing.T) {
	// A race-enabled program exiting with status 0 sleeps a second first.
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	helper := "'" + os.Args[0] + "' -test.run=^TestHelperAEIEngine$"
	over := build(t, engine.Silver, "Ra8 rh2")
	silverGoal := build(t, engine.Silver, "ra2 rb8 Rh1 Ed4") // ra2s wins
	silverStandard := "s" + standard3353[1:]
	mirrorStandard := "g [rrrrrrrrhdcmecdh" + strings.Repeat(" ", 32) + "HDCEMCDHRRRRRRRR]" // of silverStandard
	silverSetup := "s [" + strings.Repeat(" ", 48) + "HDCMECDHRRRRRRRR]"
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string // in stdout
		wantRe   []string // regular expressions matched in stdout
		wantErr  string   // in stderr
		setup    bool     // the move is Silver's setup
		sharp    bool     // the engine acts as Sharp does (sharpLike)
	}{
		{name: "visits", args: []string{"-engine", helper, "-visits", "200", "-threads", "2", "-position", standard3353},
			want: []string{"engine       arimaalab ", "position     " + standard3353, "info         nodes 200\n", "info         pv ", "log          Debug: search 200 simulations"}},
		{name: "time", args: []string{"-engine", helper, "-time", "500ms", "-position", standard3353},
			// The hard limit is the move time less what the engine's clock had
			// already counted when the search began: under 0.5 s, by how much
			// depends on the machine's load.
			want:   []string{"info         score "},
			wantRe: []string{`Debug: search 0\.2\d\d s \(Gold's reserve 0\.000 s, hard limit 0\.([0-4]\d\d|500) s\)`}},
		{name: "goal", args: []string{"-engine", helper, "-position", build(t, engine.Gold, "Ra7 ca8 Db8 rh8 ea1")},
			want: []string{"move         Db8e ca8e Ra7n\n"}},
		{name: "options", args: []string{"-engine", helper, "-option", "visits=150", "-option", "event=a test", "-position", standard3353},
			want: []string{"info         nodes 150\n"}},
		{name: "silver", args: []string{"-engine", helper, "-visits", "200", "-position", silverStandard},
			want: []string{"searched     " + mirrorStandard + " (the mirror image", "info         nodes 200\n"}},
		// An engine that refuses everything before newgame and always searches
		// for Gold, as Sharp does.
		{name: "sharp-like gold", sharp: true, args: []string{"-engine", helper, "-visits", "100", "-position", standard3353},
			want: []string{"info         nodes 100\n"}},
		{name: "sharp-like silver", sharp: true, args: []string{"-engine", helper, "-visits", "100", "-position", silverStandard},
			want: []string{"searched     " + mirrorStandard}},
		{name: "sharp-like silver goal", sharp: true, args: []string{"-engine", helper, "-position", silverGoal},
			want: []string{"ra2s\n"}}, // the goal, perhaps after other steps
		{name: "sharp-like silver setup", sharp: true, args: []string{"-engine", helper, "-position", silverSetup}, setup: true},
		{name: "game over", args: []string{"-engine", helper, "-position", over}, wantCode: 1, wantErr: "analyze best: -position: the game is over: Gold wins by goal"},
		{name: "option without engine", args: []string{"-option", "depth=4", "-position", standard3353}, wantCode: 2, wantErr: "-option goes with -engine"},
		{name: "bad option", args: []string{"-engine", helper, "-option", "depth", "-position", standard3353}, wantCode: 2, wantErr: `"depth" is not NAME=VALUE`},
		{name: "missing engine", args: []string{"-engine", "/nonexistent/engine", "-position", standard3353}, wantCode: 1, wantErr: "analyze best: -engine: aei: starting the engine"},
		{name: "json", args: []string{"-engine", helper, "-json", "-position", standard3353}, wantCode: 2, wantErr: "-json does not go with -engine"},
		{name: "seed", args: []string{"-engine", helper, "-seed", "3", "-position", standard3353}, wantCode: 2, wantErr: "-seed does not go with -engine"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(aeiHelperEnv, "1")
			if tc.sharp {
				t.Setenv(aeiHelperEnv, "sharp")
			}
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
			for _, re := range tc.wantRe {
				if !regexp.MustCompile(re).MatchString(r.stdout) {
					t.Errorf("stdout does not match %q:\n%s", re, r.stdout)
				}
			}
			if tc.wantCode != 0 {
				return
			}
			if strings.Contains(r.stderr, "WARN") {
				t.Errorf("the engine reported errors:\n%s", r.stderr)
			}
			if tc.setup {
				if _, err := engine.ParseSetup(engine.Silver, field(t, r.stdout, "move")); err != nil {
					t.Errorf("the setup printed is not legal: %v", err)
				}
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
