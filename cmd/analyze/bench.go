package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/scaling"
	"github.com/arimaalab/arimaalab/selfplay"
)

// clueless32 holds the 32 benchmark positions of the arimaa community's move
// generation tests (2,987,987 moves in all).
//
//go:embed testdata/clueless32.aei
var clueless32 string

// benchVerb times move generation over a position file.
func benchVerb(fs *flag.FlagSet) func(env, []string) error {
	runs := fs.Int("runs", 5, "timed `N` runs over the positions; the best and the median are reported")
	sp := fs.Bool("selfplay", false, "measure instead how self-play and the search scale with cores: self-play rows/s with 1, 2, 4, ...\n"+
		"workers up to -cores and search simulations/s with as many threads on an opening and a middlegame, with speed-ups")
	cores := fs.Int("cores", 0, "with -selfplay, the most workers and threads `N` (default: one per core)")
	games := fs.Int("games", 0, "with -selfplay, self-play games `G` at each count of workers (default: 12 per core of -cores, at least 8)")
	visits := fs.Int("visits", 200000, "with -selfplay, simulations `N` of each search")
	configPath := fs.String("config", "", "with -selfplay, the self-play config `FILE` (default: the embedded one); its search settings are the search's")
	weightsPath := fs.String("weights", "", "with -selfplay, evaluation weights `FILE` (default: the embedded generation-0 weights)")
	seed := fs.Uint64("seed", 1, "with -selfplay, the seed `S` of the self-play run and the searches")
	repeat := fs.Int("repeat", 1, "with -selfplay, make each measurement `N` times and give the median, with the lowest and highest")
	profileDir := fs.String("profile", "", "with -selfplay, write a CPU profile of each measurement into `DIR` (selfplay-16w.pprof, opening-16t.pprof, ...)")
	return func(e env, args []string) error {
		if *sp {
			for _, name := range []string{"runs"} {
				if isSet(fs, name) {
					return usageError("-" + name + " does not go with -selfplay")
				}
			}
			if len(args) > 0 {
				return usageError("-selfplay takes no FILE")
			}
			return benchScaling(e, *cores, *games, *visits, *repeat, *configPath, *weightsPath, *profileDir, *seed, fs)
		}
		for _, name := range []string{"cores", "games", "visits", "config", "weights", "seed", "profile", "repeat"} {
			if isSet(fs, name) {
				return usageError("-" + name + " goes with -selfplay")
			}
		}
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

// benchScaling measures self-play and the search at 1, 2, 4, ... workers and
// threads and prints the table (see package scaling).
func benchScaling(e env, cores, games, visits, repeat int, configPath, weightsPath, profileDir string, seed uint64, fs *flag.FlagSet) error {
	switch {
	case isSet(fs, "cores") && cores < 1:
		return usageError("-cores must be at least 1")
	case isSet(fs, "games") && games < 1:
		return usageError("-games must be at least 1")
	case visits < 1:
		return usageError("-visits must be at least 1")
	case repeat < 1:
		return usageError("-repeat must be at least 1")
	}
	cfg, err := selfplay.DefaultConfig()
	if configPath != "" {
		cfg, err = selfplay.LoadConfig(configPath)
	}
	if err != nil {
		return err
	}
	w, err := loadWeights(weightsPath)
	if err != nil {
		return err
	}
	if profileDir != "" {
		if err := os.MkdirAll(profileDir, 0o755); err != nil {
			return err
		}
	}
	r, err := scaling.Run(context.Background(), scaling.Options{Cores: cores, Games: games, Visits: visits, SelfPlay: cfg,
		Weights: w, Seed: seed, Repeat: repeat, ProfileDir: profileDir, Progress: func(s string) { fmt.Fprintln(e.stderr, s) }})
	if err != nil {
		return err
	}
	return r.Write(e.stdout)
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
