// Package play runs a game of Arimaa between a person at a terminal and a bot:
// the person's setup and moves are read a line at a time in standard notation
// and checked against the rules, an illegal one is explained and asked for
// again, and the board is drawn after every move.
package play

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/setup"
	"github.com/arimaalab/arimaalab/view"
)

// Bot is the person's opponent.
type Bot interface {
	// Name names the bot, for the game record and the messages.
	Name() string
	// Move returns the bot's move in g, whose side to move is the bot's, and a
	// few words on how it was found (its value, visits, time).
	Move(ctx context.Context, g *engine.Game) (move, note string, err error)
}

// Options are the settings of a game.
type Options struct {
	// Person is the person's colour.
	Person engine.Color
	// PersonName names the person in the game record ("you" when empty).
	PersonName string
	// Setup is the person's setup in notation; empty to ask for it, "standard"
	// for the standard one.
	Setup string
	// BotSetup is the bot's setup.
	BotSetup []engine.Placement
}

// Help lists what the person may type at the move prompt.
const Help = `Type a move as its steps in standard notation, separated by spaces: piece,
square, direction (n, e, s, w), such as "Ed2n Ed3n" (the gold elephant on d2
goes north twice). Upper case is Gold, lower case Silver; a push or pull names
the enemy piece's step too ("rd5e Ed4n": the elephant on d4 pushes the rabbit
on d5 east and steps into d5). Captures may be left out. Commands: board,
undo (take back your last move and the bot's reply), resign, quit, help.`

// session is a game in progress.
type session struct {
	ctx  context.Context
	in   *bufio.Scanner
	out  io.Writer
	bot  Bot
	opt  Options
	game *engine.Game
}

// errQuit ends a session at the person's request or at the end of the input.
var errQuit = errors.New("quit")

// Play runs a game: the setups (the person's read from in unless
// opt.Setup gives it), then moves until the game ends, the person resigns or
// quits, or in ends. It returns the game as played and its outcome: NotOver
// when the game was left unfinished, Resignation when the person resigned.
// Errors are the bot's failures, the output's, and a bad opt.Setup.
func Play(ctx context.Context, in io.Reader, out io.Writer, bot Bot, opt Options) (*engine.Game, engine.Outcome, error) {
	s := &session{ctx: ctx, in: bufio.NewScanner(in), out: out, bot: bot, opt: opt, game: engine.NewGame()}
	s.in.Buffer(make([]byte, 0, 4096), 1<<20)
	letters := "upper-case"
	if opt.Person == engine.Silver {
		letters = "lower-case"
	}
	fmt.Fprintf(out, "You play %s (%s pieces) against %s; type help for help.\n", opt.Person.Name(), letters, bot.Name())
	err := s.setups()
	if err == nil {
		err = s.moves()
	}
	switch {
	case errors.Is(err, errQuit):
		fmt.Fprintln(out, "Game left unfinished.")
		return s.game, engine.Outcome{}, nil
	case errors.Is(err, errResigned):
		o := engine.Outcome{Winner: opt.Person.Other(), Reason: engine.Resignation}
		fmt.Fprintf(out, "%s.\n", o)
		return s.game, o, nil
	case err != nil:
		return s.game, engine.Outcome{}, err
	}
	o := s.game.Outcome()
	who := "You win"
	if o.Winner != opt.Person {
		who = "You lose"
	}
	fmt.Fprintf(out, "%s: %s.\n", who, o)
	return s.game, o, nil
}

// errResigned ends a session when the person resigns.
var errResigned = errors.New("resigned")

// readLine prompts and returns the next line of input, trimmed, or errQuit at
// the end of the input.
func (s *session) readLine(prompt string) (string, error) {
	fmt.Fprint(s.out, prompt)
	if !s.in.Scan() {
		fmt.Fprintln(s.out)
		if err := s.in.Err(); err != nil {
			return "", fmt.Errorf("reading input: %w", err)
		}
		return "", errQuit
	}
	return strings.TrimSpace(s.in.Text()), nil
}

