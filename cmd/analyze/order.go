package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"

	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/train"
	"github.com/arimaalab/arimaalab/weights"
)

// orderVerb measures an evaluation on a judge's labelled groups, and two
// against each other pair by pair (package train, Order).
func orderVerb(fs *flag.FlagSet) func(env, []string) error {
	weightsPath := fs.String("weights", "", "evaluation weights `FILE` to measure (default: the embedded generation-0 weights)")
	basePath := fs.String("base", "", "weights `FILE` to compare with, pair by pair: -weights minus -base (\"gen0\": the embedded generation-0 weights)")
	margin := fs.Float64("margin", train.DefaultPairMargin, "the least difference `M` of root_value between two positions of a group for a pair (as train -pair-margin)")
	leaf := fs.Bool("leaf", true, "take each position's features after its side to move's best capture line, where the search reads them (as train -pair-leaf)")
	threads := fs.Int("threads", runtime.NumCPU(), "compute the features on `T` goroutines")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	return func(e env, args []string) error {
		switch {
		case len(args) == 0:
			return usageError("want labelled shards: files, directories or globs (analyze label's output)")
		case *threads < 1:
			return usageError("-threads must be at least 1")
		case !(*margin > 0) || *margin >= 2:
			return usageError(fmt.Sprintf("-margin %v: want more than 0 and less than 2", *margin))
		}
		w, err := loadWeights(*weightsPath)
		if err != nil {
			return err
		}
		ws := []*weights.Weights{w}
		if *basePath != "" {
			path := *basePath
			if path == "gen0" {
				path = ""
			}
			b, err := loadWeights(path)
			if err != nil {
				if inner := errors.Unwrap(err); inner != nil {
					err = inner // loadWeights names -weights
				}
				return fmt.Errorf("-base: %w", err)
			}
			ws = append(ws, b)
		}
		var newLeaf func() train.LeafFunc
		if *leaf {
			newLeaf = func() train.LeafFunc { return mcts.NewCaptureLeaf().LeafOK }
		}
		for i, a := range args {
			o := train.DefaultOptions()
			o.Data, o.Threads, o.Progress, o.ForceProgress = []string{a}, *threads, e.stderr, *force
			rep, err := train.Order(context.Background(), train.OrderOptions{Options: o, Weights: ws, Margin: *margin, Leaf: newLeaf})
			if err != nil {
				return err
			}
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			if _, err := rep.WriteTo(e.stdout); err != nil {
				return err
			}
		}
		return nil
	}
}
