package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeBatch is a batch system in this process: a job waits for the job it
// depends on (afterok) and is cancelled when that one fails, as Slurm does
// with --kill-on-invalid-dep; its tasks run RunJob one after another, or
// fail when fail says so.
type fakeBatch struct {
	c    Config
	fail func(u unit, attempt int) bool

	mu          sync.Mutex
	queueErrors int // Queue fails this many more times (a busy slurmctld)
	next        int
	jobs        map[string]*fakeJob
	attempts    map[unit]int
	wg          sync.WaitGroup
}

type fakeJob struct {
	bj      batchJob
	id      string
	left    map[int]bool // tasks not ended
	ok      bool
	done    chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc
	started bool
}

func newFakeBatch(c Config, fail func(unit, int) bool) *fakeBatch {
	return &fakeBatch{c: c, fail: fail, jobs: map[string]*fakeJob{}, attempts: map[unit]int{}}
}

func (f *fakeBatch) Submit(_ context.Context, bj batchJob) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	ctx, cancel := context.WithCancel(context.Background())
	j := &fakeJob{bj: bj, id: strconv.Itoa(f.next), left: map[int]bool{}, done: make(chan struct{}), ctx: ctx, cancel: cancel}
	tasks := bj.Shards
	if bj.Job.Stage != StageSelfPlay {
		tasks = []int{-1}
	}
	for _, t := range tasks {
		j.left[t] = true
	}
	var after *fakeJob
	if bj.After != "" {
		if after = f.jobs[bj.After]; after == nil {
			return "", fmt.Errorf("dependency on unknown job %s", bj.After)
		}
	}
	f.jobs[j.id] = j
	f.wg.Add(1)
	go f.run(j, after, tasks)
	return j.id, nil
}

func (f *fakeBatch) run(j, after *fakeJob, tasks []int) {
	defer f.wg.Done()
	defer close(j.done)
	if after != nil {
		select {
		case <-after.done:
		case <-j.ctx.Done():
		}
		if !after.ok || j.ctx.Err() != nil {
			f.finish(j, false) // the dependency can never be satisfied
			return
		}
	}
	ok := true
	for _, task := range tasks {
		if j.ctx.Err() != nil {
			ok = false
			break
		}
		u := unit{j.bj.Job.Stage, j.bj.Job.Generation, task}
		f.mu.Lock()
		j.started = true
		f.attempts[u]++
		attempt := f.attempts[u]
		f.mu.Unlock()
		job := j.bj.Job
		job.Shard = task
		var out bytes.Buffer
		err := errors.New("killed (injected failure)")
		if f.fail == nil || !f.fail(u, attempt) {
			err = RunJob(j.ctx, f.c, job, &out, quiet())
		}
		if err != nil {
			fmt.Fprintf(&out, "pipeline stage: %v\n", err)
			ok = false
		}
		if werr := os.WriteFile(j.bj.LogPath(j.id, task), out.Bytes(), 0o644); werr != nil {
			panic(werr)
		}
		f.endTask(j, task)
	}
	f.finish(j, ok)
}

// endTask takes task of j out of the queue.
func (f *fakeBatch) endTask(j *fakeJob, task int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(j.left, task)
}

// finish ends j (its tasks left too) with its outcome.
func (f *fakeBatch) finish(j *fakeJob, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(j.left)
	j.ok = ok
}

func (f *fakeBatch) Queue(_ context.Context, ids []string) ([]queued, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.queueErrors > 0 {
		f.queueErrors--
		return nil, errors.New("squeue: slurm_load_jobs error: Socket timed out on send/recv operation")
	}
	var q []queued
	for _, id := range ids {
		j := f.jobs[id]
		if j == nil {
			continue
		}
		state := "PENDING"
		if j.started {
			state = "RUNNING"
		}
		for t := range j.left {
			q = append(q, queued{ID: id, Task: t, State: state})
		}
	}
	return q, nil
}

func (f *fakeBatch) Cancel(_ context.Context, ids []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		if j := f.jobs[id]; j != nil {
			j.cancel()
		}
	}
	return nil
}

// runFiles returns every file of a run directory by its path inside it,
// leaving out the scheduler's own files, the gate and pool records (written
// in the order games finish) and the time weights files were made.
func runFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == "slurm" || filepath.Base(rel) == "gate" || rel == "pool" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".log", ".jsonl":
			return nil // run.log, metrics.jsonl: times differ
		}
		if rel == SettingsFile {
			return nil // written by Run, which the batch tests bypass
		}
		b, err := os.ReadFile(p)
		files[rel] = dropCreated(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// dropCreated drops the line of a weights file that says when it was made.
func dropCreated(b []byte) []byte {
	var out [][]byte
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte(`"created":`)) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, nil)
}

// sameFiles fails the test for every file that differs between two runs.
func sameFiles(t *testing.T, want, got map[string][]byte) {
	t.Helper()
	for name, b := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: missing", name)
		case !bytes.Equal(g, b):
			t.Errorf("%s: differs from the local run's", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not in the local run", name)
		}
	}
}

