package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The schedulers.
const (
	SchedulerLocal = "local" // every stage in this process
	SchedulerSlurm = "slurm" // every stage a Slurm job
)

// SlurmConfig holds the settings of the Slurm scheduler. The run directory
// (out) must be on storage that every node mounts at the same path; a
// relative one is taken relative to the directory the pipeline starts in,
// which is also the jobs' working directory.
type SlurmConfig struct {
	// Binary is the pipeline executable the jobs run, as the nodes see it.
	// Empty (the default): a copy of the running executable, made in the
	// run directory (RUN/slurm/bin/pipeline), so that the nodes see it.
	Binary string `yaml:"binary"`
	// Partition and Account, when set, are passed to sbatch.
	Partition string `yaml:"partition"`
	Account   string `yaml:"account"`
	// MaxRetries is how many times a failed task or job is submitted again
	// before the run stops with an error that names its log.
	MaxRetries int `yaml:"max_retries"`
	// Poll is how often the queue is read.
	Poll time.Duration `yaml:"poll"`
	// SelfPlay, Train, Gate and Pool are the resources of each stage's jobs:
	// a self-play array task plays one shard, with a game per CPU.
	SelfPlay SlurmResources `yaml:"selfplay"`
	Train    SlurmResources `yaml:"train"`
	Gate     SlurmResources `yaml:"gate"`
	Pool     SlurmResources `yaml:"pool"`
	// Sbatch holds more sbatch options given to every job (such as
	// --qos=normal or --constraint=avx2).
	Sbatch []string `yaml:"sbatch"`
}

// SlurmResources are the resources of one stage's jobs. Empty values leave
// the cluster's defaults.
type SlurmResources struct {
	// CPUs is --cpus-per-task, and the games (self-play, gate, pool) or
	// threads (train) of the job. 0: the cluster's default (one CPU, as a
	// rule), and a game or thread per CPU the job can use.
	CPUs int `yaml:"cpus"`
	// Mem is --mem, the memory of the job: a number with an optional unit
	// K, M, G or T (2G).
	Mem string `yaml:"mem"`
	// Time is --time, the time limit: minutes, MM:SS, HH:MM:SS, D-HH,
	// D-HH:MM or D-HH:MM:SS.
	Time string `yaml:"time"`
	// MaxParallel limits the tasks of a self-play array running at once
	// (--array=...%N); 0: no limit.
	MaxParallel int `yaml:"max_parallel"`
}

// defaultSlurm returns the Slurm settings every config starts from.
func defaultSlurm() SlurmConfig {
	return SlurmConfig{MaxRetries: 2, Poll: time.Second}
}

var (
	slurmMem  = regexp.MustCompile(`^[0-9]+[KMGT]?$`)
	slurmTime = regexp.MustCompile(`^([0-9]+|[0-9]+:[0-9]{1,2}|[0-9]+:[0-9]{1,2}:[0-9]{1,2}|[0-9]+-[0-9]{1,2}|[0-9]+-[0-9]{1,2}:[0-9]{1,2}|[0-9]+-[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}|UNLIMITED|INFINITE)$`)
)

// validateScheduler checks the scheduler and its settings; errors name the key.
func (c *Config) validateScheduler() error {
	switch c.Scheduler {
	case SchedulerLocal, SchedulerSlurm:
	default:
		return fmt.Errorf("scheduler %q: want %s or %s", c.Scheduler, SchedulerLocal, SchedulerSlurm)
	}
	s := &c.Slurm
	switch {
	case s.MaxRetries < 0:
		return fmt.Errorf("slurm.max_retries %d: want 0 or more", s.MaxRetries)
	case s.Poll <= 0:
		return fmt.Errorf("slurm.poll %v: want a positive duration (1s)", s.Poll)
	}
	for _, r := range []struct {
		key string
		r   SlurmResources
	}{{"selfplay", s.SelfPlay}, {"train", s.Train}, {"gate", s.Gate}, {"pool", s.Pool}} {
		switch {
		case r.r.CPUs < 0:
			return fmt.Errorf("slurm.%s.cpus %d: want 0 (one per core) or more", r.key, r.r.CPUs)
		case r.r.Mem != "" && !slurmMem.MatchString(r.r.Mem):
			return fmt.Errorf("slurm.%s.mem %q: want a number with an optional unit K, M, G or T (2G)", r.key, r.r.Mem)
		case r.r.Time != "" && !slurmTime.MatchString(r.r.Time):
			return fmt.Errorf("slurm.%s.time %q: want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS", r.key, r.r.Time)
		case r.r.MaxParallel < 0:
			return fmt.Errorf("slurm.%s.max_parallel %d: want 0 (no limit) or more", r.key, r.r.MaxParallel)
		case r.r.MaxParallel > 0 && r.key != "selfplay":
			return fmt.Errorf("slurm.%s.max_parallel: only self-play runs as an array", r.key)
		}
	}
	for _, a := range s.Sbatch {
		if !strings.HasPrefix(a, "-") {
			return fmt.Errorf("slurm.sbatch %q: want sbatch options (--name=value)", a)
		}
	}
	return nil
}

