package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Errors a Game returns; test for them with errors.Is.
var (
	// ErrGameOver is returned for a move played after the end of the game.
	ErrGameOver = errors.New("the game is over")
	// ErrThirdRepetition is returned for a move that would make a position stand
	// for the third time.
	ErrThirdRepetition = errors.New("third repetition")
)

// Game is an Arimaa game from the empty board: Gold's setup (turn 1g), Silver's
// setup (1s), then moves from 2g on, each checked against the rules, with the
// repetition history and the outcome after every turn.
//
// The zero Game is not ready for use; make one with NewGame. A Game is not safe
// for concurrent use.
type Game struct {
	setups   [2][]Placement
	nsetups  int
	pos      Position
	hist     *History
	gen      *MoveGen
	moves    []string   // moves in notation, with captures
	before   []Position // before[i] is the position move i was played from
	turn     int        // number of the turn to play
	outcome  Outcome
	stepsBuf []Step
	fresh    freshSearch
}

// NewGame returns a game on the empty board, waiting for Gold's setup.
func NewGame() *Game {
	return &Game{hist: NewHistory(), gen: NewMoveGen(), turn: 1}
}

// Setup places the setup of c: Gold's first, then Silver's. The pieces must be
// of colour c, on c's own two ranks, on empty squares, each square once and no
// more of a type than the standard count; handicap setups with fewer pieces are
// accepted. After Silver's setup Gold is to move at turn 2g, and the position
// counts as its first occurrence for the repetition rule.
func (g *Game) Setup(c Color, pls []Placement) error {
	if g.nsetups >= 2 {
		return fmt.Errorf("setup %s: both sides have set up", c)
	}
	if want := Color(g.nsetups); c != want {
		return fmt.Errorf("setup %s: %s sets up first", c, want.Name())
	}
	if len(pls) == 0 {
		return fmt.Errorf("setup %s: no pieces", c)
	}
	home := Rank1 | Rank2
	if c == Silver {
		home = Rank7 | Rank8
	}
	var counts [NumTypes]int
	var used Bitboard
	for i, pl := range pls {
		switch {
		case pl.Piece >= NoPiece:
			return fmt.Errorf("setup %s item %d: not a piece", c, i+1)
		case pl.Square < 0 || pl.Square > 63:
			return fmt.Errorf("setup %s item %d: not a square", c, i+1)
		case pl.Piece.Color() != c:
			return fmt.Errorf("setup %s item %d %s: %s piece in %s's setup", c, i+1, pl, pl.Piece.Color().Name(), c.Name())
		case !home.Has(pl.Square):
			return fmt.Errorf("setup %s item %d %s: %s must set up on its own two ranks", c, i+1, pl, c.Name())
		case used.Has(pl.Square):
			return fmt.Errorf("setup %s item %d %s: square %s used twice", c, i+1, pl, pl.Square)
		case g.pos.At(pl.Square) != NoPiece:
			return fmt.Errorf("setup %s item %d %s: square %s is occupied", c, i+1, pl, pl.Square)
		}
		used |= pl.Square.Bit()
		t := pl.Piece.Type()
		if counts[t]++; counts[t] > StandardCount[t] {
			return fmt.Errorf("setup %s item %d %s: more than %d of %c", c, i+1, pl, StandardCount[t], pl.Piece.Letter())
		}
	}
	for _, pl := range pls {
		g.pos.Put(pl.Piece, pl.Square)
	}
	g.setups[c] = append([]Placement(nil), pls...)
	g.nsetups++
	if c == Gold {
		g.pos.SetSide(Silver)
		return nil
	}
	g.pos.SetSide(Gold)
	g.turn = 2
	g.hist.Add(&g.pos)
	g.outcome = g.endOfTurn()
	return nil
}

