package match

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
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/rating"
)

func player(t testing.TB, spec string) Player {
	t.Helper()
	s, err := ParseSpec(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestParseSpec(t *testing.T) {
	good := []struct {
		text, each string
		check      func(Spec) bool
	}{
		{"random", "visits=200", func(s Spec) bool { return s.Kind == "random" && s.Name == "random" }},
		{"gen0,visits=200", "", func(s Spec) bool {
			return s.Kind == "mcts" && s.Weights == "gen0" && s.Search.Visits == 200 && s.Name == "gen0" && s.Search.MaxNodes == DefaultMaxNodes
		}},
		{"run/gen=0003/weights.json,time=500ms,threads=2", "visits=100", func(s Spec) bool {
			return s.Name == "gen=0003" && s.Search.Time == 500*time.Millisecond && s.Search.Threads == 2 && s.Search.Visits == 100
		}},
		{"weights=gen-3.json,visits=50,name=g3,temp=0.5,temp-turns=8", "visits=100", func(s Spec) bool {
			return s.Name == "g3" && s.Weights == "gen-3.json" && s.Search.Visits == 50 && s.Temp == 0.5 && s.TempTurns == 8
		}},
		{"gen0,leaf=static,scan=off", "", func(s Spec) bool {
			return s.Search.Leaf == mcts.LeafStatic && s.Search.Scan == mcts.ScanOff && s.Search.Minimax == 0
		}},
		{"gen0,scan=deep", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanDeep
		}},
		{"gen0,scan=step,step-moves=32", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanStep && s.Search.StepMoves == 32
		}},
		{"gen0,scan=step,step-widen=16", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanStep && s.Search.StepWiden == 16
		}},
		{"gen0,scan=step,step-widen=off", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanStep && s.Search.StepWiden == -1
		}},
		{"gen0,scan=step,step-moves=all", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanStep && s.Search.StepMoves == -1
		}},
		{"gen0,scan=step,step-leaf=tactical", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanStep && s.Search.StepLeaf == mcts.LeafTactical
		}},
		{"gen0,priors=learned", "", func(s Spec) bool {
			return s.Search.Priors == mcts.Learned && s.Search.Policy == nil // the embedded model, filled in by the search
		}},
		{"gen0,policy=../configs/policy.json", "", func(s Spec) bool {
			return s.Search.Priors == mcts.Learned && s.Search.Policy != nil
		}},
		{"gen0,scan=on,minimax=0.25", "", func(s Spec) bool {
			return s.Search.Scan == mcts.ScanOn && s.Search.Minimax == 0.25
		}},
		{"aei=./bot -x 'a b',time=1s,option.hash=64", "visits=100", func(s Spec) bool {
			return s.Kind == "aei" && s.Command == "./bot -x 'a b'" && s.Time == time.Second && s.Options["hash"] == "64" && s.Name == "aei:bot"
		}},
		{"aei=./bot,option.depth=8,timeout=5m", "", func(s Spec) bool {
			return s.Kind == "aei" && s.Timeout == 5*time.Minute && s.Time == 0
		}},
	}
	for _, c := range good {
		s, err := ParseSpec(c.text, c.each)
		if err != nil {
			t.Errorf("ParseSpec(%q, %q): %v", c.text, c.each, err)
			continue
		}
		if !c.check(s) {
			t.Errorf("ParseSpec(%q, %q) = %+v", c.text, c.each, s)
		}
	}
	for _, bad := range []string{"", "visits=200", "gen0,visits=-1", "gen0,200", "random,visits=10", "gen0,bogus=1",
		"gen0,time=0s", "gen0,priors=smart", "gen0,policy=missing-policy.json", "gen0,scan=maybe", "gen0,step-moves=0", "gen0,step-moves=-1", "gen0,step-moves=x", "gen0,step-leaf=deep", "gen0,step-widen=0", "gen0,step-widen=x", "gen0,minimax=2", "gen0,minimax=-1", "gen0,minimax=x", "aei=", "gen0,,visits=1", "gen0,option.x=1", "random,time=1s", "gen0,timeout=1m", "aei=./bot,timeout=0s", "aei=./bot,timeout=x"} {
		if s, err := ParseSpec(bad, ""); err == nil {
			t.Errorf("ParseSpec(%q) accepted: %+v", bad, s)
		}
	}
	if _, err := NewPlayer(Spec{Kind: "mcts", Weights: filepath.Join(t.TempDir(), "missing.json"), Name: "x"}); err == nil {
		t.Error("a missing weights file was accepted")
	}
}

