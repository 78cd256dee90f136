package mcts

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// MoveCheck is what the deep scan (ScanDeep) makes of one move of a
// position: where the move stands in the order in which the scan searches
// moves at two turns, and its one- and two-turn values. It tells a move the
// scan never reached from one it reached and valued below another.
type MoveCheck struct {
	// Rank is the move's place, from 0, among the DeepFirst moves best by
	// the evaluation, ordered by their one-turn value: the scan searches
	// them at two turns in that order, DeepMoves of them and more while its
	// time lasts, besides the tree search's most visited moves. It is -1
	// for a move outside those DeepFirst, which the scan never values.
	Rank int `json:"rank"`
	// OneTurn is the move's value after the opponent's best capture line,
	// TwoTurn after the opponent's best reply, as the scan values them
	// (TwoTurn without the third turn the scan gives its best few moves);
	// both for the side that moves, from -1 to 1.
	OneTurn float32 `json:"one_turn"`
	TwoTurn float32 `json:"two_turn"`
}

// DeepFirst is how many moves, the best by the evaluation, the deep scan
// orders by their one-turn value; DeepMoves is how many of those it
// searches at two turns before it widens with the time left.
const (
	DeepFirst = deepFirst
	DeepMoves = deepMoves
)

// CheckMoves returns what the deep scan of a search at pos, with hist the
// game's history (nil for none), makes of each of the moves that lead to
// the positions after (see MoveCheck), with no bound of time. The
// positions are compared by their boards: a position that no legal move of
// pos reaches gets the rank -1 and its values all the same.
func (s *Searcher) CheckMoves(pos engine.Position, hist *engine.History, after []engine.Position) ([]MoveCheck, error) {
	gen := engine.NewMoveGen()
	if out := engine.EndOfTurn(&pos, hist, gen); out.Over() {
		return nil, fmt.Errorf("%w (%s)", ErrGameOver, out)
	}
	n := gen.Generate(&pos, hist)
	if n == 0 {
		return nil, ErrGameOver
	}
	sr := &search{s: s, rootTurn: engine.NewTurn(pos), hist: hist}
	w := sr.newWorker()
	w.defenceLeft = deepDefence
	never := func() bool { return false }
	first := w.byEvaluation(gen, n, never)
	first = first[:min(n, deepFirst)]
	// The scan's order: the exhaustive one-turn values (firstRanker hands
	// the moves out in this order, valuing them lazily).
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	for k := range first {
		q := gen.Position(first[k].i)
		first[k].v = w.turnEndValue(&q, cs)
	}
	slices.SortStableFunc(first, func(a, b scored) int { return cmp.Compare(b.v, a.v) })
	out := make([]MoveCheck, len(after))
	for j := range after {
		q := &after[j]
		rank := slices.IndexFunc(first, func(f scored) bool { g := gen.Position(f.i); return g.SameBoard(q) })
		list := []deepCand{{pos: *q, gen: -1, cand: -1}}
		w.deepValues(list, cs, time.Time{})
		out[j] = MoveCheck{Rank: rank, OneTurn: w.turnEndValue(q, cs), TwoTurn: list[0].second}
	}
	return out, nil
}
