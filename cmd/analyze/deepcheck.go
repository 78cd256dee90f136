package main

import (
	"context"
	"flag"

	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/weights"
)

// deepcheckVerb checks the judged moves of a regret report with the deep
// scan of an evaluation (judge.CheckDeep): no engine runs, so it splits a
// player's regret cheaply into what the scan's candidates miss and what
// its evaluation misjudges.
func deepcheckVerb(fs *flag.FlagSet) func(env, []string) error {
	weightsPath := fs.String("weights", "", "evaluation weights `FILE` whose deep scan is checked (default: the embedded generation-0 weights)")
	asJSON := fs.Bool("json", false, "print the check as one JSON object, with every move")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	return func(e env, args []string) error {
		if len(args) != 1 {
			return usageError("want one report FILE (analyze regret -json)")
		}
		w, err := loadWeights(*weightsPath)
		if err != nil {
			return err
		}
		ev, err := weights.NewLinear(w)
		if err != nil {
			return err
		}
		s, err := mcts.New(mcts.Config{Scan: mcts.ScanDeep}, ev)
		if err != nil {
			return err
		}
		in, err := openInput(args[0], e.stdin)
		if err != nil {
			return err
		}
		rep, err := judge.ReadReport(in, in.name)
		in.Close()
		if err != nil {
			return err
		}
		name := "configs/gen0.json (embedded)"
		if *weightsPath != "" {
			name = *weightsPath
		}
		var bar *progress.Bar
		dc, err := judge.CheckDeep(context.Background(), rep, s, name, func(done, total int) {
			if bar == nil {
				bar = progress.New(e.stderr, int64(total), "checking", *force)
			}
			bar.Set(int64(done))
		})
		if bar != nil {
			bar.Finish()
		}
		if err != nil {
			return err
		}
		return writeReport(e.stdout, *asJSON, dc)
	}
}
