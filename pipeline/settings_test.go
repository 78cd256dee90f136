package pipeline

import (
	"bytes"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadSettings: the settings written for a run read back the same; a
// directory without them has none, and a damaged file is an error naming it.
func TestReadSettings(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := ReadSettings(dir); ok || err != nil {
		t.Fatalf("empty directory: settings %v, error %v; want none", ok, err)
	}
	c := tiny(t, dir)
	c.Seed = 11
	if err := writeSettings(c); err != nil {
		t.Fatal(err)
	}
	got, ok, err := ReadSettings(dir)
	if !ok || err != nil {
		t.Fatalf("settings %v, error %v; want those written", ok, err)
	}
	if d, err := diffSettings(c, got); err != nil || len(d) != 0 {
		t.Errorf("read back with changes %v (%v)", d, err)
	}
	path := filepath.Join(dir, SettingsFile)
	if err := os.WriteFile(path, []byte("seed: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadSettings(dir); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("damaged settings: error %v, want one naming %s", err, path)
	}
}

// TestWrittenStages: what a run directory holds of each stage, named by
// generation, up to the highest generation begun or set; an empty pool
// results file is no pool games.
func TestWrittenStages(t *testing.T) {
	tests := []struct {
		name  string
		files []string // "NAME/" a directory, "NAME (empty)" an empty file
		want  written
	}{
		{"empty", nil, written{last: 0}},
		{"generation dirs only", []string{"gen=0000/", "gen=0001/"}, written{last: 1}},
		{"the last generation set", []string{"gen=0002/candidate.json"}, written{train: "candidate of generation 2", last: 2}},
		{"beyond the generations set", []string{"gen=0000/selfplay/shard-00000.arrow", "gen=0004/selfplay/shard-00001.arrow"},
			written{selfPlay: "self-play of generations 0, 4", last: 4}},
		{"every stage", []string{
			"gen=0000/selfplay/shard-00000.arrow", "gen=0001/selfplay/shard-00000.arrow", "gen=0002/selfplay/shard-00003.arrow",
			"gen=0001/candidate.json", "gen=0002/candidate.json",
			"gen=0001/decision.json", "gen=0002/gate/results.jsonl",
			"pool/results.jsonl",
		}, written{
			selfPlay: "self-play of generations 0-2", train: "candidates of generations 1-2",
			gate: "gates of generations 1-2", pool: "the rating pool's games", last: 2,
		}},
		{"a temporary shard", []string{"gen=0000/selfplay/shard-00000.arrow.tmp"}, written{last: 0}},
		{"an empty pool", []string{"pool/results.jsonl (empty)"}, written{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			saved := tiny(t, dir) // 2 generations
			for _, f := range tc.files {
				f, empty := strings.CutSuffix(f, " (empty)")
				p := filepath.Join(dir, f)
				if strings.HasSuffix(f, "/") {
					os.MkdirAll(p, 0o755)
					continue
				}
				body := []byte("x")
				if empty {
					body = nil
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, body, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := writtenStages(dir, saved); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestGens(t *testing.T) {
	tests := []struct {
		gs   []int
		want string
	}{
		{nil, ""},
		{[]int{3}, "gen 3"},
		{[]int{0, 1}, "gens 0-1"},
		{[]int{1, 2}, "gens 1-2"},
		{[]int{2, 3, 4}, "gens 2-4"},
		{[]int{1, 3}, "gens 1, 3"},
		{[]int{0, 2, 3}, "gens 0, 2, 3"},
		{[]int{1, 2, 4}, "gens 1, 2, 4"},
	}
	for _, tc := range tests {
		if got := gens("gen", "gens", tc.gs); got != tc.want {
			t.Errorf("gens(%v) = %q, want %q", tc.gs, got, tc.want)
		}
	}
}

// TestSettle: a new run directory gets its settings and no complaint; one
// with generations but no settings (made before runs kept them) is said to
// be unchecked; a run keeps its generations when asked for fewer than it has
// begun, and shrinks when it has not begun the ones dropped.
func TestSettle(t *testing.T) {
	settle1 := func(t *testing.T, c Config) (Config, string) {
		t.Helper()
		var buf bytes.Buffer
		got, err := settle(c, slog.New(slog.NewTextHandler(&buf, nil)))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok, err := ReadSettings(c.Out); !ok || err != nil {
			t.Fatalf("settings written %v (%v)", ok, err)
		}
		return got, buf.String()
	}
	unchecked := "has no " + SettingsFile
	keeps := "the run keeps its generations"

	t.Run("new run", func(t *testing.T) {
		c := tiny(t, filepath.Join(t.TempDir(), "run"))
		got, log := settle1(t, c)
		if got.Generations != c.Generations || log != "" {
			t.Errorf("generations %d, log %q; want %d and no log", got.Generations, log, c.Generations)
		}
	})
	t.Run("no settings", func(t *testing.T) {
		c := tiny(t, t.TempDir())
		os.MkdirAll(genDir(c.Out, 0), 0o755)
		if _, log := settle1(t, c); !strings.Contains(log, unchecked) {
			t.Errorf("log %q, want it to say %q", log, unchecked)
		}
	})
	t.Run("changes logged", func(t *testing.T) {
		dir := t.TempDir()
		saved := tiny(t, dir+string(filepath.Separator)) // the same directory, another out
		if err := writeSettings(saved); err != nil {
			t.Fatal(err)
		}
		c := tiny(t, dir)
		c.SelfPlay.Workers = saved.SelfPlay.Workers + 3
		_, log := settle1(t, c)
		if !strings.Contains(log, "key=selfplay.workers") || strings.Contains(log, "key=out") {
			t.Errorf("log %q: want the change of selfplay.workers, not that of out", log)
		}
	})
	for _, tc := range []struct {
		name      string
		begun     int // the last generation with a directory
		asked     int
		want      int
		keepsSaid bool
	}{
		{"fewer, begun beyond", 2, 1, 3, true},
		{"fewer, begun up to them", 1, 1, 1, false},
		{"fewer, none begun", -1, 1, 1, false},
		{"as many", 3, 3, 3, false},
		{"more", 3, 5, 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := tiny(t, t.TempDir())
			saved.Generations = 3
			if err := writeSettings(saved); err != nil {
				t.Fatal(err)
			}
			for g := 0; g <= tc.begun; g++ {
				os.MkdirAll(genDir(saved.Out, g), 0o755)
			}
			c := saved
			c.Generations = tc.asked
			if got := Settled(c).Generations; got != tc.want {
				t.Errorf("settled: %d generations, want %d", got, tc.want)
			}
			got, log := settle1(t, c)
			if got.Generations != tc.want {
				t.Errorf("settle: %d generations, want %d", got.Generations, tc.want)
			}
			if strings.Contains(log, keeps) != tc.keepsSaid || strings.Contains(log, unchecked) {
				t.Errorf("log %q: want %q said %v, and not %q", log, keeps, tc.keepsSaid, unchecked)
			}
			if now, _, _ := ReadSettings(c.Out); now.Generations != tc.want {
				t.Errorf("the run's settings now have %d generations, want %d", now.Generations, tc.want)
			}
		})
	}
}

// TestAnchorCommand: an external anchor's command must split into words
// and name a program that exists.
func TestAnchorCommand(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		anchor, want string // want "" for accepted
	}{
		{"aei=sh -c true", ""},
		{"aei=" + sh + ",name=shell", ""},
		{`aei=sh -c "true`, `pool.anchors[0] "aei=sh -c \"true": the command: unterminated double quote`},
		{"aei=/nonexistent/engine", `pool.anchors[0] "aei=/nonexistent/engine": `},
	}
	for _, tc := range tests {
		c := tiny(t, t.TempDir())
		c.Pool.Anchors = []string{tc.anchor}
		err := c.validate("c.yaml")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.anchor, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), "c.yaml: "+tc.want)):
			t.Errorf("%q: error %v, want %q", tc.anchor, err, tc.want)
		}
	}
}

// TestLoadPresetErrors: a config file over a preset is checked as a whole:
// an unknown key, a bad value or a missing file is refused, naming the file.
func TestLoadPresetErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ yaml, want string }{
		{"gatez: {}\n", "gatez"},
		{"train:\n  val: 1.5\n", "train.val 1.5"},
		{"generations: 0\n", "generations 0"},
	}
	for _, tc := range tests {
		p := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(p, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadPreset("standard", p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%q: error %v, want one naming %s and %q", tc.yaml, err, p, tc.want)
		}
	}
	missing := filepath.Join(dir, "missing.yaml")
	if _, err := LoadPreset("quick", missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: error %v, want one naming it", err)
	}
}
