// Command train fits the weights of the linear evaluation to self-play data by
// regularized logistic regression (the Texel method) and writes the next
// generation of weights with its lineage.
//
// Usage:
//
//	train -data PATH... -out WEIGHTS [-init WEIGHTS] [-target result|value|blend:L] [-l2 X]
//	      [-val 0.1] [-max-rows N] [-recompute-features] [-stream] [-seed S] [-threads T] [flags]
//
// A PATH is a shard file, a directory (searched recursively for *.arrow files)
// or a glob pattern; -data may be repeated, and the paths after it up to the
// next flag are data too. Without -init the embedded generation-0 weights are
// the starting point. The report (a summary table of log-loss, accuracy and
// Brier score for the zero, initial and fitted weights on the training and
// validation rows, a breakdown by game phase and the weights that changed
// most) goes to stdout; progress bars to stderr when it is a terminal.
// docs/train.md explains the model and every flag.
//
// The exit status is 0 on success, 1 on an error (one line on stderr), 2 for a
// wrong command line and 130 when interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/policy"
	"github.com/arimaalab/arimaalab/train"
	"github.com/arimaalab/arimaalab/weights"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// paths is a repeatable flag of data paths.
type paths []string

func (p *paths) String() string { return strings.Join(*p, " ") }

func (p *paths) Set(s string) error {
	*p = append(*p, s)
	return nil
}