// TestGen0BeatsRandom: generation 0 at 200 visits wins every one of 10 games
// against the random mover, as Gold and as Silver.
func TestGen0BeatsRandom(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 4
	}
	res, err := Run(context.Background(), player(t, "gen0,visits=200"), player(t, "random"), Options{Games: games, Seed: 1, Setups: DefaultSetups()})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Stats
	if s.Wins != games || s.WW != games/2 || res.GoldWins != games/2 || res.SilverWins != games/2 {
		t.Errorf("gen0 vs random: %+v, gold wins %d, silver wins %d; want 10 wins, 5 WW pairs, 5 by colour", s, res.GoldWins, res.SilverWins)
	}
	var b strings.Builder
	if err := res.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Results of gen0 vs random (200 visits, 1 thread - uniformly random moves)", "Elo: inf", "LOS: 100.00 %",
		fmt.Sprintf("Games: %d, Wins: %d, Losses: 0, Draws: 0", games, games), fmt.Sprintf("Ptnml(0-2): [0, 0, 0, 0, %d]", games/2)} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestIdenticalPlayers: the same weights and settings on both sides (a move
// temperature for the first turns, and the players' seeds differ) come out
// near 0 Elo: within the 95% interval.
func TestIdenticalPlayers(t *testing.T) {
	games, maxTurns := 24, 80
	if testing.Short() {
		games = 16
	}
	spec := "gen0,visits=32,temp=1,temp-turns=6"
	res, err := Run(context.Background(), player(t, spec), player(t, spec), Options{Games: games, Seed: 3, MaxTurns: maxTurns, Setups: DefaultSetups(), Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	e := res.Stats.Pentanomial()
	t.Logf("%s; ptnml %v", res.Line(), res.Stats.Ptnml())
	if !(math.Abs(e.Elo) <= e.EloError) {
		t.Errorf("identical players: Elo %.1f ± %.1f does not hold 0", e.Elo, e.EloError)
	}
	if res.Stats.Games() != games || res.Stats.Pairs() != games/2 {
		t.Errorf("%d games, %d pairs; want %d, %d", res.Stats.Games(), res.Stats.Pairs(), games, games/2)
	}
}

// readLines returns the results file's lines without their timings, sorted.
func readResults(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var g GameResult
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		g.Seconds = 0
		b, _ := json.Marshal(g)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// readGames returns the records of the games file, sorted by id, after
// checking that each replays to its recorded result.
func readGames(t *testing.T, dir string) []engine.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, GamesFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		g, err := engine.Replay(r)
		if err != nil {
			t.Fatalf("game %s: %v", r.ID, err)
		}
		if err := engine.CheckResult(r, g); err != nil {
			t.Fatalf("game %s: %v", r.ID, err)
		}
	}
	slices.SortFunc(recs, func(a, b engine.Record) int { return strings.Compare(a.ID, b.ID) })
	return recs
}

// TestResume interrupts a match (the context cancelled after three games),
// leaves a torn results line and a stray game record as a crash would, and
// resumes it: the totals, the results and the game records equal those of
// the same match played in one go, and no finished game is played again.
func TestResume(t *testing.T) {
	a, b := player(t, "gen0,visits=32,temp=1,temp-turns=4"), player(t, "gen0,visits=16")
	opt := Options{Games: 8, Seed: 5, MaxTurns: 60, Setups: DefaultSetups(), Concurrency: 2}
	if testing.Short() {
		opt.MaxTurns = 30
	}

	whole := opt
	whole.Out = t.TempDir()
	want, err := Run(context.Background(), a, b, whole)
	if err != nil {
		t.Fatal(err)
	}

	part := opt
	part.Out = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	part.Progress = func(r *Result) {
		if r.Stats.Games() >= 3 {
			cancel()
		}
	}
	got, err := Run(ctx, a, b, part)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	done := got.Stats.Games()
	if done < 3 || done >= 8 {
		t.Fatalf("the interrupted run finished %d games", done)
	}
	if n := len(readResults(t, part.Out)); n != done {
		t.Fatalf("the results file has %d lines for %d games", n, done)
	}
	if n := len(readGames(t, part.Out)); n != done {
		t.Fatalf("the games file has %d games for %d", n, done)
	}
	// A crash while writing: a torn results line, and the record of a game
	// whose result line was never written.
	f, err := os.OpenFile(filepath.Join(part.Out, ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"pairing":0,"game":7,"a":"ge`)
	f.Close()
	wholeGames, _ := os.ReadFile(filepath.Join(whole.Out, GamesFile))
	lines := strings.SplitAfter(string(wholeGames), "\n")
	f, _ = os.OpenFile(filepath.Join(part.Out, GamesFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lines[len(lines)-2]) // the last game of the whole run
	f.Close()

	if _, err := Run(context.Background(), a, b, part); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("a rerun without Resume: %v, want an error about -resume", err)
	}
	part.Resume = true
	part.Progress = nil
	other := part
	other.Seed = 6
	if _, err := Run(context.Background(), a, b, other); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("resuming with another seed: %v, want an error naming the seed", err)
	}
	got, err = Run(context.Background(), a, b, part)
	if err != nil {
		t.Fatal(err)
	}
	if got.Resumed != done {
		t.Errorf("resumed %d games, want %d", got.Resumed, done)
	}
	if got.Stats != want.Stats || got.GoldWins != want.GoldWins || got.SilverWins != want.SilverWins {
		t.Errorf("resumed totals %+v (gold %d, silver %d), want %+v (gold %d, silver %d)",
			got.Stats, got.GoldWins, got.SilverWins, want.Stats, want.GoldWins, want.SilverWins)
	}
	if g, w := readResults(t, part.Out), readResults(t, whole.Out); !slices.Equal(g, w) {
		t.Errorf("resumed results differ:\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	gr, wr := readGames(t, part.Out), readGames(t, whole.Out)
	if len(gr) != len(wr) {
		t.Fatalf("resumed games file has %d games, want %d", len(gr), len(wr))
	}
	for i := range gr {
		if gr[i].ID != wr[i].ID || !slices.Equal(gr[i].Moves, wr[i].Moves) {
			t.Errorf("game %s differs from the uninterrupted run's", gr[i].ID)
		}
	}
	var sum SummaryJSON
	data, err := os.ReadFile(filepath.Join(part.Out, SummaryFile))
	if err != nil || json.Unmarshal(data, &sum) != nil || sum.Stats != want.Stats {
		t.Errorf("summary file: %v, %+v", err, sum.Stats)
	}
}

// TestSPRTStops: the search against the random mover wins every pair, and
// the SPRT accepts H1 long before the 60 games.
func TestSPRTStops(t *testing.T) {
	models := []rating.SPRTModel{rating.Logistic, rating.Normalized}
	if testing.Short() {
		models = models[:1]
	}
	for _, model := range models {
		sp := rating.SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05, Model: model}
		dir := t.TempDir()
		res, err := Run(context.Background(), player(t, "gen0,visits=32"), player(t, "random"),
			Options{Games: 60, Seed: 2, Setups: DefaultSetups(), SPRT: &sp, Out: dir})
		if err != nil {
			t.Fatal(err)
		}
		_, hi := sp.Bounds()
		if res.Verdict != rating.AcceptH1 || res.LLR < hi || res.Stats.Games() >= 60 {
			t.Errorf("%s: verdict %v, LLR %.2f after %d games", model, res.Verdict, res.LLR, res.Stats.Games())
		}
		t.Logf("%s: %v after %d games, LLR %.2f", model, res.Verdict, res.Stats.Games(), res.LLR)
		// Resuming a decided match plays nothing.
		again, err := Run(context.Background(), player(t, "gen0,visits=32"), player(t, "random"),
			Options{Games: 60, Seed: 2, Setups: DefaultSetups(), SPRT: &sp, Out: dir, Resume: true})
		if err != nil || again.Resumed != res.Stats.Games() || again.Stats != res.Stats {
			t.Errorf("resumed decided match: %v, resumed %d, %+v", err, again.Resumed, again.Stats)
		}
		var b strings.Builder
		res.WriteSummary(&b)
		if !strings.Contains(b.String(), "LLR: ") || !strings.Contains(b.String(), "(-2.94, 2.94) [0.00, 200.00]") {
			t.Errorf("summary lacks the SPRT line:\n%s", b.String())
		}
	}
}

// TestPool plays a small round robin of two generations (weights files) and
// the random mover, then resumes it from its files.
func TestPool(t *testing.T) {
	dir := t.TempDir()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	var players []Player
	for g := range 2 {
		w.Generation = g
		path := filepath.Join(dir, "gen-"+string(rune('0'+g))+".json")
		if err := w.Save(path); err != nil {
			t.Fatal(err)
		}
		players = append(players, player(t, path+",visits=16"))
	}
	players = append(players, player(t, "random"))
	out := filepath.Join(dir, "pool")
	opt := PoolOptions{GamesPerPair: 2, Seed: 1, MaxTurns: 40, Setups: DefaultSetups(), Out: out, Fit: rating.FitOptions{Prior: 1}}
	res, err := RunPool(context.Background(), players, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 6 || res.Ratings == nil {
		t.Fatalf("%d games, ratings %v", res.Games, res.Ratings)
	}
	table := res.Table()
	if last := table[len(table)-1]; last.Name != "random" || last.Points > 0.5 {
		t.Errorf("random is not last with at most a draw: %+v", table)
	}
	if res.Ratings.Elo[0] != 0 {
		t.Errorf("gen-0 is rated %v, want the anchor at 0", res.Ratings.Elo[0])
	}
	for _, f := range []string{"ratings.md", "ratings.json", "ratings.png", ResultsFile, GamesFile, "pool.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "ratings.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() != 768 || img.Bounds().Dy() != 480 {
		t.Errorf("ratings.png: %v, %v", err, img.Bounds())
	}
	if n := len(readGames(t, out)); n != 6 {
		t.Errorf("%d games saved, want 6", n)
	}
	opt.Resume = true
	again, err := RunPool(context.Background(), players, opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Resumed != 6 || !slices.Equal(again.Ratings.Elo, res.Ratings.Elo) {
		t.Errorf("resumed pool: %d resumed, ratings %v, want 6 and %v", again.Resumed, again.Ratings.Elo, res.Ratings.Elo)
	}
	if testing.Short() {
		return
	}
	// A gauntlet: random against both generations.
	g, err := RunPool(context.Background(), players[:2], PoolOptions{GamesPerPair: 2, Seed: 1, MaxTurns: 40, Setups: DefaultSetups(), Gauntlet: players[2], Fit: rating.FitOptions{Prior: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Pairings) != 2 || g.Pairings[0].A != "random" || g.Games != 4 {
		t.Errorf("gauntlet pairings %+v, %d games", g.Pairings, g.Games)
	}
}

func TestPoolNames(t *testing.T) {
	p := player(t, "random")
	if _, err := RunPool(context.Background(), []Player{p, p}, PoolOptions{GamesPerPair: 2}); err == nil || !strings.Contains(err.Error(), "name=") {
		t.Errorf("two players of one name: %v", err)
	}
}
