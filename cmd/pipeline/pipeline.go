package main

import (
	"github.com/arimaalab/arimaalab/progress"

	_ "embed"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/engine"
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

// laterStages are the stages of the generation loop that do not exist yet.
func laterStages() []string { return []string{"self-play", "training", "evaluation"} }

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

// pipeline runs the stages that exist, engine verification over v, and
// reports the ones that do not.
func pipeline(v *verification, stdout, stderr io.Writer) error {
	n := 1 + len(laterStages())
	fmt.Fprintf(stdout, "arimaalab pipeline: %d stages, 1 built\n\n", n)
	fmt.Fprintf(stdout, "[1/%d] engine verification\n", n)
	problems := v.run(stdout, stderr)
	for i, s := range laterStages() {
		fmt.Fprintf(stdout, "[%d/%d] %-20s not built yet\n", i+2, n, s)
	}
	fmt.Fprintln(stdout)
	if problems > 0 {
		return fmt.Errorf("engine verification failed: %d problems", problems)
	}
	fmt.Fprintf(stdout, "engine verification passed; %s not built yet\n", strings.Join(laterStages(), ", "))
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
