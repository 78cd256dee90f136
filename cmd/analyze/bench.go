package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// clueless32 holds the 32 benchmark positions of the arimaa community's move
// generation tests (2,987,987 moves in all).
//
//go:embed testdata/clueless32.aei
var clueless32 string

// benchVerb times move generation over a position file.
func benchVerb(fs *flag.FlagSet) func(env, []string) error {
	runs := fs.Int("runs", 5, "timed `N` runs over the positions; the best and the median are reported")
	return func(e env, args []string) error {
		if *runs < 1 {
			return usageError("-runs must be at least 1")
		}
		if len(args) > 1 {
			return usageError("want at most one FILE")
		}
		var (
			positions []numbered
			source    string
			err       error
		)
		if len(args) == 0 {
			source = "embedded clueless32.aei"
			positions, err = readPositions(strings.NewReader(clueless32), "clueless32.aei")
		} else {
			var in *input
			in, err = openInput(args[0], e.stdin)
			if err != nil {
				return err
			}
			defer in.Close()
			source = in.name
			positions, err = readPositions(in, in.name)
		}
		if err != nil {
			return err
		}
		if len(positions) == 0 {
			return errors.New(source + ": no positions")
		}
		return bench(e, positions, source, *runs)
	}
}

// bench generates the moves of all positions runs times on one core and prints
// the best and the median speed.
func bench(e env, positions []numbered, source string, runs int) error {
	g := engine.NewMoveGen()
	times := make([]time.Duration, runs)
	moves := 0
	fmt.Fprintf(e.stdout, "positions      %d (%s)\n", len(positions), source)
	for r := range runs {
		n := 0
		start := time.Now()
		for i := range positions {
			n += g.Generate(&positions[i].pos, nil)
		}
		times[r] = time.Since(start)
		if r > 0 && n != moves {
			return fmt.Errorf("run %d found %d moves, run 1 found %d", r+1, n, moves)
		}
		moves = n
		fmt.Fprintf(e.stdout, "run %-10d %.3f s  %s moves/s\n", r+1, times[r].Seconds(), rate(n, times[r]))
	}
	slices.Sort(times)
	median := times[runs/2]
	if runs%2 == 0 {
		median = (times[runs/2-1] + times[runs/2]) / 2
	}
	fmt.Fprintf(e.stdout, "moves per run  %d\n", moves)
	fmt.Fprintf(e.stdout, "best           %s moves/s (%.3f s)\n", rate(moves, times[0]), times[0].Seconds())
	fmt.Fprintf(e.stdout, "median         %s moves/s (%.3f s)\n", rate(moves, median), median.Seconds())
	return nil
}
