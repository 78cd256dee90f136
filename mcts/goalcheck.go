package mcts

import "github.com/arimaalab/arimaalab/engine"

// GoalCheck answers, with the search's exact goal search, which moves of a
// position leave the opponent unable to reach its goal in its next turn:
// for measures of recorded games outside the search (how long a player held
// out against a goal attack). A GoalCheck is not safe for concurrent use.
type GoalCheck struct {
	goal *goalSearch
	gen  *engine.MoveGen
}

// NewGoalCheck returns a goal check with its own goal search and move
// generator.
func NewGoalCheck() *GoalCheck {
	return &GoalCheck{goal: newGoalSearch(), gen: engine.NewMoveGen()}
}

// Safe returns how many of the legal moves of the side to move at p (hist,
// when not nil, excludes those that repeat a position a third time) keep the
// opponent from reaching its goal in the turn after, and how many legal
// moves there are. A move that ends the game counts as safe when the mover
// wins by it and not otherwise.
func (c *GoalCheck) Safe(p *engine.Position, hist *engine.History) (safe, moves int) {
	moves = c.gen.Generate(p, hist)
	for i := range moves {
		q := c.gen.Position(i)
		if out := engine.EndOfTurn(&q, nil, nil); out.Over() {
			if out.Winner == p.Side {
				safe++
			}
			continue
		}
		next := engine.NewTurn(q)
		if !c.goal.reachable(&next) {
			safe++
		}
	}
	return safe, moves
}
