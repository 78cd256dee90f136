package main

import (
	"github.com/arimaalab/arimaalab/progress"

	"fmt"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// replayReport is the outcome of replaying archive games.
type replayReport struct {
	games, turns int
	problems     []string
}

// checkReplay replays every record, on all cores, and checks its recorded result.
func checkReplay(name string, recs []engine.Record, bar *progress.Bar) replayReport {
	turns := make([]int, len(recs))
	errs := make([]error, len(recs))
	parallel(len(recs), workers(len(recs)), func(_, i int) {
		turns[i], errs[i] = replayOne(recs[i])
		bar.Add(1)
	})
	r := replayReport{games: len(recs)}
	for i := range recs {
		r.turns += turns[i]
		if errs[i] != nil {
			r.problems = append(r.problems, fmt.Sprintf("%s: %v", name, errs[i]))
		}
	}
	return r
}

// replayOne replays rec and checks its result. It returns the number of turns
// played and why the record does not replay to its result, or nil.
func replayOne(rec engine.Record) (int, error) {
	g, err := engine.Replay(rec)
	turns := 0
	if g != nil {
		turns = len(g.Turns())
	}
	if err != nil {
		return turns, err
	}
	if err := engine.CheckResult(rec, g); err != nil {
		reason := strings.TrimPrefix(err.Error(), rec.Label()+": ")
		return turns, fmt.Errorf("%s, turn %s: %s", rec.Label(), lastLabel(rec, g), reason)
	}
	return turns, nil
}

// lastLabel returns the record's label of the last turn g played, such as "37b".
func lastLabel(rec engine.Record, g *engine.Game) string {
	n := len(g.Turns())
	if n == 0 || n > len(rec.Moves) {
		return g.Label()
	}
	label, _, _ := strings.Cut(strings.TrimSpace(rec.Moves[n-1]), " ")
	return label
}
