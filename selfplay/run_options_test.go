package selfplay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/weights"
)

// TestRunOneShard plays shard 1, then shard 0, of a run of two, with workers
// left to the default (one per core): only the shard asked for is played and
// written, the temporary files a killed run left for it are dropped first,
// progress counts its games, the shard past the last is refused, and a rerun
// that finds the shard published with a claim left behind (by a writer on
// another host, taken over) clears the claim.
func TestRunOneShard(t *testing.T) {
	c := testConfig(t)
	c.Workers = 0
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stale := []string{ShardPath(dir, 1) + ".tmp", data.SumPath(ShardPath(dir, 1)) + ".tmp", GamesPath(dir, 1) + ".tmp"}
	for _, p := range stale {
		if err := os.WriteFile(p, []byte("left by a killed run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var progress []Progress
	var log bytes.Buffer
	opt := Options{Out: dir, Seed: 3, Shard: 1, Weights: w, Log: slog.New(slog.NewTextHandler(&log, nil)),
		Progress: func(p Progress) { progress = append(progress, p) }}
	sum, err := Run(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Shards != 1 || sum.Games != 2 || sum.ShardsSkipped != 0 {
		t.Errorf("summary: %d shards, %d games, %d skipped; want 1, 2, 0", sum.Shards, sum.Games, sum.ShardsSkipped)
	}
	var names []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{"shard-00001.arrow", "shard-00001.arrow.xxh128", "shard-00001.games.txt"}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", names, want)
	}
	if l := log.String(); !strings.Contains(l, `msg="shard written" shard=1 games=2 `) || strings.Contains(l, "tree was full") {
		t.Errorf("log: %q, want the shard written and no full tree", l)
	}
	rows, err := data.ReadRows(ShardPath(dir, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 2 {
		t.Fatalf("%d progress calls, want 2: %+v", len(progress), progress)
	}
	for k, p := range progress {
		if p.Shard != 1 || p.GamesDone != k+1 || p.GamesTotal != 2 || p.Turns <= 0 {
			t.Errorf("progress call %d: %+v, want shard 1, %d of 2 games", k, p, k+1)
		}
	}
	if last := progress[1].Turns; last != int64(len(rows)) || sum.Rows != last {
		t.Errorf("progress ends at %d turns, summary %d, the shard has %d rows", last, sum.Rows, len(rows))
	}

	opt.Shard, opt.Progress = 0, nil
	if sum, err = Run(context.Background(), c, opt); err != nil {
		t.Fatal(err)
	}
	if sum.Shards != 1 || sum.ShardsSkipped != 0 {
		t.Errorf("shard 0: %d written, %d skipped; want 1, 0", sum.Shards, sum.ShardsSkipped)
	}

	opt.Shard = 2
	if _, err := Run(context.Background(), c, opt); err == nil || !strings.Contains(err.Error(), "shard 2: the run has shards 0 to 1") {
		t.Errorf("shard 2 of 2: error %v", err)
	}

	claim := data.ClaimPath(ShardPath(dir, 0))
	if err := os.WriteFile(claim, []byte(`{"host":"elsewhere.invalid","pid":4242,"start":"2026-01-02T03:04:05Z","token":"00"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Shard, opt.TakeOver = 0, true
	sum, err = Run(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ShardsSkipped != 1 || sum.Shards != 0 {
		t.Errorf("rerun: %d written, %d skipped; want 0, 1", sum.Shards, sum.ShardsSkipped)
	}
	if _, err := os.Stat(claim); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the claim left behind is still there: %v", err)
	}
}

// TestMaxTurnsEvent: a game stopped at max_turns says so in its record's
// event; its rows have the max-turns termination and result 0.
func TestMaxTurnsEvent(t *testing.T) {
	c := testConfig(t)
	c.MaxTurns = 2
	c.Games = 2
	dir := t.TempDir()
	sum := run(t, c, dir, -1, 1)
	if sum.Unfinished != 2 || sum.Terminations["max-turns"] != 2 || len(sum.Terminations) != 1 || sum.GoldWins+sum.SilverWins != 0 {
		t.Errorf("summary: %d unfinished, terminations %v, %d+%d won; want 2, max-turns 2, none won", sum.Unfinished, sum.Terminations, sum.GoldWins, sum.SilverWins)
	}
	f, err := os.Open(GamesPath(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, filepath.Base(GamesPath(dir, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if got := r.Field("event"); got != "arimaalab self-play, stopped at max-turns" {
			t.Errorf("game %s: event %q", r.ID, got)
		}
	}
	rows, err := data.ReadRows(ShardPath(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Termination != "max-turns" || r.Result != 0 {
			t.Fatalf("game %d turn %d: termination %s, result %d", r.GameID, r.Turn, r.Termination, r.Result)
		}
	}
}

// TestConfigDiff: the first key, in order and as a dotted path, whose values
// differ between two config objects, keys that only one side has included.
func TestConfigDiff(t *testing.T) {
	for _, c := range []struct{ a, b, key, va, vb string }{
		{`{"a":1,"b":{"c":2,"d":3}}`, `{"a":1,"b":{"c":2,"d":4}}`, "b.d", "3", "4"},
		{`{"a":1}`, `{"a":1,"b":2,"c":3}`, "b", "<nil>", "2"},
		{`{"a":1,"z":2,"y":3}`, `{"a":1}`, "y", "3", "<nil>"},
		{`{"b":{"x":1},"a":5}`, `{"b":{"x":1},"a":6}`, "a", "5", "6"},
		{`{"a":1}`, `{"a":1}`, "", `{"a":1}`, `{"a":1}`},
		{`[1]`, `{"a":1}`, "", `[1]`, `{"a":1}`},
	} {
		key, va, vb := configDiff(c.a, c.b)
		if key != c.key || va != c.va || vb != c.vb {
			t.Errorf("configDiff(%s, %s) = %q, %q, %q; want %q, %q, %q", c.a, c.b, key, va, vb, c.key, c.va, c.vb)
		}
	}
}

// TestSummaryAdd: the summary counts games, rows, full trees, terminations,
// who won, simulations and the time spent searching.
func TestSummaryAdd(t *testing.T) {
	s := &Summary{Terminations: map[string]int{}}
	for _, p := range []*played{
		{rows: make([]data.Row, 5), fullTrees: 1, sims: 300, searching: time.Second, outcome: engine.Outcome{Reason: engine.Goal, Winner: engine.Gold}},
		{rows: make([]data.Row, 7), sims: 64, searching: 2 * time.Millisecond, outcome: engine.Outcome{Reason: engine.Goal, Winner: engine.Silver}},
		{rows: make([]data.Row, 2), fullTrees: 2, outcome: engine.Outcome{Reason: engine.Elimination, Winner: engine.Gold}},
		{rows: make([]data.Row, 9), outcome: engine.Outcome{Reason: engine.MaxTurns}},
	} {
		s.add(p)
	}
	want := Summary{Games: 4, Rows: 23, TreeFull: 3, GoldWins: 2, SilverWins: 1, Unfinished: 1,
		Simulations: 364, Searching: time.Second + 2*time.Millisecond,
		Terminations: map[string]int{"goal": 2, "elimination": 1, "max-turns": 1}}
	if !reflect.DeepEqual(*s, want) {
		t.Errorf("summary %+v, want %+v", *s, want)
	}
	if got := s.MeanLength(); got != 23.0/4 {
		t.Errorf("MeanLength() = %v, want 5.75", got)
	}
	if got := (&Summary{}).MeanLength(); got != 0 {
		t.Errorf("MeanLength() of no games = %v, want 0", got)
	}
}

// TestCancelledRunLeavesNothing: a run cancelled after one of its games
// returns the context's error and leaves neither the temporary files nor
// the claims of the shards it was playing or had made ready (workers play
// the next shard's games before the current one is written), only the
// shards written before.
func TestCancelledRunLeavesNothing(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		shard   int
		workers int
		after   int      // games written when the run is cancelled
		want    []string // the files left
	}{
		{"one shard", 0, 1, 1, nil},
		{"three shards, in the first", -1, 2, 1, nil},
		{"three shards, at the end of the first", -1, 2, 2, nil},
		{"three shards, in the second", -1, 2, 3, []string{"shard-00000.arrow", "shard-00000.arrow.xxh128", "shard-00000.games.txt"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfig(t)
			c.Games, c.GamesPerShard = 6, 2
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err = Run(ctx, c, Options{Out: dir, Seed: 5, Shard: tc.shard, Workers: tc.workers, Weights: w, Log: slog.New(slog.DiscardHandler),
				Progress: func(p Progress) {
					if p.GamesDone == tc.after {
						cancel()
					}
				}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			var names []string
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, tc.want) {
				t.Errorf("left behind %v, want %v", names, tc.want)
			}
		})
	}
}

// TestNextShardWhileWriting: workers play the next shard's games while the
// current shard waits for its last game, instead of idling until it is
// written: here the writing of shard 0 is held at its first game until a
// game of shard 1 has been played (the deadline is only a guard against a
// hang).
func TestNextShardWhileWriting(t *testing.T) {
	c := testConfig(t)
	c.Games, c.GamesPerShard = 4, 2
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Out: t.TempDir(), Seed: 3, Weights: w}
	_, _, rangeOf := Plan(c, 0, 0)
	meta, err := runMeta(c, opt, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	next := make(chan struct{}, 4)
	var written []string
	err = playShards(context.Background(), c, opt, meta, ev, []int{0, 1}, rangeOf, 2, shardHooks{
		played: func(shard, index int) {
			if shard == 1 {
				next <- struct{}{}
			}
		},
		game: func(shard int, p *played) {
			written = append(written, fmt.Sprintf("%d/%d", shard, p.index))
			if shard == 0 && p.index == 0 {
				select {
				case <-next:
				case <-time.After(time.Minute):
					t.Error("no game of shard 1 was played while shard 0 waited")
				}
			}
		},
		skipped: func(int, int, int) { t.Error("a shard skipped") },
		written: func(int, int, int) {},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0/0", "0/1", "1/2", "1/3"}; !slices.Equal(written, want) {
		t.Errorf("games written %v, want %v", written, want)
	}
}

// TestRunCancelledBeforeStart checks that a run whose context is cancelled
// before any shard is ready reports the cancellation (the pipeline would
// otherwise go on to a stage without shards) and writes nothing.
func TestRunCancelledBeforeStart(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	c := testConfig(t)
	c.Games, c.GamesPerShard = 4, 2
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, c, Options{Out: dir, Seed: 5, Shard: -1, Workers: 2, Weights: w, Log: slog.New(slog.DiscardHandler)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "shard-*")); len(left) > 0 {
		t.Errorf("left %v", left)
	}
}