// localRun runs c locally into c.Out, moves the run to c.Out+"-local" and
// returns its files.
func localRun(t *testing.T, c Config) map[string][]byte {
	t.Helper()
	c.Scheduler = SchedulerLocal
	if _, err := Run(context.Background(), c, quiet()); err != nil {
		t.Fatal(err)
	}
	noLeftovers(t, c.Out)
	if err := os.Rename(c.Out, c.Out+"-local"); err != nil {
		t.Fatal(err)
	}
	return runFiles(t, c.Out+"-local")
}

// TestBatchRun runs the loop on a batch system (in this process) and checks
// that it writes the local run's bytes, with failed tasks and jobs submitted
// again and a queue that cannot be read for a while, that a task that always
// fails stops the run naming its log, and that an interrupted run continues.
func TestBatchRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole loop several times")
	}
	c := tiny(t, filepath.Join(t.TempDir(), "run"))
	c.Scheduler = SchedulerSlurm
	c.Slurm.Poll = 10 * time.Millisecond
	want := localRun(t, c)

	t.Run("straight", func(t *testing.T) {
		fb := newFakeBatch(c, nil)
		var stages []string
		opt := quiet()
		opt.Stages = func(s Stage) { stages = append(stages, fmt.Sprintf("%d %s %v", s.Generation, s.Name, s.Skipped)) }
		rep, err := runBatch(context.Background(), c, fb, filepath.Join(c.Out, "slurm"), opt)
		if err != nil {
			t.Fatal(err)
		}
		fb.wg.Wait()
		sameFiles(t, want, runFiles(t, c.Out))
		noLeftovers(t, c.Out)
		if rep.Best != readReport(t, c.Out).Best || len(rep.Generations) != 3 {
			t.Errorf("report %+v", rep)
		}
		wantStages := []string{"0 self-play false", "1 train false", "1 gate false", "1 self-play false", "2 train false", "2 gate false", "2 pool false"}
		if !reflect.DeepEqual(stages, wantStages) {
			t.Errorf("stages told %q, want %q", stages, wantStages)
		}
		for u, n := range fb.attempts {
			if n != 1 {
				t.Errorf("%s ran %d times", u, n)
			}
		}
		// A metrics line per stage, as the local loop writes.
		b, err := os.ReadFile(filepath.Join(c.Out, MetricsFile))
		if err != nil {
			t.Fatal(err)
		}
		var metrics []string
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var m Metric
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: %v", MetricsFile, err)
			}
			metrics = append(metrics, fmt.Sprintf("%d %s", m.Generation, m.Stage))
		}
		if want := []string{"0 self-play", "1 train", "1 gate", "1 self-play", "2 train", "2 gate", "2 pool"}; !reflect.DeepEqual(metrics, want) {
			t.Errorf("%s: stages %q, want %q", MetricsFile, metrics, want)
		}
		// A finished run submits nothing.
		fb2 := newFakeBatch(c, nil)
		if _, err := runBatch(context.Background(), c, fb2, filepath.Join(c.Out, "slurm"), quiet()); err != nil || fb2.next != 0 {
			t.Errorf("rerun of a finished run: %v, %d jobs submitted", err, fb2.next)
		}
		os.RemoveAll(c.Out)
	})

	t.Run("retries", func(t *testing.T) {
		failing := map[unit]bool{{StageSelfPlay, 0, 1}: true, {StageTrain, 2, -1}: true, {StageGate, 1, -1}: true}
		fb := newFakeBatch(c, func(u unit, attempt int) bool { return failing[u] && attempt == 1 })
		fb.queueErrors = 5
		if _, err := runBatch(context.Background(), c, fb, filepath.Join(c.Out, "slurm"), quiet()); err != nil {
			t.Fatal(err)
		}
		fb.wg.Wait()
		sameFiles(t, want, runFiles(t, c.Out))
		noLeftovers(t, c.Out)
		for u := range failing {
			if fb.attempts[u] != 2 {
				t.Errorf("%s ran %d times, want 2", u, fb.attempts[u])
			}
		}
		if n := fb.attempts[unit{StageSelfPlay, 0, 0}]; n != 1 {
			t.Errorf("shard 0, written the first time, ran %d times", n)
		}
		os.RemoveAll(c.Out)
	})

	t.Run("gives up", func(t *testing.T) {
		bad := unit{StageSelfPlay, 0, 1}
		fb := newFakeBatch(c, func(u unit, _ int) bool { return u == bad })
		_, err := runBatch(context.Background(), c, fb, filepath.Join(c.Out, "slurm"), quiet())
		fb.wg.Wait()
		if err == nil {
			t.Fatal("a shard that always fails: no error")
		}
		for _, want := range []string{"generation 0 self-play shard 1 failed 3 times (slurm.max_retries 2)", "gen=0000-self-play-", "_1.log", "killed (injected failure)"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
		if fb.attempts[bad] != 3 {
			t.Errorf("%s ran %d times, want 3", bad, fb.attempts[bad])
		}
		os.RemoveAll(c.Out)
	})

	t.Run("interrupted", func(t *testing.T) {
		// Cancelled when the first gate starts: the controller cancels its
		// jobs; the same command then finishes the run.
		ctx, cancel := context.WithCancel(context.Background())
		fb := newFakeBatch(c, nil)
		opt := quiet()
		opt.Stages = func(s Stage) {
			if s.Name == StageGate {
				cancel()
			}
		}
		_, err := runBatch(ctx, c, fb, filepath.Join(c.Out, "slurm"), opt)
		fb.wg.Wait()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if exists(filepath.Join(c.Out, "report.json")) {
			t.Fatal("the interrupted run finished")
		}
		if _, err := runBatch(context.Background(), c, newFakeBatch(c, nil), filepath.Join(c.Out, "slurm"), quiet()); err != nil {
			t.Fatal(err)
		}
		sameFiles(t, want, runFiles(t, c.Out))
		noLeftovers(t, c.Out)
	})
}

