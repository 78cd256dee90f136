package match

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/aei"
)

// buildAEI builds cmd/aei, the project's own AEI engine, into a temporary
// directory.
func buildAEI(t *testing.T) string {
	t.Helper()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build cmd/aei")
	}
	bin := filepath.Join(t.TempDir(), "aei")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command(gotool, "build", "-o", bin, "github.com/arimaalab/arimaalab/cmd/aei")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/aei: %v\n%s", err, out)
	}
	return bin
}

// TestAEIEngineGames plays whole games against the project's engine over AEI
// (generation 0 on both sides) and checks every record.
func TestAEIEngineGames(t *testing.T) {
	bin := buildAEI(t)
	dir := t.TempDir()
	bot := player(t, "aei="+bin+" -seed 7,option.visits=48,name=bot")
	res, err := Run(context.Background(), player(t, "gen0,visits=48"), bot,
		Options{Games: 4, Seed: 4, MaxTurns: 60, Setups: DefaultSetups(), Concurrency: 2, Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Games() != 4 {
		t.Fatalf("%d games", res.Stats.Games())
	}
	for _, r := range readGames(t, dir) {
		if r.Gold != "bot" && r.Silver != "bot" {
			t.Errorf("game %s: players %s and %s", r.ID, r.Gold, r.Silver)
		}
	}
	t.Log(res.Line())
	// The engines of finished games are kept for the next ones: at most one
	// per game at once.
	if p := bot.(*AEIPlayer); len(p.idle) == 0 || len(p.idle) > 2 {
		t.Errorf("%d idle engines after the match, want 1 or 2", len(p.idle))
	}
}

// fakeEngine writes a shell script that opens an AEI session properly and
// then does what onGo says when asked for a move.
func fakeEngine(t *testing.T, onGo string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake engines are shell scripts")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	path := filepath.Join(t.TempDir(), "fake")
	script := `#!/bin/sh
while read -r line; do
	case "$line" in
	aei) printf 'protocol-version 1\nid name fake\nid author test\naeiok\n' ;;
	isready) echo readyok ;;
	go*) ` + onGo + ` ;;
	quit) exit 0 ;;
	esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAEIEngineDies: an engine that exits when asked for a move stops the
// match with an error that says so and names the player and the turn.
func TestAEIEngineDies(t *testing.T) {
	bin := fakeEngine(t, "exit 3")
	_, err := Run(context.Background(), player(t, "random"), player(t, "aei="+bin+",name=dying"),
		Options{Games: 2, Seed: 1, Setups: DefaultSetups(), Concurrency: 1})
	if !errors.Is(err, aei.ErrEngineDied) {
		t.Fatalf("error %v, want one wrapping aei.ErrEngineDied", err)
	}
	for _, want := range []string{"dying", "turn 2s", "game 0 of random vs dying"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	t.Log(err)
}

// TestAEITimeout: timeout=D bounds the answer of an engine given no time per
// move (a search bounded by depth alone): one that never answers stops the
// match after D, not after the controller's minute.
func TestAEITimeout(t *testing.T) {
	bin := fakeEngine(t, ":") // never answers go
	start := time.Now()
	_, err := Run(context.Background(), player(t, "aei="+bin+",name=slow,timeout=300ms"), player(t, "random"),
		Options{Games: 2, Seed: 1, Setups: DefaultSetups(), Concurrency: 1})
	if !errors.Is(err, aei.ErrTimeout) {
		t.Fatalf("error %v, want one wrapping aei.ErrTimeout", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the match stopped after %v: the timeout was not the spec's", d)
	}
	if !strings.Contains(err.Error(), "slow") {
		t.Errorf("error %q does not name the player", err)
	}
}

// TestAEIIllegalMove: an engine that answers an illegal move stops the match
// with an error that names the move.
func TestAEIIllegalMove(t *testing.T) {
	bin := fakeEngine(t, "echo 'bestmove Ra1n Ra2n Ra3n Ra4n Ra5n'")
	_, err := Run(context.Background(), player(t, "aei="+bin+",name=cheat"), player(t, "random"),
		Options{Games: 2, Seed: 1, Setups: DefaultSetups(), Concurrency: 1})
	if !errors.Is(err, aei.ErrIllegalMove) {
		t.Fatalf("error %v, want one wrapping aei.ErrIllegalMove", err)
	}
	for _, want := range []string{"cheat", "turn 2g", "Ra5n"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	t.Log(err)
}
