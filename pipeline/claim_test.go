package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/data"
)

// TestClaimRun: a run directory is claimed by one pipeline at a time; a
// claim of another host is refused naming it and the take-over flag, and
// taken over with it.
func TestClaimRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	c, err := ClaimRun(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ClaimRun(dir, false)
	var ce *ClaimError
	want := fmt.Sprintf("%s: another pipeline runs this directory: pid %d on host ", dir, os.Getpid())
	if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), ClaimFile) {
		t.Fatalf("second claim: %v, want a ClaimError starting %q", err, want)
	}
	if err := c.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ClaimFile)); !os.IsNotExist(err) {
		t.Fatalf("claim file left after release: %v", err)
	}

	host, _ := os.Hostname()
	b, _ := json.Marshal(data.Owner{Host: host + "-elsewhere", PID: 1 << 30, Start: time.Now(), Token: "x"})
	if err := os.WriteFile(filepath.Join(dir, ClaimFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ClaimRun(dir, false); err == nil || !strings.Contains(err.Error(), "-elsewhere") || !strings.Contains(err.Error(), "-takeover") {
		t.Fatalf("claim of another host: %v, want an error naming it and -takeover", err)
	}
	c, err = ClaimRun(dir, true)
	if err != nil {
		t.Fatalf("take-over: %v", err)
	}
	c.Release()
}

// TestTwoPipelines: a second pipeline on a directory that a first one runs is
// refused, naming the first, before it writes anything; once the first has
// stopped the directory is free.
func TestTwoPipelines(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started, proceed := make(chan struct{}), make(chan struct{})
	first := quiet()
	first.Stages = func(s Stage) {
		if s.Generation == 0 && s.Name == "self-play" {
			close(started)
			<-proceed
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, tiny(t, dir), first)
		done <- err
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("the first pipeline ended before its self-play: %v", err)
	}
	before, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	_, err := Run(context.Background(), tiny(t, dir), quiet())
	var ce *ClaimError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), fmt.Sprintf("another pipeline runs this directory: pid %d on host ", os.Getpid())) {
		t.Errorf("second pipeline: %v, want refused naming the first", err)
	}
	after, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	if len(after) != len(before) {
		t.Errorf("the refused pipeline wrote %v (before: %v)", after, before)
	}
	cancel()
	close(proceed)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("first pipeline: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ClaimFile)); !os.IsNotExist(err) {
		t.Errorf("the first pipeline left its claim: %v", err)
	}
	c, err := ClaimRun(dir, false)
	if err != nil {
		t.Fatalf("the directory is not free once the first pipeline stopped: %v", err)
	}
	c.Release()
}

// TestKilledPipeline runs a pipeline in a child process: a second pipeline
// started meanwhile is refused, naming the child; the child is then killed
// with SIGKILL in its self-play, and a rerun takes its claim over (its owner
// is provably gone) and completes the run.
func TestKilledPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process and the whole loop")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperPipeline$")
	cmd.Env = append(os.Environ(), "PIPELINE_HELPER_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(data.SumPath(filepath.Join(dir, "gen=0000", "selfplay", "shard-00000.arrow"))); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child wrote no shard in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, err := Run(context.Background(), tiny(t, dir), quiet())
	if want := fmt.Sprintf("another pipeline runs this directory: pid %d on host ", cmd.Process.Pid); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("pipeline beside the child's: %v, want an error containing %q", err, want)
	}
	cmd.Process.Kill()
	cmd.Wait()
	b, err := os.ReadFile(filepath.Join(dir, ClaimFile))
	if err != nil || !strings.Contains(string(b), fmt.Sprintf(`"pid":%d,`, cmd.Process.Pid)) {
		t.Fatalf("the killed pipeline's claim: %q, %v", b, err)
	}
	rep, err := Run(context.Background(), tiny(t, dir), quiet())
	if err != nil {
		t.Fatalf("rerun after the kill: %v", err)
	}
	if len(rep.Generations) != 3 {
		t.Errorf("rerun report of %d generations", len(rep.Generations))
	}
	if _, err := os.Stat(filepath.Join(dir, ClaimFile)); !os.IsNotExist(err) {
		t.Errorf("claim left after the rerun: %v", err)
	}
	noLeftovers(t, dir)
}

// TestHelperPipeline is the child process of TestKilledPipeline.
func TestHelperPipeline(t *testing.T) {
	dir := os.Getenv("PIPELINE_HELPER_DIR")
	if dir == "" {
		t.Skip("only a child process of TestKilledPipeline")
	}
	Run(context.Background(), tiny(t, dir), quiet())
}
