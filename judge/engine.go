package judge

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// Source is where an engine's score came from.
type Source string

// The sources of a score, each with its own units.
const (
	// FromInfo is the last "info score" of the search: centi-rabbits by the
	// protocol (this project's cmd/aei sends its value times 100).
	FromInfo Source = "info score"
	// FromLog is the Eval of the last log line "Depth D Eval V ..." that Sharp
	// sends instead of info score: milli-rabbits for the side to move.
	FromLog Source = "log eval"
	// FromRules is the end of the game: the side to move has won or lost by
	// the rules, and no engine was asked.
	FromRules Source = "rules"
)

// DefaultUnit returns the engine units per rabbit of a score from src: 100
// for info score, 1000 for Sharp's Eval log line.
func DefaultUnit(src Source) float64 {
	if src == FromLog {
		return 1000
	}
	return 100
}

// DefaultClamp is the default bound, in rabbits, of the scores: a win or a
// loss (Sharp's are near a million milli-rabbits) counts as 20 rabbits.
const DefaultClamp = 20

// Options sets up an Engine.
type Options struct {
	// Command is the engine's command line, such as "../shared/opponents/sharp
	// aei" (split into words as a shell would, without running a shell).
	Command string
	// Options are sent in order as "setoption name NAME value VALUE" after the
	// opening. Sharp wants depth=4, ignoretc=true and a small hash (16): with
	// its default hash every newgame takes seconds.
	Options [][2]string
	// Unit is the engine's units per rabbit; 0 takes DefaultUnit of each
	// score's source.
	Unit float64
	// Clamp bounds the scores to [-Clamp, +Clamp] rabbits (0: DefaultClamp).
	// A position where the game is over scores ±Clamp.
	Clamp float64
	// MoveTimeout bounds each search (0: one minute); an engine that does not
	// answer in time is an error.
	MoveTimeout time.Duration
	// AEI tunes the controller (its Logger gets the errors the engine reports).
	AEI aei.Options
}

// Eval is an engine's judgement of a position.
type Eval struct {
	// Score is the value of the position for the side to move, in rabbits,
	// within ±Clamp.
	Score float64 `json:"score"`
	// Raw is the score as the engine sent it (0 for FromRules).
	Raw int `json:"raw"`
	// Source says where Score came from.
	Source Source `json:"source"`
	// Best is the engine's move in the position ("" where the game is over).
	Best string `json:"best,omitempty"`
}

// Engine is a reference AEI engine that judges positions: for each position
// it sends newgame, setposition and go, and reads the score the engine reports
// (see Source) and its bestmove. One engine process serves every position.
//
// Some engines, Sharp among them, ignore the side to move of setposition and
// always search for Gold, so a position with Silver to move is given as its
// mirror image with Gold to move (aei.MirrorPosition), and the engine's move
// is mirrored back. The score, for the side to move, is the same in both.
//
// An Engine is not safe for concurrent use.
type Engine struct {
	c       *aei.Controller
	opt     Options
	clamp   float64
	timeout time.Duration
}