// run executes the command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opt := train.DefaultOptions()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var data paths
	fs.Var(&data, "data", "shard file, directory or glob `PATH` (repeatable; the paths after it are data too)")
	initPath := fs.String("init", "", "initial weights `FILE` (default: the embedded generation-0 weights)")
	out := fs.String("out", "", "fitted weights `FILE` to write (required)")
	fs.Var(&opt.Target, "target", "the value `TARGET`: result, value or blend:L (L*result + (1-L)*value)")
	fs.Float64Var(&opt.L2, "l2", opt.L2, "L2 penalty weight on every weight but the bias, in the units of the scale")
	fs.BoolVar(&opt.L2ToInit, "l2-to-init", false, "pull the weights towards the initial ones instead of zero")
	fs.Func("fix", "keep the weights of the features `LIST` (comma-separated names or patterns such as material_*) at their initial values (with -pairs, at the free weights' multiple of them)", func(s string) error {
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				opt.Fix = append(opt.Fix, p)
			}
		}
		return nil
	})
	fs.Float64Var(&opt.Val, "val", opt.Val, "share of the games held out for validation, in [0, 1)")
	fs.Uint64Var(&opt.Seed, "seed", opt.Seed, "seed of the train/validation split")
	fs.Int64Var(&opt.MaxRows, "max-rows", 0, "read only the first `N` rows of the data (0: all)")
	fs.BoolVar(&opt.RecomputeFeatures, "recompute-features", false, "recompute the features from the stored boards with the current feature set")
	fs.BoolVar(&opt.Stream, "stream", false, "stream the shards at every pass instead of holding the rows in memory")
	fs.IntVar(&opt.Threads, "threads", 0, "goroutines computing the loss (0: one per CPU); the result does not depend on it")
	fs.Float64Var(&opt.CheapWeight, "cheap-weight", opt.CheapWeight, "weight of the rows of cheap searches (full_search=false), in [0, 1]")
	fs.IntVar(&opt.EarlyTurns, "early-turns", 0, "weight the rows of each side's first `K` turns by -early-weight (0: off)")
	fs.Float64Var(&opt.EarlyWeight, "early-weight", opt.EarlyWeight, "weight of the rows of the early turns, in [0, 1]")
	fs.BoolVar(&opt.FitScale, "fit-scale", false, "move the scale so that the -anchor feature keeps its initial weight")
	fs.StringVar(&opt.Anchor, "anchor", opt.Anchor, "the feature whose weight -fit-scale keeps")
	fs.IntVar(&opt.MaxIter, "max-iter", opt.MaxIter, "maximum L-BFGS iterations")
	fs.Float64Var(&opt.GradTol, "grad-tol", opt.GradTol, "stop when the largest gradient component (standardized weights) is below this")
	fs.StringVar(&opt.Notes, "notes", "", "free text added to the lineage's notes")
	pairs := fs.Bool("pairs", false, "comparison training: fit which of two labelled positions after one position the judge prefers\n"+
		"(rows sharing a game id, turn and side: a labelled successors file; see docs/train.md)")
	margin := fs.Float64("pair-margin", train.DefaultPairMargin, "with -pairs, the least difference of root_value between two positions for a pair")
	leaf := fs.Bool("pair-leaf", true, "with -pairs, take each position's features after its side to move's best capture line, where the search reads them")
	reply := fs.Bool("pair-reply", false, "with -pairs, take each position's features after the best reply of its side to move, by the deep scan's\n"+
		"reply scan with the -init weights, and the best capture line after it: where the deep scan reads them (about 200 ms of one core a row)")
	pol := fs.Bool("policy", false, "fit the step model of the learned priors (package policy) instead: on the moves of game archives\n"+
		"(files) and the visit distributions of self-play data (directories, globs, .arrow files); -out is the model to write;\n"+
		"-players, -val, -seed, -l2 and -max-iter apply")
	var players []string
	fs.Func("players", "with -policy, learn the moves of the players `LIST` (comma-separated names or patterns such as sharp*; default all)", func(s string) error {
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				players = append(players, p)
			}
		}
		return nil
	})
	force := fs.Bool("progress", false, "show progress bars even when stderr is not a terminal")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: train -data PATH... -out WEIGHTS [-init WEIGHTS] [-target result|value|blend:L | -pairs] [-l2 X] [-fix LIST] [-val 0.1] [-max-rows N] [-recompute-features] [-stream] [-seed S] [-threads T]")
		fs.PrintDefaults()
	}
	// Paths may follow -data (or stand anywhere between flags): parse, take
	// the arguments up to the next flag as data, and go on.
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		args = fs.Args()
		for len(args) > 0 && (!strings.HasPrefix(args[0], "-") || args[0] == "-") {
			data = append(data, args[0])
			args = args[1:]
		}
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			data = append(data, args[1:]...)
			break
		}
	}
	if *out == "" {
		fmt.Fprintln(stderr, "train: -out WEIGHTS is required")
		return 2
	}
	if err := checkFlags(&opt); err != nil {
		fmt.Fprintf(stderr, "train: %v\n", err)
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *pol {
		return runPolicy(ctx, set, data, players, *out, opt, stdout, stderr)
	}
	if set["players"] {
		fmt.Fprintln(stderr, "train: -players goes with -policy only")
		return 2
	}
	if *pairs {
		for _, name := range []string{"target", "fit-scale", "anchor", "stream", "recompute-features", "cheap-weight", "early-turns", "early-weight"} {
			if set[name] {
				fmt.Fprintf(stderr, "train: -%s does not go with -pairs\n", name)
				return 2
			}
		}
		if !(*margin > 0 && *margin < 2) {
			fmt.Fprintf(stderr, "train: -pair-margin %v: want more than 0 and less than 2\n", *margin)
			return 2
		}
	} else {
		for _, name := range []string{"pair-margin", "pair-leaf", "pair-reply"} {
			if set[name] {
				fmt.Fprintf(stderr, "train: -%s goes with -pairs only\n", name)
				return 2
			}
		}
	}
	if len(data) == 0 {
		fmt.Fprintln(stderr, "train: no data: give shard files, directories or globs with -data")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "train: %v\n", err)
		return 1
	}
	opt.Data = data
	if *initPath != "" {
		w, err := weights.Load(*initPath)
		if err != nil {
			return fail(err)
		}
		opt.Init = w
	}
	opt.Progress, opt.ForceProgress = stderr, *force

	var (
		w   *weights.Weights
		rep io.WriterTo
		err error
	)
	if *pairs {
		po := train.PairOptions{Options: opt, Margin: *margin}
		switch {
		case *reply:
			iw := opt.Init
			if iw == nil {
				if iw, err = configs.Gen0(); err != nil {
					return fail(err)
				}
			}
			ev, err := weights.NewLinear(iw)
			if err != nil {
				return fail(fmt.Errorf("-pair-reply: %w", err))
			}
			if _, err := mcts.NewReplyLeaf(ev); err != nil {
				return fail(fmt.Errorf("-pair-reply: %w", err))
			}
			po.Leaf = func() train.LeafFunc {
				r, _ := mcts.NewReplyLeaf(ev) // cannot fail: checked above
				return r.Leaf
			}
		case *leaf:
			po.Leaf = func() train.LeafFunc { return mcts.NewCaptureLeaf().LeafOK }
		}
		w, rep, err = train.RunPairs(ctx, po)
	} else {
		var res *train.Result
		if res, err = train.Run(ctx, opt); err == nil {
			w, rep = res.Weights, res.Report
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "train: interrupted; nothing written")
			return 130
		}
		return fail(err)
	}
	if _, err := rep.WriteTo(stdout); err != nil {
		return fail(err)
	}
	if err := w.Save(*out); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "\nwrote %s: generation %d, hash %s\n", *out, w.Generation, w.Hash())
	return 0
}