// PlaySetup reads the setup of the side to set up in notation, such as
// "Ra1 Rb1 Cc1 ...", and places it (see Setup).
func (g *Game) PlaySetup(s string) error {
	if g.nsetups >= 2 {
		return errors.New("setup: both sides have set up")
	}
	c := Color(g.nsetups)
	pls, err := ParseSetup(c, s)
	if err != nil {
		return fmt.Errorf("setup %s: %w", c, err)
	}
	return g.Setup(c, pls)
}

// ready reports why no move can be played now, or nil.
func (g *Game) ready() error {
	if g.nsetups < 2 {
		return fmt.Errorf("move before the setups: %s must set up first", Color(g.nsetups).Name())
	}
	if g.outcome.Over() {
		return fmt.Errorf("%w: %s", ErrGameOver, g.outcome)
	}
	return nil
}

// Play plays the side to move's whole turn given in standard notation, such as
// "Ed2n Ed3n cd4n Hd3n": every step is checked (errors name the step and why,
// see StepError), then the turn must change the board and must not make a
// position stand for the third time. Captures may be written, as in "rc3x",
// and must then be right. After the turn the end-of-game checks decide the
// Outcome. On error the game is unchanged.
func (g *Game) Play(move string) error {
	if err := g.ready(); err != nil {
		return err
	}
	t := NewTurn(g.pos)
	steps, caps, err := playMove(&t, move)
	if err != nil {
		return err
	}
	return g.finish(&t, steps, caps)
}

// PlaySteps plays the side to move's whole turn given as steps, with the checks
// of Play. On error the game is unchanged.
func (g *Game) PlaySteps(steps []Step) error {
	if err := g.ready(); err != nil {
		return err
	}
	if len(steps) == 0 {
		return errNoSteps
	}
	t := NewTurn(g.pos)
	caps := make([]Capture, len(steps))
	for i, st := range steps {
		c, err := t.Step(st)
		if err != nil {
			return &StepError{i + 1, st.String(), err}
		}
		caps[i] = c
	}
	return g.finish(&t, steps, caps)
}

// finish ends the turn t, checking the net change and repetition rules, and
// records it.
func (g *Game) finish(t *Turn, steps []Step, caps []Capture) error {
	text := formatSteps(steps, caps)
	if err := t.CanEnd(); err != nil {
		return fmt.Errorf("move %q: %w", text, err)
	}
	next := t.End()
	if g.hist.Count(&next) >= 2 {
		return fmt.Errorf("move %q: %w: the position would stand for the third time", text, ErrThirdRepetition)
	}
	g.before = append(g.before, g.pos)
	g.moves = append(g.moves, text)
	g.pos = next
	if g.pos.Side == Gold {
		g.turn++
	}
	g.hist.Add(&g.pos)
	g.outcome = g.endOfTurn()
	return nil
}

// endOfTurn applies the end-of-game checks to the current position with
// EndOfTurn. The repetition check (every move of the side to move would be a
// third repetition) needs all the moves, which is slow; a quick depth-first
// search that stops at the first move making no third repetition settles the
// usual case, and EndOfTurn with the history decides the rest.
func (g *Game) endOfTurn() Outcome {
	if out := EndOfTurn(&g.pos, nil, g.gen); out.Over() {
		return out
	}
	if !g.hist.hot() || g.fresh.find(&g.pos, g.hist, 4096) {
		return Outcome{}
	}
	return EndOfTurn(&g.pos, g.hist, g.gen)
}

// freshSearch looks for a move that does not make a third repetition.
type freshSearch struct {
	h      *History
	budget int
	bufs   [MaxSteps][]Step
}

// find reports whether p.Side has a move to a position that has stood fewer than
// twice in h, looking at no more than budget step sequences; false means none
// was found within the budget.
func (s *freshSearch) find(p *Position, h *History, budget int) bool {
	s.h, s.budget = h, budget
	t := NewTurn(*p)
	found := s.search(&t)
	s.h = nil
	return found
}

