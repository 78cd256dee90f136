// Package judge measures the quality of a player's moves with a reference AEI
// engine, such as Sharp searching one turn deep: the regret of a move is what
// it gives away in the engine's judgement, in rabbits.
//
// For a position P and the move M a player chooses there, the engine scores P
// for the side to move (before) and the position after M for the opponent
// (after, then to move). The regret of M is before + after: the engine's
// score of P minus its score, for the mover, of the position M leads to. A
// move as good as the engine's own regrets about 0 (less when the engine,
// searching deeper from the position after, finds more than it saw before);
// a move that hangs a piece regrets about the piece's worth. Scores are in
// rabbits (see Source for the units) and bounded by a clamp (a win or a loss
// counts as ±20 rabbits by default).
//
// Run judges one or two players on the same positions, so that two versions of
// the bot get a paired comparison that tells apart differences far smaller
// than match scores do when both lose every game to the engine.
//
// Label scores positions with the engine and writes them as dataset shards
// (package data) whose root_value is the engine's score squashed, for
// training the evaluation on a stronger player's judgement.
package judge

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/material"
)

// Judge scores positions; *Engine is one.
type Judge interface {
	// Eval scores pos for its side to move, with hist its game's repetition
	// history including pos (nil for none).
	Eval(ctx context.Context, pos engine.Position, hist *engine.History) (Eval, error)
}

// Defaults of Config.
const (
	// DefaultBlunder is the regret, in rabbits, from which a move counts as a
	// blunder.
	DefaultBlunder = 2
	// DefaultWorst is the number of worst moves kept per player.
	DefaultWorst = 10
	// DefaultWinScale is the logistic scale per rabbit of the win
	// probability: the scale of the generation-0 weights, whose evaluation is
	// in rabbit units (a camel up, worth about 6.5 there, gives 0.70).
	DefaultWinScale = 0.13
)

// Config tunes Run. The zero value gives the defaults.
type Config struct {
	// Seed seeds the players' choices: position i (of the list given to Run)
	// gets the seed PositionSeed(Seed, i), the same for every player.
	Seed uint64
	// Blunder is the regret, in rabbits, from which a move counts as a
	// blunder (0: DefaultBlunder).
	Blunder float64
	// Worst is the number of worst moves kept per player (0: DefaultWorst;
	// negative: none).
	Worst int
	// WinScale is the logistic scale per rabbit of the win probability after
	// a move, 1/(1+exp(-WinScale*score)) (0: DefaultWinScale).
	WinScale float64
	// Decided, when above 0, leaves out the positions that the judge scores
	// Decided rabbits or more from 0 before the move, for either side: games
	// already won or lost, where the scores swing by rabbits and a few moves
	// rule the mean. They are judged, but no player moves in them, and they
	// are listed in the report's Skipped.
	Decided float64
	// Progress, when set, is called after each position with the number done
	// and the total.
	Progress func(done, total int)
}

func (c Config) withDefaults() Config {
	if c.Blunder == 0 {
		c.Blunder = DefaultBlunder
	}
	if c.Worst == 0 {
		c.Worst = DefaultWorst
	}
	if c.WinScale == 0 {
		c.WinScale = DefaultWinScale
	}
	return c
}

// Move is one player's move in one position, judged.
type Move struct {
	// Index is the position's index in the list given to Run.
	Index int `json:"index"`
	// Where names the position (see Position) and Position is its AEI form.
	Where    string `json:"where"`
	Position string `json:"position"`
	// Move is the player's move; Best is the engine's.
	Move string `json:"move"`
	Best string `json:"best"`
	// Before is the engine's score of the position for the mover; After its
	// score of the position after the move, for the mover too (minus the
	// score for the opponent, then to move); Regret is Before - After. All
	// are in rabbits.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Regret float64 `json:"regret"`
	// WinProb is the mover's win probability after the move,
	// 1/(1+exp(-WinScale*After)).
	WinProb float64 `json:"win_prob"`
	// Turn is the game turn of the move (2 for the moves 2g and 2s), 0 for
	// a position of a position file.
	Turn int `json:"turn,omitempty"`
}