// setups places Gold's setup, then Silver's.
func (s *session) setups() error {
	for c := range engine.Color(2) {
		if c != s.opt.Person {
			if err := s.game.Setup(c, s.opt.BotSetup); err != nil {
				return fmt.Errorf("the bot's setup: %w", err)
			}
			fmt.Fprintf(s.out, "1%s %s: %s\n", c, s.bot.Name(), engine.FormatSetup(s.opt.BotSetup))
			continue
		}
		if s.opt.Setup != "" {
			pls, err := personSetup(c, s.opt.Setup)
			if err == nil {
				err = s.game.Setup(c, pls)
			}
			if err != nil {
				return fmt.Errorf("setup %q: %w", s.opt.Setup, err)
			}
			fmt.Fprintf(s.out, "1%s you: %s\n", c, engine.FormatSetup(pls))
			continue
		}
		if c == engine.Silver {
			s.draw(0)
		}
		std := engine.FormatSetup(setup.Standard(c))
		fmt.Fprintf(s.out, "Your setup: Enter for the standard one (%s),\nor the 16 pieces on your two home ranks, such as %q.\n", std, std)
		for {
			line, err := s.readLine(fmt.Sprintf("1%s setup> ", c))
			if err != nil {
				return err
			}
			switch line {
			case "quit", "q":
				return errQuit
			case "help", "h", "?":
				fmt.Fprintln(s.out, "A setup places your 16 pieces (8 rabbits, 2 cats, 2 dogs, 2 horses, a camel and an elephant) on your two home ranks, as Ra1 Rb1 ... Ee2 ...; Enter takes the standard one.")
				continue
			case "":
				line = "standard"
			}
			pls, err := personSetup(c, line)
			if err == nil {
				err = s.game.Setup(c, pls)
			}
			if err != nil {
				fmt.Fprintf(s.out, "Not a setup: %v\n", err)
				continue
			}
			break
		}
	}
	return nil
}

