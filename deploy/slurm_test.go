package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/internal/slurmtest"
)

// slurmEnv turns TestSlurm on: it installs Debian packages and starts
// daemons, so plain `go test ./...` leaves it out; .ci/run sets it.
const slurmEnv = "ARIMAALAB_SLURM"

// TestSlurm starts a real single-node Slurm cluster and checks, on it:
//   - selfplay.slurm, submitted as written (variables pointing at a
//     temporary run), writes the shards one selfplay process writes;
//   - `pipeline -scheduler slurm` on the quick preset writes the report and
//     every shard, candidate, weights file and decision byte for byte as
//     the local loop does, and the two times are logged;
//   - a self-play array task cancelled in the middle of its shard (scancel)
//     is submitted again and the run still ends identical (a run of the
//     first generation only, compared with the local run's files of it).
func TestSlurm(t *testing.T) {
	if os.Getenv(slurmEnv) == "" {
		t.Skipf("set %s=1 to run it: it starts a Slurm cluster on this machine (as root; it installs %s when missing) and runs the quick preset three times (minutes)",
			slurmEnv, strings.Join(slurmtest.Packages, " "))
	}
	if testing.Short() {
		t.Skip("runs the quick preset three times (minutes)")
	}
	// End the work a minute before go test's deadline, so that the cluster
	// is stopped by Cleanup.
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Minute))
		t.Cleanup(cancel)
	}
	start := time.Now()
	cl, err := slurmtest.Start(ctx, t.TempDir(), slurmtest.Options{Install: true, Log: t.Logf})
	if errors.Is(err, slurmtest.ErrUnavailable) {
		t.Skipf("no Slurm cluster here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cl.Close(); err != nil {
			t.Error(err)
		}
	})
	t.Logf("cluster up in %.1fs", time.Since(start).Seconds())
	bin := build(t, "pipeline", "selfplay")

	t.Run("template", func(t *testing.T) { testTemplate(ctx, t, cl, bin) })
	t.Run("pipeline", func(t *testing.T) { testPipeline(ctx, t, cl, bin) })
}

// build builds the commands into a temporary directory.
func build(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, n), "../cmd/"+n).CombinedOutput()
		if err != nil {
			t.Fatalf("go build ../cmd/%s: %v\n%s", n, err, out)
		}
	}
	return dir
}

// command runs a command with the cluster's environment and returns its
// output, failing the test when it fails. It is stopped (SIGTERM) when ctx
// ends, so that the test fails with the daemons stopped rather than being
// killed by go test's timeout with them running.
func command(ctx context.Context, t *testing.T, cl *slurmtest.Cluster, env []string, dir, name string, args ...string) (string, time.Duration) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	cmd.Dir = dir
	cmd.Env = append(cl.Env(), env...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v (context: %v)\n%s", name, strings.Join(args, " "), err, ctx.Err(), out)
	}
	return string(out), time.Since(start)
}

