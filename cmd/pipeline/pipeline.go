package main

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/progress"
)

// The verification data, copies of the shared test data.
var (
	//go:embed testdata/clueless32.aei
	clueless32 string
	//go:embed testdata/clueless32.aei.expected
	clueless32Expected string
	//go:embed testdata/allgames202602.txt
	allgames string
)

// verification is the data the engine verification stage checks.
type verification struct {
	countsName string
	counts     []countCase
	gamesName  string
	games      []engine.Record
}

// embeddedVerification reads the embedded verification data.
func embeddedVerification() (*verification, error) {
	v := &verification{countsName: "clueless32.aei", gamesName: "allgames202602.txt"}
	var err error
	if v.counts, err = parseCounts(v.countsName, clueless32, clueless32Expected); err != nil {
		return nil, err
	}
	if v.games, err = engine.ReadArchive(strings.NewReader(allgames), v.gamesName); err != nil {
		return nil, err
	}
	return v, nil
}

// verify runs the engine verification over v: the move counts and the replays.
func verify(v *verification, stdout, stderr io.Writer) error {
	if problems := v.run(stdout, stderr); problems > 0 {
		return fmt.Errorf("engine verification failed: %d problems", problems)
	}
	return nil
}

// run checks the move counts and replays the games, printing a line per check
// and one per problem, and returns the number of problems.
func (v *verification) run(stdout, stderr io.Writer) int {
	bar := progress.New(stderr, int64(len(v.counts)+len(v.games)), "move counts", false)
	start := time.Now()
	c := checkCounts(v.countsName, v.counts, bar)
	countTime := time.Since(start)
	bar.Describe("replay")
	start = time.Now()
	r := checkReplay(v.gamesName, v.games, bar)
	replayTime := time.Since(start)
	bar.Finish()

	verdict := func(problems []string, ok string) string {
		if len(problems) == 0 {
			return ok
		}
		return fmt.Sprintf("%d WRONG", len(problems))
	}
	fmt.Fprintf(stdout, "      move counts   %d positions of %s, %d moves: %s (%.2f s)\n",
		c.positions, v.countsName, c.moves, verdict(c.problems, "all as expected"), countTime.Seconds())
	for _, p := range c.problems {
		fmt.Fprintf(stdout, "        %s\n", p)
	}
	fmt.Fprintf(stdout, "      replay        %d games of %s, %d turns: %s (%.2f s)\n",
		r.games, v.gamesName, r.turns, verdict(r.problems, "all legal, results as recorded"), replayTime.Seconds())
	for _, p := range r.problems {
		fmt.Fprintf(stdout, "        %s\n", p)
	}
	return len(c.problems) + len(r.problems)
}
