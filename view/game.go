package view

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/setup"
)

// Game is a game laid out for stepping through: the setups, then each move
// with the position it was played from and, where the game comes from
// self-play data, what the search found there.
type Game struct {
	// ID is the game's id ("" when it has none); Gold and Silver name the
	// players when the record does.
	ID, Gold, Silver string
	// Setups are the two setups in notation, Gold's first.
	Setups [2]string
	// Plies are the moves after the setups, one per side's turn, in order.
	Plies []Ply
	// Final is the position after the last move.
	Final engine.Position
	// Result says how the game ended, such as "Gold wins by goal", or
	// "unfinished".
	Result string
}

// Ply is one move of a game: one side's turn.
type Ply struct {
	// Label is the turn's label, such as "12g" (Gold's move of turn 12).
	Label string
	// Move is the move in standard notation, captures written.
	Move string
	// Before is the position the move was played from, with its side to move.
	Before engine.Position
	// Search is what the search found before the move, or nil when the game's
	// source does not hold it.
	Search *Search
}

// Search is what a search found at the root of one move: a row of self-play
// data.
type Search struct {
	// Value is the search's value of the position for the side to move, in
	// [-1, 1].
	Value float32
	// Visits is the root's visits; Full is false for the cheap searches of
	// playout-cap randomization.
	Visits uint32
	Full   bool
	// Top are the most visited moves, most visited first.
	Top []data.PolicyEntry
}

// Positions returns the number of positions of the game: one before each move
// and the final one.
func (g *Game) Positions() int { return len(g.Plies) + 1 }

// Position returns position i: the one before move i, or the final position
// for i == len(g.Plies).
func (g *Game) Position(i int) engine.Position {
	if i == len(g.Plies) {
		return g.Final
	}
	return g.Plies[i].Before
}

// Index returns the position of a turn label: the one before that move, such
// as "12g"; "end" (or a label one past the last move, the bare label an archive
// movelist ends with) names the final position. Labels may use w and b for g and
// s.
func (g *Game) Index(label string) (int, error) {
	label = strings.TrimSpace(label)
	if label == "end" {
		return len(g.Plies), nil
	}
	n, c, err := parseLabel(label)
	if err != nil {
		return 0, err
	}
	want := fmt.Sprintf("%d%s", n, c)
	for i, p := range g.Plies {
		if p.Label == want {
			return i, nil
		}
	}
	if next := nextLabel(g); want == next {
		return len(g.Plies), nil
	}
	if len(g.Plies) == 0 {
		return 0, fmt.Errorf("turn %s: the game has no moves", label)
	}
	return 0, fmt.Errorf("turn %s: the game's moves run from %s to %s", label, g.Plies[0].Label, g.Plies[len(g.Plies)-1].Label)
}

// nextLabel returns the label of the move after the last one.
func nextLabel(g *Game) string {
	if len(g.Plies) == 0 {
		return "2g"
	}
	n, c, _ := parseLabel(g.Plies[len(g.Plies)-1].Label)
	if c == engine.Silver {
		n++
	}
	return fmt.Sprintf("%d%s", n, c.Other())
}

// labelRE matches a turn label: a number and a side letter.
var labelRE = regexp.MustCompile(`^([1-9][0-9]*)([gswb])$`)

// parseLabel reads a turn label such as "12g" or "12w".
func parseLabel(s string) (int, engine.Color, error) {
	m := labelRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, fmt.Errorf("turn label %q: want a number and a side, such as 12g or 12s", s)
	}
	var n int
	fmt.Sscan(m[1], &n)
	c := engine.Gold
	if m[2] == "s" || m[2] == "b" {
		c = engine.Silver
	}
	return n, c, nil
}

// FromRecord replays an archive record into a Game. Its result is the
// record's when the record has one, else the rules' (or "unfinished").
func FromRecord(rec engine.Record) (*Game, error) {
	eg, err := engine.Replay(rec)
	if err != nil {
		return nil, err // names the game and the turn
	}
	g := fromEngine(eg)
	g.ID, g.Gold, g.Silver = rec.ID, rec.Gold, rec.Silver
	switch {
	case rec.Termination != engine.NotOver:
		g.Result = describe(engine.Outcome{Winner: rec.Result, Reason: rec.Termination})
	case !eg.Outcome().Over() && strings.Contains(rec.Field("event"), "max-turns"):
		// Self-play and matches stop a game at max_turns; the record says so
		// in its event only.
		g.Result = describe(engine.Outcome{Reason: engine.MaxTurns})
	}
	return g, nil
}

// fromEngine lays out a game played on an engine.Game, setups done.
func fromEngine(eg *engine.Game) *Game {
	g := &Game{Final: eg.Position(), Result: describe(eg.Outcome())}
	for c := range engine.Color(2) {
		g.Setups[c] = engine.FormatSetup(eg.SetupOf(c))
	}
	moves := eg.Moves()
	g.Plies = make([]Ply, len(moves))
	for i, m := range moves {
		before := eg.PositionBefore(i)
		g.Plies[i] = Ply{Label: fmt.Sprintf("%d%s", 2+i/2, before.Side), Move: m, Before: before}
	}
	return g
}

// describe says how a game ended.
func describe(o engine.Outcome) string {
	switch {
	case o.Reason == engine.MaxTurns:
		return "stopped at max-turns (a draw)"
	case !o.Over():
		return "unfinished"
	}
	return o.String()
}

