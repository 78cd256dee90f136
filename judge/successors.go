package judge

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arimaalab/arimaalab/engine"
)

// Evaluator values positions for the side to move, higher better for it,
// such as weights.Linear.
type Evaluator interface {
	Evaluate(p *engine.Position) float32
}

// SuccessorConfig sets up Successors.
type SuccessorConfig struct {
	// Top is the number of the mover's best moves by the evaluation among
	// which Pick are drawn (at least 1).
	Top int
	// Pick is the number of moves drawn without replacement among the Top
	// best, and Random the number drawn uniformly without replacement among
	// all the moves left after them (neither negative).
	Pick, Random int
	// Seed seeds the draws: the same seed and positions give the same
	// successors.
	Seed uint64
	// Progress, when set, is called after each position with the positions
	// done and their number.
	Progress func(done, total int)
}

// Successor is a position one move after a position to judge: the position
// after a move of its mover, with the opponent to move.
type Successor struct {
	Pos engine.Position
	// Source is the index, among the positions given to Successors, of the
	// position the move was played in.
	Source int
	// Rank is the move's rank among the source position's moves by Value,
	// 0 the best, and Value the evaluation of Pos for the mover, that is
	// minus its evaluation for the side to move.
	Rank  int
	Value float32
	// Random is set for a move drawn uniformly rather than among the best.
	Random bool
}

// Successors returns, for each position of ps in order, positions one move
// after it: of the mover's moves (leaving out those the position's history
// makes a third repetition), those after which the game is not over and the
// opponent has pieces, as ReadPositions wants them, ranked by the mover's
// value of the position after them by ev (ties in the order of
// engine.GenMoves). Of them cfg.Pick are drawn without replacement among the
// cfg.Top best, and cfg.Random uniformly without replacement among the rest,
// so that a position with n such moves gets min(Pick, Top, n) +
// min(Random, n - min(Pick, Top, n)) successors, all different: the best
// drawn first, by rank, then the random ones, by rank. A position without
// such a move has none. Successors is deterministic: the same seed,
// positions and evaluation give the same successors.
func Successors(ps []Position, ev Evaluator, cfg SuccessorConfig) ([]Successor, error) {
	switch {
	case cfg.Top < 1:
		return nil, errors.New("judge: successors: the top moves must be at least 1")
	case cfg.Pick < 0 || cfg.Random < 0:
		return nil, errors.New("judge: successors: the moves drawn must not be negative")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5cce55))
	g := engine.NewMoveGen()
	var (
		out   []Successor
		moves []Successor // the qualifying moves of a position
		order []int       // indices into moves, drawn in place
	)
	for i := range ps {
		p := ps[i].Pos
		moves = moves[:0]
		for k := range g.Generate(&p, ps[i].Hist) {
			q := g.Position(k)
			if q.Occ[q.Side] == 0 || engine.EndOfTurn(&q, nil, nil).Over() {
				continue
			}
			moves = append(moves, Successor{Pos: q, Source: i, Value: -ev.Evaluate(&q)})
		}
		// Stable: equal values keep the generator's order.
		slices.SortStableFunc(moves, func(a, b Successor) int { return cmp.Compare(b.Value, a.Value) })
		order = order[:0]
		for k := range moves {
			moves[k].Rank = k
			order = append(order, k)
		}
		// Draw in place: the picks into order[:nPick] from the best,
		// order[:top], then the random ones from all the others after them.
		top, nPick := min(cfg.Top, len(moves)), min(cfg.Pick, cfg.Top, len(moves))
		nRand := min(cfg.Random, len(moves)-nPick)
		picks := draw(rng, order, 0, nPick, top)
		random := draw(rng, order, nPick, nRand, len(moves))
		for _, k := range picks {
			out = append(out, moves[k])
		}
		for _, k := range random {
			moves[k].Random = true
			out = append(out, moves[k])
		}
		if cfg.Progress != nil {
			cfg.Progress(i+1, len(ps))
		}
	}
	return out, nil
}

// draw draws n of order[from:end] without replacement into
// order[from:from+n] (a partial Fisher-Yates shuffle) and returns them
// sorted.
func draw(rng *rand.Rand, order []int, from, n, end int) []int {
	for i := from; i < from+n; i++ {
		j := i + rng.IntN(end-i)
		order[i], order[j] = order[j], order[i]
	}
	drawn := order[from : from+n]
	slices.Sort(drawn)
	return drawn
}

// ReportSuccessors returns the judged positions of regret reports and,
// for each, the positions after the judge's best move and after each move
// its players played, all different, in the order met (the judge's move
// first): one group a position, however many reports judged it (they are
// matched by their AEI form). These are the pairs that a fit at the deep
// scan's leaves needs to learn the judge's moves (train -pairs
// -pair-reply, after label): the moves a player chose against those the
// judge would have, many of which the player's evaluation ranks far down.
// Moves after which the game is over are left out, as Successors leaves
// them out. A successor's Rank is its place in its group and Value 0.
func ReportSuccessors(reps []*Report) ([]Position, []Successor, error) {
	var sources []Position
	var succ []Successor
	at := map[string]int{} // AEI form of a position: its index in sources
	var after [][]engine.Position
	for _, rep := range reps {
		for _, p := range rep.Players {
			for _, m := range p.Moves {
				i, ok := at[m.Position]
				if !ok {
					pos, err := engine.ParsePosition(m.Position)
					if err != nil {
						return nil, nil, fmt.Errorf("%s: %w", m.Where, err)
					}
					i = len(sources)
					at[m.Position] = i
					sources = append(sources, Position{Pos: pos, Where: m.Where})
					after = append(after, nil)
				}
				for _, mv := range []string{m.Best, m.Move} {
					t := engine.NewTurn(sources[i].Pos)
					if err := t.PlayMove(mv); err != nil {
						return nil, nil, fmt.Errorf("%s: move %q: %w", m.Where, mv, err)
					}
					q := t.End()
					if q.Occ[q.Side] == 0 || engine.EndOfTurn(&q, nil, nil).Over() {
						continue // the game is over: nothing to label
					}
					if !slices.ContainsFunc(after[i], func(a engine.Position) bool { return a.SameBoard(&q) }) {
						after[i] = append(after[i], q)
					}
				}
			}
		}
	}
	if len(sources) == 0 {
		return nil, nil, errors.New("judge: the reports hold no judged moves")
	}
	for i, as := range after {
		for k, q := range as {
			succ = append(succ, Successor{Pos: q, Source: i, Rank: k})
		}
	}
	return sources, succ, nil
}
