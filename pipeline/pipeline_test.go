package pipeline

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/features"
)

// tiny returns a configuration that runs the whole loop in seconds.
func tiny(t *testing.T, out string) Config {
	t.Helper()
	c, err := Preset("quick")
	if err != nil {
		t.Fatal(err)
	}
	c.Out = out
	c.Generations = 2
	c.SelfPlay.Games, c.SelfPlay.GamesPerShard, c.SelfPlay.MaxTurns = 8, 4, 40
	c.SelfPlay.Search.Visits, c.SelfPlay.CheapVisits = 32, 8
	c.SelfPlay.Search.MaxNodes = 1 << 14
	c.Gate.Games, c.Gate.MaxTurns = 4, 60
	c.Gate.Search.Visits, c.Gate.Search.MaxNodes = 24, 1<<14
	c.Pool.GamesPerPair, c.Pool.MaxTurns = 2, 60
	c.Pool.Search.Visits, c.Pool.Search.MaxNodes = 24, 1<<14
	return c
}

func quiet() Options { return Options{Log: slog.New(slog.DiscardHandler)} }

func TestPresetsLoad(t *testing.T) {
	for _, name := range Presets() {
		if _, err := Preset(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("generations: 2\ngatez: {}\n"), 0o644)
	if _, err := Load(bad); err == nil {
		t.Fatal("an unknown key was accepted")
	}
}

// TestConfigErrors: a bad setting of any stage is refused when the config is
// loaded, before any game, naming the file and the key.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ yaml, want string }{
		{"train:\n  val: 1.5\n", "train.val 1.5"},
		{"train:\n  val: .nan\n", "train.val NaN"},
		{"train:\n  cheap_weight: -1\n", "train.cheap_weight -1"},
		{"train:\n  l2: .inf\n", "train.l2 +Inf"},
		{"train:\n  target: bogus\n", "train.target"},
		{"train:\n  fix: [harlog, nosuch]\n", `train.fix: "nosuch" matches no feature`},
		{"train:\n  fix: [\"[\"]\n", `train.fix: "[": syntax error in pattern`},
		{"selfplay:\n  games: 0\n", "selfplay.games 0"},
		{"selfplay:\n  workers: -2\n", "selfplay.workers -2"},
		{"selfplay:\n  full_share: .nan\n", "selfplay.full_share NaN"},
		{"selfplay:\n  search:\n    cpuct: -1\n", "selfplay.search.cpuct -1"},
		{"gate:\n  promote_score: 7\n", "gate.promote_score 7"},
		{"gate:\n  sprt: 0,5\n", "gate.sprt"},
		{"gate:\n  max_turns: -1\n", "gate.max_turns -1"},
		{"gate:\n  search:\n    cpuct: -1\n", "gate.search.cpuct -1"},
		{"pool:\n  search:\n    temperature: .nan\n", "pool.search.temperature NaN"},
		{"pool:\n  anchors: [\"gen0,name=gen2\"]\n", "pool.anchors[0] \"gen0,name=gen2\": the name gen2 is the pipeline's"},
		{"pool:\n  anchors: [\"aei=/nonexistent/engine aei\"]\n", "pool.anchors[0] \"aei=/nonexistent/engine aei\": "},
		{"pool:\n  anchors: [random, random]\n", "pool.anchors[1] \"random\": two anchors are named random"},
		{"pool:\n  anchors: [\"visits=3\"]\n", "pool.anchors[0]: player"},
	}
	for _, tc := range tests {
		p := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(p, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("%q: error %v, want one naming %s and %q", tc.yaml, err, p, tc.want)
		}
	}
}

// TestRunResumes runs the loop once straight through, and once interrupted at
// every stage in turn and restarted; the reports must be the same, and every
// stage's output complete.
func TestRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole loop several times")
	}
	straight := t.TempDir()
	want, err := Run(context.Background(), tiny(t, straight), quiet())
	if err != nil {
		t.Fatal(err)
	}
	wantMD, _ := os.ReadFile(filepath.Join(straight, "report.md"))
	for _, f := range []string{"report.md", "report.json", "report.png", "pool/ratings.md", "gen=0001/decision.json", "gen=0002/weights.json"} {
		if _, err := os.Stat(filepath.Join(straight, f)); err != nil {
			t.Fatalf("%s missing: %v", f, err)
		}
	}
	if len(want.Generations) != 3 || want.Generations[0].SelfPlayRows == 0 || want.Generations[1].Gate == nil || want.Generations[2].Rating == nil {
		t.Fatalf("report incomplete: %+v", want)
	}
	noLeftovers(t, straight)

	dir := t.TempDir()
	// Interrupt at the k-th stage, for k = 1, 2, ...: each restart gets one
	// stage further, until a run completes.
	for k := 1; ; k++ {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		opt := quiet()
		opt.Stages = func(Stage) {
			n++
			if n == k {
				cancel()
			}
		}
		_, err := Run(ctx, tiny(t, dir), opt)
		cancel()
		if err == nil {
			break
		}
		if k > 20 {
			t.Fatalf("no complete run after %d interruptions: %v", k, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	// The run directories differ, so compare the tables alone.
	cut := func(b []byte) []byte { return b[bytes.IndexByte(b, '|'):] }
	if !bytes.Equal(cut(got), cut(wantMD)) {
		t.Fatalf("resumed report differs:\n%s\nstraight:\n%s", got, wantMD)
	}
	noLeftovers(t, dir)
}

// noLeftovers fails the test if the run directory dir, at any depth, holds a
// file or directory of a temporary name that the code uses (PATH.tmp, a
// claim's PATH.claim.HEX.tmp, a branch's OUT.tmp beside the run) or a claim
// (PATH.claim) that a finished run should have released.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	var left []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name := d.Name(); strings.HasSuffix(name, ".tmp") || strings.HasSuffix(name, data.ClaimSuffix) {
			left = append(left, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(strings.TrimRight(dir, string(filepath.Separator)) + ".tmp"); !errors.Is(err, fs.ErrNotExist) {
		left = append(left, dir+".tmp")
	}
	if len(left) > 0 {
		t.Fatalf("temporary files or claims left: %v", left)
	}
}

// TestTrainFix: the weights that train.fix names keep the best weights'
// values in every candidate, while the others move.
func TestTrainFix(t *testing.T) {
	c := tiny(t, t.TempDir())
	c.Generations = 1
	c.Train.Fix = []string{"goal_*", "rabbit_rank[3-7]"}
	if _, err := Run(context.Background(), c, quiet()); err != nil {
		t.Fatal(err)
	}
	cand, err := loadWeights(filepath.Join(genDir(c.Out, 1), "candidate.json"))
	if err != nil {
		t.Fatal(err)
	}
	gen0, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, name := range features.Names() {
		was, _ := gen0.Value(name)
		now, _ := cand.Value(name)
		fixed := strings.HasPrefix(name, "goal_") || strings.HasPrefix(name, "rabbit_rank") && name != "rabbit_rank2"
		switch {
		case fixed && now != was:
			t.Errorf("%s: %v, want generation 0's %v (fixed)", name, now, was)
		case !fixed && now != was:
			moved++
		}
	}
	if moved == 0 {
		t.Error("no free weight moved")
	}
}