// personSetup reads a person's setup: "standard", or all 16 pieces.
func personSetup(c engine.Color, text string) ([]engine.Placement, error) {
	if text == "standard" {
		return setup.Standard(c), nil
	}
	pls, err := engine.ParseSetup(c, text)
	if err != nil {
		return nil, err
	}
	var got [engine.NumTypes]int
	for _, pl := range pls {
		got[pl.Piece.Type()]++
	}
	var missing []string
	for t := engine.Rabbit; t <= engine.Elephant; t++ {
		if n := engine.StandardCount[t] - got[t]; n > 0 {
			missing = append(missing, fmt.Sprintf("%d %c", n, engine.MakePiece(c, t).Letter()))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%d pieces placed, 16 needed: missing %s", len(pls), strings.Join(missing, ", "))
	}
	return pls, nil
}

// draw shows the board, the squares of the last move marked.
func (s *session) draw(lastMoves int) {
	pos := s.game.Position()
	var marks engine.Bitboard
	moves := s.game.Moves()
	if n := len(moves); n > 0 && lastMoves > 0 {
		before := s.game.PositionBefore(n - 1)
		marks = view.Changed(&before, &pos)
	}
	fmt.Fprintf(s.out, "\n%s", view.Diagram(&pos, marks))
}

// moves plays the game from 2g until it ends.
func (s *session) moves() error {
	s.draw(0)
	for !s.game.Outcome().Over() {
		if s.game.Side() == s.opt.Person {
			if err := s.personMove(); err != nil {
				return err
			}
		} else if err := s.botMove(); err != nil {
			return err
		}
		s.draw(1)
	}
	return nil
}

// personMove reads the person's move and plays it, asking again until it is
// legal.
func (s *session) personMove() error {
	for {
		label := s.game.Label()
		line, err := s.readLine(label + " your move> ")
		if err != nil {
			return err
		}
		// A move may be typed with its label, as records write it.
		if rest, ok := strings.CutPrefix(line, label+" "); ok {
			line = strings.TrimSpace(rest)
		}
		switch strings.ToLower(line) {
		case "quit", "q", "exit":
			return errQuit
		case "resign":
			return errResigned
		case "help", "h", "?":
			fmt.Fprintln(s.out, Help)
			continue
		case "board", "b":
			s.draw(1)
			continue
		case "undo", "takeback":
			s.undo()
			continue
		}
		if err := s.game.Play(line); err != nil {
			fmt.Fprintf(s.out, "Illegal: %s\n", Explain(err))
			continue
		}
		fmt.Fprintf(s.out, "%s you: %s\n", label, s.game.Moves()[len(s.game.Moves())-1])
		return nil
	}
}

// undo takes back the person's last move and the bot's reply to it.
func (s *session) undo() {
	n := len(s.game.Moves())
	// The person's last move is the last move, or the one before the bot's.
	back := 2
	if n > 0 && s.game.PositionBefore(n-1).Side == s.opt.Person {
		back = 1
	}
	if n < back {
		fmt.Fprintln(s.out, "Nothing of yours to take back.")
		return
	}
	for range back {
		if err := s.game.Undo(); err != nil {
			fmt.Fprintf(s.out, "Cannot take back: %v\n", err)
			return
		}
	}
	fmt.Fprintf(s.out, "Taken back: %s is to play again.\n", s.game.Label())
	s.draw(1)
}

// botMove asks the bot for its move and plays it.
func (s *session) botMove() error {
	label := s.game.Label()
	fmt.Fprintf(s.out, "%s %s is thinking...\n", label, s.bot.Name())
	move, note, err := s.bot.Move(s.ctx, s.game)
	if err != nil {
		return fmt.Errorf("%s, turn %s: %w", s.bot.Name(), label, err)
	}
	if err := s.game.Play(move); err != nil {
		return fmt.Errorf("%s, turn %s: illegal move %q: %w", s.bot.Name(), label, move, err)
	}
	moves := s.game.Moves()
	fmt.Fprintf(s.out, "%s %s: %s", label, s.bot.Name(), moves[len(moves)-1])
	if note != "" {
		fmt.Fprintf(s.out, "  (%s)", note)
	}
	fmt.Fprintln(s.out)
	return nil
}

// Explain turns the rules' objection to a move into a sentence for a person.
func Explain(err error) string {
	msg := err.Error()
	var se *engine.StepError
	switch {
	case errors.Is(err, engine.ErrThirdRepetition):
		return "this move would bring the same position (and side to move) about for the third time, which the repetition rule forbids; play something else"
	case errors.As(err, &se) && strings.Contains(se.Err.Error(), "want piece, square and direction"):
		return msg + ` (a step is a piece letter, a square and a direction n, e, s or w: "Ed2n"; type help for more)`
	case errors.As(err, &se) && strings.Contains(se.Err.Error(), "unknown piece letter"):
		return msg + " (pieces: E elephant, M camel, H horse, D dog, C cat, R rabbit; upper case Gold, lower case Silver)"
	}
	return msg
}

// SearchBot is the MCTS search as a Bot.
type SearchBot struct {
	name string
	s    *mcts.Searcher
}

// NewSearchBot returns the search s as a bot named name.
func NewSearchBot(name string, s *mcts.Searcher) *SearchBot {
	return &SearchBot{name: name, s: s}
}

// Name returns the bot's name.
func (b *SearchBot) Name() string { return b.name }

// Move searches the position of g with its history and returns the best move,
// with the value for the bot, the simulations and the time.
func (b *SearchBot) Move(ctx context.Context, g *engine.Game) (string, string, error) {
	res, err := b.s.Search(ctx, g.Position(), g.History())
	if err != nil {
		return "", "", err
	}
	note := fmt.Sprintf("value %+.3f for %s, %d simulations, %.1f s", res.Value, g.Side().Name(), res.Simulations, res.Elapsed.Seconds())
	if res.Proven {
		note = "a forced win this turn"
	}
	return res.Move, note, nil
}
