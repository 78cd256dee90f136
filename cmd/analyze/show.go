package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/view"
)

// showVerb prints positions as board diagrams and steps through games.
func showVerb(fs *flag.FlagSet) func(env, []string) error {
	position := fs.String("position", "", "draw the position `'g [64 squares]'` (the AEI setposition form)")
	moves := fs.String("moves", "", "step through the move `LIST` (such as '2g Ed2n Ed3n 2s ed7s ...'; without setups, the standard ones)")
	id := fs.String("game", "", "the `ID` of the game to show (default: the first of a file; needed for a directory of several)")
	turn := fs.String("turn", "", "show the position before move `LABEL` (such as 12g, or end), alone, or browse from it")
	plain := fs.Bool("plain", false, "print every position even on a terminal, instead of browsing")
	return func(e env, args []string) error {
		sources := len(args)
		if *position != "" {
			sources++
		}
		if *moves != "" {
			sources++
		}
		if sources != 1 {
			return usageError("want one of -position, -moves or a PATH")
		}
		if *position != "" {
			p, err := engine.ParsePosition(*position)
			if err != nil {
				return fmt.Errorf("-position: %w", err)
			}
			fmt.Fprintf(e.stdout, "%s to move\n%s", p.Side.Name(), view.Diagram(&p, 0))
			return nil
		}
		var g *view.Game
		var err error
		if *moves != "" {
			g, err = view.ParseMoveList(*moves)
			if err != nil {
				return fmt.Errorf("-moves: %w", err)
			}
		} else {
			path := args[0]
			if st, serr := os.Stat(path); serr == nil && !st.IsDir() {
				if f, derr := view.Detect(path); derr == nil && f == view.Positions {
					return showPositions(e.stdout, path)
				}
			}
			if g, err = view.LoadGame(path, *id); err != nil {
				return err
			}
		}
		start := 0
		if *turn != "" {
			if start, err = g.Index(*turn); err != nil {
				return fmt.Errorf("-turn: %w", err)
			}
		}
		if !*plain && isTerminal(e.stdin) && isTerminal(e.stdout) {
			return view.Browse(e.stdin, e.stdout, g, start, true)
		}
		if *turn != "" {
			_, err := fmt.Fprintf(e.stdout, "%s\n\n%s", g.Title(), g.Frame(start))
			return err
		}
		return view.Print(e.stdout, g)
	}
}

// showPositions draws every position of a position file.
func showPositions(w io.Writer, path string) error {
	ps, lines, err := view.ReadPositions(path)
	if err != nil {
		return err
	}
	for i := range ps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s:%d: %s to move\n%s", path, lines[i], ps[i].Side.Name(), view.Diagram(&ps[i], 0))
	}
	return nil
}

// isTerminal reports whether the stream is a terminal.
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