// Band is the summary of a player's moves of a range of game turns: where in
// the games ground is lost.
type Band struct {
	// First and Last are the turns of the range (Last 0: no end).
	First int `json:"first"`
	Last  int `json:"last,omitempty"`
	// Positions, MeanRegret, Interval and Blunders are as in PlayerReport,
	// for the moves of the range; MeanBefore is the mean judge's score of
	// their positions for the mover.
	Positions  int       `json:"positions"`
	MeanRegret float64   `json:"mean_regret"`
	Interval   *Interval `json:"interval,omitempty"`
	Blunders   int       `json:"blunders"`
	MeanBefore float64   `json:"mean_before"`
}

// bandTurns is the first turn of each band: 2 to 5, 6 to 9, and so on, the
// last open-ended.
var bandTurns = []int{2, 6, 10, 14, 18, 22}

// Interval is a 95 % confidence interval of a mean.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// PlayerReport is the summary of one player's moves.
type PlayerReport struct {
	Name      string `json:"name"`
	Positions int    `json:"positions"`
	// MeanRegret is the mean regret in rabbits; Interval its 95 % interval
	// (Student's t; nil for fewer than two positions).
	MeanRegret float64   `json:"mean_regret"`
	Interval   *Interval `json:"interval,omitempty"`
	// Blunders counts the moves whose regret is Blunder or more; BlunderShare
	// is their share of the positions.
	Blunders     int     `json:"blunders"`
	BlunderShare float64 `json:"blunder_share"`
	// WinProb is the mean of the moves' WinProb.
	WinProb float64 `json:"win_prob"`
	// ByTurn summarises the moves of positions of games by turn (empty
	// when there are none).
	ByTurn []Band `json:"by_turn,omitempty"`
	// Worst holds the moves of the largest regret, largest first.
	Worst []Move `json:"worst"`
	// Moves holds every move, in the order of the positions.
	Moves []Move `json:"moves"`
}

// Paired compares two players on the same positions.
type Paired struct {
	// A and B are the players' names.
	A string `json:"a"`
	B string `json:"b"`
	// Positions is the number of positions; Same those where both chose the
	// same move (the same position after it).
	Positions int `json:"positions"`
	Same      int `json:"same"`
	// MeanDiff is the mean of A's regret minus B's, in rabbits (below 0: A
	// gives away less); Interval its 95 % interval (Student's t on the
	// differences; nil for fewer than two positions).
	MeanDiff float64   `json:"mean_diff"`
	Interval *Interval `json:"interval,omitempty"`
}

// Report is the result of Run.
type Report struct {
	// Judge describes the engine.
	Judge string `json:"judge"`
	// Positions is the number of positions judged.
	Positions int `json:"positions"`
	// Skipped lists the positions left out, each with why: those where the
	// game's history bans a move (a third repetition) when a player cannot
	// see the history (an AEI engine, given the position alone), and those
	// already decided (Config.Decided).
	Skipped []string `json:"skipped,omitempty"`
	// Blunder and WinScale are the settings used.
	Blunder  float64 `json:"blunder"`
	WinScale float64 `json:"win_scale"`
	// Players holds a report per player, in the order given.
	Players []PlayerReport `json:"players"`
	// Paired compares the first two players (nil with one).
	Paired *Paired `json:"paired,omitempty"`
	// Base compares the first player with the first player of an earlier
	// report on the positions both judged (PairWithBase; nil without one).
	Base *Paired `json:"base,omitempty"`
	// Rejudged compares the moves with an earlier judge's view of them,
	// for a report that Rejudge made (nil otherwise).
	Rejudged *Rejudged `json:"rejudged,omitempty"`
}

