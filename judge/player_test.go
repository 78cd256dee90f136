package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/match"
)

func spec(t *testing.T, text string) match.Spec {
	t.Helper()
	s, err := match.ParseSpec(text, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlayers checks the players of specifications: legal moves, the same
// move for the same seed (the search with one thread, the random mover), and
// the random mover's moves varying with the seed.
func TestPlayers(t *testing.T) {
	pos := parse(t, "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	silver, err := aei.MirrorPosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"gen0,visits=60", "gen0,visits=60,scan=off,name=g", "random"} {
		p, err := NewPlayer(t.Context(), spec(t, text), aei.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if want := spec(t, text).Name; p.Name() != want {
			t.Errorf("%s: name %q, want %q", text, p.Name(), want)
		}
		moves := map[string]bool{}
		for _, ps := range []engine.Position{pos, silver} {
			for seed := range uint64(4) {
				m1, err1 := p.Move(t.Context(), ps, nil, seed)
				m2, err2 := p.Move(t.Context(), ps, nil, seed)
				if err1 != nil || err2 != nil || m1 != m2 {
					t.Errorf("%s, seed %d: %q, %v then %q, %v", text, seed, m1, err1, m2, err2)
				}
				if turn := engine.NewTurn(ps); turn.PlayMove(m1) != nil || turn.CanEnd() != nil {
					t.Errorf("%s: %q is not a legal move in %s", text, m1, ps.String())
				}
				moves[m1] = true
			}
		}
		if text == "random" && len(moves) < 5 {
			t.Errorf("random: %d different moves in 8 draws", len(moves))
		}
	}
	if _, err := NewPlayer(t.Context(), spec(t, "gen0,temp=1,temp-turns=10"), aei.Options{}); err == nil || !strings.Contains(err.Error(), "temp does not apply") {
		t.Errorf("a player with a temperature: %v", err)
	}
	if _, err := NewPlayer(t.Context(), spec(t, filepath.Join(t.TempDir(), "none.json")), aei.Options{}); err == nil {
		t.Error("a missing weights file: no error")
	}
}

// TestEnginePlayer checks an external engine as a player: its options sent,
// a position with Silver to move asked as its mirror image and the move
// mirrored back.
func TestEnginePlayer(t *testing.T) {
	silver := board(t, engine.Silver, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	dir := t.TempDir()
	table := filepath.Join(dir, "table")
	m := mirror(t, silver)
	if err := os.WriteFile(table, []byte(m[3:len(m)-1]+"|none||Rh2n Rh3n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log")
	opt := aei.Options{Env: append(os.Environ(), fakeEnv+"="+table, fakeLogEnv+"="+log,
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))}
	p, err := NewPlayer(t.Context(), spec(t, "aei='"+os.Args[0]+"',time=2s,option.depth=4,name=fake"), opt)
	if err != nil {
		t.Fatal(err)
	}
	move, err := p.Move(t.Context(), parse(t, silver), nil, 1)
	if err != nil || move != "rh7s rh6s" {
		t.Errorf("move %q, %v; want rh7s rh6s", move, err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(received(t, log, "setoption", "setposition"), "\n")
	want := "setoption name tcmove value 2\nsetoption name tcreserve value 0\nsetoption name tcpercent value 0\nsetoption name depth value 4\nsetposition g " + m[2:]
	if got != want {
		t.Errorf("the engine got\n%s\nwant\n%s", got, want)
	}
}
