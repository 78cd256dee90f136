package judge

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/match"
)

// Player chooses a move in a position, outside any game.
type Player interface {
	// Name is the player's name in reports.
	Name() string
	// Move returns the move to play in pos (in standard notation), with hist
	// the game's repetition history including pos (nil for none). seed makes
	// the choice reproducible where the player is deterministic.
	Move(ctx context.Context, pos engine.Position, hist *engine.History, seed uint64) (string, error)
	// Close releases what the player holds.
	Close() error
}

// NewPlayer makes the player of a match specification (see match.ParseSpec):
// the search (a fresh tree for each position, seeded by its seed), the random
// mover, or an external engine over AEI (asked as Engine asks, a fresh game
// for each position; options are sent once, and time=D gives it D a move).
// A move temperature (temp) is refused: a player is judged by its best move.
func NewPlayer(ctx context.Context, s match.Spec, opt aei.Options) (Player, error) {
	switch s.Kind {
	case "mcts":
		if s.Temp > 0 && s.TempTurns > 0 {
			return nil, fmt.Errorf("player %s: temp does not apply: a player is judged by its best move", s.Text)
		}
		p, err := match.NewPlayer(s)
		if err != nil {
			return nil, err
		}
		return &searchPlayer{p.(*match.SearchPlayer)}, nil
	case "random":
		return randomPlayer{name: s.Name}, nil
	case "aei":
		eo := Options{Command: s.Command, AEI: opt}
		if s.Time > 0 {
			eo.MoveTimeout = 2*s.Time + 5*time.Second
			t := strconv.FormatFloat(s.Time.Seconds(), 'f', -1, 64)
			eo.Options = append(eo.Options, [2]string{"tcmove", t}, [2]string{"tcreserve", "0"}, [2]string{"tcpercent", "0"})
		}
		for _, k := range sortedKeys(s.Options) {
			eo.Options = append(eo.Options, [2]string{k, s.Options[k]})
		}
		e, err := Start(ctx, eo)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", s.Name, err)
		}
		return &enginePlayer{name: s.Name, e: e}, nil
	}
	return nil, fmt.Errorf("player %q: unknown kind %q", s.Text, s.Kind)
}

// searchPlayer is the MCTS search of a match player.
type searchPlayer struct{ p *match.SearchPlayer }

func (p *searchPlayer) Name() string { return p.p.Name() }

func (p *searchPlayer) Move(ctx context.Context, pos engine.Position, hist *engine.History, seed uint64) (string, error) {
	s, err := p.p.NewSearcher(seed)
	if err != nil {
		return "", err
	}
	res, err := s.Search(ctx, pos, hist)
	if err != nil {
		return "", err
	}
	return res.Move, nil
}

func (p *searchPlayer) Close() error { return p.p.Close() }

// randomPlayer plays a uniformly random legal move (each resulting position
// equally likely).
type randomPlayer struct{ name string }

func (p randomPlayer) Name() string { return p.name }

func (p randomPlayer) Move(_ context.Context, pos engine.Position, hist *engine.History, seed uint64) (string, error) {
	g := engine.NewMoveGen()
	n := g.Generate(&pos, hist)
	if n == 0 {
		return "", fmt.Errorf("%s: no legal move", pos.String())
	}
	i := rand.New(rand.NewPCG(seed, 0x4a7d)).IntN(n)
	return engine.FormatMove(pos, g.Steps(i, nil)), nil
}

func (p randomPlayer) Close() error { return nil }

// enginePlayer is an external engine's move.
type enginePlayer struct {
	name string
	e    *Engine
}

func (p *enginePlayer) Name() string { return p.name }

func (p *enginePlayer) Move(ctx context.Context, pos engine.Position, _ *engine.History, _ uint64) (string, error) {
	move, _, err := p.e.Search(ctx, pos)
	return move, err
}

func (p *enginePlayer) Close() error { return p.e.Close() }

// HistoryBlind reports true: the engine is given the position alone
// (setposition carries no history), so it may choose a move that the game's
// history bans.
func (p *enginePlayer) HistoryBlind() bool { return true }
