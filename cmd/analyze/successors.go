package main

import (
	"bytes"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/weights"
)

// successorsVerb writes positions one move after positions of archives and
// position files: of each, some of the mover's moves, chosen by a linear
// evaluation, as a position file for label.
func successorsVerb(fs *flag.FlagSet) func(env, []string) error {
	out := fs.String("out", "", "write the positions to `FILE` (a temporary file renamed when complete; default: stdout)")
	every := fs.Int("every", 3, "of each game, take only the positions before every `K`-th move (plies 0, K, 2K, ...);\n"+
		"a position file's positions are all taken")
	top := fs.Int("top", 30, "draw -pick among the mover's `N` best moves by the evaluation")
	pick := fs.Int("pick", 3, "of each position, draw `P` moves without replacement among the -top best")
	random := fs.Int("random", 1, "and `R` more uniformly, without replacement, among all the moves not drawn by -pick")
	weightsPath := fs.String("weights", "", "evaluation weights `FILE` that rank the moves (default: the embedded generation-0 weights)")
	seed := fs.Uint64("seed", 1, "`SEED` of the draws")
	turns := fs.String("turns", "", "archives: only the positions of game turns `FIRST-LAST` (such as 2-20; 10- for turn 10 on)")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	replies := fs.Bool("replies", false, "write in place of each position after a drawn move the position after the opponent's best reply to it\n"+
		"by the deep scan's scan of the reply turn with the -weights evaluation (the drawn move's mover to move again): where the\n"+
		"deep scan reads the evaluation; positions whose reply the rules decide are left out")
	workers := fs.Int("workers", runtime.NumCPU(), "with -replies, find the replies on `W` goroutines (the positions do not depend on W)")
	reports := fs.Bool("reports", false, "the files are regret reports (analyze regret -json): of each judged position, the positions after\n"+
		"the judge's best move and after each move played, one group a position (the other flags but -out do not apply)")
	return func(e env, args []string) error {
		if *reports {
			for _, f := range []string{"every", "top", "pick", "random", "weights", "seed", "turns", "replies", "workers"} {
				if isSet(fs, f) {
					return usageError("-" + f + " does not apply to -reports")
				}
			}
			if len(args) == 0 {
				return usageError("want regret report files")
			}
			return reportSuccessors(e, args, *out)
		}
		switch {
		case len(args) == 0:
			return usageError("want archive or position files")
		case *every < 1:
			return usageError("-every must be at least 1")
		case *top < 1:
			return usageError("-top must be at least 1")
		case *pick < 0:
			return usageError("-pick must not be negative")
		case *random < 0:
			return usageError("-random must not be negative")
		case *pick == 0 && *random == 0:
			return usageError("-pick and -random are both 0: no moves to draw")
		case *workers < 1:
			return usageError("-workers must be at least 1")
		case isSet(fs, "workers") && !*replies:
			return usageError("-workers applies only with -replies")
		}
		w, err := loadWeights(*weightsPath)
		if err != nil {
			return err
		}
		lin, err := weights.NewLinear(w)
		if err != nil {
			return fmt.Errorf("-weights: %w", err)
		}
		all, err := readJudgePositions(args, e.stdin)
		if err != nil {
			return err
		}
		if all, err = keepTurns(all, *turns); err != nil {
			return err
		}
		sources := judge.Every(all, *every)
		if len(sources) == 0 {
			return fmt.Errorf("no positions in %s", strings.Join(args, ", "))
		}

		bar := progress.New(e.stderr, int64(len(sources)), "successors", *force)
		succ, err := judge.Successors(sources, lin, judge.SuccessorConfig{
			Top: *top, Pick: *pick, Random: *random, Seed: *seed,
			Progress: func(done, _ int) { bar.Set(int64(done)) },
		})
		bar.Finish()
		if err != nil {
			return err
		}
		if len(succ) == 0 {
			return fmt.Errorf("no position of %s has a move after which the game goes on", strings.Join(args, ", "))
		}
		used := 0
		for i, s := range succ {
			if i == 0 || s.Source != succ[i-1].Source {
				used++
			}
		}

		drawn := len(succ)
		if *replies {
			bar := progress.New(e.stderr, int64(len(succ)), "replies", *force)
			succ, err = judge.Replies(succ, lin, *workers, func(done, _ int) { bar.Set(int64(done)) })
			bar.Finish()
			if err != nil {
				return err
			}
			if len(succ) == 0 {
				return fmt.Errorf("no move drawn in %s leaves a reply that the rules do not decide", strings.Join(args, ", "))
			}
		}

		var buf bytes.Buffer
		fmt.Fprintf(&buf, "# analyze successors -every %d -top %d -pick %d -random %d -seed %d", *every, *top, *pick, *random, *seed)
		if *turns != "" {
			fmt.Fprintf(&buf, " -turns %s", *turns)
		}
		if *replies {
			buf.WriteString(" -replies")
		}
		buf.WriteString("\n")
		fmt.Fprintf(&buf, "# weights %s\n", describeWeights(w))
		for _, a := range args {
			fmt.Fprintf(&buf, "# from %s\n", a)
		}
		summary := fmt.Sprintf("positions %d after %d of %d positions (%d without a move after which the game goes on)",
			len(succ), used, len(sources), len(sources)-used)
		if *replies {
			summary = fmt.Sprintf("positions %d after the replies to %d moves drawn in %d of %d positions (%d replies decided by the rules)",
				len(succ), drawn, used, len(sources), drawn-len(succ))
		}
		return writeSuccessors(e, &buf, sources, succ, summary, *out)
	}
}

// writeSuccessors appends to the header in buf the summary line and the
// successors, a group of the positions after each source, and writes them
// to out (stdout when empty, the summary then on stderr).
func writeSuccessors(e env, buf *bytes.Buffer, sources []judge.Position, succ []judge.Successor, summary, out string) error {
	fmt.Fprintf(buf, "# %s\n", summary)
	for i, s := range succ {
		if i == 0 || s.Source != succ[i-1].Source {
			// The positions after one source are a group: their labels
			// share a game id, for train -pairs.
			fmt.Fprintf(buf, "# group %d after %s\n", s.Source, sources[s.Source].Where)
		}
		buf.WriteString(s.Pos.String())
		buf.WriteByte('\n')
	}
	if out == "" {
		if _, err := e.stdout.Write(buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintln(e.stderr, summary)
		return nil
	}
	if err := writeFileAtomic(out, buf.Bytes()); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	fmt.Fprintf(e.stdout, "%s in %s\n", summary, out)
	return nil
}

// reportSuccessors writes the positions after the judge's best moves and
// the moves played of regret reports (judge.ReportSuccessors) to out
// (stdout when empty), as successorsVerb writes its own.
func reportSuccessors(e env, files []string, out string) error {
	var reps []*judge.Report
	for _, f := range files {
		in, err := openInput(f, e.stdin)
		if err != nil {
			return err
		}
		rep, err := judge.ReadReport(in, in.name)
		in.Close()
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	sources, succ, err := judge.ReportSuccessors(reps)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString("# analyze successors -reports: the judge's best moves and the moves played\n")
	for _, f := range files {
		fmt.Fprintf(&buf, "# from %s\n", f)
	}
	summary := fmt.Sprintf("positions %d after %d judged positions", len(succ), len(sources))
	return writeSuccessors(e, &buf, sources, succ, summary, out)
}
