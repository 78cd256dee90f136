package main

import (
	"github.com/arimaalab/arimaalab/progress"

	"fmt"

	"github.com/arimaalab/arimaalab/engine"
)

// replayReport is the outcome of replaying archive games.
type replayReport struct {
	games, turns int
	problems     []string
}

// checkReplay replays every record, on all cores, and checks its recorded result.
func checkReplay(name string, recs []engine.Record, bar *progress.Bar) replayReport {
	turns, errs := engine.VerifyAll(recs, func() { bar.Add(1) })
	r := replayReport{games: len(recs)}
	for i := range recs {
		r.turns += turns[i]
		if errs[i] != nil {
			r.problems = append(r.problems, fmt.Sprintf("%s: %v", name, errs[i]))
		}
	}
	return r
}
