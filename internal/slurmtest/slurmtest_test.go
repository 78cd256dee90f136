package slurmtest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCluster starts a cluster, runs a job array and a job that waits for
// it, and checks that Close stops every daemon it started. Like the tests of
// package deploy it runs only with ARIMAALAB_SLURM set.
func TestCluster(t *testing.T) {
	if os.Getenv("ARIMAALAB_SLURM") == "" {
		t.Skip("set ARIMAALAB_SLURM=1 to run it: it starts a Slurm cluster on this machine (as root)")
	}
	ctx := context.Background()
	dir := t.TempDir()
	cl, err := Start(ctx, dir, Options{Install: true, Log: t.Logf})
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("no Slurm cluster here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	pids := []int{cl.munge.Pid}
	for _, p := range cl.procs {
		pids = append(pids, p.Process.Pid)
	}
	mungeDir := cl.mungeDir
	out := filepath.Join(dir, "out")
	array, err := cl.Command(ctx, "sbatch", "--parsable", "--array=0-3", "--output="+out+"-%a", "--wrap=echo task $SLURM_ARRAY_TASK_ID")
	if err != nil {
		cl.Close()
		t.Fatal(err)
	}
	if _, err := cl.Command(ctx, "sbatch", "--wait", "--dependency=afterok:"+strings.TrimSpace(string(array)), "--output="+out+"-after", "--wrap=cat "+out+"-?"); err != nil {
		cl.Close()
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out + "-after"); err != nil || string(b) != "task 0\ntask 1\ntask 2\ntask 3\n" {
		t.Errorf("the job after the array read %q, %v", b, err)
	}
	if err := cl.Close(); err != nil {
		t.Error(err)
	}
	for _, pid := range pids {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("pid %d still runs after Close", pid)
		}
	}
	if _, err := os.Stat(mungeDir); err == nil {
		t.Errorf("%s left behind", mungeDir)
	}
}