// PositionSeed returns the seed of the players' choices in position i of a
// run seeded by seed.
func PositionSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Run has each player choose a move in each position and judges the moves
// with j (see the package documentation). The position before is judged once
// for all players, and a position after once for all players whose moves
// lead to it. describe names the judge in the report.
func Run(ctx context.Context, j Judge, describe string, players []Player, positions []Position, cfg Config) (*Report, error) {
	if len(players) == 0 {
		return nil, fmt.Errorf("judge: no players")
	}
	if len(positions) == 0 {
		return nil, fmt.Errorf("judge: no positions")
	}
	cfg = cfg.withDefaults()
	moves := make([][]Move, len(players))
	blind := slices.ContainsFunc(players, func(p Player) bool {
		b, ok := p.(historyBlind)
		return ok && b.HistoryBlind()
	})
	var skipped []string
	for i, ps := range positions {
		if blind && repetitionBans(ps) {
			skipped = append(skipped, ps.Where+": a move would repeat a position a third time, and a player cannot see the game's history")
			if cfg.Progress != nil {
				cfg.Progress(i+1, len(positions))
			}
			continue
		}
		before, err := j.Eval(ctx, ps.Pos, ps.Hist)
		if err != nil {
			return nil, fmt.Errorf("%s: judging the position: %w", ps.Where, err)
		}
		if before.Source == FromRules {
			return nil, fmt.Errorf("%s: the game is over", ps.Where)
		}
		if cfg.Decided > 0 && math.Abs(before.Score) >= cfg.Decided {
			skipped = append(skipped, fmt.Sprintf("%s: decided, the judge scores it %+.2f for the side to move", ps.Where, before.Score))
			if cfg.Progress != nil {
				cfg.Progress(i+1, len(positions))
			}
			continue
		}
		seen := map[engine.Position]Eval{}
		for k, pl := range players {
			m, err := pl.Move(ctx, ps.Pos, ps.Hist, PositionSeed(cfg.Seed, i))
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", ps.Where, pl.Name(), err)
			}
			after, hist, err := play(ps, m)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", ps.Where, pl.Name(), err)
			}
			ev, ok := seen[after]
			if !ok {
				if ev, err = j.Eval(ctx, after, hist); err != nil {
					return nil, fmt.Errorf("%s: judging %s's move %s: %w", ps.Where, pl.Name(), m, err)
				}
				seen[after] = ev
			}
			moves[k] = append(moves[k], judgedMove(Move{Index: i, Where: ps.Where, Position: ps.Pos.String(), Move: m, Turn: ps.turn()}, before, ev, cfg.WinScale))
		}
		if cfg.Progress != nil {
			cfg.Progress(i+1, len(positions))
		}
	}
	if len(skipped) == len(positions) {
		return nil, fmt.Errorf("judge: every position was skipped (%s)", skipped[0])
	}
	rep := &Report{Judge: describe, Positions: len(positions) - len(skipped), Skipped: skipped, Blunder: cfg.Blunder, WinScale: cfg.WinScale}
	for k, pl := range players {
		rep.Players = append(rep.Players, summarize(pl.Name(), moves[k], cfg))
	}
	if len(players) >= 2 {
		rep.Paired = pair(rep.Players[0], rep.Players[1])
	}
	return rep, nil
}

// judgedMove returns m (its index, place, position, move and turn) judged:
// before is the judge's score of the position, after its score of the
// position after the move (for the opponent, then to move).
func judgedMove(m Move, before, after Eval, winScale float64) Move {
	m.Best = before.Best
	m.Before, m.After, m.Regret = before.Score, -after.Score, before.Score+after.Score
	m.WinProb = 1 / (1 + math.Exp(winScale*after.Score))
	return m
}

// historyBlind is a Player that may not see a game's history: given the
// position alone it may choose a move that the history bans.
type historyBlind interface {
	HistoryBlind() bool
}

// repetitionBans reports whether the history of ps bans a move of its
// position: one that would repeat a position a third time.
func repetitionBans(ps Position) bool {
	if ps.Hist == nil {
		return false
	}
	g := engine.NewMoveGen()
	return g.Generate(&ps.Pos, ps.Hist) != g.Generate(&ps.Pos, nil)
}

