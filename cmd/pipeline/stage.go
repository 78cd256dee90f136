package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/arimaalab/arimaalab/pipeline"
)

// runStage runs `pipeline stage`: one stage of one generation, as a batch
// scheduler's job runs it (the -scheduler slurm loop submits these). It is
// left out of the usage: the jobs' command lines are written by the loop.
func runStage(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("pipeline stage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "the run's settings, every key: RUN/config.yaml (required)")
	gen := fs.Int("gen", -1, "the generation of the stage (self-play: the one whose weights play)")
	shard := fs.Int("shard", -1, "self-play: the one shard to play (default: $SLURM_ARRAY_TASK_ID, $JOB_COMPLETION_INDEX, or all)")
	workers := fs.Int("workers", 0, "games at once, or training threads (default: one per core)")
	takeOver := fs.Bool("takeover", false, "self-play: take over the shard's claim whatever its owner")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pipeline stage -config FILE [-gen G] [-shard I] [-workers N] [-takeover] self-play|train|gate|pool")
		fmt.Fprintln(stderr, "\nRuns one stage of a run by itself, as the jobs of -scheduler slurm do.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *configPath == "" || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "pipeline stage: want -config FILE and one stage (self-play, train, gate or pool)")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "pipeline stage: %v\n", err)
		return 1
	}
	c, err := pipeline.LoadJobConfig(*configPath)
	if err != nil {
		return fail(err)
	}
	job := pipeline.Job{Stage: fs.Arg(0), Generation: *gen, Shard: *shard, Workers: *workers, TakeOver: *takeOver}
	if job.Stage == pipeline.StageSelfPlay && job.Shard < 0 {
		for _, name := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
			if v := getenv(name); v != "" {
				i, err := strconv.Atoi(v)
				if err != nil || i < 0 {
					return fail(fmt.Errorf("%s=%q is not a shard index", name, v))
				}
				job.Shard = i
				break
			}
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := pipeline.RunJob(ctx, c, job, stdout, pipeline.Options{Log: log}); err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "pipeline stage: interrupted")
			return 130
		}
		return fail(err)
	}
	return 0
}
