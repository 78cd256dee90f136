package main

import (
	"context"
	"flag"

	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/progress"
)

// rejudgeVerb scores the moves of an earlier regret report again with
// another judge (judge.Rejudge): no player searches, so a shallow judge
// after a deep one, or another engine, shows which of the losses it sees.
func rejudgeVerb(fs *flag.FlagSet) func(env, []string) error {
	jf := defineJudgeFlags(fs)
	blunder := fs.Float64("blunder", judge.DefaultBlunder, "a move of regret `RABBITS` or more is a blunder")
	worst := fs.Int("worst", judge.DefaultWorst, "list each player's `K` worst moves by this judge (0: none)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object (with every move), a report of this judge that regret -base takes")
	workers := fs.Int("workers", 1, "run `W` engines at once")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	return func(e env, args []string) error {
		switch {
		case len(args) != 1:
			return usageError("want one report FILE (analyze regret -json)")
		case *worst < 0:
			return usageError("-worst must not be negative")
		case *workers < 1:
			return usageError("-workers must be at least 1")
		}
		if err := jf.check(); err != nil {
			return err
		}
		in, err := openInput(args[0], e.stdin)
		if err != nil {
			return err
		}
		old, err := judge.ReadReport(in, in.name)
		in.Close()
		if err != nil {
			return err
		}

		ctx := context.Background()
		engines, judges, closeAll, err := jf.startJudges(ctx, *workers, e.stderr)
		if err != nil {
			return err
		}
		defer closeAll()

		worstK := *worst
		if worstK == 0 {
			worstK = -1 // none (0 is the default for judge.Config)
		}
		var bar *progress.Bar
		rep, err := judge.Rejudge(ctx, judges, engines[0].Describe(), old, judge.Config{
			Blunder: *blunder, Worst: worstK,
			Progress: func(done, total int) {
				if bar == nil {
					bar = progress.New(e.stderr, int64(total), "rejudging", *force)
				}
				bar.Set(int64(done))
			},
		})
		if bar != nil {
			bar.Finish()
		}
		if err != nil {
			return err
		}
		return writeReport(e.stdout, *asJSON, rep)
	}
}