// play plays move in ps and returns the position after it with the history
// including it.
func play(ps Position, move string) (engine.Position, *engine.History, error) {
	t := engine.NewTurn(ps.Pos)
	if err := t.PlayMove(move); err != nil {
		return engine.Position{}, nil, fmt.Errorf("move %q: %w", move, err)
	}
	if err := t.CanEnd(); err != nil {
		return engine.Position{}, nil, fmt.Errorf("move %q: %w", move, err)
	}
	after := t.End()
	hist := engine.NewHistory()
	if ps.Hist != nil {
		hist = ps.Hist.Clone()
	}
	if hist.Count(&after) >= 2 {
		return engine.Position{}, nil, fmt.Errorf("move %q: %w", move, engine.ErrThirdRepetition)
	}
	hist.Add(&after)
	return after, hist, nil
}

// summarize sums up one player's moves.
func summarize(name string, moves []Move, cfg Config) PlayerReport {
	r := PlayerReport{Name: name, Positions: len(moves), Moves: moves}
	regrets := make([]float64, len(moves))
	var win float64
	for i, m := range moves {
		regrets[i] = m.Regret
		win += m.WinProb
		if m.Regret >= cfg.Blunder {
			r.Blunders++
		}
	}
	r.MeanRegret, r.Interval = meanInterval(regrets)
	r.BlunderShare = float64(r.Blunders) / float64(len(moves))
	r.WinProb = win / float64(len(moves))
	r.ByTurn = byTurn(moves, cfg.Blunder)
	if cfg.Worst > 0 {
		worst := slices.Clone(moves)
		slices.SortStableFunc(worst, func(a, b Move) int {
			switch {
			case a.Regret > b.Regret:
				return -1
			case a.Regret < b.Regret:
				return 1
			}
			return 0
		})
		r.Worst = worst[:min(cfg.Worst, len(worst))]
	}
	return r
}

// byTurn sums up the moves of game positions by bands of turns (bandTurns),
// leaving out empty bands; nil when no move has a turn.
func byTurn(moves []Move, blunder float64) []Band {
	var out []Band
	for k, first := range bandTurns {
		last := 0
		if k+1 < len(bandTurns) {
			last = bandTurns[k+1] - 1
		}
		var regrets []float64
		b := Band{First: first, Last: last}
		for _, m := range moves {
			if m.Turn < first || last > 0 && m.Turn > last {
				continue
			}
			regrets = append(regrets, m.Regret)
			b.MeanBefore += m.Before
			if m.Regret >= blunder {
				b.Blunders++
			}
		}
		if len(regrets) == 0 {
			continue
		}
		b.Positions = len(regrets)
		b.MeanBefore /= float64(len(regrets))
		b.MeanRegret, b.Interval = meanInterval(regrets)
		out = append(out, b)
	}
	return out
}

// pair compares a and b position by position.
func pair(a, b PlayerReport) *Paired {
	p := &Paired{A: a.Name, B: b.Name, Positions: len(a.Moves)}
	diffs := make([]float64, len(a.Moves))
	for i := range a.Moves {
		diffs[i] = a.Moves[i].Regret - b.Moves[i].Regret
		if sameResult(a.Moves[i], b.Moves[i]) {
			p.Same++
		}
	}
	p.MeanDiff, p.Interval = meanInterval(diffs)
	return p
}

// sameResult reports whether two moves from the same position lead to the
// same position.
func sameResult(a, b Move) bool {
	if a.Move == b.Move {
		return true
	}
	p, err := engine.ParsePosition(a.Position)
	if err != nil {
		return false
	}
	ta, tb := engine.NewTurn(p), engine.NewTurn(p)
	if ta.PlayMove(a.Move) != nil || tb.PlayMove(b.Move) != nil {
		return false
	}
	return ta.End() == tb.End()
}

// meanInterval returns the mean of xs and its 95 % interval from Student's t
// distribution (nil for fewer than two values).
func meanInterval(xs []float64) (float64, *Interval) {
	s := material.Summarize(xs)
	if s.N < 2 {
		return s.Mean, nil
	}
	return s.Mean, &Interval{Lo: s.Low, Hi: s.High}
}

