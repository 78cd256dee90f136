package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/arimaalab/arimaalab/progress"

	"github.com/arimaalab/arimaalab/engine"
)

// movecountVerb counts the unique legal moves of each position of a file.
func movecountVerb(fs *flag.FlagSet) func(env, []string) error {
	list := fs.Bool("list", false, "also print every move, indented under its position")
	return func(e env, args []string) error {
		if len(args) != 1 {
			return usageError("want one FILE (- for stdin)")
		}
		in, err := openInput(args[0], e.stdin)
		if err != nil {
			return err
		}
		defer in.Close()
		return movecount(e, in, *list)
	}
}

// movecount prints `<line> <count>` for each position of in (and its moves with
// list), then a summary on stderr.
func movecount(e env, in *input, list bool) error {
	bar := progress.NewBytes(e.stderr, in.size, "counting", false)
	out := newOutWriter(e.stdout, bar)
	pr := newPositionReader(in, in.name)
	g := engine.NewMoveGen()
	var (
		positions, moves int
		gen              time.Duration
		steps            []engine.Step
	)
	for {
		np, err := pr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			bar.Finish()
			_ = out.flush()
			return err
		}
		start := time.Now()
		n := g.Generate(&np.pos, nil)
		gen += time.Since(start)
		positions++
		moves += n
		fmt.Fprintf(out, "%d %d\n", np.line, n)
		if list {
			for i := range n {
				steps = g.Steps(i, steps[:0])
				fmt.Fprintf(out, "  %s\n", engine.FormatMove(np.pos, steps))
			}
		}
		bar.Set(pr.read)
	}
	bar.Finish()
	if err := out.flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%d positions, %d moves, %.3f s, %s moves/s\n",
		positions, moves, gen.Seconds(), rate(moves, gen))
	return nil
}

// rate formats n per d, such as "5.84 M".
func rate(n int, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	r := float64(n) / d.Seconds()
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2f M", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}
