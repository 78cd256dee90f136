package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// bestVisits is the default number of simulations of analyze best.
const bestVisits = 20000

// bestVerb searches one position and prints the best move, its value and the
// search's statistics.
func bestVerb(fs *flag.FlagSet) func(env, []string) error {
	position := fs.String("position", "", "the position to search, `POS` in the AEI form 'g [64 squares a8..h1]' (required)")
	sf := defineSearchFlags(fs, bestVisits, true)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	engineCmd := fs.String("engine", "", "ask the AEI engine that `COMMAND` starts for its move instead of searching here\n"+
		"(-time is then its time per move and deadline, 1m without; -visits, -threads and -weights are sent as options;\n"+
		"a position with Silver to move is given as its mirror image with Gold to move, the move mirrored back)")
	var engineOpts [][2]string
	fs.Func("option", "with -engine, send `NAME=VALUE` to the engine as setoption name NAME value VALUE (repeatable),\n"+
		"such as -option depth=4 -option ignoretc=true for Sharp", func(s string) error {
		name, value, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return fmt.Errorf("%q is not NAME=VALUE", s)
		}
		engineOpts = append(engineOpts, [2]string{name, value})
		return nil
	})
	return func(e env, args []string) error {
		if len(args) != 0 {
			return usageError("want no arguments after the flags")
		}
		if *position == "" {
			return usageError("-position is required")
		}
		cfg, err := sf.config(fs)
		if err != nil {
			return err
		}
		pos, err := engine.ParsePosition(strings.TrimSpace(*position))
		if err != nil {
			return fmt.Errorf("-position: %w", err)
		}
		if *engineCmd != "" {
			switch {
			case *asJSON:
				return usageError("-json does not go with -engine")
			case isSet(fs, "seed"):
				return usageError("-seed does not go with -engine")
			case isSet(fs, "max-nodes"):
				return usageError("-max-nodes does not go with -engine (its hash option sizes its tree: -option hash=MB)")
			}
			return bestEngine(e, *engineCmd, pos, fs, sf, engineOpts)
		}
		if len(engineOpts) > 0 {
			return usageError("-option goes with -engine")
		}
		s, w, err := sf.searcher(cfg)
		if err != nil {
			return err
		}
		res, err := s.Search(context.Background(), pos, nil)
		if errors.Is(err, mcts.ErrGameOver) {
			if out := engine.EndOfTurn(&pos, nil, nil); out.Over() {
				return fmt.Errorf("-position: the game is over: %s", out)
			}
			return fmt.Errorf("-position: %w", err)
		}
		if err != nil {
			return err
		}
		if *asJSON {
			return printBestJSON(e.stdout, pos, describeWeights(w), res)
		}
		return printBest(e.stdout, pos, describeWeights(w), res)
	}
}

// printBest writes the result of the search of pos for people.
func printBest(w io.Writer, pos engine.Position, wdesc string, res *mcts.Result) error {
	var b strings.Builder
	side := pos.Side.Name()
	fmt.Fprintf(&b, "position     %s\n", pos.String())
	fmt.Fprintf(&b, "weights      %s\n", wdesc)
	fmt.Fprintf(&b, "move         %s\n", res.Move)
	if res.Proven {
		fmt.Fprintf(&b, "value        %s for %s (proven: a goal this turn)\n", formatValue(res.Value), side)
	} else {
		fmt.Fprintf(&b, "value        %s for %s (to move)\n", formatValue(res.Value), side)
	}
	fmt.Fprintf(&b, "visits       %d\n", res.Visits)
	fmt.Fprintf(&b, "simulations  %d\n", res.Simulations)
	if res.TreeFull {
		fmt.Fprintf(&b, "nodes        %d: the tree is full, which ended the search early (raise -max-nodes)\n", res.Nodes)
	} else {
		fmt.Fprintf(&b, "nodes        %d\n", res.Nodes)
	}
	fmt.Fprintf(&b, "depth        %d steps\n", res.Depth)
	fmt.Fprintf(&b, "time         %.3f s (%s simulations/s)\n", res.Elapsed.Seconds(), rate(int(res.Simulations), res.Elapsed))
	if d := res.Deep; d != nil {
		fmt.Fprintf(&b, "deep scan    %d moves at two turns (of %d listed), %d at three", d.Valued, d.Listed, d.Verified)
		if d.Widened > 0 {
			fmt.Fprintf(&b, ", widened %d times", d.Widened)
		}
		b.WriteString("\n")
	}
	// The position carries no turn number: the variation counts from 1.
	labels := pvLabels(1, pos.Side, res.PV)
	for i, m := range res.PV {
		head := "pv"
		if i > 0 {
			head = ""
		}
		fmt.Fprintf(&b, "%-12s %-4s %s\n", head, labels[i], m)
	}
	if len(res.Top) > 0 {
		width := len("move")
		for _, mv := range res.Top {
			width = max(width, len(mv.Move))
		}
		fmt.Fprintf(&b, "top moves    (values for %s)\n", side)
		fmt.Fprintf(&b, "  %-*s  %8s  %6s\n", width, "move", "visits", "value")
		for _, mv := range res.Top {
			fmt.Fprintf(&b, "  %-*s  %8d  %6s\n", width, mv.Move, mv.Visits, formatValue(mv.Value))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// bestJSON is the result of analyze best -json: the fields of mcts.Result with
// the position searched and the weights used; steps are in notation and the
// elapsed time in seconds.
type bestJSON struct {
	Position    string            `json:"position"`
	Weights     string            `json:"weights"`
	Move        string            `json:"move"`
	Steps       []string          `json:"steps"`
	Value       float32           `json:"value"`
	Visits      int               `json:"visits"`
	Simulations int64             `json:"simulations"`
	Nodes       int64             `json:"nodes"`
	Depth       int               `json:"depth"`
	PV          []string          `json:"pv"`
	Top         []mcts.MoveVisits `json:"top"`
	Proven      bool              `json:"proven"`
	TreeFull    bool              `json:"tree_full"`
	Deep        *mcts.DeepStats   `json:"deep,omitempty"`
	Seconds     float64           `json:"seconds"`
}

// printBestJSON writes the result of the search of pos as one indented JSON object.
func printBestJSON(w io.Writer, pos engine.Position, wdesc string, res *mcts.Result) error {
	steps := make([]string, len(res.Steps))
	for i, st := range res.Steps {
		steps[i] = st.String()
	}
	out := bestJSON{
		Position:    pos.String(),
		Weights:     wdesc,
		Move:        res.Move,
		Steps:       steps,
		Value:       res.Value,
		Visits:      res.Visits,
		Simulations: res.Simulations,
		Nodes:       res.Nodes,
		Depth:       res.Depth,
		PV:          res.PV,
		Top:         res.Top,
		Proven:      res.Proven,
		TreeFull:    res.TreeFull,
		Deep:        res.Deep,
		Seconds:     res.Elapsed.Seconds(),
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
