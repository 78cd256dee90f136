package judge

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/arimaalab/arimaalab/engine"
)

// Rejudged compares the moves of a report judged again by another judge
// (Rejudge) with the earlier judge's view of them.
type Rejudged struct {
	// From is the earlier report's judge.
	From string `json:"from"`
	// Players holds a comparison per player, in the report's order.
	Players []RejudgedPlayer `json:"players"`
}

// RejudgedPlayer compares one player's moves under the two judges.
type RejudgedPlayer struct {
	Name      string `json:"name"`
	Positions int    `json:"positions"`
	// FromMean is the mean regret by the earlier judge, Mean by this one.
	FromMean float64 `json:"from_mean"`
	Mean     float64 `json:"mean"`
	// Diff is the mean of this judge's regret minus the earlier one's, move
	// by move, with its 95 % interval (nil for fewer than two moves).
	Diff     float64   `json:"diff"`
	Interval *Interval `json:"interval,omitempty"`
	// Correlation is Pearson's correlation of the two judges' regrets over
	// the moves (0 when either is constant).
	Correlation float64 `json:"correlation"`
	// Seen is the share of the earlier judge's regret that this one sees
	// too: the sum over the moves of the smaller of the two regrets (each
	// taken as 0 when below 0) over the sum of the earlier regrets (above
	// 0). With a shallow judge after a deep one, it is the part of the
	// losses that the shallow search already shows.
	Seen float64 `json:"seen"`
}

// Rejudge scores the moves of an earlier report again with another judge,
// described by describe: for each player's moves, the judge's score of the
// position before and of the position after the move, as Run scores them,
// and the judge's best move. The players, positions and moves are the
// report's, so no player searches; the positions are judged without their
// games' history, which a report does not keep. The judges (copies of one
// engine) share the positions, each position once however many moves lead
// to it. The result is a report of the judge (it serves as a base for later
// runs of it), whose Rejudged compares each player's regrets with the
// earlier judge's. cfg's Blunder, Worst and WinScale apply; Progress is
// called after each score with the scores done and their number.
func Rejudge(ctx context.Context, judges []Judge, describe string, old *Report, cfg Config) (*Report, error) {
	switch {
	case len(judges) == 0:
		return nil, fmt.Errorf("judge: no judges")
	case len(old.Players) == 0 || len(old.Players[0].Moves) == 0:
		return nil, fmt.Errorf("judge: the report holds no judged moves")
	}
	for _, p := range old.Players[1:] {
		if len(p.Moves) != len(old.Players[0].Moves) {
			return nil, fmt.Errorf("judge: the report's players judged %d and %d moves", len(old.Players[0].Moves), len(p.Moves))
		}
	}
	cfg = cfg.withDefaults()

	// The positions to score: each position before, then each different
	// position after a move from it.
	type task struct {
		pos   engine.Position
		hist  *engine.History
		where string
	}
	n := len(old.Players[0].Moves)
	tasks := make([]task, 0, n*(1+len(old.Players)))
	job := make([][]int, n)    // job[i][k]: player k's position after, in tasks
	beforeAt := make([]int, n) // position i before, in tasks
	for i, m0 := range old.Players[0].Moves {
		pos, err := engine.ParsePosition(m0.Position)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m0.Where, err)
		}
		beforeAt[i] = len(tasks)
		tasks = append(tasks, task{pos, nil, m0.Where})
		seen := map[engine.Position]int{}
		for _, p := range old.Players {
			m := p.Moves[i]
			if m.Where != m0.Where || m.Position != m0.Position {
				return nil, fmt.Errorf("judge: the report's players judged other positions (%s and %s)", m0.Where, m.Where)
			}
			after, hist, err := play(Position{Pos: pos}, m.Move)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", m.Where, p.Name, err)
			}
			k, ok := seen[after]
			if !ok {
				k = len(tasks)
				seen[after] = k
				tasks = append(tasks, task{after, hist, fmt.Sprintf("%s: %s's move %s", m.Where, p.Name, m.Move)})
			}
			job[i] = append(job[i], k)
		}
	}
	evals := make([]Eval, len(tasks))
	done := 0
	err := evalAll(ctx, judges, len(tasks), func(k int) (engine.Position, *engine.History, string) {
		return tasks[k].pos, tasks[k].hist, tasks[k].where
	}, func(r evalResult) error {
		evals[r.k] = r.ev
		done++
		if cfg.Progress != nil {
			cfg.Progress(done, len(tasks))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	moves := make([][]Move, len(old.Players))
	for i, m0 := range old.Players[0].Moves {
		before := evals[beforeAt[i]]
		if before.Source == FromRules {
			return nil, fmt.Errorf("%s: the game is over", m0.Where)
		}
		for k, p := range old.Players {
			m := p.Moves[i]
			moves[k] = append(moves[k], judgedMove(Move{Index: m.Index, Where: m.Where, Position: m.Position, Move: m.Move, Turn: m.Turn},
				before, evals[job[i][k]], cfg.WinScale))
		}
	}
	rep := &Report{Judge: describe, Positions: n, Blunder: cfg.Blunder, WinScale: cfg.WinScale,
		Rejudged: &Rejudged{From: old.Judge}}
	for k, p := range old.Players {
		rep.Players = append(rep.Players, summarize(p.Name, moves[k], cfg))
		rep.Rejudged.Players = append(rep.Rejudged.Players, compareJudges(p.Name, p.Moves, moves[k]))
	}
	if len(rep.Players) >= 2 {
		rep.Paired = pair(rep.Players[0], rep.Players[1])
	}
	return rep, nil
}

// compareJudges compares the regrets of the same moves by two judges: from,
// the earlier, and now.
func compareJudges(name string, from, now []Move) RejudgedPlayer {
	r := RejudgedPlayer{Name: name, Positions: len(now)}
	a, b := make([]float64, len(from)), make([]float64, len(now))
	diffs := make([]float64, len(now))
	var seen, all float64
	for i := range now {
		a[i], b[i] = from[i].Regret, now[i].Regret
		diffs[i] = b[i] - a[i]
		seen += min(max(a[i], 0), max(b[i], 0))
		all += max(a[i], 0)
	}
	r.FromMean = stat.Mean(a, nil)
	r.Mean = stat.Mean(b, nil)
	r.Diff, r.Interval = meanInterval(diffs)
	if c := stat.Correlation(a, b, nil); !math.IsNaN(c) {
		r.Correlation = c
	}
	if all > 0 {
		r.Seen = seen / all
	}
	return r
}