func readReport(t *testing.T, dir string) Report {
	t.Helper()
	var r Report
	if err := readJSON(filepath.Join(dir, "report.json"), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestJobConfigRoundTrip: a run's config.yaml holds every setting, so a job
// reads back exactly the settings of the controller; Init writes it.
func TestJobConfigRoundTrip(t *testing.T) {
	for _, name := range Presets() {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		c.Scheduler = SchedulerSlurm
		c.Slurm.Partition, c.Slurm.SelfPlay = "batch", SlurmResources{CPUs: 4, Mem: "2G", Time: "1-00:00:00", MaxParallel: 8}
		c.Slurm.Sbatch = []string{"--qos=low"}
		c.Out = t.TempDir()
		if err := Init(c, slog.New(slog.DiscardHandler)); err != nil {
			t.Fatal(err)
		}
		if !exists(filepath.Join(c.Out, "gen=0000", "weights.json")) {
			t.Error("Init wrote no weights of generation 0")
		}
		got, err := LoadJobConfig(filepath.Join(c.Out, SettingsFile))
		if err != nil {
			t.Fatal(err)
		}
		// Every field, whether or not it has a YAML key (%+v prints a nil
		// and an empty list alike, as the file does).
		if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", c); g != w {
			t.Errorf("%s: read back\n%s\nwant\n%s", name, g, w)
		}
	}
}

// TestSchedulerConfigErrors: bad scheduler settings are refused, naming the key.
func TestSchedulerConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ yaml, want string }{
		{"scheduler: pbs\n", `scheduler "pbs": want local or slurm`},
		{"slurm:\n  max_retries: -1\n", "slurm.max_retries -1"},
		{"slurm:\n  poll: 0s\n", "slurm.poll 0s"},
		{"slurm:\n  selfplay:\n    cpus: -2\n", "slurm.selfplay.cpus -2"},
		{"slurm:\n  train:\n    mem: 2 GB\n", `slurm.train.mem "2 GB"`},
		{"slurm:\n  gate:\n    time: 1h\n", `slurm.gate.time "1h"`},
		{"slurm:\n  pool:\n    max_parallel: 3\n", "slurm.pool.max_parallel"},
		{"slurm:\n  sbatch: [qos=low]\n", `slurm.sbatch "qos=low"`},
		{"slurm:\n  nodes: 3\n", "field nodes not found"},
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
	for _, ok := range []string{
		"scheduler: slurm\nslurm:\n  selfplay: {cpus: 2, mem: 1500M, time: \"30\", max_parallel: 16}\n  train: {time: \"2-12\"}\n  gate: {time: \"01:30:00\"}\n",
	} {
		p := filepath.Join(dir, "ok.yaml")
		os.WriteFile(p, []byte(ok), 0o644)
		if _, err := Load(p); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestCompactRanges(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{[]int{0}, "0"},
		{[]int{0, 1, 2, 3}, "0-3"},
		{[]int{0, 2, 3, 5, 7, 8, 9}, "0,2-3,5,7-9"},
	}
	for _, tc := range tests {
		if got := compactRanges(tc.in); got != tc.want {
			t.Errorf("compactRanges(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseQueue(t *testing.T) {
	q, err := parseQueue("6_2|PENDING|Resources\n7|PENDING|Dependency\n6_0|RUNNING|None\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []queued{{"6", 2, "PENDING", "Resources"}, {"7", -1, "PENDING", "Dependency"}, {"6", 0, "RUNNING", "None"}}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("got %+v, want %+v", q, want)
	}
	for _, bad := range []string{"6|RUNNING", "6_x|RUNNING|None"} {
		if _, err := parseQueue(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"exec", "/a b/pipeline", "-config", "/r/it's", "", "gen=0001"})
	want := `exec '/a b/pipeline' -config '/r/it'\''s' '' gen=0001`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