// runPolicy fits the step model of the learned priors on the archives
// files and writes it to out.
func runPolicy(ctx context.Context, set map[string]bool, files, players []string, out string, opt train.Options, stdout, stderr io.Writer) int {
	for name := range set {
		switch name {
		case "policy", "players", "out", "val", "seed", "l2", "max-iter", "data":
		default:
			fmt.Fprintf(stderr, "train: -%s does not go with -policy\n", name)
			return 2
		}
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "train: no games: give archive files or self-play data with -policy")
		return 2
	}
	po := policy.TrainOptions{Players: players, Val: opt.Val, Seed: opt.Seed,
		Fit: policy.FitOptions{MaxIter: opt.MaxIter}}
	for _, f := range files {
		// Directories, globs and .arrow files are self-play data; other files archives.
		if fi, err := os.Stat(f); err == nil && fi.IsDir() || strings.HasSuffix(f, ".arrow") || strings.ContainsAny(f, "*?[") {
			po.Shards = append(po.Shards, f)
		} else {
			po.Archives = append(po.Archives, f)
		}
	}
	if set["l2"] {
		po.Fit.L2 = opt.L2
	}
	w, rep, err := policy.Train(ctx, po)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "train: interrupted; nothing written")
			return 130
		}
		fmt.Fprintf(stderr, "train: %v\n", err)
		return 1
	}
	if _, err := rep.WriteTo(stdout); err != nil {
		fmt.Fprintf(stderr, "train: %v\n", err)
		return 1
	}
	if err := w.Save(out); err != nil {
		fmt.Fprintf(stderr, "train: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", out)
	return 0
}

// checkFlags checks the numeric flags before any data is read; errors name
// the flag.
func checkFlags(o *train.Options) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !(o.Val >= 0 && o.Val < 1):
		return fmt.Errorf("-val %v: want 0 to 1 (less than 1)", o.Val)
	case !(o.CheapWeight >= 0 && o.CheapWeight <= 1):
		return fmt.Errorf("-cheap-weight %v: want 0 to 1", o.CheapWeight)
	case !(o.EarlyWeight >= 0 && o.EarlyWeight <= 1):
		return fmt.Errorf("-early-weight %v: want 0 to 1", o.EarlyWeight)
	case o.EarlyTurns < 0:
		return fmt.Errorf("-early-turns %d: want 0 or more", o.EarlyTurns)
	case o.MaxRows < 0:
		return fmt.Errorf("-max-rows %d: want 0 (all) or more", o.MaxRows)
	case o.Threads < 0:
		return fmt.Errorf("-threads %d: want 0 (one per CPU) or more", o.Threads)
	case o.MaxIter < 0:
		return fmt.Errorf("-max-iter %d: want 0 (the default) or more", o.MaxIter)
	case !(o.GradTol >= 0) || !finite(o.GradTol):
		return fmt.Errorf("-grad-tol %v: want a finite number, 0 (the default) or more", o.GradTol)
	case !(o.L2 >= 0) || !finite(o.L2):
		return fmt.Errorf("-l2 %v: want a finite number, 0 or more", o.L2)
	}
	return nil
}
