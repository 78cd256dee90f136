package judge

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// DeepCheck is what a player's deep scan makes of the judge's best moves in
// a regret report: whether it would have searched each at two turns, and
// whether its two-turn value puts it above the move played. It splits the
// regret into what the scan's candidates miss (the judge's move never
// valued at two turns) and what its evaluation misjudges (the judge's move
// valued, and valued lower).
type DeepCheck struct {
	// Judge is the report's judge; Weights names the evaluation checked.
	Judge   string            `json:"judge"`
	Weights string            `json:"weights"`
	Players []DeepCheckPlayer `json:"players"`
}

// DeepCheckPlayer is the check of one player's judged moves.
type DeepCheckPlayer struct {
	Name      string `json:"name"`
	Positions int    `json:"positions"`
	// Regret is the sum of the regrets of the player's moves, in rabbits.
	Regret float64 `json:"regret"`
	// The positions by where the judge's best move stands in the scan's
	// order (mcts.MoveCheck.Rank): among the first mcts.DeepMoves, which
	// the scan searches at two turns; further down the mcts.DeepFirst it
	// orders, which it reaches only with time to spare; or beyond those,
	// never valued.
	Searched DeepShare `json:"searched"`
	Ordered  DeepShare `json:"ordered"`
	Unvalued DeepShare `json:"unvalued"`
	// Prefers holds the positions where the scan's two-turn value puts the
	// judge's best move above the move played: what a scan that reached
	// every move could win back at most. In the others the evaluation
	// itself prefers the move played.
	Prefers DeepShare       `json:"prefers"`
	Moves   []DeepCheckMove `json:"moves"`
}

// DeepShare counts positions and the regret of their moves, in rabbits and
// as a share of the player's.
type DeepShare struct {
	Positions int     `json:"positions"`
	Regret    float64 `json:"regret"`
	Share     float64 `json:"share"`
}

// DeepCheckMove is the check of one judged move: the scan's view of the
// judge's best move and of the move played.
type DeepCheckMove struct {
	Where  string         `json:"where"`
	Regret float64        `json:"regret"`
	Best   mcts.MoveCheck `json:"best"`
	Move   mcts.MoveCheck `json:"move"`
}

// CheckDeep checks every judged move of rep with s (mcts.Searcher.CheckMoves,
// the game's history left out as the report holds none): the judge's best
// move and the move played. weights names the evaluation of s for the
// report; progress, when set, is called after each move.
func CheckDeep(ctx context.Context, rep *Report, s *mcts.Searcher, weights string, progress func(done, total int)) (*DeepCheck, error) {
	total := 0
	for _, p := range rep.Players {
		total += len(p.Moves)
	}
	if total == 0 {
		return nil, fmt.Errorf("judge: the report holds no judged moves")
	}
	dc := &DeepCheck{Judge: rep.Judge, Weights: weights}
	done := 0
	for _, p := range rep.Players {
		cp := DeepCheckPlayer{Name: p.Name, Positions: len(p.Moves)}
		for _, m := range p.Moves {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			pos, err := engine.ParsePosition(m.Position)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m.Where, err)
			}
			var after []engine.Position
			for _, mv := range []string{m.Best, m.Move} {
				t := engine.NewTurn(pos)
				if err := t.PlayMove(mv); err != nil {
					return nil, fmt.Errorf("%s: move %q: %w", m.Where, mv, err)
				}
				after = append(after, t.End())
			}
			checks, err := s.CheckMoves(pos, nil, after)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m.Where, err)
			}
			cm := DeepCheckMove{Where: m.Where, Regret: m.Regret, Best: checks[0], Move: checks[1]}
			cp.Moves = append(cp.Moves, cm)
			cp.Regret += m.Regret
			switch r := cm.Best.Rank; {
			case r >= 0 && r < mcts.DeepMoves:
				cp.Searched.add(m.Regret)
			case r >= 0:
				cp.Ordered.add(m.Regret)
			default:
				cp.Unvalued.add(m.Regret)
			}
			if cm.Best.TwoTurn > cm.Move.TwoTurn {
				cp.Prefers.add(m.Regret)
			}
			done++
			if progress != nil {
				progress(done, total)
			}
		}
		for _, sh := range []*DeepShare{&cp.Searched, &cp.Ordered, &cp.Unvalued, &cp.Prefers} {
			if cp.Regret != 0 {
				sh.Share = sh.Regret / cp.Regret
			}
		}
		dc.Players = append(dc.Players, cp)
	}
	return dc, nil
}

func (s *DeepShare) add(regret float64) {
	s.Positions++
	s.Regret += regret
}

// WriteText prints the check of each player.
func (dc *DeepCheck) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "judge     %s\nweights   %s\n", dc.Judge, dc.Weights)
	for _, p := range dc.Players {
		fmt.Fprintf(&b, "\n%s: %d positions, regret %.2f rabbits\n", p.Name, p.Positions, p.Regret)
		fmt.Fprintf(&b, "the judge's best move in the deep scan's order:\n")
		rows := []struct {
			what string
			s    DeepShare
		}{
			{fmt.Sprintf("searched at two turns (the first %d)", mcts.DeepMoves), p.Searched},
			{fmt.Sprintf("ordered, reached only with time to spare (%d to %d)", mcts.DeepMoves+1, mcts.DeepFirst), p.Ordered},
			{fmt.Sprintf("never valued (beyond the %d best by the evaluation)", mcts.DeepFirst), p.Unvalued},
		}
		for _, r := range rows {
			fmt.Fprintf(&b, "  %-58s %3d positions  %6.2f rabbits  %5.1f %% of the regret\n", r.what, r.s.Positions, r.s.Regret, 100*r.s.Share)
		}
		fmt.Fprintf(&b, "the two-turn value puts the judge's best move above the move played in %d positions (%.2f rabbits, %.1f %% of the regret);\n",
			p.Prefers.Positions, p.Prefers.Regret, 100*p.Prefers.Share)
		fmt.Fprintf(&b, "in the other %d it values the move played as high or higher (%.1f %% of the regret): the evaluation's disagreement with the judge, not the candidates\n",
			p.Positions-p.Prefers.Positions, 100*(1-p.Prefers.Share))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
