// Command selfplay plays games of the MCTS player against itself and writes them
// as Arrow shards with their game records.
//
// Usage:
//
//	selfplay [-config FILE] -out DIR [-games N] [-shard i -shards n] [-seed S] [-workers W] [-weights FILE] [-takeover]
//
// Without -shard, the shard comes from JOB_COMPLETION_INDEX (a Kubernetes
// Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm job array) when set, else every
// shard of the run is played here. A shard already written is skipped, so a
// rerun continues an interrupted run. A shard is written under its claim
// (PATH.claim): a second process on the same shard is refused, naming the
// first; -takeover takes over a claim left by a process known to be gone.
// SIGINT and SIGTERM stop cleanly: the open
// shard is discarded and the finished ones are kept.
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
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/selfplay"
	"github.com/arimaalab/arimaalab/weights"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run executes the command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "YAML settings overriding the embedded defaults (configs/selfplay.yaml)")
	out := fs.String("out", "", "directory of the shards (required)")
	games := fs.Int("games", 0, "games of the whole run (default: the config's games)")
	shard := fs.Int("shard", -1, "the one shard to play (default: $JOB_COMPLETION_INDEX, $SLURM_ARRAY_TASK_ID, or all)")
	shards := fs.Int("shards", 0, "shards of the run (default: games / games_per_shard, rounded up)")
	seed := fs.Uint64("seed", 1, "run seed: the same seed, shard and config give the same bytes")
	workers := fs.Int("workers", 0, "games played at once (default: the config's, or one per core)")
	weightsPath := fs.String("weights", "", "weights file (default: the embedded generation-0 weights)")
	showProgress := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	takeOver := fs.Bool("takeover", false, "take over the claim of a shard whatever its owner (for a claim left by a process known to be gone)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: selfplay [-config FILE] -out DIR [-games N] [-shard i -shards n] [-seed S] [-workers W] [-weights FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "selfplay: -out DIR is required and there are no arguments")
		return 2
	}
	fail := func(err error) int {
		// The selfplay package names itself already.
		fmt.Fprintf(stderr, "selfplay: %s\n", strings.TrimPrefix(err.Error(), "selfplay: "))
		return 1
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, f := range []struct {
		name string
		v    int
		min  int
	}{{"games", *games, 1}, {"shards", *shards, 1}, {"workers", *workers, 1}, {"shard", *shard, 0}} {
		if set[f.name] && f.v < f.min {
			fmt.Fprintf(stderr, "selfplay: -%s %d: want %d or more\n", f.name, f.v, f.min)
			return 2
		}
	}
	cfg, err := selfplay.DefaultConfig()
	if *configPath != "" {
		cfg, err = selfplay.LoadConfig(*configPath)
	}
	if err != nil {
		return fail(err)
	}
	if *shard < 0 {
		for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if v := getenv(name); v != "" {
				i, err := strconv.Atoi(v)
				if err != nil || i < 0 {
					return fail(fmt.Errorf("%s=%q is not a shard index", name, v))
				}
				*shard = i
				break
			}
		}
	}
	var w *weights.Weights
	if *weightsPath != "" {
		if w, err = weights.Load(*weightsPath); err == nil {
			err = w.Check()
		}
	} else {
		w, err = configs.Gen0()
	}
	if err != nil {
		return fail(err)
	}
	total, n, rangeOf := selfplay.Plan(cfg, *games, *shards)
	todo := total
	if *shard >= 0 && *shard < n {
		lo, hi := rangeOf(*shard)
		todo = hi - lo
	}
	bar := progress.New(stderr, int64(todo), "self-play", *showProgress)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	sum, err := selfplay.Run(ctx, cfg, selfplay.Options{
		Out: *out, Seed: *seed, Games: *games, Shards: n, Shard: *shard, Workers: *workers, Weights: w, Log: log, TakeOver: *takeOver,
		Progress: func(p selfplay.Progress) {
			bar.Describe(fmt.Sprintf("shard %d, %d plies", p.Shard, p.Turns))
			bar.Set(int64(p.GamesDone))
		},
	})
	bar.Finish()
	if sum != nil && (err == nil || sum.Shards > 0 || sum.Games > 0) {
		printSummary(stdout, sum)
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "selfplay: interrupted: the open shard was discarded; rerun the same command to continue")
			return 130
		}
		return fail(err)
	}
	return 0
}

func printSummary(w io.Writer, s *selfplay.Summary) {
	fmt.Fprintf(w, "shards written %d, skipped (already done) %d\n", s.Shards, s.ShardsSkipped)
	fmt.Fprintf(w, "games %d, rows %d, mean length %.1f plies\n", s.Games, s.Rows, s.MeanLength())
	fmt.Fprintf(w, "gold wins %d, silver wins %d, unfinished %d\n", s.GoldWins, s.SilverWins, s.Unfinished)
	if s.TreeFull > 0 {
		fmt.Fprintf(w, "searches ended early by a full tree %d (raise search.max_nodes)\n", s.TreeFull)
	}
	keys := make([]string, 0, len(s.Terminations))
	for k := range s.Terminations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-15s %d\n", k, s.Terminations[k])
	}
	rate := 0.0
	if secs := s.Elapsed.Seconds(); secs > 0 {
		rate = float64(s.Rows) / secs
	}
	fmt.Fprintf(w, "time %.1fs, %.1f rows/s\n", s.Elapsed.Seconds(), rate)
}
