package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/data"
)

const smallConfig = `games_per_shard: 2
max_turns: 16
search:
  visits: 24
  max_nodes: 16384
cheap_visits: 8
`

func writeConfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "small.yaml")
	if err := os.WriteFile(p, []byte(smallConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// TestShardProcessesEqualOneRun runs self-play as several processes, one shard
// each (one through -shard, the others through the batch schedulers' variables),
// all at once into one directory, and checks that the union equals the run made
// by a single process.
func TestShardProcessesEqualOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	bin := filepath.Join(t.TempDir(), "selfplay")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfg := writeConfig(t)
	one, many := t.TempDir(), t.TempDir()
	args := []string{"-config", cfg, "-games", "6", "-shards", "3", "-seed", "5"}
	if out, err := exec.Command(bin, append(args, "-out", one)...).CombinedOutput(); err != nil {
		t.Fatalf("single run: %v\n%s", err, out)
	}
	var cmds []*exec.Cmd
	for i, env := range []string{"", "JOB_COMPLETION_INDEX=1", "SLURM_ARRAY_TASK_ID=2"} {
		a := append(args, "-out", many)
		if env == "" {
			a = append(a, "-shard", "0")
		}
		cmd := exec.Command(bin, a...)
		cmd.Env = os.Environ()
		if env != "" {
			cmd.Env = append(cmd.Env, env)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("shard process %d: %v", i, err)
		}
	}
	a, b := dirFiles(t, one), dirFiles(t, many)
	if len(a) != 9 || len(b) != 9 { // .arrow, .arrow.xxh128, .games.txt
		t.Fatalf("%d and %d files, want 9 each (3 shards)", len(a), len(b))
	}
	for name, x := range a {
		if !bytes.Equal(x, b[name]) {
			t.Fatalf("%s differs between the single run and the shard processes", name)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("visitz: 3\n"), 0o644)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		code int
		want string
	}{
		{"no out", nil, nil, 2, "-out"},
		{"bad config", []string{"-out", dir, "-config", bad}, nil, 1, "bad.yaml"},
		{"bad env shard", []string{"-out", dir}, map[string]string{"JOB_COMPLETION_INDEX": "x"}, 1, "JOB_COMPLETION_INDEX"},
		{"shard out of range", []string{"-out", dir, "-games", "2", "-shards", "2", "-shard", "5"}, nil, 1, "shard 5"},
		{"missing weights", []string{"-out", dir, "-weights", filepath.Join(dir, "none.json")}, nil, 1, "none.json"},
		{"negative workers", []string{"-out", dir, "-workers", "-2"}, nil, 2, "-workers -2"},
		{"zero games", []string{"-out", dir, "-games", "0"}, nil, 2, "-games 0"},
		{"negative games", []string{"-out", dir, "-games", "-1"}, nil, 2, "-games -1"},
		{"zero shards", []string{"-out", dir, "-shards", "0"}, nil, 2, "-shards 0"},
		{"more shards than games", []string{"-out", dir, "-games", "2", "-shards", "3"}, nil, 1, "shards 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, &out, &errOut, func(k string) string { return tc.env[k] })
			if code != tc.code || !strings.Contains(errOut.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut.String(), tc.code, tc.want)
			}
			if strings.Count(strings.TrimSpace(errOut.String()), "\n") > 2 {
				t.Fatalf("error is not short: %q", errOut.String())
			}
		})
	}
}

// TestClaimedShard: a shard that another writer holds is refused with one
// line naming the shard and its owner, and no summary of nothing played.
func TestClaimedShard(t *testing.T) {
	dir := t.TempDir()
	claim, err := data.TakeClaim(filepath.Join(dir, "shard-00000.arrow"), data.ClaimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer claim.Release()
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"-out", dir, "-config", writeConfig(t), "-games", "2"}, &out, &errOut, func(string) string { return "" })
	want := fmt.Sprintf("selfplay: %s: being written by pid %d on host ", filepath.Join(dir, "shard-00000.arrow"), os.Getpid())
	if code != 1 || !strings.HasPrefix(errOut.String(), want) || strings.Count(errOut.String(), "\n") != 1 || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing and one line starting %q", code, out.String(), errOut.String(), want)
	}
}
