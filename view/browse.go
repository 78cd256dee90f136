package view

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// topMoves is how many of the search's most visited moves a frame lists.
const topMoves = 3

// Title returns the line that names the game: its id, players and result.
func (g *Game) Title() string {
	var b strings.Builder
	b.WriteString("game")
	if g.ID != "" {
		b.WriteString(" " + g.ID)
	}
	if g.Gold != "" || g.Silver != "" {
		fmt.Fprintf(&b, ", %s (Gold) vs %s (Silver)", orDash(g.Gold), orDash(g.Silver))
	}
	fmt.Fprintf(&b, ": %d moves, %s", len(g.Plies), g.Result)
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Frame returns the text of position i (0 to len(g.Plies)): a header with the
// turn to play and the side to move, the board with the squares of the move
// before it marked, that move, and the move played from it with what the
// search found there (when known), or the result after the last move.
func (g *Game) Frame(i int) string {
	var b strings.Builder
	pos := g.Position(i)
	label := "end"
	if i < len(g.Plies) {
		label = g.Plies[i].Label
	}
	fmt.Fprintf(&b, "%s  %s to move  (position %d of %d)\n", label, pos.Side.Name(), i+1, g.Positions())
	var marks engine.Bitboard
	if i > 0 {
		prev := g.Plies[i-1].Before
		marks = Changed(&prev, &pos)
	}
	b.WriteString(Diagram(&pos, marks))
	if i == 0 {
		fmt.Fprintf(&b, "setups: 1g %s\n        1s %s\n", g.Setups[0], g.Setups[1])
	} else {
		p := g.Plies[i-1]
		fmt.Fprintf(&b, "last:   %s %s\n", p.Label, p.Move)
	}
	if i == len(g.Plies) {
		fmt.Fprintf(&b, "result: %s\n", g.Result)
		return b.String()
	}
	p := g.Plies[i]
	fmt.Fprintf(&b, "move:   %s %s\n", p.Label, p.Move)
	if s := p.Search; s != nil {
		kind := "full search"
		if !s.Full {
			kind = "cheap search"
		}
		fmt.Fprintf(&b, "search: value %+.3f for %s, %d visits (%s)", s.Value, pos.Side.Name(), s.Visits, kind)
		if len(s.Top) > 0 {
			b.WriteString("; most visited:")
			for k, m := range s.Top[:min(topMoves, len(s.Top))] {
				sep := ","
				if k == 0 {
					sep = ""
				}
				fmt.Fprintf(&b, "%s %s (%d)", sep, m.Move, m.Visits)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Print writes the game's title and every position's frame, a blank line
// between them.
func Print(w io.Writer, g *Game) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, g.Title())
	for i := range g.Positions() {
		bw.WriteByte('\n')
		bw.WriteString(g.Frame(i))
	}
	return bw.Flush()
}

// BrowseHelp lists the commands of Browse.
const BrowseHelp = `commands: Enter or n next, p previous, f first, l last, 12g (or j 12g) the position before move 12g,
a number N the N-th position, end the final position, h this help, q quit`

// clearScreen moves the cursor home and clears the terminal.
const clearScreen = "\x1b[H\x1b[2J"

// Browse shows the positions of g one at a time, from position start, on
// commands read a line at a time from in (see BrowseHelp), and returns at q or
// at the end of in. With clear, the screen is cleared before each frame (for
// a terminal). A command it does not know is answered with the help, and the
// position stays.
func Browse(in io.Reader, out io.Writer, g *Game, start int, clear bool) error {
	sc := bufio.NewScanner(in)
	i := max(0, min(start, len(g.Plies)))
	note := ""
	for {
		if clear {
			io.WriteString(out, clearScreen)
		}
		fmt.Fprintf(out, "%s\n\n%s", g.Title(), g.Frame(i))
		if note != "" {
			fmt.Fprintln(out, note)
			note = ""
		}
		io.WriteString(out, "[Enter] next, p prev, 12g jump, f first, l last, h help, q quit> ")
		if !sc.Scan() {
			io.WriteString(out, "\n")
			return sc.Err()
		}
		cmd := strings.TrimSpace(sc.Text())
		switch {
		case cmd == "" || cmd == "n" || cmd == "next":
			if i == len(g.Plies) {
				note = "(the last position)"
			}
			i = min(i+1, len(g.Plies))
		case cmd == "p" || cmd == "prev":
			if i == 0 {
				note = "(the first position)"
			}
			i = max(i-1, 0)
		case cmd == "f" || cmd == "first":
			i = 0
		case cmd == "l" || cmd == "last":
			i = len(g.Plies)
		case cmd == "q" || cmd == "quit" || cmd == "exit":
			return nil
		case cmd == "h" || cmd == "help" || cmd == "?":
			note = BrowseHelp
		default:
			target := strings.TrimSpace(strings.TrimPrefix(cmd, "j "))
			if n, err := strconv.Atoi(target); err == nil {
				if n < 1 || n > g.Positions() {
					note = fmt.Sprintf("no position %d: the game has positions 1 to %d", n, g.Positions())
					break
				}
				i = n - 1
				break
			}
			k, err := g.Index(target)
			if err != nil {
				note = fmt.Sprintf("%q: %v\n%s", cmd, err, BrowseHelp)
				break
			}
			i = k
		}
	}
}
