// Package material measures the pieces each player of recorded games lost
// and took, turn by turn: how long a player keeps its pieces against an
// opponent it never beats. While every game against a far stronger engine is
// lost, the score cannot tell two versions of a bot apart; the turn of its
// first loss and the material it is down after a fixed number of turns can.
package material

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/arimaalab/arimaalab/engine"
)

// pieceValue is the value of each piece type in rabbits, as the features
// weigh threats (docs/features.md).
var pieceValue = [engine.NumTypes]float64{1, 1.5, 2, 3.5, 6.5, 10}

// Value returns the value of a piece of type t in rabbits, as the features
// weigh threats (docs/features.md): rabbit 1, cat 1.5, dog 2, horse 3.5,
// camel 6.5, elephant 10.
func Value(t engine.PieceType) float64 { return pieceValue[t] }

// Game is the material of one recorded game, seen from one player.
type Game struct {
	// ID is the game's id in its archive.
	ID string
	// Color is the player's side.
	Color engine.Color
	// Won is set when the player won the game.
	Won bool
	// Turns is the number of the game's last turn played (the label's
	// number: 30 for a game whose last move is 30w or 30b).
	Turns int
	// FirstLoss is the number of the turn in which the player lost its first
	// piece, or Turns+1 when it lost none (a game kept whole to its end).
	FirstLoss int
	// Lost and Taken count the player's pieces captured and the opponent's.
	Lost, Taken int
	// NetAt is the value taken minus the value lost, in rabbits (see Value), in
	// the turns numbered at most the at of Measure.
	NetAt float64
	// Moves counts the player's moves after the setups, and Short those of
	// them that use fewer than the four steps a turn allows (captures are not
	// steps): turns given away in part.
	Moves, Short int
	// Siege is how many of the player's last turns before the opponent's
	// goal were played under a goal siege (see Siege), measured when Sieged
	// is set (MeasureSiege).
	Siege  int
	Sieged bool
}

// LostRate is the player's pieces lost per 10 turns of the game.
func (g *Game) LostRate() float64 { return 10 * float64(g.Lost) / float64(max(1, g.Turns)) }

// ShortShare is the percentage of the player's moves that use fewer than
// four steps (0 for a game without a move of the player's).
func (g *Game) ShortShare() float64 { return 100 * float64(g.Short) / float64(max(1, g.Moves)) }

// Measure replays rec and returns its material as seen by the player of
// that user name (the archive's wusername or busername), with NetAt counted
// to turn at. It fails when the player is neither or both, or when the
// record does not replay.
func Measure(rec engine.Record, player string, at int) (Game, error) {
	var m Game
	switch {
	case rec.Gold == player && rec.Silver == player:
		return m, fmt.Errorf("%s: %q plays both sides", rec.Label(), player)
	case rec.Gold == player:
		m.Color = engine.Gold
	case rec.Silver == player:
		m.Color = engine.Silver
	default:
		return m, fmt.Errorf("%s: no player %q (gold %q, silver %q)", rec.Label(), player, rec.Gold, rec.Silver)
	}
	m.ID = rec.ID
	var before [engine.NumTypes * 2]int
	started := false
	g, err := engine.ReplayFunc(rec, func(g *engine.Game) {
		pos := g.Position()
		var now [engine.NumTypes * 2]int
		for pc := range now {
			now[pc] = pos.Count(engine.Piece(pc))
		}
		if !started {
			// The setups: nothing to compare with until both are placed.
			if g.TurnNumber() > 1 {
				started = true
			}
			before = now
			return
		}
		// The turn just played: Silver's of the current number, or Gold's
		// of the one before when Gold is to move.
		turn := g.TurnNumber()
		if g.Side() == engine.Gold {
			turn--
		}
		for pc := range now {
			gone := before[pc] - now[pc]
			if gone <= 0 {
				continue
			}
			v := Value(engine.Piece(pc).Type()) * float64(gone)
			if engine.Piece(pc).Color() == m.Color {
				m.Lost += gone
				if m.FirstLoss == 0 {
					m.FirstLoss = turn
				}
				if turn <= at {
					m.NetAt -= v
				}
			} else {
				m.Taken += gone
				if turn <= at {
					m.NetAt += v
				}
			}
		}
		m.Turns = turn
		before = now
	})
	if err != nil {
		return m, err
	}
	if m.FirstLoss == 0 {
		m.FirstLoss = m.Turns + 1
	}
	for k, move := range g.Moves() {
		// Moves()[0] is Gold's 2g; the sides alternate.
		if engine.Color(k%2) != m.Color {
			continue
		}
		m.Moves++
		if steps(move) < engine.MaxSteps {
			m.Short++
		}
	}
	// The rules' outcome, or the recorded one for an ending the server
	// decides (resignation, time).
	if out := g.Outcome(); out.Over() {
		m.Won = out.Winner == m.Color
	} else {
		m.Won = rec.Termination != engine.NotOver && rec.Result == m.Color
	}
	return m, nil
}

