// Command pipeline runs the arimaalab generation loop: self-play with the best
// weights, training of a candidate, a gate match against the best, promotion,
// for a number of generations; then a rating pool of every generation and a
// report (report.md, report.json, report.png) in the run directory.
//
// It first checks the engine (move counts of the clueless32 positions, replays
// of real archive games; all data embedded). The settings come from an embedded
// preset (quick by default, which finishes in a few minutes on 2 cores), with
// the keys of a YAML file (-config) over it. A run interrupted at any stage
// continues where it stopped when the same command is run again. One
// pipeline at a time runs a directory: it
// holds the claim file pipeline.claim there, and a second one is refused with
// the first one's host, pid and start time (-takeover takes the claim over).
//
// Usage:
//
//	pipeline [-preset quick|standard|large] [-config FILE] [-out DIR] [-generations N] [-branch DIR] [-scheduler local|slurm]
//
// The run's resolved settings are written to config.yaml in its directory; a
// rerun whose settings would change what the run has written is refused,
// naming the settings, unless -branch DIR starts a branch of the run in DIR.
// Raising -generations (or generations in the config) grows a finished run.
//
// With -scheduler slurm (or scheduler: slurm in the config) every stage runs
// as a Slurm job, and this process submits them and watches the queue; the
// jobs run `pipeline stage`, one stage of one generation (docs/scaling.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/pipeline"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var code int
	if len(os.Args) > 1 && os.Args[1] == "stage" {
		code = runStage(ctx, os.Args[2:], os.Stdout, os.Stderr, os.Getenv)
	} else {
		code = run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	}
	stop()
	os.Exit(code)
}

// run executes the command line args (without the program name) and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "quick", "embedded settings: quick, standard or large (configs/pipeline-*.yaml)")
	configPath := fs.String("config", "", "YAML settings over the preset's (the preset first, then the file's keys)")
	generations := fs.Int("generations", 0, "generations to train, over the config's; raise it on a finished run to grow it")
	branch := fs.String("branch", "", "start a branch of the run in `DIR`: keep the run's finished stages that the new\nsettings would make the same, and play the rest there with the new settings")
	out := fs.String("out", "", "run directory (default: the preset's, runs/quick for quick)")
	verifyOnly := fs.Bool("verify-only", false, "check the engine and stop")
	scheduler := fs.String("scheduler", "", "run the stages here (local, the default) or as Slurm jobs (slurm); overrides the config's scheduler")
	initOnly := fs.Bool("init", false, "write the run's settings (RUN/config.yaml, checked as a start checks them) and generation 0's weights, and stop:\nfor stages run by another scheduler with `pipeline stage -config RUN/config.yaml` (docs/scaling.md)")
	takeOver := fs.Bool("takeover", false, "take over the run directory's claim, and its shards', whatever the owner\n(for a pipeline on another host known to be gone; one killed on this host is taken over without it)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pipeline [-preset quick|standard|large] [-config FILE] [-out DIR] [-generations N] [-branch DIR] [-scheduler local|slurm]")
		fmt.Fprintln(stderr, "\nChecks the engine, then runs the generation loop (self-play, training, gate,")
		fmt.Fprintln(stderr, "promotion), rates every generation and writes report.md, report.json and")
		fmt.Fprintln(stderr, "report.png in the run directory. Rerun the same command to continue a run;")
		fmt.Fprintln(stderr, "raise -generations to grow a finished one. Settings that would change what")
		fmt.Fprintln(stderr, "a run has written are refused, unless -branch DIR starts a branch of it.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "pipeline: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "pipeline: %v\n", err)
		return 1
	}
	cfg, err := pipeline.LoadPreset(*preset, *configPath)
	if err != nil {
		return fail(err)
	}
	if *out != "" {
		cfg.Out = *out
	}
	if *generations < 0 {
		fmt.Fprintf(stderr, "pipeline: -generations %d: want at least 1\n", *generations)
		return 2
	}
	if *generations > 0 {
		cfg.Generations = *generations
	}
	if *scheduler != "" {
		if *scheduler != pipeline.SchedulerLocal && *scheduler != pipeline.SchedulerSlurm {
			fmt.Fprintf(stderr, "pipeline: -scheduler %q: want local or slurm\n", *scheduler)
			return 2
		}
		cfg.Scheduler = *scheduler
	}
	if *branch != "" && !*verifyOnly {
		parent := cfg.Out
		cfg.Out = *branch
		info, err := pipeline.Branch(parent, cfg)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "branch %s of %s: kept %s\n", cfg.Out, parent, info.Kept)
	}
	// One pipeline at a time runs a directory: refuse a second one at once.
	var claim *data.Claim
	if !*verifyOnly {
		if claim, err = pipeline.ClaimRun(cfg.Out, *takeOver); err != nil {
			return fail(err)
		}
		defer claim.Release()
	}
	if *initOnly && !*verifyOnly {
		log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		if err := pipeline.Init(pipeline.Settled(cfg), log); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "settings written: %s\n", filepath.Join(cfg.Out, pipeline.SettingsFile))
		return 0
	}
	start := time.Now()
	fmt.Fprintln(stdout, "engine verification")
	v, err := embeddedVerification()
	if err != nil {
		return fail(err)
	}
	if err := verify(v, stdout, stderr); err != nil {
		return fail(err)
	}
	if *verifyOnly {
		return 0
	}
	cfg = pipeline.Settled(cfg) // a run does not shrink
	fmt.Fprintf(stdout, "\ngeneration loop: %d generations in %s\n", cfg.Generations, cfg.Out)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	rep, err := pipeline.Run(ctx, cfg, pipeline.Options{
		Claim:    claim,
		TakeOver: *takeOver,
		Log:      log,
		// Bars on a terminal, a line per shard, match and stage otherwise;
		// with Slurm, the jobs' progress read from the queue.
		Progress: stderr,
		Stages: func(s pipeline.Stage) {
			note := ""
			if s.Skipped {
				note = " (done before)"
			}
			fmt.Fprintf(stdout, "  [%s] gen %d %s%s\n", time.Since(start).Round(time.Second), s.Generation, s.Name, note)
		},
	})
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "pipeline: interrupted; run the same command again to continue")
			return 130
		}
		return fail(err)
	}
	fmt.Fprintf(stdout, "\n%s\nreport: %s/report.md, report.json, report.png (%s)\n", rep.Markdown(), cfg.Out, time.Since(start).Round(time.Second))
	return 0
}
