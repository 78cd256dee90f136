package match

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// sharpPath is where the workspace keeps Sharp, the reference opponent, from
// this package's directory.
const sharpPath = "../../shared/opponents/sharp"

// TestAEISharp plays a game pair against Sharp at depth 4 (one turn) with a
// few simulations a move on our side: the match must complete with every
// game recorded, and Sharp must report no error. Skipped with -short or when
// the binary is absent.
func TestAEISharp(t *testing.T) {
	if testing.Short() {
		t.Skip("plays Sharp")
	}
	bin, err := filepath.Abs(filepath.FromSlash(sharpPath))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Sharp: %v", err)
	}
	s, err := ParseSpec("aei="+bin+" aei,option.depth=4,option.ignoretc=true,name=sharp", "")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return log.Write(p)
	}), nil))
	sharp, err := NewAEIPlayerWith(s, AEIOptions{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer sharp.Close()
	dir := t.TempDir()
	res, err := Run(context.Background(), player(t, "gen0,visits=16"), sharp,
		Options{Games: 2, Seed: 1, MaxTurns: 40, Setups: DefaultSetups(), Concurrency: 1, Out: dir, Log: logger})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(readGames(t, dir)); n != 2 || res.Stats.Games() != 2 {
		t.Fatalf("%d games recorded, %d counted; want 2", n, res.Stats.Games())
	}
	t.Log(res.Line())
	mu.Lock()
	defer mu.Unlock()
	if log.Len() > 0 {
		t.Errorf("warnings:\n%s", log.String())
	}
}
