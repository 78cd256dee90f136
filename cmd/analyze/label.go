package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/progress"
)

// labelJudge is how the labels were made, as the shards' metadata records it.
type labelJudge struct {
	Command string   `json:"command"`
	Engine  string   `json:"engine"` // the engine's name, version and options
	Options []string `json:"options"`
	Units   string   `json:"units"`
	Clamp   float64  `json:"clamp"`
}

// labelSelection is how the positions were chosen.
type labelSelection struct {
	Files []string `json:"files"`
	N     int      `json:"n"`
	Seed  uint64   `json:"seed"`
	Every int      `json:"every"`
}

// labelVerb scores positions with a reference AEI engine and writes them as
// dataset shards for train -target value.
func labelVerb(fs *flag.FlagSet) func(env, []string) error {
	jf := defineJudgeFlags(fs)
	out := fs.String("out", "", "write the shards into `DIR` (required); the same command continues a run cut short")
	n := fs.Int("n", 0, "label `N` positions drawn from all those of the files, kept in file order (0: all)")
	seed := fs.Uint64("seed", 1, "`SEED` of the draw of -n")
	every := fs.Int("every", 1, "of each game, keep only the positions before every `K`-th move (plies 0, K, 2K, ...), before the draw of -n")
	workers := fs.Int("workers", 1, "run `W` engines at once (the rows are written in the same order whatever W)")
	scale := fs.Float64("scale", judge.DefaultWinScale, "root_value = 2*sigmoid(`SCALE`*score)-1 with the judge's score in rabbits;\n"+
		"keep it the scale of the weights trained on them (0.13 for generation 0), so that their weights read in rabbits")
	shardSize := fs.Int("shard-size", judge.DefaultShardSize, "close a shard at the end of the game that brings it to `N` positions")
	takeOver := fs.Bool("takeover", false, "take over the claim of a shard whatever its owner (for a claim left by a process known to be gone)")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	return func(e env, args []string) error {
		switch {
		case len(args) == 0:
			return usageError("want archive or position files")
		case *out == "":
			return usageError("-out DIR is required")
		case *n < 0:
			return usageError("-n must not be negative")
		case *every < 1:
			return usageError("-every must be at least 1")
		case *workers < 1:
			return usageError("-workers must be at least 1")
		case !(*scale > 0):
			return usageError("-scale must be positive")
		case *shardSize < 1:
			return usageError("-shard-size must be at least 1")
		}
		if err := jf.check(); err != nil {
			return err
		}
		all, err := readJudgePositions(args, e.stdin)
		if err != nil {
			return err
		}
		positions := judge.Pick(judge.Every(all, *every), *seed, *n)
		if len(positions) == 0 {
			return fmt.Errorf("no positions in %s", strings.Join(args, ", "))
		}

		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		engines, judges, closeAll, err := jf.startJudges(ctx, min(*workers, len(positions)), e.stderr)
		if err != nil {
			return err
		}
		defer closeAll()
		info := labelJudge{Command: *jf.command, Engine: engines[0].Describe(), Options: []string{}, Clamp: engines[0].Clamp(),
			Units: "1000 a rabbit for the Eval of a log line \"Depth D Eval V\", 100 for info score"}
		for _, o := range *jf.options {
			info.Options = append(info.Options, o[0]+"="+o[1])
		}
		if *jf.unit != 0 {
			info.Units = fmt.Sprintf("%g a rabbit", *jf.unit)
		}

		bar := progress.New(e.stderr, int64(len(positions)), "labelling", *force)
		sum, err := judge.Label(ctx, judges, positions, judge.LabelConfig{
			Out: *out, Scale: *scale, ShardSize: *shardSize, Seed: *seed, TakeOver: *takeOver,
			Judge:     info,
			Selection: labelSelection{Files: args, N: *n, Seed: *seed, Every: *every},
			Progress:  func(done, total int) { bar.Set(int64(len(positions) - total + done)) },
		})
		bar.Finish()
		if err != nil {
			if ctx.Err() != nil {
				err = errors.New("interrupted: the shards written are kept, and the same command continues")
			}
			if sum != nil && sum.Shards > 0 {
				fmt.Fprintf(e.stdout, "shards written before the error %d (%d rows)\n", sum.Shards, sum.Rows)
			}
			return err
		}
		o := newOutWriter(e.stdout, nil)
		writeLabelSummary(o, sum, *out, len(judges))
		return o.flush()
	}
}

// writeLabelSummary prints what Label did.
func writeLabelSummary(w io.Writer, s *judge.LabelSummary, out string, engines int) {
	fmt.Fprintf(w, "positions %d in %s: shards written %d, skipped (already done) %d\n", s.Positions, out, s.Shards, s.ShardsSkipped)
	var src []string
	for _, k := range []judge.Source{judge.FromLog, judge.FromInfo, judge.FromRules} {
		if c := s.Sources[k]; c > 0 {
			src = append(src, fmt.Sprintf("%s %d", k, c))
		}
	}
	if s.Scored == 0 {
		fmt.Fprintf(w, "rows 0 (every shard was written already)\n")
		return
	}
	fmt.Fprintf(w, "rows %d, scores %s, mean |score| %.2f rabbits\n", s.Rows, strings.Join(src, ", "), s.MeanAbsScore())
	fmt.Fprintf(w, "engine time %.1fs on %d engines (%.3fs a position), wall %.1fs, %.1f rows/s\n",
		s.EngineTime.Seconds(), engines, s.EngineTime.Seconds()/float64(s.Scored), s.Elapsed.Seconds(), float64(s.Rows)/s.Elapsed.Seconds())
}
