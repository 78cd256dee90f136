package material

import (
	"fmt"

	"github.com/arimaalab/arimaalab/engine"
)

// siegeShare sets when a turn is played under a goal siege: at most one
// legal move in siegeShare keeps the opponent from reaching its goal in the
// turn after. In 40 games the bot lost to Sharp's goal, no move was safe
// at its last turn in 39, and a median of 3 % of its moves at the turn
// before (docs/strength.md, the fiftieth round).
const siegeShare = 10

// SafeMoves returns, for the side to move at p, how many of its legal
// moves keep the opponent from reaching its goal in the turn after, and how
// many legal moves it has (mcts.GoalCheck's Safe does this exactly).
type SafeMoves func(p *engine.Position) (safe, moves int)

// Siege returns how many of the last turns of the player of colour c in
// rec, a game it lost to the opponent's goal, were played under a goal
// siege (see siegeShare): counted back from its last move to the first turn
// that kept more moves safe. It is 0 for a game the player did not lose by a
// goal. It fails when the record does not replay.
func Siege(rec engine.Record, c engine.Color, safe SafeMoves) (int, error) {
	g, err := engine.Replay(rec)
	if err != nil {
		return 0, err
	}
	if out := g.Outcome(); out.Reason != engine.Goal || out.Winner == c {
		return 0, nil
	}
	moves := g.Moves()
	n := 0
	for i := len(moves) - 1; i >= 0; i-- {
		// Moves()[0] is Gold's first move after the setups; the sides
		// alternate.
		if engine.Color(i%2) != c {
			continue
		}
		p := g.PositionBefore(i)
		s, all := safe(&p)
		if all == 0 || s*siegeShare > all {
			break
		}
		n++
	}
	return n, nil
}

// MeasureSiege is Measure with the game's Siege set as well, by safe.
func MeasureSiege(rec engine.Record, player string, at int, safe SafeMoves) (Game, error) {
	m, err := Measure(rec, player, at)
	if err != nil {
		return m, err
	}
	if m.Siege, err = Siege(rec, m.Color, safe); err != nil {
		return m, fmt.Errorf("%s: %w", rec.Label(), err)
	}
	m.Sieged = true
	return m, nil
}