// WriteText writes the report for people: a line per player, the paired
// comparison, then each player's worst moves.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "judge        %s\n", r.Judge)
	fmt.Fprintf(&b, "positions    %d\n", r.Positions)
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "skipped      %d (%s", len(r.Skipped), r.Skipped[0])
		if len(r.Skipped) > 1 {
			fmt.Fprintf(&b, "; and %d more", len(r.Skipped)-1)
		}
		b.WriteString(")\n")
	}
	fmt.Fprintf(&b, "regret       the judge's score of the position minus its score of the position after the move, both for the mover, in rabbits\n\n")
	width := len("player")
	for _, p := range r.Players {
		width = max(width, len(p.Name))
	}
	fmt.Fprintf(&b, "%-*s  %9s  %-28s  %-18s  %s\n", width, "player", "positions", "mean regret (95 % interval)", fmt.Sprintf("blunders (>= %g)", r.Blunder), "win prob after")
	for _, p := range r.Players {
		fmt.Fprintf(&b, "%-*s  %9d  %-28s  %-18s  %.3f\n", width, p.Name, p.Positions, withInterval(p.MeanRegret, p.Interval),
			fmt.Sprintf("%d (%.1f %%)", p.Blunders, 100*p.BlunderShare), p.WinProb)
	}
	if p := r.Paired; p != nil {
		fmt.Fprintf(&b, "\n%s minus %s, paired: %s rabbits over %d positions (the same move in %d)\n",
			p.A, p.B, withInterval(p.MeanDiff, p.Interval), p.Positions, p.Same)
	}
	if p := r.Base; p != nil {
		fmt.Fprintf(&b, "\n%s minus %s, paired with the earlier report: %s rabbits over %d positions (the same move in %d)\n",
			p.A, p.B, withInterval(p.MeanDiff, p.Interval), p.Positions, p.Same)
	}
	if rj := r.Rejudged; rj != nil {
		fmt.Fprintf(&b, "\nthe same moves by the earlier judge (%s):\n", rj.From)
		fmt.Fprintf(&b, "  %-*s  %9s  %11s  %-28s  %11s  %s\n", width, "player", "its regret", "this judge's", "difference (95 % interval)", "correlation", "seen")
		for _, p := range rj.Players {
			fmt.Fprintf(&b, "  %-*s  %+9.3f  %+11.3f  %-28s  %11.2f  %.0f %%\n", width, p.Name, p.FromMean, p.Mean,
				withInterval(p.Diff, p.Interval), p.Correlation, 100*p.Seen)
		}
		b.WriteString("  (seen: the share of the earlier judge's regret that this judge gives the same moves)\n")
	}
	for _, p := range r.Players {
		if len(p.ByTurn) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nby turn, %s (the judge's score before the move, for the mover: where the game slips away):\n", p.Name)
		fmt.Fprintf(&b, "  %-8s  %9s  %-28s  %8s  %s\n", "turns", "positions", "mean regret (95 % interval)", "blunders", "score before")
		for _, band := range p.ByTurn {
			turns := fmt.Sprintf("%d-%d", band.First, band.Last)
			if band.Last == 0 {
				turns = fmt.Sprintf("%d+", band.First)
			}
			fmt.Fprintf(&b, "  %-8s  %9d  %-28s  %8d  %+.2f\n", turns, band.Positions, withInterval(band.MeanRegret, band.Interval), band.Blunders, band.MeanBefore)
		}
	}
	for _, p := range r.Players {
		if len(p.Worst) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nworst moves of %s:\n", p.Name)
		for _, m := range p.Worst {
			fmt.Fprintf(&b, "  %+7.2f  %s\n", m.Regret, m.Where)
			fmt.Fprintf(&b, "           played %s (after %+.2f); the judge's best %s (before %+.2f)\n", m.Move, m.After, m.Best, m.Before)
			fmt.Fprintf(&b, "           %s\n", m.Position)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// withInterval writes a mean with its interval, such as "0.95 (0.62 to 1.28)".
func withInterval(mean float64, iv *Interval) string {
	if iv == nil {
		return fmt.Sprintf("%+.3f", mean)
	}
	return fmt.Sprintf("%+.3f (%+.3f to %+.3f)", mean, iv.Lo, iv.Hi)
}