// LoadJobConfig reads the settings a job runs with: a run's config.yaml
// (SettingsFile), which holds every key. Every key comes from the file (none
// from a preset), decoded strictly and checked.
func LoadJobConfig(path string) (Config, error) {
	var c Config
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := decodeStrict(b, path, &c); err != nil {
		return c, err
	}
	return c, c.validate(path)
}

// slurmCLI is the batch system of a Slurm cluster, through its commands
// (sbatch, squeue, scancel) found in PATH; SLURM_CONF and the other
// variables of the environment reach them.
type slurmCLI struct {
	cfg     SlurmConfig
	binary  string // the pipeline executable, as the nodes see it
	config  string // the run's settings, RUN/config.yaml (LoadJobConfig)
	workDir string // the jobs' working directory
}

func (s *slurmCLI) command(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("%s: %s", name, msg)
	}
	return out, nil
}

// Submit submits one job with sbatch and returns its id.
func (s *slurmCLI) Submit(ctx context.Context, j batchJob) (string, error) {
	res := j.resources(s.cfg)
	args := []string{
		"--parsable", "--job-name=" + j.Name, "--chdir=" + s.workDir,
		"--output=" + j.LogPattern(), "--kill-on-invalid-dep=yes",
	}
	if j.After != "" {
		args = append(args, "--dependency=afterok:"+j.After)
	}
	if j.Job.Stage == StageSelfPlay {
		array := compactRanges(j.Shards)
		if res.MaxParallel > 0 {
			array += "%" + strconv.Itoa(res.MaxParallel)
		}
		args = append(args, "--array="+array)
	}
	if res.CPUs > 0 {
		args = append(args, "--cpus-per-task="+strconv.Itoa(res.CPUs))
	}
	if res.Mem != "" {
		args = append(args, "--mem="+res.Mem)
	}
	if res.Time != "" {
		args = append(args, "--time="+res.Time)
	}
	if s.cfg.Partition != "" {
		args = append(args, "--partition="+s.cfg.Partition)
	}
	if s.cfg.Account != "" {
		args = append(args, "--account="+s.cfg.Account)
	}
	args = append(args, s.cfg.Sbatch...)
	args = append(args, "--wrap="+shellJoin(append([]string{"exec", s.binary}, j.Job.Args(s.config, res.CPUs)...)))
	out, err := s.command(ctx, "sbatch", args...)
	if err != nil {
		return "", fmt.Errorf("submitting %s: %w", j.Name, err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return "", fmt.Errorf("submitting %s: sbatch --parsable answered %q, not a job id", j.Name, out)
	}
	return id, nil
}

// Queue lists the jobs and array tasks among ids that are still in the
// queue (pending, running or completing).
func (s *slurmCLI) Queue(ctx context.Context, ids []string) ([]queued, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var (
		out []byte
		err error
	)
	for try := 0; try < 3; try++ {
		out, err = s.command(ctx, "squeue", "--noheader", "--array", "--jobs="+strings.Join(ids, ","), "--format=%i|%T|%r")
		if err == nil || ctx.Err() != nil {
			break
		}
		// Jobs that left the queue long ago are unknown to squeue, which
		// then fails when none of ids is known.
		if strings.Contains(err.Error(), "Invalid job id") {
			return nil, nil
		}
		time.Sleep(time.Second) // a busy controller: try again
	}
	if err != nil {
		return nil, err
	}
	return parseQueue(string(out))
}

// Cancel cancels the jobs ids (their running tasks get SIGTERM).
func (s *slurmCLI) Cancel(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.command(ctx, "scancel", ids...)
	return err
}

// parseQueue reads squeue's "%i|%T|%r" lines (job id or ARRAY_TASK, state,
// reason).
func parseQueue(out string) ([]queued, error) {
	var q []queued
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 3 {
			return nil, fmt.Errorf("squeue: unexpected line %q", line)
		}
		e := queued{ID: f[0], Task: -1, State: f[1], Reason: f[2]}
		if id, task, ok := strings.Cut(f[0], "_"); ok {
			t, err := strconv.Atoi(task)
			if err != nil {
				return nil, fmt.Errorf("squeue: unexpected array task %q", f[0])
			}
			e.ID, e.Task = id, t
		}
		q = append(q, e)
	}
	return q, nil
}

// compactRanges writes sorted indices as Slurm's --array list (0-3,5,7-8).
func compactRanges(xs []int) string {
	var b strings.Builder
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", xs[i], xs[j])
		} else {
			fmt.Fprintf(&b, "%d", xs[i])
		}
		i = j + 1
	}
	return b.String()
}

// shellJoin quotes args for sh.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// errNoSlurm explains a missing sbatch.
var errNoSlurm = errors.New("scheduler slurm: sbatch not found in PATH (run on a Slurm login node, or use scheduler local)")
