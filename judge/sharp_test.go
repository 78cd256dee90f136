package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// sharpPath is Sharp beside the repository (see ../shared/opponents/README.md).
var sharpPath = filepath.Join("..", "..", "shared", "opponents", "sharp")

// TestSharp judges positions with the real Sharp at depth 4: the opening is
// about even, a side without its camel is far behind whichever side is to
// move (a Silver position is given mirrored, as Sharp always searches for
// Gold), the scores come from its log line, and its moves are legal. Skipped
// without the binary and under -short.
func TestSharp(t *testing.T) {
	e := startSharp(t)
	if d := e.Describe(); !strings.Contains(d, "with depth=4, ignoretc=true, hash=16") {
		t.Errorf("Describe() = %q", d)
	}
	empty := strings.Repeat(" ", 32)
	noCamel := "[rrrrrrrrhdcemcdh" + empty + "HDC ECDHRRRRRRRR]" // Gold's camel gone
	for _, c := range []struct {
		pos    string
		lo, hi float64
	}{
		{"g [rrrrrrrrhdcemcdh" + empty + "HDCMECDHRRRRRRRR]", -2, 2},
		{"s [rrrrrrrrhdcemcdh" + empty + "HDCMECDHRRRRRRRR]", -2, 2},
		{"g " + noCamel, -20, -5},
		{"s " + noCamel, 5, 20},
	} {
		p := parse(t, c.pos)
		ev, err := e.Eval(t.Context(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Score < c.lo || ev.Score > c.hi || ev.Source != FromLog || float64(ev.Raw)/1000 != ev.Score {
			t.Errorf("%s: %+v; want a score from %g to %g from the log line", c.pos, ev, c.lo, c.hi)
		}
		if turn := engine.NewTurn(p); turn.PlayMove(ev.Best) != nil || turn.CanEnd() != nil {
			t.Errorf("%s: Sharp's move %q is not legal", c.pos, ev.Best)
		}
	}
	// Sharp's own move regrets little.
	p := parse(t, "s "+noCamel)
	sharp := &scripted{name: "sharp", moves: map[string]string{}}
	ev, err := e.Eval(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	sharp.moves[p.String()] = ev.Best
	rep, err := Run(t.Context(), e, e.Describe(), []Player{sharp}, []Position{{Pos: p, Where: "no camel"}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Players[0].MeanRegret; r < -1 || r > 1 {
		t.Errorf("Sharp's own move regrets %g rabbits", r)
	}
}

// startSharp starts the real Sharp at depth 4 (hash 16) as a judge, closed
// when the test ends; it skips the test under -short or without the binary.
func startSharp(t *testing.T) *Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Sharp")
	}
	if _, err := os.Stat(sharpPath); err != nil {
		t.Skipf("no Sharp: %v", err)
	}
	e, err := Start(t.Context(), Options{
		Command: "'" + sharpPath + "' aei",
		Options: [][2]string{{"depth", "4"}, {"ignoretc", "true"}, {"hash", "16"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