// steps counts the steps of a move in notation: its words but the capture
// marks ("Rc3x").
func steps(move string) int {
	n := 0
	for _, w := range strings.Fields(move) {
		if !strings.HasSuffix(w, "x") {
			n++
		}
	}
	return n
}

// Summary is the mean of a measure over games with its 95 % interval.
type Summary struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	// Low and High bound the 95 % interval of the mean (Student's t).
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Deviations is the sample standard deviation.
	Deviations float64 `json:"sd"`
}

// Summarize returns the mean of xs and its 95 % interval; the interval is
// the mean alone for fewer than two values.
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs)}
	if s.N == 0 {
		return s
	}
	for _, x := range xs {
		s.Mean += x
	}
	s.Mean /= float64(s.N)
	s.Low, s.High = s.Mean, s.Mean
	if s.N < 2 {
		return s
	}
	var ss float64
	for _, x := range xs {
		ss += (x - s.Mean) * (x - s.Mean)
	}
	s.Deviations = math.Sqrt(ss / float64(s.N-1))
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Quantile(0.975) * s.Deviations / math.Sqrt(float64(s.N))
	s.Low, s.High = s.Mean-h, s.Mean+h
	return s
}

// Detectable returns the smallest true mean that a sample of the summary's
// size and spread tells from zero four times in five by its 95 % interval:
// (t(0.975) + t(0.8)) × sd / √n, with n - 1 degrees of freedom (the usual
// approximation to the noncentral t). For paired games it says how large a
// difference between two players the games could have seen; a trial whose
// interval holds 0 tells nothing of smaller ones. It is 0 for fewer than
// two values.
func (s Summary) Detectable() float64 {
	if s.N < 2 {
		return 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}
	return (t.Quantile(0.975) + t.Quantile(0.8)) * s.Deviations / math.Sqrt(float64(s.N))
}

// String formats the summary as "mean (low to high)".
func (s Summary) String() string { return s.format("%.2f") }

// Signed formats the summary as String does, every number with its sign: for
// differences.
func (s Summary) Signed() string { return s.format("%+.2f") }

func (s Summary) format(verb string) string {
	if s.N < 2 {
		return fmt.Sprintf(verb, s.Mean)
	}
	return fmt.Sprintf(verb+" ("+verb+" to "+verb+")", s.Mean, s.Low, s.High)
}

// names lists the measures of a Game that Table and Paired report, in the
// order of measures; the siege's last when sieged.
func names(sieged bool) []string {
	n := []string{"first loss (turn)", "net material at turn AT (rabbits)", "pieces lost per 10 turns", "pieces taken per game", "turns per game", "moves of fewer than 4 steps (%)"}
	if sieged {
		n = append(n, "turns under a goal siege")
	}
	return n
}

// measures returns the values of g in the order of names.
func measures(g Game) []float64 {
	m := []float64{float64(g.FirstLoss), g.NetAt, g.LostRate(), float64(g.Taken), float64(g.Turns), g.ShortShare()}
	if g.Sieged {
		m = append(m, float64(g.Siege))
	}
	return m
}

// sieged reports whether every game of each list has its siege measured.
func sieged(lists ...[]Game) bool {
	for _, games := range lists {
		for _, g := range games {
			if !g.Sieged {
				return false
			}
		}
	}
	return true
}

// Table returns, for games, a row per measure: its name (AT replaced by at)
// and its summary over the games. The siege is a row when every game has it.
func Table(games []Game, at int) (rows []string, sums []Summary) {
	return summaries(len(games), at, sieged(games), func(i, k int) float64 { return measures(games[i])[k] })
}

// Paired returns, per measure, the summary of a's values minus b's game by
// game: the games must be paired (the same setups and colours, as two runs
// of eval with the same seed give them). It fails when the lists differ in
// length or a pair's colours differ.
func Paired(a, b []Game, at int) (rows []string, sums []Summary, err error) {
	if err := checkPaired(a, b); err != nil {
		return nil, nil, err
	}
	rows, sums = summaries(len(a), at, sieged(a, b), func(i, k int) float64 { return measures(a[i])[k] - measures(b[i])[k] })
	return rows, sums, nil
}

// checkPaired reports whether a and b can be paired game by game: as many
// games, each pair with the player on the same side.
func checkPaired(a, b []Game) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d games against %d: paired files need the same games", len(a), len(b))
	}
	for i := range a {
		if a[i].Color != b[i].Color {
			return fmt.Errorf("game %d: %s against %s: paired games need the same colours", i+1, a[i].Color.Name(), b[i].Color.Name())
		}
	}
	return nil
}

// summaries returns a row per measure (the siege's too when sieged), named
// with at, and the summary of value(i, k), the k-th measure of game i, over
// n games.
func summaries(n, at int, sieged bool, value func(i, k int) float64) (rows []string, sums []Summary) {
	for k, name := range names(sieged) {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = value(i, k)
		}
		rows = append(rows, strings.ReplaceAll(name, "AT", fmt.Sprint(at)))
		sums = append(sums, Summarize(xs))
	}
	return rows, sums
}
