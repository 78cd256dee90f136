package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/arimaalab/arimaalab/rating"
)

// PoolOptions are the settings of a pool: a round robin among players (or a
// gauntlet of one player against the others) and the rating fit.
type PoolOptions struct {
	// GamesPerPair is the number of games of each pairing, rounded up to an
	// even number.
	GamesPerPair int
	// Gauntlet, when set, plays every player of the pool and they do not play
	// each other; it is rated with them.
	Gauntlet Player
	// Anchor names the player rated 0 ("": the first of generation 0, else
	// the first player).
	Anchor string
	// Fit holds the rating model, the prior and the bootstrap (its Anchor is
	// set from Anchor).
	Fit rating.FitOptions
	// Concurrency, Seed, MaxTurns, Setups, Out, Resume and Log are as in
	// Options.
	Concurrency int
	Seed        uint64
	MaxTurns    int
	Setups      SetupConfig
	Out         string
	Resume      bool
	Log         *slog.Logger
	// Progress, when set, is called after each finished game with the games
	// done and to do.
	Progress func(done, total int, last GameResult)
	// Extend lets a resumed pool gain players: its earlier games are kept and
	// only the pairings of the new players are played (see planPool). The
	// earlier players must all still be there, with the same settings.
	Extend bool
}

// PoolPlayer is one player of a pool with its totals.
type PoolPlayer struct {
	Name     string `json:"name"`
	Describe string `json:"describe"`
	// Generation is the generation of the player's weights, -1 for none.
	Generation int     `json:"generation"`
	Games      int     `json:"games"`
	Points     float64 `json:"points"`
	Wins       int     `json:"wins"`
	Losses     int     `json:"losses"`
	Draws      int     `json:"draws"`
}

// PairingResult is the games of two players, from A's view.
type PairingResult struct {
	A     string       `json:"a"`
	B     string       `json:"b"`
	Stats rating.Stats `json:"stats"`
	i, j  int
	units map[int]*rating.Unit // by pair index
}

// PoolResult is the outcome of a pool: each player's totals, each pairing's
// counts and the fitted ratings.
type PoolResult struct {
	Players  []PoolPlayer
	Pairings []*PairingResult
	Ratings  *rating.Ratings
	Games    int // finished
	Planned  int
	Resumed  int
	Elapsed  time.Duration
}

// poolMeta is what pool.json holds; a resumed pool must have the same.
type poolMeta struct {
	Kind     string   `json:"kind"`
	Players  []string `json:"players"`
	Describe []string `json:"describe"`
	Hashes   []string `json:"hashes"`
	Gauntlet string   `json:"gauntlet,omitempty"`
	// Pairings lists the pairings in their numbered order, A first (absent
	// in pools written before it was added: see legacyOrder).
	Pairings     [][2]string `json:"pairings"`
	GamesPerPair int         `json:"games_per_pair"`
	Seed         uint64      `json:"seed"`
	MaxTurns     int         `json:"max_turns"`
	Setups       SetupConfig `json:"setups"`
}

