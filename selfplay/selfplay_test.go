package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
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
		t.Fatalf("%d files against %d: %v against %v", len(a), len(b), slices.Sorted(maps.Keys(a)), slices.Sorted(maps.Keys(b)))
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
	if len(f1) != 6 { // 2 shards: .arrow, .arrow.xxh128 and .games.txt each
		names := make([]string, 0, len(f1))
		for n := range f1 {
			names = append(names, n)
		}
		t.Fatalf("%d files, want 6: %v", len(f1), names)
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
		{"games: 0\n", "games 0"},
		{"games: -1\n", "games -1"},
		{"workers: -2\n", "workers -2"},
		{"full_share: .nan\n", "full_share NaN"},
		{"random_setup_share: .nan\n", "random_setup_share NaN"},
		{"temperature_start: .inf\n", "temperature_start +Inf"},
		{"temperature_half_life: .nan\n", "temperature_half_life NaN"},
		{"temperature_cutoff: -1\n", "temperature_cutoff -1"},
		{"search:\n  cpuct: -1\n", "search.cpuct -1"},
		{"search:\n  cpuct: .nan\n", "search.cpuct NaN"},
		{"search:\n  fpu_reduction: .inf\n", "search.fpu_reduction +Inf"},
		{"search:\n  dirichlet_alpha: -0.3\n", "search.dirichlet_alpha -0.3"},
		{"search:\n  dirichlet_alpha: 0\n", "search.dirichlet_fraction 0.25"},
		{"search:\n  dirichlet_fraction: 1.5\n", "search.dirichlet_fraction 1.5"},
		{"search:\n  max_nodes: -5\n", "search.max_nodes -5"},
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

// TestOptionErrors: bad options are refused before any game is played.
func TestOptionErrors(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"negative workers", Options{Workers: -2}, "workers -2"},
		{"negative games", Options{Games: -1}, "games -1"},
		{"negative shards", Options{Shards: -3}, "shards -3"},
		{"more shards than games", Options{Games: 2, Shards: 3}, "shards 3"},
		{"shard out of range", Options{Shard: 9}, "shard 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			opt := tc.opt
			opt.Out, opt.Weights, opt.Log = dir, w, slog.New(slog.DiscardHandler)
			if opt.Shard == 0 {
				opt.Shard = -1
			}
			_, err := Run(context.Background(), testConfig(t), opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("files written: %v", ents)
			}
		})
	}
}

// TestShardOfOtherSettings: a published shard made with other settings than
// the run's is refused, naming both.
func TestShardOfOtherSettings(t *testing.T) {
	c := testConfig(t)
	c.Games, c.GamesPerShard = 2, 1
	dir := t.TempDir()
	run(t, c, dir, 0, 1) // seed 7
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	tests := []struct {
		name string
		c    func(Config) Config
		seed uint64
		want string
	}{
		{"seed", func(c Config) Config { return c }, 8, "seed 7, but this run has seed 8"},
		{"config", func(c Config) Config { c.CheapVisits = 13; return c }, 7, "config cheap_visits 12, but this run has config cheap_visits 13"},
		{"games", func(c Config) Config { c.Games = 4; c.GamesPerShard = 2; return c }, 7, "games 2, but this run has games 4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.c(c), Options{Out: dir, Seed: tc.seed, Shard: -1, Weights: w, Log: quiet})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ShardPath(dir, 0)) {
				t.Fatalf("error %v, want one naming the shard and %q", err, tc.want)
			}
		})
	}
	// Other weights.
	w2 := *w
	w2.Values = append([]float64(nil), w.Values...)
	w2.Values[0] += 0.5
	_, err = Run(context.Background(), c, Options{Out: dir, Seed: 7, Shard: -1, Weights: &w2, Log: quiet})
	if err == nil || !strings.Contains(err.Error(), "written with weights") {
		t.Fatalf("other weights: %v", err)
	}
	// A damaged shard is an error too, not a shard silently skipped.
	b, _ := os.ReadFile(ShardPath(dir, 0))
	b[len(b)/2] ^= 1
	os.WriteFile(ShardPath(dir, 0), b, 0o644)
	_, err = Run(context.Background(), c, Options{Out: dir, Seed: 7, Shard: -1, Weights: w, Log: quiet})
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("damaged shard: %v", err)
	}
}

// TestConfigKeys checks that the shards' metadata names the settings by their
// YAML keys, and that the config of shards written before it did (Go field
// names) still matches the same settings.
func TestConfigKeys(t *testing.T) {
	c := testConfig(t)
	meta, err := runMeta(c, Options{Weights: mustGen0(t)}, c.Games, 2)
	if err != nil {
		t.Fatal(err)
	}
	js := meta.Extra["arimaalab.config"]
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"games_per_shard", "max_turns", "cheap_visits", "temperature_half_life", "search"} {
		if _, ok := m[k]; !ok {
			t.Errorf("the config metadata lacks %q: %s", k, js)
		}
	}
	if strings.Contains(js, "GamesPerShard") {
		t.Errorf("Go field names in the config metadata: %s", js)
	}
	// The same settings as written before: Go names, in field order.
	type legacy struct {
		GamesPerShard, Games, Workers, MaxTurns int
		Search                                  mcts.Config
		CheapVisits                             int
		FullShare                               float64
		TemperatureStart, TemperatureEnd        float64
		TemperatureHalfLife                     float64
		TemperatureCutoff                       int
		RandomSetupShare                        float64
		SetupSwaps                              int
		Compression                             data.Compression
	}
	old, err := json.Marshal(legacy{c.GamesPerShard, c.Games, c.Workers, c.MaxTurns, c.Search, c.CheapVisits, c.FullShare,
		c.TemperatureStart, c.TemperatureEnd, c.TemperatureHalfLife, c.TemperatureCutoff, c.RandomSetupShare, c.SetupSwaps, c.Compression})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := canonicalConfig(string(old)), canonicalConfig(js); a != b {
		t.Errorf("legacy config\n%s\ndoes not match\n%s", a, b)
	}
	c.CheapVisits++
	meta2, err := runMeta(c, Options{Weights: mustGen0(t)}, c.Games, 2)
	if err != nil {
		t.Fatal(err)
	}
	if canonicalConfig(string(old)) == canonicalConfig(meta2.Extra["arimaalab.config"]) {
		t.Error("a legacy config matches other settings")
	}
	if got := canonicalConfig("not json"); got != "not json" {
		t.Errorf("canonicalConfig(not json) = %q", got)
	}
}

