// Package selfplaytest writes small self-play runs for the tests of other
// packages: a few games with tiny searches, generation 0's weights, no log.
package selfplaytest

import (
	"context"
	"log/slog"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/selfplay"
)

// Small is the size of a run: its games and shards, the turn limit, the
// simulations of a full and a cheap search, the seed and the workers (0:
// selfplay's default).
type Small struct {
	Games, GamesPerShard, MaxTurns int
	Visits, CheapVisits            int
	Seed                           uint64
	Workers                        int
}

// Play writes the run s as self-play shards (and their game records) to
// the directory out.
func Play(out string, s Small) error {
	c, err := selfplay.DefaultConfig()
	if err != nil {
		return err
	}
	c.Games, c.GamesPerShard, c.MaxTurns = s.Games, s.GamesPerShard, s.MaxTurns
	c.Search.Visits, c.CheapVisits, c.Search.MaxNodes = s.Visits, s.CheapVisits, 1<<14
	w, err := configs.Gen0()
	if err != nil {
		return err
	}
	_, err = selfplay.Run(context.Background(), c, selfplay.Options{
		Out: out, Seed: s.Seed, Shard: -1, Workers: s.Workers, Weights: w, Log: slog.New(slog.DiscardHandler),
	})
	return err
}