// testTemplate submits selfplay.slurm as written, with its variables set to
// a temporary run, and compares its shards with one selfplay process's.
func testTemplate(ctx context.Context, t *testing.T, cl *slurmtest.Cluster, bin string) {
	work := t.TempDir()
	run := filepath.Join(work, "run")
	gen0, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(run, "gen=0000"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := gen0.Save(filepath.Join(run, "gen=0000", "weights.json")); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(work, "selfplay.yaml")
	if err := os.WriteFile(cfg, []byte("max_turns: 40\ncheap_visits: 16\nsearch:\n  visits: 48\n  max_nodes: 16384\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(work, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("selfplay.slurm")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"RUN=" + run, "GEN=0000", "GAMES=6", "SHARDS=3", "SEED=5", "CONFIG=" + cfg, "SELFPLAY=" + filepath.Join(bin, "selfplay")}
	out, took := command(ctx, t, cl, env, work, "sbatch", "--wait", "--array=0-2", script)
	t.Logf("selfplay.slurm: %s(%.1fs)", out, took.Seconds())
	logs, _ := filepath.Glob(filepath.Join(work, "logs", "selfplay-*.out"))
	if len(logs) != 3 {
		t.Errorf("logs %v: want one per task, where the template's --output puts them", logs)
	}
	local := filepath.Join(work, "local")
	command(ctx, t, cl, nil, work, filepath.Join(bin, "selfplay"), "-out", local, "-weights", filepath.Join(run, "gen=0000", "weights.json"),
		"-games", "6", "-shards", "3", "-seed", fmt.Sprint(5*1000003+0), "-config", cfg)
	same(t, files(t, local, nil), files(t, filepath.Join(run, "gen=0000", "selfplay"), nil))
}

// testPipeline runs the quick preset locally and through Slurm, then its
// first generation through Slurm with an array task cancelled in the middle
// of its shard.
func testPipeline(ctx context.Context, t *testing.T, cl *slurmtest.Cluster, bin string) {
	work := t.TempDir()
	run := filepath.Join(work, "run")
	pipeline := filepath.Join(bin, "pipeline")
	// A task per shard with the node's CPUs, as the local loop plays a
	// shard at a time with a game per core.
	cfg := filepath.Join(work, "slurm.yaml")
	res := fmt.Sprintf("{cpus: %d}", cl.CPUs)
	if err := os.WriteFile(cfg, []byte("slurm:\n  selfplay: "+res+"\n  train: "+res+"\n  gate: "+res+"\n  pool: "+res+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	_, localTime := command(ctx, t, cl, nil, work, pipeline, "-out", run)
	if err := os.Rename(run, run+"-local"); err != nil {
		t.Fatal(err)
	}
	want := files(t, run+"-local", comparable)
	if len(want) < 20 {
		t.Fatalf("the local run wrote only %d files to compare", len(want))
	}

	out, slurmTime := command(ctx, t, cl, nil, work, pipeline, "-out", run, "-scheduler", "slurm", "-config", cfg)
	same(t, want, files(t, run, comparable))
	t.Logf("quick preset: local %.1fs, slurm %.1fs (%.2fx)", localTime.Seconds(), slurmTime.Seconds(), slurmTime.Seconds()/localTime.Seconds())
	if !strings.Contains(out, "gen 0 self-play") || !strings.Contains(out, "report: ") {
		t.Errorf("the slurm run's output lacks its stages or report:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(run, "metrics.jsonl")); err != nil || bytes.Count(b, []byte("\n")) != 10 {
		t.Errorf("metrics.jsonl: %v, %d lines, want one per stage (10)", err, bytes.Count(b, []byte("\n")))
	}
	// A finished run submits nothing and ends with the same report.
	if out, _ := command(ctx, t, cl, nil, work, pipeline, "-out", run, "-scheduler", "slurm", "-config", cfg); !strings.Contains(out, "(done before)") {
		t.Errorf("rerun of a finished run:\n%s", out)
	}
	if err := os.RemoveAll(run); err != nil {
		t.Fatal(err)
	}

	// The first generation again, with task 1 of its self-play cancelled
	// while it plays its shard: its files must be the local run's.
	cmd := exec.CommandContext(ctx, pipeline, "-out", run, "-scheduler", "slurm", "-config", cfg, "-generations", "1")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 30 * time.Second
	cmd.Dir = work
	cmd.Env = cl.Env()
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	claim := filepath.Join(run, "gen=0000", "selfplay", "shard-00001.arrow.claim")
	task := ""
	for task == "" && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
		out, err := cl.Command(ctx, "squeue", "--noheader", "--array", "--states=RUNNING",
			"--name=arimaalab-gen=0000-self-play", "--format=%i")
		if err != nil {
			continue
		}
		for _, id := range strings.Fields(string(out)) {
			if strings.HasSuffix(id, "_1") && exists(claim) {
				task = id
			}
		}
	}
	if task == "" {
		t.Fatalf("task 1 of generation 0's self-play never ran:\n%s", output.String())
	}
	// Cancelled at once: a shard of the quick preset takes about a second
	// on two cores, and the claim is taken as it starts.
	if exists(strings.TrimSuffix(claim, ".claim")) {
		t.Fatal("shard 1 was written before its task was seen running: nothing to cancel in the middle of")
	}
	if _, err := cl.Command(ctx, "scancel", task); err != nil {
		t.Fatal(err)
	}
	t.Logf("cancelled task %s in the middle of its shard", task)
	if err := <-done; err != nil {
		t.Fatalf("the run with a cancelled task: %v\n%s", err, output.String())
	}
	got := files(t, run, func(rel string) bool { return comparable(rel) && !strings.HasPrefix(rel, "report.") })
	for _, f := range []string{"gen=0000/selfplay/shard-00001.arrow", "gen=0001/candidate.json", "gen=0001/decision.json", "gen=0001/weights.json"} {
		if _, ok := got[filepath.FromSlash(f)]; !ok {
			t.Errorf("%s: missing", f)
		}
	}
	for name, b := range got {
		if !bytes.Equal(b, want[name]) {
			t.Errorf("%s: differs from the local run's", name)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(run, "slurm", "logs", "gen=0000-self-play-*_1.log"))
	if len(logs) != 2 {
		t.Fatalf("logs of shard 1: %v, want the cancelled task's and its retry's", logs)
	}
	var cancelled int
	for _, l := range logs {
		if b, _ := os.ReadFile(l); bytes.Contains(b, []byte("CANCELLED")) {
			cancelled++
		}
	}
	if cancelled != 1 {
		t.Errorf("%d of the logs of shard 1 say CANCELLED, want 1", cancelled)
	}
	if !strings.Contains(output.String(), "submitting it again") {
		t.Errorf("the run does not say it submitted the task again:\n%s", output.String())
	}
}

// comparable selects the files of a run that must be the same bytes
// whatever ran it: the report and, in each generation, the shards, their
// checksums and games, the candidate, the weights and the decision. Left
// out: the scheduler's files, the run's settings and logs, and the gate and
// pool game records, written in the order games finish.
func comparable(rel string) bool {
	first, rest, _ := strings.Cut(rel, string(filepath.Separator))
	switch {
	case strings.HasPrefix(first, "report."):
		return rest == ""
	case strings.HasPrefix(first, "gen="):
		return !strings.HasPrefix(rest, "gate"+string(filepath.Separator))
	}
	return false
}

// files reads the files of dir selected by keep (nil: all) by their path
// inside it, without the line that says when a weights file was made.
func files(t *testing.T, dir string, keep func(string) bool) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if keep != nil && !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if strings.HasSuffix(p, ".json") {
			var lines [][]byte
			for _, l := range bytes.SplitAfter(b, []byte("\n")) {
				if !bytes.HasPrefix(bytes.TrimSpace(l), []byte(`"created":`)) {
					lines = append(lines, l)
				}
			}
			b = bytes.Join(lines, nil)
		}
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// same fails the test for every file that differs between want and got.
func same(t *testing.T, want, got map[string][]byte) {
	t.Helper()
	for name, b := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: missing", name)
		} else if !bytes.Equal(g, b) {
			t.Errorf("%s: differs", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not in the other run", name)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
