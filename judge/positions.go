package judge

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// Position is a position to judge a move in.
type Position struct {
	// Pos is the position, at the start of a turn.
	Pos engine.Position
	// Hist is its game's repetition history, Pos included (nil for none).
	Hist *engine.History
	// Where names it for people: "FILE:LINE" for a position file,
	// "FILE:LINE game ID 12s" for the position before move 12s of the game
	// whose record starts at LINE of an archive file.
	Where string
	// Game is the game the position comes from (nil for a position file),
	// and Ply the position's index among the game's moves: 0 for the
	// position before 2g, 1 before 2s, and so on.
	Game *Game
	Ply  int
	// Group names the group of a position file's position: its file's name
	// and the name of the `# group NAME` line above it ("FILE#NAME"), or
	// empty for none. analyze successors writes the positions after one
	// source position as a group; their labelled rows share a game id, so
	// that train -pairs can compare them.
	Group string
}

// Game is a game of an archive file that positions come from.
type Game struct {
	// File and Line are the archive file's name and the line of the game's
	// record; ID is the record's id.
	File string
	Line int
	ID   string
	// Moves are the moves played after the setups, in standard notation.
	Moves []string
	// Outcome is the record's result: its winner and termination
	// (Reason engine.NotOver for a game the record leaves unfinished).
	Outcome engine.Outcome
}

// ArchivePositions reads an archive file (engine.ReadArchive) of name and
// returns the position before every move of its games (not the setups), with
// the game's history, in the order of the file. With mover set, only the
// positions where the player of that name (the archive's wusername or
// busername) was to move are kept. A game that does not replay is an error
// naming the file and its line.
func ArchivePositions(r io.Reader, name, mover string) ([]Position, error) {
	recs, err := engine.ReadArchive(r, name)
	if err != nil {
		return nil, err
	}
	var out []Position
	for _, rec := range recs {
		g, err := engine.Replay(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, rec.Line, err)
		}
		hist := engine.NewHistory()
		game := &Game{File: name, Line: rec.Line, ID: rec.ID, Moves: g.Moves(),
			Outcome: engine.Outcome{Winner: rec.Result, Reason: rec.Termination}}
		for i := range g.Moves() {
			p := g.PositionBefore(i)
			hist.Add(&p)
			if mover != "" && mover != [2]string{rec.Gold, rec.Silver}[p.Side] {
				continue
			}
			label := fmt.Sprintf("%d%s", 2+i/2, p.Side)
			out = append(out, Position{Pos: p, Hist: hist.Clone(), Where: fmt.Sprintf("%s:%d %s %s", name, rec.Line, rec.Label(), label), Game: game, Ply: i})
		}
	}
	return out, nil
}

// ReadPositions reads a position file: one AEI position a line, such as
// `g [rrrrrrrrhdcemcdh ... HDCMECDHRRRRRRRR]`; blank lines and lines starting
// with # are skipped. A line `# group NAME` starts a group: the positions
// after it, up to the next such line, are of group NAME (Position.Group);
// a group's positions must follow each other, so a name used twice is an
// error. A bad line, a setup (the side to move without pieces) or a position
// where the game is over is an error naming the file and line.
func ReadPositions(r io.Reader, name string) ([]Position, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var out []Position
	line := 0
	group := ""
	groups := map[string]bool{}
	for sc.Scan() {
		line++
		text := sc.Text()
		if g, ok := strings.CutPrefix(strings.TrimSpace(text), "# group"); ok && (g == "" || g[0] == ' ' || g[0] == '\t') {
			fields := strings.Fields(g)
			if len(fields) == 0 {
				return nil, fmt.Errorf("%s:%d: a group line without a name", name, line)
			}
			if groups[fields[0]] {
				return nil, fmt.Errorf("%s:%d: group %q again: a group's positions must follow each other", name, line, fields[0])
			}
			groups[fields[0]] = true
			group = name + "#" + fields[0]
			continue
		}
		if t := strings.TrimSpace(text); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		// Inside the brackets spaces are empty squares: trim only outside them.
		p, err := engine.ParsePosition(strings.TrimRight(strings.TrimLeft(text, " \t"), " \t\r"))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if p.Occ[p.Side] == 0 {
			return nil, fmt.Errorf("%s:%d: %s has no pieces: a setup, not a position to judge", name, line, p.Side.Name())
		}
		if out := engine.EndOfTurn(&p, nil, nil); out.Over() {
			return nil, fmt.Errorf("%s:%d: the game is over: %s", name, line, out)
		}
		out = append(out, Position{Pos: p, Where: fmt.Sprintf("%s:%d", name, line), Group: group})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return out, nil
}

// IsPositionFile reports whether head, the start of a file, reads as a
// position file (its first line that is not blank or a # comment is an AEI
// position) rather than an archive (a header line of column names).
func IsPositionFile(head []byte) bool {
	for _, l := range strings.Split(string(head), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		return len(t) >= 3 && strings.Contains("gswb", t[:1]) && strings.HasPrefix(t[1:], " [")
	}
	return false
}

// Sample shuffles ps with a generator seeded by seed and keeps the first n
// (all for n <= 0). The same seed, positions and n give the same sample.
func Sample(ps []Position, seed uint64, n int) []Position {
	ps = slices.Clone(ps)
	rng := rand.New(rand.NewPCG(seed, 0x5a3b1e))
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	if n > 0 && n < len(ps) {
		ps = ps[:n]
	}
	return ps
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// turn returns the game turn of the move to be played in ps (2 for the
// moves 2g and 2s), or 0 for a position of a position file.
func (ps Position) turn() int {
	if ps.Game == nil {
		return 0
	}
	return ps.Ply/2 + 2
}

// InTurns returns the positions of ps whose game turn (2 for the position
// before 2g or 2s) is first or more and, when last is above 0, last or
// less, in their order. Positions of position files have no turn and are
// left out.
func InTurns(ps []Position, first, last int) []Position {
	var out []Position
	for _, p := range ps {
		t := p.turn()
		if p.Game == nil || t < first || last > 0 && t > last {
			continue
		}
		out = append(out, p)
	}
	return out
}