func (s *freshSearch) search(t *Turn) bool {
	d := t.Used
	if d >= MaxSteps {
		return false
	}
	s.bufs[d] = t.LegalSteps(s.bufs[d][:0])
	for _, st := range s.bufs[d] {
		if s.budget--; s.budget < 0 {
			return false
		}
		u := *t
		u.Play(st)
		if u.CanEnd() == nil {
			q := u.End()
			if s.h.Count(&q) < 2 {
				return true
			}
		}
		if s.search(&u) {
			return true
		}
	}
	return false
}

// Undo takes back the last move (not a setup).
func (g *Game) Undo() error {
	n := len(g.moves)
	if n == 0 {
		return errors.New("undo: no move to take back")
	}
	g.hist.Remove(&g.pos)
	if g.pos.Side == Gold {
		g.turn--
	}
	g.pos = g.before[n-1]
	g.before = g.before[:n-1]
	g.moves = g.moves[:n-1]
	g.outcome = Outcome{}
	return nil
}

// Outcome returns the result of the game so far: NotOver while it goes on.
func (g *Game) Outcome() Outcome { return g.outcome }

// Position returns the current position, with the side to move.
func (g *Game) Position() Position { return g.pos }

// Side returns the side to move (or to set up).
func (g *Game) Side() Color {
	if g.nsetups < 2 {
		return Color(g.nsetups)
	}
	return g.pos.Side
}

// TurnNumber returns the number of the turn to play: 1 for the setups, then 2,
// 3, ... (a turn number covers a Gold and a Silver move).
func (g *Game) TurnNumber() int { return g.turn }

// Label returns the label of the turn to play, such as "2g" or "17s".
func (g *Game) Label() string { return turnLabel(g.turn, g.Side(), false) }

// turnLabel writes a turn label with g/s, or with w/b for the archive format.
func turnLabel(n int, c Color, wb bool) string {
	s := c.String()
	if wb {
		s = "wb"[c : c+1]
	}
	return fmt.Sprintf("%d%s", n, s)
}

// SetupOf returns the setup of c, or nil before c has set up.
func (g *Game) SetupOf(c Color) []Placement {
	return append([]Placement(nil), g.setups[c&1]...)
}

// Moves returns the moves played after the setups, in standard notation with
// captures, the first being Gold's move 2g.
func (g *Game) Moves() []string { return append([]string(nil), g.moves...) }

// PositionBefore returns the position move i (an index of Moves) was played
// from.
func (g *Game) PositionBefore(i int) Position { return g.before[i] }

// Turns returns every turn played, setups included, each with its label, such
// as "1g Ra1 Rb1 ...", "1s ...", "2g Ed2n Ee2n", "2s ...".
func (g *Game) Turns() []string { return g.turns(false) }

func (g *Game) turns(wb bool) []string {
	out := make([]string, 0, g.nsetups+len(g.moves))
	for c := range Color(g.nsetups) {
		out = append(out, turnLabel(1, c, wb)+" "+FormatSetup(g.setups[c]))
	}
	for i, m := range g.moves {
		out = append(out, turnLabel(2+i/2, Color(i%2), wb)+" "+m)
	}
	return out
}

// LegalMoves returns every legal move of the side to move, each resulting
// position once, third repetitions left out; nil before the setups are done or
// after the end of the game. The generator is reused between calls.
func (g *Game) LegalMoves() []GeneratedMove {
	if g.ready() != nil {
		return nil
	}
	n := g.gen.Generate(&g.pos, g.hist)
	out := make([]GeneratedMove, n)
	for i := range n {
		g.stepsBuf = g.gen.Steps(i, g.stepsBuf[:0])
		out[i] = GeneratedMove{append([]Step(nil), g.stepsBuf...), g.gen.Position(i)}
	}
	return out
}

// RepetitionCount returns how often p has stood at the end of a turn (the
// position after the setups included).
func (g *Game) RepetitionCount(p *Position) int { return g.hist.Count(p) }

// String returns the game's turns, one per line.
func (g *Game) String() string { return strings.Join(g.Turns(), "\n") }

// History returns a copy of the game's repetition history: the positions that
// have stood at the end of each turn (and after the setups), with their counts.
func (g *Game) History() *History { return g.hist.Clone() }