func mustGen0(t *testing.T) *weights.Weights {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestTwoProcessesOneShard runs the same self-play command twice at once,
// the second started a moment after the first, many times: the second is
// refused naming the first, the first publishes the shard, and the shard
// equals that of a lone run.
func TestTwoProcessesOneShard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	// Searches of 400 visits on every turn keep the first process on its
	// shard for about a second, longer than the second takes to start on a
	// loaded machine: with the usual 40 visits the first was sometimes done
	// before the second looked, and the second then found the shard written.
	const visits = 400
	c := testConfig(t)
	c.Games = 6
	c.Search.Visits, c.CheapVisits = visits, visits
	clean := t.TempDir()
	run(t, c, clean, 0, 1)
	want := files(t, clean)
	trials := 3
	if n, err := strconv.Atoi(os.Getenv("SELFPLAY_TRIALS")); err == nil {
		trials = n // SELFPLAY_TRIALS=20 for the 20 trials
	}
	for trial := range trials {
		dir := t.TempDir()
		start := func() (*exec.Cmd, *bytes.Buffer) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSelfPlay$")
			cmd.Env = append(os.Environ(), "SELFPLAY_HELPER_DIR="+dir, "SELFPLAY_HELPER_SHARD=0",
				"SELFPLAY_HELPER_VISITS="+strconv.Itoa(visits))
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			return cmd, &out
		}
		first, _ := start()
		// The second starts once the first holds the claim.
		for {
			if _, err := os.Stat(data.ClaimPath(ShardPath(dir, 0))); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		second, out2 := start()
		err2 := second.Wait()
		err1 := first.Wait()
		if err1 != nil {
			t.Fatalf("trial %d: the first process failed: %v", trial, err1)
		}
		if err2 == nil || !strings.Contains(out2.String(), "being written by pid") {
			t.Fatalf("trial %d: the second process: %v, output %s", trial, err2, out2)
		}
		sameFiles(t, want, files(t, dir))
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
	// The kill must have landed mid-run, or the rerun tests no resume: the
	// child was ended by the signal, not by finishing, and some shards, not
	// all, were published.
	if cmd.ProcessState.Exited() {
		t.Fatalf("the child ended by itself (%v) before the kill: nothing was interrupted", cmd.ProcessState)
	}
	_, shards, _ := Plan(c, 0, 0)
	written := 0
	for i := range shards {
		if _, err := os.Stat(ShardPath(dir, i)); err == nil {
			written++
		}
	}
	if written == 0 || written == shards {
		t.Fatalf("%d of %d shards written when the child was killed: want some, not all", written, shards)
	}
	s := run(t, c, dir, -1, 2)
	if s.ShardsSkipped != written || s.Shards != shards-written {
		t.Errorf("the rerun played %d shards and skipped %d; want %d played, the %d written kept", s.Shards, s.ShardsSkipped, shards-written, written)
	}
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
	if v, err := strconv.Atoi(os.Getenv("SELFPLAY_HELPER_VISITS")); err == nil {
		c.Search.Visits, c.CheapVisits = v, v
	}
	shard := -1
	if os.Getenv("SELFPLAY_HELPER_SHARD") == "0" {
		shard = 0
	}
	run(t, c, dir, shard, 1)
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

// TestFullTreeCounted: searches ended early by a full tree are counted in
// the summary and logged as a warning naming max_nodes.
func TestFullTreeCounted(t *testing.T) {
	c := testConfig(t)
	c.Games, c.GamesPerShard, c.MaxTurns = 1, 1, 2
	c.FullShare = 1
	c.Search.Visits = 20000
	c.Search.MaxNodes = 1 // one chunk of the node arena: 16,384 nodes
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	s, err := Run(context.Background(), c, Options{Out: t.TempDir(), Seed: 7, Shard: -1, Workers: 1, Weights: w,
		Log: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	if s.TreeFull == 0 || int64(s.TreeFull) > s.Rows {
		t.Errorf("%d searches ended by a full tree in %d rows, want 1 to %d", s.TreeFull, s.Rows, s.Rows)
	}
	if !strings.Contains(log.String(), "tree was full") || !strings.Contains(log.String(), "max_nodes=1") {
		t.Errorf("no warning of the full tree: %q", log.String())
	}
	c.Search.MaxNodes, c.Search.Visits = 1<<14, 40
	if s := run(t, c, t.TempDir(), -1, 1); s.TreeFull != 0 {
		t.Errorf("%d searches of 40 visits in a tree of 16,384 nodes ended full", s.TreeFull)
	}
}
