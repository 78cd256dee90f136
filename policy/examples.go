package policy

import (
	"fmt"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// Examples holds the decisions of strong players, step by step: at each step
// of a move, the actions of that point of the turn (every legal step, and
// ending the turn when it may end) with their features, and which one the
// player chose. A move of fewer than four steps ends with the decision to end
// the turn.
type Examples struct {
	// X holds the features of every action, N a row, decision after decision.
	X []float32
	// Start[d] is the first row of decision d; Start has one entry more than
	// there are decisions, the end of the last.
	Start []int32
	// Chosen[d] is the row, within decision d, of the action chosen.
	Chosen []int32
	// Weight[d] is the weight of decision d in the fit: 1 for a move of a
	// game, a move's share of its search's visits for self-play.
	Weight []float32
	// Moves counts the moves the decisions come from.
	Moves int
}

// Len returns the number of decisions.
func (e *Examples) Len() int { return len(e.Chosen) }

// add appends a decision of weight w: the actions steps (ending the turn
// last when canEnd) of the turn t, the one at index chosen picked.
func (e *Examples) add(t *engine.Turn, steps []engine.Step, canEnd bool, chosen int, w float32) {
	if len(e.Start) == 0 {
		e.Start = append(e.Start, 0)
	}
	row := make([]float32, N)
	for _, s := range steps {
		Extract(t, s, row)
		e.X = append(e.X, row...)
	}
	if canEnd {
		Extract(t, engine.Step{Piece: engine.NoPiece}, row)
		e.X = append(e.X, row...)
	}
	e.Start = append(e.Start, int32(len(e.X)/N))
	e.Chosen = append(e.Chosen, int32(chosen))
	e.Weight = append(e.Weight, w)
}

// AddMove appends the decisions of the move steps played from the position
// before it, pos, each of weight w. It returns an error, naming the step,
// when a step is not legal.
func (e *Examples) AddMove(pos engine.Position, steps []engine.Step, w float32) error {
	t := engine.NewTurn(pos)
	var legal []engine.Step
	for k, s := range steps {
		if err := t.CheckStep(s); err != nil {
			return fmt.Errorf("step %d %q: %w", k+1, s, err)
		}
		legal = t.LegalSteps(legal[:0])
		i := index(legal, s)
		if i < 0 {
			return fmt.Errorf("step %d %q: not among the legal steps", k+1, s)
		}
		e.add(&t, legal, t.CanEnd() == nil, i, w)
		t.Play(s)
	}
	if int(t.Used) < engine.MaxSteps && t.CanEnd() == nil {
		legal = t.LegalSteps(legal[:0])
		e.add(&t, legal, true, len(legal), w)
	}
	e.Moves++
	return nil
}

func index(steps []engine.Step, s engine.Step) int {
	for i, x := range steps {
		if x == s {
			return i
		}
	}
	return -1
}

// AddRecord appends the decisions of the moves of rec that keep accepts (by
// the name of the player who made them), replaying the game with
// engine.ReplayFunc. It returns the number of moves added and an error naming
// the game and the turn when the record does not replay.
func (e *Examples) AddRecord(rec engine.Record, keep func(player string) bool) (int, error) {
	added, turn := 0, 0
	var before engine.Position // the position before the turn played
	var err error
	_, rerr := engine.ReplayFunc(rec, func(g *engine.Game) {
		// The callback follows rec.Moves turn by turn, the two setups first.
		text := strings.TrimSpace(rec.Moves[turn])
		turn++
		player := rec.Gold
		if before.Side == engine.Silver {
			player = rec.Silver
		}
		if err == nil && turn > 2 && keep(player) {
			label, body, _ := strings.Cut(text, " ")
			steps, perr := engine.ParseSteps(body)
			if perr == nil {
				perr = e.AddMove(before, steps, 1)
			}
			if perr != nil {
				err = fmt.Errorf("%s, turn %s: %w", rec.Label(), label, perr)
			} else {
				added++
			}
		}
		before = g.Position()
	})
	if rerr != nil {
		return added, rerr
	}
	return added, err
}

// AddVisits appends the decisions of the moves a search of pos visited most
// (in standard notation, as a dataset's policy column holds them), each
// weighted by its share of their visits: what the search played by, as
// KataGo fits its policy to the visit distribution. It returns the number
// of moves added and an error naming the move that does not parse or play.
func (e *Examples) AddVisits(pos engine.Position, moves []string, visits []uint32) (int, error) {
	var total float64
	for _, v := range visits {
		total += float64(v)
	}
	if total == 0 {
		return 0, nil
	}
	added := 0
	for k, m := range moves {
		if visits[k] == 0 {
			continue
		}
		steps, err := engine.ParseSteps(m)
		if err != nil {
			return added, fmt.Errorf("move %q: %w", m, err)
		}
		if err := e.AddMove(pos, steps, float32(float64(visits[k])/total)); err != nil {
			return added, fmt.Errorf("move %q: %w", m, err)
		}
		added++
	}
	return added, nil
}