// AttachRows adds to the game what the search found before each move: rows
// are a game's rows of self-play data (one per move, in any order). Each row
// must match a move: the same turn, side and board.
func (g *Game) AttachRows(rows []data.Row) error {
	byLabel := make(map[string]int, len(g.Plies))
	for i, p := range g.Plies {
		byLabel[p.Label] = i
	}
	for _, r := range rows {
		label := fmt.Sprintf("%d%s", r.Turn, engine.Color(r.Side))
		i, ok := byLabel[label]
		if !ok {
			return fmt.Errorf("game %d: the data has a row for %s, which the game record does not play", r.GameID, label)
		}
		p := &g.Plies[i]
		for k, b := range r.Board {
			if engine.Bitboard(b) != p.Before.Bits[k] {
				return fmt.Errorf("game %d, turn %s: the data's board is not the record's", r.GameID, label)
			}
		}
		p.Search = searchOf(r)
		if r.Termination == engine.MaxTurns.String() && g.Result == "unfinished" {
			g.Result = describe(engine.Outcome{Reason: engine.MaxTurns})
		}
	}
	return nil
}

func searchOf(r data.Row) *Search {
	return &Search{Value: r.RootValue, Visits: r.Visits, Full: r.FullSearch, Top: slices.Clone(r.Policy)}
}

// FromRows rebuilds a game from its rows of self-play data alone (for a shard
// whose games file is missing): the board of the first row gives the setups,
// the moves are replayed from there and checked against each row's board.
func FromRows(rows []data.Row) (*Game, error) {
	if len(rows) == 0 {
		return nil, errors.New("no rows")
	}
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b data.Row) int { return int(a.Turn)*2 + int(a.Side) - int(b.Turn)*2 - int(b.Side) })
	id := rows[0].GameID
	if rows[0].Turn != 2 || rows[0].Side != 0 {
		return nil, fmt.Errorf("game %d: the first row is turn %d%s, not 2g", id, rows[0].Turn, engine.Color(rows[0].Side))
	}
	var bits [12]engine.Bitboard
	for k, b := range rows[0].Board {
		bits[k] = engine.Bitboard(b)
	}
	start, err := engine.PositionFromBits(bits, engine.Gold)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", id, err)
	}
	eg := engine.NewGame()
	for c := range engine.Color(2) {
		var pls []engine.Placement
		for pc := engine.MakePiece(c, engine.Rabbit); pc <= engine.MakePiece(c, engine.Elephant); pc++ {
			for b := start.Bits[pc]; b != 0; b &= b - 1 {
				pls = append(pls, engine.Placement{Piece: pc, Square: b.First()})
			}
		}
		if err := eg.Setup(c, pls); err != nil {
			return nil, fmt.Errorf("game %d: the first board is not a position after the setups: %w", id, err)
		}
	}
	for _, r := range rows {
		if err := eg.Play(r.Move); err != nil {
			return nil, fmt.Errorf("game %d, turn %d%s: %w", id, r.Turn, engine.Color(r.Side), err)
		}
	}
	g := fromEngine(eg)
	g.ID = fmt.Sprint(id)
	if err := g.AttachRows(rows); err != nil {
		return nil, err
	}
	return g, nil
}

// ParseMoveList reads a move list into a Game: turns each opened by its label
// ("1g Ra1 Rb1 ... 1s ra8 ... 2g Ed2n Ed3n ..."), separated by spaces, line
// breaks or the archive's literal \n. w and b may stand for g and s. Without
// setups (a list that opens with 2g) both sides take the standard setup.
func ParseMoveList(text string) (*Game, error) {
	text = strings.ReplaceAll(text, engine.TurnSeparator, "\n")
	var turns []string
	for _, tok := range strings.Fields(text) {
		if labelRE.MatchString(tok) {
			turns = append(turns, tok)
			continue
		}
		if len(turns) == 0 {
			return nil, fmt.Errorf("move list: %q comes before any turn label (such as 1g or 2g)", tok)
		}
		turns[len(turns)-1] += " " + tok
	}
	if len(turns) == 0 {
		return nil, errors.New("move list: no turns")
	}
	if n, _, _ := parseLabel(strings.Fields(turns[0])[0]); n != 1 {
		std := []string{
			"1g " + engine.FormatSetup(setup.Standard(engine.Gold)),
			"1s " + engine.FormatSetup(setup.Standard(engine.Silver)),
		}
		turns = append(std, turns...)
	}
	eg := engine.NewGame()
	for k, t := range turns {
		label, body, _ := strings.Cut(t, " ")
		if body == "" && k == len(turns)-1 && k > 1 {
			break // the bare label of the turn to play, as an archive ends
		}
		n, c, _ := parseLabel(label)
		if n != eg.TurnNumber() || c != eg.Side() {
			return nil, fmt.Errorf("move list: turn %s: out of order: turn %s is to play", label, eg.Label())
		}
		var err error
		switch {
		case body == "":
			err = errors.New("no steps")
		case n == 1:
			err = eg.PlaySetup(body)
		default:
			err = eg.Play(body)
		}
		if err != nil {
			return nil, fmt.Errorf("move list: turn %s: %w", label, err)
		}
	}
	if eg.TurnNumber() == 1 {
		return nil, errors.New("move list: Silver's setup (1s) is missing")
	}
	return fromEngine(eg), nil
}