// RunPool plays the pool's games and fits the ratings. When ctx is cancelled
// it returns the result so far (ratings included when they can be fitted)
// with ctx's error; a rerun with Resume continues the pool. With Out set it
// writes the rating table (ratings.md, ratings.json) and the chart
// (ratings.png) there.
func RunPool(ctx context.Context, players []Player, opt PoolOptions) (*PoolResult, error) {
	start := time.Now()
	if len(players) < 1 || (len(players) < 2 && opt.Gauntlet == nil) {
		return nil, errors.New("pool: at least two players are needed")
	}
	if opt.GamesPerPair <= 0 {
		return nil, errors.New("pool: no games to play")
	}
	games := opt.GamesPerPair + opt.GamesPerPair%2
	all := append([]Player(nil), players...)
	gauntlet := ""
	if opt.Gauntlet != nil {
		all = append(all, opt.Gauntlet)
		gauntlet = opt.Gauntlet.Name()
	}
	names := map[string]bool{}
	for _, p := range all {
		if names[p.Name()] {
			return nil, fmt.Errorf("pool: two players are named %q: name them with name=", p.Name())
		}
		names[p.Name()] = true
	}
	prior, err := earlierPool(opt.Out, opt.Resume)
	if err != nil {
		return nil, err
	}
	all, pairs, err := planPool(prior, all, gauntlet, opt.Extend)
	if err != nil {
		return nil, err
	}
	meta := poolMeta{Kind: "pool", Gauntlet: gauntlet, GamesPerPair: games, Seed: opt.Seed, MaxTurns: maxTurnsOr(opt.MaxTurns), Setups: opt.Setups}
	res := &PoolResult{}
	for _, p := range all {
		gen := -1
		if g, ok := p.(Generationer); ok {
			gen = g.Generation()
		}
		res.Players = append(res.Players, PoolPlayer{Name: p.Name(), Describe: p.Describe(), Generation: gen})
		meta.Players = append(meta.Players, p.Name())
		meta.Describe = append(meta.Describe, p.Describe())
		meta.Hashes = append(meta.Hashes, hashOf(p))
	}
	var pairings []pairing
	for _, ab := range pairs {
		p := pairing{a: ab[0], b: ab[1], games: games}
		pairings = append(pairings, p)
		meta.Pairings = append(meta.Pairings, [2]string{all[p.a].Name(), all[p.b].Name()})
		res.Pairings = append(res.Pairings, &PairingResult{A: all[p.a].Name(), B: all[p.b].Name(), i: p.a, j: p.b, units: map[int]*rating.Unit{}})
		res.Planned += p.games
	}
	anchor, err := poolAnchor(res.Players, opt.Anchor)
	if err != nil {
		return nil, err
	}
	resumed := true
	r := &runner{
		common:   common{Concurrency: opt.Concurrency, Seed: opt.Seed, MaxTurns: opt.MaxTurns, Setups: opt.Setups, Out: opt.Out, Resume: opt.Resume, Log: opt.Log},
		players:  all,
		pairings: pairings,
		metaFile: "pool.json",
		meta:     meta,
		// planPool compared the players and the pairings.
		metaChecked: []string{"players", "describe", "hashes", "pairings"},
		done: func(g GameResult) bool {
			res.add(g)
			if resumed {
				res.Resumed++
			} else if opt.Progress != nil {
				opt.Progress(res.Games, res.Planned, g)
			}
			return false
		},
		beforePlay: func() { resumed = false },
	}
	runErr := r.run(ctx)
	res.Elapsed = time.Since(start)
	if runErr != nil && ctx.Err() == nil {
		return res, runErr
	}
	fit := opt.Fit
	fit.Anchor = anchor
	fit.Names = nil
	for _, p := range res.Players {
		fit.Names = append(fit.Names, p.Name)
	}
	if res.Games > 0 {
		var data []rating.PairingData
		for _, p := range res.Pairings {
			d := rating.PairingData{I: p.i, J: p.j}
			for _, u := range p.units {
				d.Units = append(d.Units, *u)
			}
			data = append(data, d)
		}
		sortUnits(data)
		rt, err := rating.Fit(len(all), data, fit)
		if err != nil && runErr == nil {
			return res, fmt.Errorf("pool: %w", err)
		}
		res.Ratings = rt
	}
	if opt.Out != "" && res.Ratings != nil {
		if err := res.WriteFiles(opt.Out); err != nil && runErr == nil {
			runErr = err
		}
	}
	return res, runErr
}

// sortUnits puts the units of each pairing in a fixed order (they come from a
// map), so that a seeded bootstrap gives the same intervals every time.
func sortUnits(data []rating.PairingData) {
	for _, d := range data {
		slices.SortFunc(d.Units, func(a, b rating.Unit) int {
			return cmp.Or(cmp.Compare(a.W, b.W), cmp.Compare(a.D, b.D), cmp.Compare(a.L, b.L))
		})
	}
}

// poolAnchor picks the anchor: the named player, else the first of
// generation 0, else the first.
func poolAnchor(ps []PoolPlayer, name string) (int, error) {
	if name != "" {
		for i, p := range ps {
			if p.Name == name {
				return i, nil
			}
		}
		return 0, fmt.Errorf("pool: anchor %q is not a player of the pool", name)
	}
	for i, p := range ps {
		if p.Generation == 0 {
			return i, nil
		}
	}
	return 0, nil
}

// add counts a finished game.
func (r *PoolResult) add(g GameResult) {
	p := r.Pairings[g.Pairing]
	p.Stats.AddGame(g.ScoreA)
	u := p.units[g.Game/2]
	if u == nil {
		u = &rating.Unit{}
		p.units[g.Game/2] = u
	}
	a, b := &r.Players[p.i], &r.Players[p.j]
	a.Games++
	b.Games++
	a.Points += g.ScoreA
	b.Points += 1 - g.ScoreA
	switch g.ScoreA {
	case 1:
		u.W++
		a.Wins++
		b.Losses++
	case 0:
		u.L++
		a.Losses++
		b.Wins++
	default:
		u.D++
		a.Draws++
		b.Draws++
	}
	if u.W+u.D+u.L == 2 {
		switch {
		case u.W == 2:
			p.Stats.WW++
		case u.W == 1 && u.D == 1:
			p.Stats.WD++
		case u.W == 1:
			p.Stats.WL++
		case u.D == 2:
			p.Stats.DD++
		case u.D == 1:
			p.Stats.LD++
		default:
			p.Stats.LL++
		}
	}
	r.Games++
}

// WriteFiles writes the rating table (ratings.md, ratings.json) and the chart
// (ratings.png) in dir.
func (r *PoolResult) WriteFiles(dir string) error {
	if err := writeFileSync(filepath.Join(dir, "ratings.md"), []byte(r.Markdown())); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dir, "ratings.json"), r.JSON()); err != nil {
		return err
	}
	png, err := r.Chart(ChartWidth, ChartHeight)
	if err != nil {
		return err
	}
	if png == nil {
		return nil // no player has a generation
	}
	return writeFileSync(filepath.Join(dir, "ratings.png"), png)
}
