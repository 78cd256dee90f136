package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/pipeline"
)

// TestStageUsage: `pipeline stage`, the command of the Slurm jobs, refuses
// what it cannot run with one line naming the problem.
func TestStageUsage(t *testing.T) {
	c, err := pipeline.Preset("quick")
	if err != nil {
		t.Fatal(err)
	}
	c.Out = t.TempDir()
	if err := pipeline.Init(c, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(c.Out, pipeline.SettingsFile)
	tests := []struct {
		args []string
		env  map[string]string
		code int
		err  string
	}{
		{[]string{"-h"}, nil, 0, "usage: pipeline stage"},
		{nil, nil, 2, "want -config FILE and one stage"},
		{[]string{"-config", cfg}, nil, 2, "want -config FILE and one stage"},
		{[]string{"-config", filepath.Join(c.Out, "none.yaml"), "train"}, nil, 1, "none.yaml: no such file"},
		{[]string{"-config", cfg, "bogus"}, nil, 1, `stage "bogus": want self-play, train, gate or pool`},
		{[]string{"-config", cfg, "-gen", "7", "gate"}, nil, 1, "gate of generation 7: the run has generations 1 to 3"},
		{[]string{"-config", cfg, "-gen", "3", "self-play"}, nil, 1, "self-play of generation 3: the run has generations 0 to 2"},
		{[]string{"-config", cfg, "-gen", "0", "self-play"}, map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, 1, `SLURM_ARRAY_TASK_ID="x" is not a shard index`},
		{[]string{"-config", cfg, "-gen", "0", "self-play"}, map[string]string{"JOB_COMPLETION_INDEX": "9"}, 1, "shard 9: the run has shards 0 to 2"},
		{[]string{"-config", cfg, "-shard", "1", "-gen", "1", "train"}, nil, 1, "train: a shard is only for self-play"},
		{[]string{"-config", cfg, "-workers", "-1", "-gen", "1", "train"}, nil, 1, "workers -1"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := runStage(context.Background(), tc.args, &out, &errOut, func(k string) string { return tc.env[k] })
		if code != tc.code || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("pipeline stage %q %v: status %d, stderr %q; want %d and %q", tc.args, tc.env, code, errOut.String(), tc.code, tc.err)
		}
	}
}
