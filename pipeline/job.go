package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/arimaalab/arimaalab/selfplay"
)

// Job is one stage of one generation run by itself, as a batch scheduler's
// job runs it (`pipeline stage`): the same code as the local loop, with the
// same seeds, so its output is the same bytes.
type Job struct {
	// Stage is StageSelfPlay, StageTrain, StageGate or StagePool (which
	// writes the report too).
	Stage string
	// Generation is the generation of the stage: for self-play, the one
	// whose best weights play (0 to generations-1); for train and gate, the
	// candidate's (1 to generations); unused for the pool.
	Generation int
	// Shard is the self-play shard to play (-1: all of them).
	Shard int
	// Workers is the games played at once (self-play, gate, pool) or the
	// training threads; 0: one per core.
	Workers int
	// TakeOver takes over the claim of the self-play shard whatever its
	// owner: for a claim left by a task known to be gone.
	TakeOver bool
}

// Args returns the arguments of `pipeline stage` that run j with the job
// config at config; the shard is left out (the array task's index gives it).
func (j Job) Args(config string, workers int) []string {
	args := []string{"stage", "-config", config}
	if j.Stage != StagePool {
		args = append(args, "-gen", strconv.Itoa(j.Generation))
	}
	if workers > 0 {
		args = append(args, "-workers", strconv.Itoa(workers))
	}
	if j.TakeOver {
		args = append(args, "-takeover")
	}
	return append(args, j.Stage)
}

// Init prepares the run directory of c for stages run as jobs of another
// scheduler (RunJob, `pipeline stage -config RUN/config.yaml`): it checks c
// against the settings the run was started with, as Run does, refusing
// changes that would alter its results, writes them as RUN/config.yaml, and
// writes generation 0's weights.
func Init(c Config, log *slog.Logger) error {
	if log == nil {
		log = slog.Default()
	}
	c, err := settle(c, log)
	if err != nil {
		return err
	}
	return initRun(c)
}

// RunJob runs the stage j of the run c and writes a line on what it did to
// out. A stage whose output is complete does nothing more.
func RunJob(ctx context.Context, c Config, j Job, out io.Writer, opt Options) error {
	log := opt.Log
	if log == nil {
		log = slog.Default()
	}
	switch j.Stage {
	case StageSelfPlay, StageTrain, StageGate, StagePool:
	default:
		return fmt.Errorf("stage %q: want %s, %s, %s or %s", j.Stage, StageSelfPlay, StageTrain, StageGate, StagePool)
	}
	if j.Workers < 0 {
		return fmt.Errorf("workers %d: want 0 (one per core) or more", j.Workers)
	}
	first, last := 1, c.Generations
	if j.Stage == StageSelfPlay {
		first, last = 0, c.Generations-1
	}
	if j.Stage != StagePool && (j.Generation < first || j.Generation > last) {
		return fmt.Errorf("%s of generation %d: the run has generations %d to %d for it", j.Stage, j.Generation, first, last)
	}
	if j.Stage != StageSelfPlay && j.Shard >= 0 {
		return fmt.Errorf("%s: a shard is only for self-play", j.Stage)
	}
	if err := initRun(c); err != nil {
		return err
	}
	switch j.Stage {
	case StageSelfPlay:
		var progress func(selfplay.Progress)
		if opt.Progress != nil {
			progress = progressFunc(opt.Progress, fmt.Sprintf("gen %d self-play", j.Generation))
		}
		sum, err := selfPlayStage(ctx, c, j.Generation, j.Shard, j.Workers, j.TakeOver, log, progress)
		if err != nil {
			return fmt.Errorf("generation %d self-play: %w", j.Generation, err)
		}
		fmt.Fprintf(out, "gen %d self-play: %d shards written, %d skipped, %d games, %d rows, %.1fs\n",
			j.Generation, sum.Shards, sum.ShardsSkipped, sum.Games, sum.Rows, sum.Elapsed.Seconds())
	case StageTrain:
		if err := trainStage(ctx, c, j.Generation, j.Workers, opt.Progress); err != nil {
			return fmt.Errorf("generation %d training: %w", j.Generation, err)
		}
		fmt.Fprintf(out, "gen %d train: candidate written\n", j.Generation)
	case StageGate:
		d, err := gateStage(ctx, c, j.Generation, j.Workers, log, opt.Progress)
		if err != nil {
			return fmt.Errorf("generation %d gate: %w", j.Generation, err)
		}
		fmt.Fprintf(out, "gen %d gate: %d games, score %.3f, promoted %s, best generation %d\n",
			j.Generation, d.Games, d.Score, yesNo(d.Promoted), d.Best)
	case StagePool:
		rep, err := poolStage(ctx, c, j.Workers, log, opt.Progress)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "pool and report written: best generation %d\n", rep.Best)
	}
	return nil
}
