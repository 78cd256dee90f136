package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/rating"
)

// fakeAEIEnv makes TestHelperAEI serve AEI on stdin and stdout.
const fakeAEIEnv = "ARIMAALAB_PIPELINE_AEI_HELPER"

// TestHelperAEI is not a test: run as a child process with fakeAEIEnv set,
// it is this project's AEI engine with a few simulations a move, an external
// anchor for the tests.
func TestHelperAEI(t *testing.T) {
	if os.Getenv(fakeAEIEnv) == "" {
		return
	}
	e, err := aei.NewEngine(aei.Config{Seed: 1, Search: mcts.Config{Visits: 16, MaxNodes: 1 << 14}})
	if err == nil {
		err = e.Run(context.Background(), os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// fakeAnchor returns the specification of the helper engine as an anchor.
func fakeAnchor(t *testing.T, name string) string {
	t.Helper()
	t.Setenv(fakeAEIEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("aei=%s -test.run=^TestHelperAEI$,name=%s", exe, name)
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestGrowRun finishes a run of one generation with an external anchor
// (this project's AEI engine), then grows it by a generation: only the new
// generation's stages and the new pool pairings are played, and the earlier
// games and results are unchanged. Then a rerun with another seed is refused,
// naming seed, and a branch with another gate keeps the self-play and the
// candidates.
func TestGrowRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the loop twice")
	}
	dir := t.TempDir()
	c := tiny(t, dir)
	c.Generations = 1
	c.Pool.Anchors = []string{fakeAnchor(t, "fake16")}
	if err := c.validate("test"); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	opt := quiet()
	opt.Progress = &progress
	rep, err := Run(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RatedZero != "fake16" || len(rep.Anchors) != 1 || len(rep.Generations[1].Anchors) != 1 {
		t.Fatalf("anchors in the report: rated zero %q, %+v, %+v", rep.RatedZero, rep.Anchors, rep.Generations[1].Anchors)
	}
	if a := rep.Generations[1].Anchors[0]; a.Anchor != "fake16" || a.Games != c.Pool.GamesPerPair {
		t.Errorf("generation 1 against the anchor: %+v", a)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if fl := rep.Generations[1].Anchors[0].FirstLoss; fl == nil || fl.N != c.Pool.GamesPerPair || fl.Mean < 2 {
		t.Errorf("generation 1's first losses against the anchor: %+v, want one a game", fl)
	}
	for _, want := range []string{"## Against the anchors", "fake16 rated 0", "fake16: score", "first loss (turn) |"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	for _, want := range []string{"gen 0 self-play: shard 0 played", "gen 1 gate done in", "pool: "} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress lines lack %q:\n%s", want, progress.String())
		}
	}
	poolBefore := readLines(t, filepath.Join(dir, "pool", match.ResultsFile))
	gateBefore, _ := os.ReadFile(filepath.Join(dir, "gen=0001", "gate", match.ResultsFile))
	candBefore, _ := os.ReadFile(filepath.Join(dir, "gen=0001", "candidate.json"))
	if n := len(poolBefore); n != 3*c.Pool.GamesPerPair {
		t.Fatalf("pool of 3 players: %d games, want %d", n, 3*c.Pool.GamesPerPair)
	}

	// Grow by one generation.
	c.Generations = 2
	var stages []string
	opt.Stages = func(s Stage) {
		if !s.Skipped {
			stages = append(stages, fmt.Sprintf("%d %s", s.Generation, s.Name))
		}
	}
	rep, err = Run(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1 self-play", "2 train", "2 gate", "2 pool"}; !slices.Equal(stages, want) {
		t.Errorf("stages run when growing: %q, want %q", stages, want)
	}
	poolAfter := readLines(t, filepath.Join(dir, "pool", match.ResultsFile))
	if !slices.Equal(poolAfter[:len(poolBefore)], poolBefore) {
		t.Error("the earlier pool games changed")
	}
	for _, l := range poolAfter[len(poolBefore):] {
		var g match.GameResult
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		if g.A != "gen2" && g.B != "gen2" {
			t.Errorf("an earlier pairing was played again: %s", l)
		}
	}
	if n := len(poolAfter) - len(poolBefore); n != 3*c.Pool.GamesPerPair {
		t.Errorf("%d new pool games, want %d (gen2 against 3 players)", n, 3*c.Pool.GamesPerPair)
	}
	if g, _ := os.ReadFile(filepath.Join(dir, "gen=0001", "gate", match.ResultsFile)); !bytes.Equal(g, gateBefore) {
		t.Error("generation 1's gate games changed")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "gen=0001", "candidate.json")); !bytes.Equal(b, candBefore) {
		t.Error("generation 1's candidate changed")
	}
	if len(rep.Generations) != 3 || rep.Generations[2].Rating == nil || rep.Generations[1].SelfPlay == nil {
		t.Fatalf("grown report: %+v", rep.Generations)
	}
	saved, ok, err := ReadSettings(dir)
	if err != nil || !ok || saved.Generations != 2 {
		t.Errorf("config.yaml after growing: %v, %v, generations %d", err, ok, saved.Generations)
	}
	ms, err := ReadMetrics(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, fmt.Sprintf("%d %s", m.Generation, m.Stage))
	}
	if want := []string{"0 self-play", "1 train", "1 gate", "1 pool", "1 self-play", "2 train", "2 gate", "2 pool"}; !slices.Equal(got, want) {
		t.Errorf("metrics.jsonl stages %q, want %q", got, want)
	}
	if log, _ := os.ReadFile(filepath.Join(dir, LogFile)); !bytes.Contains(log, []byte(`msg="setting changed" key=generations was=1 now=2`)) {
		t.Errorf("run.log does not record the change of generations:\n%s", log)
	}
	img, err := png.Decode(bytes.NewReader(must(os.ReadFile(filepath.Join(dir, "report.png")))))
	if err != nil || img.Bounds().Dx() != 1152 || img.Bounds().Dy() != 768 {
		t.Errorf("report.png: %v", err)
	}

	// Another seed is refused, naming seed.
	other := c
	other.Seed++
	_, err = Run(context.Background(), other, quiet())
	var se *SettingsError
	if !errors.As(err, &se) || !slices.Equal(se.Keys(), []string{"seed"}) || !strings.Contains(err.Error(), "seed 1 -> 2") {
		t.Fatalf("another seed: %v, want a refusal naming seed", err)
	}

	// A branch with another gate keeps the self-play and the candidates,
	// not the gates.
	branch := c
	branch.Out = filepath.Join(t.TempDir(), "branch")
	branch.Gate.PromoteScore = 0.3
	info, err := Branch(dir, branch)
	if err != nil {
		t.Fatal(err)
	}
	if want := "self-play of generation 0, candidate of generation 1"; info.Kept != want || !slices.Equal(info.Changed, []string{"gate.promote_score 0.5 -> 0.3"}) {
		t.Errorf("branch kept %q, changed %q; want %q", info.Kept, info.Changed, want)
	}
	for f, want := range map[string]bool{
		"gen=0000/selfplay/shard-00000.arrow": true, "gen=0001/candidate.json": true,
		"gen=0001/decision.json": false, "gen=0001/selfplay": false, "pool": false,
	} {
		if got := exists(filepath.Join(branch.Out, f)); got != want {
			t.Errorf("branch: %s there: %v, want %v", f, got, want)
		}
	}
	if again, err := Branch(dir, branch); err != nil || again.Kept != info.Kept {
		t.Errorf("branching again into the branch: %v, %+v", err, again)
	}
	noLeftovers(t, dir)
	noLeftovers(t, branch.Out)
	if _, err := Branch(dir, c); err == nil {
		t.Error("a branch into the run itself was accepted")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSettingsConflicts: a changed setting is refused only when a result it
// feeds is written; raising generations, adding anchors or pool games, and
// the scheduler's settings never are.
func TestSettingsConflicts(t *testing.T) {
	dir := t.TempDir()
	saved := tiny(t, dir)
	touch := func(rel string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keys := func(cs []Change) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Key)
		}
		return out
	}
	change := func(f func(*Config)) Config {
		c := saved
		c.Pool.Anchors = slices.Clone(saved.Pool.Anchors)
		f(&c)
		return c
	}
	type step struct {
		name string
		c    Config
		bad  []string
		ok   []string
	}
	check := func(steps []step) {
		t.Helper()
		for _, s := range steps {
			bad, ok, err := conflicts(dir, saved, s.c)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(keys(bad), s.bad) || !slices.Equal(keys(ok), s.ok) {
				t.Errorf("%s: refused %q, accepted %q; want %q and %q", s.name, keys(bad), keys(ok), s.bad, s.ok)
			}
		}
	}
	seed := change(func(c *Config) { c.Seed = 9 })
	l2 := change(func(c *Config) { c.Train.L2 = 0.5 })
	grow := change(func(c *Config) { c.Generations = 5; c.Pool.GamesPerPair = 4 })
	// Nothing written yet: every change is fine.
	check([]step{{"seed, empty run", seed, nil, []string{"seed"}}, {"l2, empty run", l2, nil, []string{"train.l2"}}})

	touch("gen=0000/selfplay/shard-00000.arrow")
	check([]step{
		{"seed after self-play", seed, []string{"seed"}, nil},
		{"l2 before training", l2, nil, []string{"train.l2"}},
		{"selfplay.games", change(func(c *Config) { c.SelfPlay.Games = 9 }), []string{"selfplay.games"}, nil},
		{"selfplay.workers", change(func(c *Config) { c.SelfPlay.Workers = 7 }), nil, []string{"selfplay.workers"}},
		{"out", change(func(c *Config) { c.Out = "elsewhere" }), nil, []string{"out"}},
	})
	touch("gen=0001/candidate.json")
	touch("gen=0001/decision.json")
	touch("gen=0002/candidate.json")
	touch("pool/results.jsonl")
	check([]step{
		{"l2 after training", l2, []string{"train.l2"}, nil},
		{"gate", change(func(c *Config) { c.Gate.Games = 10 }), []string{"gate.games"}, nil},
		{"growing", grow, nil, []string{"generations", "pool.games_per_pair"}},
		{"fewer pool games", change(func(c *Config) { c.Pool.GamesPerPair = 1 }), []string{"pool.games_per_pair"}, nil},
		{"anchor added", change(func(c *Config) { c.Pool.Anchors = append(c.Pool.Anchors, "random") }), nil, []string{"pool.anchors"}},
		{"fewer generations", change(func(c *Config) { c.Generations = 1 }), nil, []string{"generations"}},
	})
	// A run does not shrink below a generation it has begun.
	writeSettings(saved)
	if got := Settled(change(func(c *Config) { c.Generations = 1 })).Generations; got != saved.Generations {
		t.Errorf("settled generations %d, want the run's %d", got, saved.Generations)
	}
	touch("gen=0005/x")
	if got := Settled(change(func(c *Config) { c.Generations = 7 })).Generations; got != 7 {
		t.Errorf("settled generations %d, want 7 (growing)", got)
	}
	saved.Pool.Anchors = []string{"random"}
	check([]step{{"anchor removed", change(func(c *Config) { c.Pool.Anchors = nil }), []string{"pool.anchors"}, nil}})
	bad, _, _ := conflicts(dir, saved, change(func(c *Config) { c.Seed = 9 }))
	if msg := (&SettingsError{Dir: dir, Conflicts: bad}).Error(); !strings.Contains(msg, "seed 1 -> 9 (every stage: self-play of generation 0, candidates of generations 1-2, gate of generation 1, the rating pool's games)") {
		t.Errorf("message: %s", msg)
	}
}

// TestLoadPreset: a config file's keys go over the preset's.
func TestLoadPreset(t *testing.T) {
	std, err := Preset("standard")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mine.yaml")
	os.WriteFile(path, []byte("seed: 42\ntrain:\n  l2: 0.5\n"), 0o644)
	c, err := LoadPreset("standard", path)
	if err != nil {
		t.Fatal(err)
	}
	want := std
	want.Seed, want.Train.L2 = 42, 0.5
	if d, _ := diffSettings(want, c); len(d) != 0 {
		t.Errorf("standard + file differs from standard with the file's keys: %v", d)
	}
	if _, err := LoadPreset("huge", path); err == nil {
		t.Error("an unknown preset was accepted")
	}
}

// TestSelfPlayStats counts the games of real shards: every game once, by
// its winner's colour.
func TestSelfPlayStats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays self-play games")
	}
	c := tiny(t, t.TempDir())
	if err := initRun(c); err != nil {
		t.Fatal(err)
	}
	if _, err := selfPlayStage(context.Background(), c, 0, -1, 0, false, quiet().Log, nil); err != nil {
		t.Fatal(err)
	}
	s, err := selfPlayStats(filepath.Join(genDir(c.Out, 0), "selfplay"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != c.SelfPlay.Games || s.GoldWins+s.SilverWins+s.Unfinished != s.Games || s.Shards != 2 || s.Rows == 0 {
		t.Errorf("stats %+v of %d games in 2 shards", s, c.SelfPlay.Games)
	}
}

// TestAgainstAnchors reads a generation's games against each anchor from
// either side of their pairings, with a one-sided bound when every game went
// one way.
func TestAgainstAnchors(t *testing.T) {
	pool := &match.PoolResult{Pairings: []*match.PairingResult{
		// sharp4 is A: 3 wins, 1 loss for sharp4 -> 1 / 4 for gen1.
		{A: "sharp4", B: "gen1", Stats: rating.Stats{Wins: 3, Losses: 1, WW: 1, WL: 1}},
		{A: "gen1", B: "random", Stats: rating.Stats{Wins: 20, WW: 10}},
		{A: "gen0", B: "sharp4", Stats: rating.Stats{Losses: 20, LL: 10}},
	}}
	// Two real games against Sharp, the bot renamed gen1: its first piece
	// fell at turn 7 (7b Hc6x) and at turn 5 (5w rf3x). A game of gen0's
	// is not counted.
	f, err := os.Open("../docs/strength/sixth-rabbits-1s-vs-sharp4.games.txt")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := engine.ReadArchive(f, f.Name())
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	games := recs[:3]
	for i := range games[:2] {
		games[i].Gold = strings.Replace(games[i].Gold, "gen0", "gen1", 1)
		games[i].Silver = strings.Replace(games[i].Silver, "gen0", "gen1", 1)
	}
	got, err := againstAnchors(pool, "gen1", []string{"sharp4", "random", "absent"}, games)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Anchor != "sharp4" || got[1].Anchor != "random" {
		t.Fatalf("%+v", got)
	}
	if fl := got[0].FirstLoss; fl == nil || fl.N != 2 || fl.Mean != 6 || got[1].FirstLoss != nil {
		t.Errorf("first losses against sharp4 %+v, against random %+v; want 2 games of mean 6, and none", fl, got[1].FirstLoss)
	}
	if a := got[0]; a.Games != 4 || a.Points != 1 || a.Score != 0.25 || !(a.Elo < 0) || !(a.EloLow < a.Elo && a.Elo < a.EloHigh) {
		t.Errorf("gen1 against sharp4: %+v, want 1 point of 4 and a negative Elo inside its interval", a)
	}
	bound := rating.ScoreToElo(1 - math.Pow(0.05, 0.1)) // about -182
	if a := got[1]; a.Elo != maxElo || math.Abs(a.EloLow+bound) > 1e-9 || a.EloHigh != maxElo {
		t.Errorf("gen1 against random (all won): %+v, want +inf with a lower bound of %.0f", a, -bound)
	}
	lost, err := againstAnchors(pool, "gen0", []string{"sharp4"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := lost[0]; a.Elo != -maxElo || math.Abs(a.EloHigh-bound) > 1e-9 || a.Points != 0 {
		t.Errorf("gen0 against sharp4 (all lost): %+v, want -inf with an upper bound of %.0f", a, bound)
	}
	if s := eloText(-maxElo) + eloText(maxElo) + eloText(12.4); s != "-inf+inf+12" {
		t.Errorf("eloText: %q", s)
	}
}
