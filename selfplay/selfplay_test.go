package selfplay

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
)

// testConfig is a small, fast configuration.
func testConfig(t testing.TB) Config {
	t.Helper()
	c, err := DefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	c.Games = 4
	c.GamesPerShard = 2
	c.MaxTurns = 24
	c.Search.Visits = 40
	c.CheapVisits = 12
	c.Search.MaxNodes = 1 << 14
	return c
}

func run(t testing.TB, c Config, dir string, shard, workers int) *Summary {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Run(context.Background(), c, Options{Out: dir, Seed: 7, Shard: shard, Workers: workers, Weights: w, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// files returns the contents of the files of dir by name.
func files(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func sameFiles(t *testing.T, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d files against %d", len(a), len(b))
	}
	for name, x := range a {
		y, ok := b[name]
		if !ok {
			t.Fatalf("%s missing", name)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs", name)
		}
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	c := testConfig(t)
	d1, d2, d3 := t.TempDir(), t.TempDir(), t.TempDir()
	s := run(t, c, d1, -1, 1)
	run(t, c, d2, -1, 2)
	run(t, c, d3, -1, 2)
	f1 := files(t, d1)
	if len(f1) != 4 { // 2 shards: .arrow and .games.txt each
		t.Fatalf("%d files, want 4: %v", len(f1), f1)
	}
	sameFiles(t, f1, files(t, d2))
	sameFiles(t, f1, files(t, d3))
	if s.Games != 4 || s.Shards != 2 {
		t.Fatalf("summary %+v", s)
	}
}

func TestShardsAreDisjointAndUnionIsTheRun(t *testing.T) {
	c := testConfig(t)
	all, parts := t.TempDir(), t.TempDir()
	run(t, c, all, -1, 2)
	run(t, c, parts, 1, 1)
	run(t, c, parts, 0, 1)
	sameFiles(t, files(t, all), files(t, parts))
	ids := map[uint64]int{}
	for i := range 2 {
		rows, err := data.ReadRows(ShardPath(all, i))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if s, ok := ids[r.GameID]; ok && s != i {
				t.Fatalf("game %d in shards %d and %d", r.GameID, s, i)
			}
			ids[r.GameID] = i
		}
	}
	if len(ids) != 4 {
		t.Fatalf("%d games, want 4", len(ids))
	}
}

func TestRowsAndRecordsAgree(t *testing.T) {
	c := testConfig(t)
	dir := t.TempDir()
	run(t, c, dir, -1, 2)
	for i := range 2 {
		rows, err := data.ReadRows(ShardPath(dir, i))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(GamesPath(dir, i))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := engine.ReadArchive(f, GamesPath(dir, i))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 2 {
			t.Fatalf("shard %d: %d records, want 2", i, len(recs))
		}
		k := 0
		for _, rec := range recs {
			g, err := engine.Replay(rec)
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.CheckResult(rec, g); err != nil {
				t.Fatal(err)
			}
			moves := g.Moves()
			for j, m := range moves {
				r := rows[k+j]
				if r.Move != m {
					t.Fatalf("shard %d game %s turn %d: row move %q, record %q", i, rec.ID, j, r.Move, m)
				}
				if int(r.PliesLeft) != len(moves)-j {
					t.Fatalf("plies_left %d, want %d", r.PliesLeft, len(moves)-j)
				}
				pos := g.PositionBefore(j)
				for b := range pos.Bits {
					if uint64(pos.Bits[b]) != r.Board[b] {
						t.Fatalf("board %d differs at turn %d", b, j)
					}
				}
				out := g.Outcome()
				want := int8(0)
				if out.Over() {
					want = -1
					if engine.Color(r.Side) == out.Winner {
						want = 1
					}
				}
				if r.Result != want {
					t.Fatalf("result %d, want %d (%v)", r.Result, want, out)
				}
			}
			k += len(moves)
		}
		if k != len(rows) {
			t.Fatalf("shard %d: %d rows, records have %d turns", i, len(rows), k)
		}
	}
}

func TestRerunIsNoOp(t *testing.T) {
	c := testConfig(t)
	dir := t.TempDir()
	run(t, c, dir, -1, 2)
	before := files(t, dir)
	s := run(t, c, dir, -1, 2)
	if s.Shards != 0 || s.ShardsSkipped != 2 || s.Games != 0 {
		t.Fatalf("rerun played: %+v", s)
	}
	sameFiles(t, before, files(t, dir))
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ yaml, want string }{
		{"gamez: 3\n", "gamez"},
		{"cheap_visits: 0\n", "cheap_visits"},
		{"full_share: 2\n", "full_share"},
		{"compression: gzip\n", "compression"},
		{"search:\n  threads: 2\n", "threads"},
		{"search:\n  visitz: 2\n", "visitz"},
	}
	for _, tc := range tests {
		p := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(p, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "c.yaml") {
			t.Errorf("%q: error %v, want one naming the file and %q", tc.yaml, err, tc.want)
		}
	}
	p := filepath.Join(dir, "ok.yaml")
	os.WriteFile(p, []byte("games: 9\nsearch:\n  visits: 100\n"), 0o644)
	c, err := LoadConfig(p)
	if err != nil || c.Games != 9 || c.Search.Visits != 100 || c.CheapVisits != 64 {
		t.Fatalf("override: %+v, %v", c, err)
	}
}

// TestKilledRunResumes kills a self-play process with SIGKILL in the middle of
// a run, reruns it, and checks that the result equals an uninterrupted run:
// nothing lost, nothing counted twice, no temporary file left.
func TestKilledRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	c := testConfig(t)
	c.Games = 6
	clean := t.TempDir()
	run(t, c, clean, -1, 2)

	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=TestHelperSelfPlay")
	cmd.Env = append(os.Environ(), "SELFPLAY_HELPER_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once the first shard is written and the next one is under way.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(ShardPath(dir, 0)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child wrote no shard in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	run(t, c, dir, -1, 2)
	got := files(t, dir)
	for name := range got {
		if strings.HasSuffix(name, ".tmp") {
			t.Fatalf("%s left behind", name)
		}
	}
	sameFiles(t, files(t, clean), got)
}

// TestHelperSelfPlay is the child process of TestKilledRunResumes.
func TestHelperSelfPlay(t *testing.T) {
	dir := os.Getenv("SELFPLAY_HELPER_DIR")
	if dir == "" {
		t.Skip("only a child process of TestKilledRunResumes")
	}
	c := testConfig(t)
	c.Games = 6
	run(t, c, dir, -1, 1)
}

func BenchmarkSelfPlay(b *testing.B) {
	c, err := DefaultConfig()
	if err != nil {
		b.Fatal(err)
	}
	c.Games = 4
	c.GamesPerShard = 4
	var turns int64
	for b.Loop() {
		s := run(b, c, b.TempDir(), -1, 0)
		turns += s.Rows
	}
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
}
