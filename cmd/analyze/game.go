package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/progress"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// gameVisits is the default number of simulations per position of analyze game.
const gameVisits = 2000

// worstTurns is how many of each side's costliest moves the summary lists.
const worstTurns = 5

// gameVerb searches every turn of a recorded game and prints how much each move
// played lost against the search's best move.
func gameVerb(fs *flag.FlagSet) func(env, []string) error {
	id := fs.String("game", "", "the `ID` of the game to analyse (default: the first of the file)")
	sf := defineSearchFlags(fs, gameVisits, false)
	return func(e env, args []string) error {
		if len(args) != 1 {
			return usageError("want one archive FILE (- for stdin)")
		}
		cfg, err := sf.config(fs)
		if err != nil {
			return err
		}
		recs, label, err := readArchive(args[0], e.stdin)
		if err != nil {
			return err
		}
		rec, err := pickGame(recs, label, *id)
		if err != nil {
			return err
		}
		full, err := engine.Replay(rec)
		if err != nil {
			return fmt.Errorf("%s: %w", label, err) // names the game and the turn
		}
		s, w, err := sf.searcher(cfg)
		if err != nil {
			return err
		}
		return analyseGame(e, s, rec, full, describeWeights(w))
	}
}

// pickGame returns the game of recs with the given id, or the first when id is
// empty. name is the file's name, for errors.
func pickGame(recs []engine.Record, name, id string) (engine.Record, error) {
	if len(recs) == 0 {
		return engine.Record{}, fmt.Errorf("%s: no games", name)
	}
	if id == "" {
		return recs[0], nil
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	ids := make([]string, 0, min(len(recs), 10))
	for _, r := range recs[:cap(ids)] {
		ids = append(ids, r.ID)
	}
	more := ""
	if len(recs) > len(ids) {
		more = ", ..."
	}
	plural := "s"
	if len(recs) == 1 {
		plural = ""
	}
	return engine.Record{}, fmt.Errorf("%s: no game %q; the file has %d game%s: %s%s",
		name, id, len(recs), plural, strings.Join(ids, ", "), more)
}

// turnEval is the evaluation of one move of a game.
type turnEval struct {
	label  string       // such as "12g"
	side   engine.Color // the side that played the move
	played string       // the move played
	best   string       // the search's best move
	value  float32      // the value before the move (of the best move), for side
	after  float32      // the value after the move played, for side
	loss   float32      // value - after
}

// analyseGame replays the game full turn by turn on a new Game (the setups
// first) and evaluates each move: it searches the position before the move, with
// the game's history, and the position after it. Each position is searched once:
// the search of the position after a move is also the search before the next
// move, and the searcher keeps its tree between searches, so the played move's
// subtree carries over. After the last move the value comes from the rules when
// the game is over, else from one more search.
//
// The value before the move, which stands for the value of the best move, is the
// search's value of the position for the side to move (Result.Value); the value
// after the move played is minus the search's value of the position after it.
// Each is the search's value of a position, so a move equal to the best one loses
// about 0; a loss can be slightly negative, as the root's value averages in the
// replies it tried and the longer look after the move may find it better.
func analyseGame(e env, s *mcts.Searcher, rec engine.Record, full *engine.Game, wdesc string) error {
	moves := full.Moves()
	searches := len(moves)
	if !full.Outcome().Over() {
		searches++ // the position after the last move
	}
	bar := progress.New(e.stderr, int64(searches), "searching", false)
	out := newOutWriter(e.stdout, bar)
	defer bar.Finish()

	fmt.Fprintf(out, "%s: %s (Gold) vs %s (Silver), %s\n", rec.Label(), orUnknown(rec.Gold), orUnknown(rec.Silver), recordedResult(rec))
	fmt.Fprintf(out, "weights %s, %d visits per position\n", wdesc, s.Config().Visits)
	fmt.Fprintf(out, "%-5s %-29s %-29s %7s %7s %7s\n", "turn", "played", "best", "value", "after", "loss")

	start := time.Now()
	g := engine.NewGame()
	var hist *engine.History
	var evals []turnEval
	var prev *mcts.Result // the search of the position before the move to play
	search := func() (*mcts.Result, error) {
		pos := g.Position()
		res, err := s.Search(context.Background(), pos, hist)
		bar.Add(1)
		if err != nil {
			return nil, fmt.Errorf("%s, turn %s: %w", rec.Label(), g.Label(), err)
		}
		return res, nil
	}
	for _, turn := range full.Turns() {
		label, move, _ := strings.Cut(turn, " ")
		if g.TurnNumber() == 1 {
			if err := g.PlaySetup(move); err != nil {
				return fmt.Errorf("%s, turn %s: %w", rec.Label(), label, err)
			}
			if g.TurnNumber() > 1 {
				// The position after the setups stands for the first time.
				hist = engine.NewHistory()
				p := g.Position()
				hist.Add(&p)
			}
			continue
		}
		if prev == nil {
			var err error
			if prev, err = search(); err != nil {
				return err
			}
		}
		ev := turnEval{label: g.Label(), side: g.Side(), played: move, best: prev.Move, value: prev.Value}
		if err := g.Play(move); err != nil {
			return fmt.Errorf("%s, turn %s: %w", rec.Label(), label, err)
		}
		p := g.Position()
		hist.Add(&p)
		prev = nil
		switch o := g.Outcome(); {
		case o.Over():
			ev.after = -1
			if o.Winner == ev.side {
				ev.after = 1
			}
		default:
			res, err := search()
			if errors.Is(err, mcts.ErrGameOver) {
				ev.after = 1 // the side to move cannot move: it loses
				break
			}
			if err != nil {
				return err
			}
			ev.after = -res.Value
			prev = res
		}
		ev.loss = ev.value - ev.after
		evals = append(evals, ev)
		fmt.Fprintf(out, "%-5s %-29s %-29s %7s %7s %7s\n", ev.label, ev.played, ev.best,
			formatValue(ev.value), formatValue(ev.after), formatValue(ev.loss))
		if err := out.flush(); err != nil {
			return err
		}
	}
	bar.Finish()
	printGameSummary(out, evals, time.Since(start))
	return out.flush()
}

// orUnknown returns s, or "?" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// recordedResult describes the recorded end of rec, such as "Gold wins by goal
// (recorded)".
func recordedResult(rec engine.Record) string {
	if rec.Termination == engine.NotOver {
		return "unfinished"
	}
	return engine.Outcome{Winner: rec.Result, Reason: rec.Termination}.String() + " (recorded)"
}

// printGameSummary writes each side's costliest moves and the mean loss per side.
func printGameSummary(w io.Writer, evals []turnEval, elapsed time.Duration) {
	var (
		n   [2]int
		sum [2]float64
	)
	for _, ev := range evals {
		n[ev.side]++
		sum[ev.side] += float64(ev.loss)
	}
	for _, side := range []engine.Color{engine.Gold, engine.Silver} {
		var own []turnEval
		for _, ev := range evals {
			if ev.side == side {
				own = append(own, ev)
			}
		}
		if len(own) == 0 {
			continue
		}
		slices.SortStableFunc(own, func(a, b turnEval) int { return cmp.Compare(b.loss, a.loss) })
		own = own[:min(len(own), worstTurns)]
		fmt.Fprintf(w, "\nlargest losses, %s\n", side.Name())
		fmt.Fprintf(w, "%-5s %-29s %-29s %7s\n", "turn", "played", "best", "loss")
		for _, ev := range own {
			fmt.Fprintf(w, "%-5s %-29s %-29s %7s\n", ev.label, ev.played, ev.best, formatValue(ev.loss))
		}
	}
	fmt.Fprintf(w, "\nturns analysed %d (Gold %d, Silver %d) in %.1f s\n", len(evals), n[engine.Gold], n[engine.Silver], elapsed.Seconds())
	mean := func(c engine.Color) string {
		if n[c] == 0 {
			return "-"
		}
		return formatValue(float32(sum[c] / float64(n[c])))
	}
	fmt.Fprintf(w, "mean loss      Gold %s, Silver %s\n", mean(engine.Gold), mean(engine.Silver))
}