// Start starts the engine of opt.Command and sets its options. ctx bounds the
// opening only.
func Start(ctx context.Context, opt Options) (*Engine, error) {
	if opt.Unit < 0 || opt.Clamp < 0 {
		return nil, fmt.Errorf("judge: unit %g and clamp %g must not be negative", opt.Unit, opt.Clamp)
	}
	c, err := aei.StartCommand(ctx, opt.Command, opt.AEI)
	if err != nil {
		return nil, err
	}
	e := &Engine{c: c, opt: opt, clamp: opt.Clamp, timeout: opt.MoveTimeout}
	if e.clamp == 0 {
		e.clamp = DefaultClamp
	}
	if e.timeout <= 0 {
		e.timeout = time.Minute
	}
	for _, o := range opt.Options {
		if err := c.SetOption(o[0], o[1]); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.IsReady(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return e, nil
}

// Describe names the engine and its options, such as "sharp 2015 with
// depth=4, ignoretc=true, hash=16".
func (e *Engine) Describe() string {
	id := e.c.Ident()
	s := id.Name
	if id.Version != "" {
		s += " " + id.Version
	}
	var opts []string
	for _, o := range e.opt.Options {
		opts = append(opts, o[0]+"="+o[1])
	}
	if len(opts) > 0 {
		s += " with " + strings.Join(opts, ", ")
	}
	return s
}

// Clamp returns the bound of the scores in rabbits.
func (e *Engine) Clamp() float64 { return e.clamp }

// Close ends the engine.
func (e *Engine) Close() error { return e.c.Close() }

// Eval judges pos, the position at the start of a turn (not a setup), with
// hist its game's repetition history including pos (nil for none). A position
// where the game is over by the rules scores ±Clamp without asking the
// engine.
func (e *Engine) Eval(ctx context.Context, pos engine.Position, hist *engine.History) (Eval, error) {
	if out := engine.EndOfTurn(&pos, hist, nil); out.Over() {
		s := -e.clamp
		if out.Winner == pos.Side {
			s = e.clamp
		}
		return Eval{Score: s, Source: FromRules}, nil
	}
	move, info, err := e.Search(ctx, pos)
	if err != nil {
		return Eval{}, err
	}
	raw, src, ok := ScoreOf(info)
	if !ok {
		return Eval{}, fmt.Errorf("judge: %s: no score for %s: neither info score nor a log line \"Depth D Eval V\" came before bestmove", e.c.Ident().Name, pos.String())
	}
	unit := e.opt.Unit
	if unit == 0 {
		unit = DefaultUnit(src)
	}
	score := max(-e.clamp, min(e.clamp, float64(raw)/unit))
	return Eval{Score: score, Raw: raw, Source: src, Best: move}, nil
}

// Search asks the engine for its move in pos (a fresh game: newgame,
// setposition, go), mirroring a position with Silver to move and the answer
// (see Engine). It returns the move for pos and what the engine reported.
func (e *Engine) Search(ctx context.Context, pos engine.Position) (string, aei.Info, error) {
	if pos.Occ[pos.Side] == 0 {
		return "", aei.Info{}, fmt.Errorf("judge: %s: %s has no pieces: a setup, not a position to judge", pos.String(), pos.Side.Name())
	}
	asked := pos
	mirrored := pos.Side == engine.Silver
	if mirrored {
		var err error
		if asked, err = aei.MirrorPosition(pos); err != nil {
			return "", aei.Info{}, fmt.Errorf("judge: %w", err)
		}
	}
	if err := e.c.NewGame(); err != nil {
		return "", aei.Info{}, err
	}
	if err := e.c.SetPosition(asked); err != nil {
		return "", aei.Info{}, err
	}
	move, info, err := e.c.Go(ctx, time.Now().Add(e.timeout))
	if err != nil {
		return "", info, err
	}
	if mirrored {
		if move, err = aei.MirrorMove(move); err != nil {
			return "", info, fmt.Errorf("judge: bestmove mirrored back: %w", err)
		}
	}
	return move, info, nil
}

// ScoreOf reads the score an engine reported while it searched: the last
// info score, or else the Eval of its last log line "Depth D Eval V ..."
// (Sharp's), with where it came from; ok is false when there is neither.
func ScoreOf(info aei.Info) (score int, src Source, ok bool) {
	if info.HasScore {
		return info.Score, FromInfo, true
	}
	for i := len(info.Logs) - 1; i >= 0; i-- {
		if v, ok := parseEvalLog(info.Logs[i]); ok {
			return v, FromLog, true
		}
	}
	return 0, "", false
}

// parseEvalLog reads the Eval of a log message (without "log ") of the form
// "Depth D Eval V ...", as Sharp sends before its bestmove.
func parseEvalLog(msg string) (int, bool) {
	f := strings.Fields(msg)
	if len(f) < 4 || f[0] != "Depth" || f[2] != "Eval" {
		return 0, false
	}
	if _, err := strconv.Atoi(strings.TrimSuffix(f[1], "+")); err != nil {
		return 0, false
	}
	v, err := strconv.Atoi(f[3])
	if err != nil {
		return 0, false
	}
	return v, true
}
