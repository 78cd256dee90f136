package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/policy"
	"github.com/arimaalab/arimaalab/selfplay/selfplaytest"
	"github.com/arimaalab/arimaalab/weights"
)

// shardDir holds a small self-play run made once by TestMain.
var shardDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cmd-train-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		shardDir = filepath.Join(dir, "run", "gen=0000", "selfplay")
		if err := selfplaytest.Play(shardDir, selfplaytest.Small{
			Games: 8, GamesPerShard: 4, MaxTurns: 40, Visits: 40, CheapVisits: 12, Seed: 1,
		}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

func runArgs(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestTrain(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "gen1.json")
	code, stdout, stderr := runArgs("-target", "value", "-val", "0.25", "-threads", "2", "-notes", "a test",
		"-data", filepath.Join(shardDir, "shard-00000.arrow"), filepath.Join(shardDir, "shard-00001.arrow"), "-out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr not empty (not a terminal): %q", stderr)
	}
	for _, s := range []string{"data: 2 files", "initial (gen 0)", "fitted (gen 1)", "weights that changed most", "wrote " + out} {
		if !strings.Contains(stdout, s) {
			t.Errorf("report lacks %q:\n%s", s, stdout)
		}
	}
	w, err := weights.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	if w.Generation != 1 || w.Lineage.Parent != 0 || w.Lineage.Target != "value" || len(w.Lineage.Dataset) != 2 ||
		!strings.HasSuffix(w.Lineage.Notes, "a test") || w.Lineage.Created.IsZero() {
		t.Errorf("lineage %+v", w.Lineage)
	}
	if v, z := w.Lineage.Metrics["val_logloss"], math.Log(2); !(v < z) {
		t.Errorf("val_logloss %v, not below the zero weights' %v", v, z)
	}

	// A second generation from the first, by directory and glob, streamed.
	out2 := filepath.Join(dir, "gen2.json")
	code, stdout, stderr = runArgs("-init", out, "-out", out2, "-stream", "-target", "blend:0.5", "-val", "0.25",
		"-data", filepath.Join(shardDir, "..", "..", "gen=*"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	w2, err := weights.Load(out2)
	if err != nil {
		t.Fatal(err)
	}
	if w2.Generation != 2 || w2.Lineage.Parent != 1 || w2.Lineage.Target != "blend:0.5" {
		t.Errorf("generation %d, lineage %+v", w2.Generation, w2.Lineage)
	}
	if !strings.Contains(stdout, "(streamed)") {
		t.Errorf("report does not say streamed:\n%s", stdout)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.arrow")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	zeroRows := filepath.Join(dir, "zero.arrow")
	w, err := data.Create(zeroRows, data.Meta{FeatureNames: []string{"bias"}, FeatureVersion: "f1-000000000000"}, data.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	badInit := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badInit, []byte(`{"feature_version": "f1-0", "scale": 1, "weights": {"bias": 1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no out", []string{"-data", shardDir}, 2, "-out"},
		{"no data", []string{"-out", out}, 2, "no data"},
		{"unknown flag", []string{"-nope"}, 2, "nope"},
		{"bad target", []string{"-out", out, "-target", "score", "-data", shardDir}, 2, "score"},
		{"missing file", []string{"-out", out, "-data", filepath.Join(dir, "missing.arrow")}, 1, "missing.arrow"},
		{"empty file", []string{"-out", out, "-data", empty}, 1, empty},
		{"empty shard", []string{"-out", out, "-data", zeroRows}, 1, zeroRows},
		{"bad init", []string{"-out", out, "-init", badInit, "-data", shardDir}, 1, badInit},
		{"bad val", []string{"-out", out, "-val", "2", "-data", shardDir}, 2, "-val 2"},
		{"NaN val", []string{"-out", out, "-val", "NaN", "-data", shardDir}, 2, "-val NaN"},
		{"bad cheap weight", []string{"-out", out, "-cheap-weight", "1.5", "-data", shardDir}, 2, "-cheap-weight 1.5"},
		{"negative threads", []string{"-out", out, "-threads", "-2", "-data", shardDir}, 2, "-threads -2"},
		{"negative max rows", []string{"-out", out, "-max-rows", "-1", "-data", shardDir}, 2, "-max-rows -1"},
		{"bad l2", []string{"-out", out, "-l2", "-1", "-data", shardDir}, 2, "-l2 -1"},
		{"bad grad tol", []string{"-out", out, "-grad-tol", "NaN", "-data", shardDir}, 2, "-grad-tol NaN"},
		{"fix no feature", []string{"-out", out, "-fix", "harlog,nosuch", "-data", shardDir}, 1, `-fix "nosuch" matches no feature`},
		{"pairs with target", []string{"-out", out, "-pairs", "-target", "value", "-data", shardDir}, 2, "-target does not go with -pairs"},
		{"pairs with stream", []string{"-out", out, "-pairs", "-stream", "-data", shardDir}, 2, "-stream does not go with -pairs"},
		{"pair margin alone", []string{"-out", out, "-pair-margin", "0.1", "-data", shardDir}, 2, "-pair-margin goes with -pairs only"},
		{"pair reply alone", []string{"-out", out, "-pair-reply", "-data", shardDir}, 2, "-pair-reply goes with -pairs only"},
		{"bad pair margin", []string{"-out", out, "-pairs", "-pair-margin", "0", "-data", shardDir}, 2, "-pair-margin 0"},
		{"pairs without groups", []string{"-out", out, "-pairs", "-data", shardDir}, 1, "no pairs"},
		{"fix with fit-scale", []string{"-out", out, "-fix", "material_*", "-fit-scale", "-data", shardDir}, 1, "-fix does not go with -fit-scale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runArgs(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", stderr, tc.want)
			}
			if tc.code == 1 && strings.Count(stderr, "\n") != 1 {
				t.Errorf("error not one line: %q", stderr)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run wrote %s", out)
	}
}

func TestHelp(t *testing.T) {
	code, _, stderr := runArgs("-h")
	if code != 0 || !strings.Contains(stderr, "-recompute-features") || !strings.Contains(stderr, "usage: train") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestPolicy: -policy fits the step model on the moves of the players named
// in an archive file and writes it; flags of the evaluation's fit and wrong
// inputs are refused with a clear line.
func TestPolicy(t *testing.T) {
	games := filepath.Join("..", "..", "docs", "strength", "twelfth-final-1s-vs-sharp4.games.txt")
	out := filepath.Join(t.TempDir(), "policy.json")
	code, stdout, stderr := runArgs("-policy", "-players", "sharp*", "-val", "0.3", "-out", out, games)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "held out") || !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("report %q", stdout)
	}
	w, err := policy.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.Notes, "players sharp*") {
		t.Errorf("notes %q", w.Notes)
	}
	// Self-play data: the full searches' visit distributions.
	code, stdout, stderr = runArgs("-policy", "-out", out, shardDir)
	if code != 0 {
		t.Fatalf("self-play data: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "self-play positions") {
		t.Errorf("self-play data: report %q", stdout)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-policy", "-pairs", "-out", out, games}, 2, "-pairs does not go with -policy"},
		{[]string{"-policy", "-out", out}, 2, "no games"},
		{[]string{"-players", "sharp*", "-out", out, games}, 2, "-players goes with -policy only"},
		{[]string{"-policy", "-players", "nobody", "-out", out, games}, 1, "no moves of the players"},
		{[]string{"-policy", "-out", out, "missing.games.txt"}, 1, "missing.games.txt"},
	} {
		code, _, stderr := runArgs(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}
