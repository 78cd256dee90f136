package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/setup"
)

// nopEval is an evaluator for checking settings.
type nopEval struct{}

func (nopEval) Evaluate(*engine.Position) float32 { return 0 }

// played is one finished game: its rows, its record and how it ended.
type played struct {
	index   int
	id      uint64
	rows    []data.Row
	record  engine.Record
	outcome engine.Outcome // Reason MaxTurns when adjudicated
	// fullTrees counts the searches that the tree filling up ended early.
	fullTrees int
	// sims counts the simulations of the game's searches, and searching
	// the time they took.
	sims      int64
	searching time.Duration
}

// gameID makes a game id unique across the shards and games of a run: 24 bits
// drawn from the run seed, then 20 bits of shard and 20 bits of game index.
func gameID(seed uint64, shard, index int) uint64 {
	h := seed*0x9E3779B97F4A7C15 + 0xD1B54A32D192ED03
	h ^= h >> 29
	return (h&0xFFFFFF)<<40 | uint64(shard)<<20 | uint64(index)
}

// temperature returns the move temperature after k turns of a game.
func (c *Config) temperature(k int) float64 {
	if k >= c.TemperatureCutoff {
		return 0
	}
	return c.TemperatureEnd + (c.TemperatureStart-c.TemperatureEnd)*math.Pow(0.5, float64(k)/c.TemperatureHalfLife)
}

// playGame plays game index of shard with the evaluator ev. Everything random
// comes from the run seed, the shard and the index, so a game is the same
// whichever worker plays it.
func playGame(ctx context.Context, c *Config, ev mcts.Evaluator, seed uint64, shard, index int) (*played, error) {
	var s *mcts.Searcher
	return playGameWith(ctx, c, ev, seed, shard, index, &s)
}

// playGameWith is playGame with the searcher *sp of the worker that plays
// it: nil before its first game, then kept, restarted for each game with the
// game's seed, so that its tree's memory serves every game of the worker (a
// new tree per game cost some 9 MB of allocation and clearing). The game is
// the same either way.
func playGameWith(ctx context.Context, c *Config, ev mcts.Evaluator, seed uint64, shard, index int, sp **mcts.Searcher) (*played, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(shard)<<32|uint64(index)))
	id := gameID(seed, shard, index)
	g := engine.NewGame()
	for side := range engine.Color(2) {
		if err := g.Setup(side, setup.Draw(rng, side, c.RandomSetupShare, c.SetupSwaps)); err != nil {
			return nil, fmt.Errorf("game %d: setup: %w", id, err)
		}
	}
	sc := c.Search
	sc.Seed = rng.Uint64()
	sc.Temperature = 0 // self-play draws the move itself, per turn
	s := *sp
	if s == nil {
		var err error
		if s, err = mcts.New(sc, ev); err != nil {
			return nil, err
		}
		*sp = s
	} else {
		s.Restart(sc.Seed)
	}
	p := &played{index: index, id: id}
	for !g.Outcome().Over() && g.TurnNumber() <= c.MaxTurns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pos := g.Position()
		full := rng.Float64() < c.FullShare
		o := mcts.Override{}
		if !full {
			o = mcts.Override{Visits: c.CheapVisits, NoNoise: true}
		}
		res, err := s.SearchWith(ctx, pos, g.History(), o)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("game %d turn %s: %w", id, g.Label(), err)
		}
		if res.TreeFull {
			p.fullTrees++
		}
		p.sims += res.Simulations
		p.searching += res.Elapsed
		move := res.Sample(rng, c.temperature(len(p.rows)))
		row := data.Row{
			GameID:     id,
			Turn:       uint16(g.TurnNumber()),
			Side:       uint8(pos.Side),
			Features:   make([]float32, features.N),
			Move:       move,
			RootValue:  res.Value,
			Visits:     uint32(res.Simulations),
			FullSearch: full,
		}
		for i, b := range pos.Bits {
			row.Board[i] = uint64(b)
		}
		features.Extract(&pos, row.Features)
		for _, m := range res.Top {
			row.Policy = append(row.Policy, data.PolicyEntry{Move: m.Move, Visits: m.Visits})
		}
		if err := g.Play(move); err != nil {
			return nil, fmt.Errorf("game %d turn %s: the search chose %q: %w", id, g.Label(), move, err)
		}
		p.rows = append(p.rows, row)
	}
	p.outcome = g.Outcome()
	if !p.outcome.Over() {
		p.outcome = engine.Outcome{Reason: engine.MaxTurns}
	}
	n := len(p.rows)
	for i := range p.rows {
		r := &p.rows[i]
		r.PliesLeft = uint16(n - i)
		r.Termination = p.outcome.Reason.String()
		switch {
		case p.outcome.Reason == engine.MaxTurns:
			r.Result = 0
		case engine.Color(r.Side) == p.outcome.Winner:
			r.Result = 1
		default:
			r.Result = -1
		}
	}
	p.record = g.Record(strconv.FormatUint(id, 10))
	p.record.SetField("event", "arimaalab self-play")
	if p.outcome.Reason == engine.MaxTurns {
		p.record.SetField("event", "arimaalab self-play, stopped at max-turns")
	}
	return p, nil
}
