package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/material"
	"github.com/arimaalab/arimaalab/rating"
)

// External anchors (pool.anchors) are fixed players, such as Sharp at a fixed
// depth, rated in the pool with the generations, so that the ratings read on a
// scale that does not move with the run: the first anchor is rated 0. This is
// the strength ladder of docs/strength.md inside the pipeline.

// genName matches the names the pipeline gives its generations.
var genName = regexp.MustCompile(`^gen[0-9]+$`)

// validateAnchors checks the anchors' specifications: each parses, names a
// player not named like a generation, once; an external engine's program
// exists.
func (c *Config) validateAnchors() error {
	seen := map[string]bool{}
	for i, text := range c.Pool.Anchors {
		s, err := match.ParseSpec(text, "")
		if err != nil {
			return fmt.Errorf("pool.anchors[%d]: %v", i, err)
		}
		switch {
		case genName.MatchString(s.Name):
			return fmt.Errorf("pool.anchors[%d] %q: the name %s is the pipeline's for a generation: name it with name=", i, text, s.Name)
		case seen[s.Name]:
			return fmt.Errorf("pool.anchors[%d] %q: two anchors are named %s: name them with name=", i, text, s.Name)
		}
		seen[s.Name] = true
		if s.Kind == "aei" {
			words, err := aei.SplitCommand(s.Command)
			if err != nil || len(words) == 0 {
				return fmt.Errorf("pool.anchors[%d] %q: the command: %v", i, text, err)
			}
			if _, err := exec.LookPath(words[0]); err != nil {
				return fmt.Errorf("pool.anchors[%d] %q: %v", i, text, err)
			}
		}
	}
	return nil
}

// anchorPlayers makes the players of the anchors.
func anchorPlayers(c Config) ([]match.Player, error) {
	var out []match.Player
	for i, text := range c.Pool.Anchors {
		s, err := match.ParseSpec(text, "")
		if err != nil {
			return out, fmt.Errorf("pool.anchors[%d]: %w", i, err)
		}
		p, err := match.NewPlayer(s)
		if err != nil {
			return out, fmt.Errorf("pool.anchors[%d]: %w", i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// anchorNames returns the names of the anchors, in order.
func anchorNames(c Config) []string {
	var out []string
	for _, text := range c.Pool.Anchors {
		if s, err := match.ParseSpec(text, ""); err == nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// AnchorResult is a generation's games against one anchor, from the
// generation's side: its score and the Elo difference it implies (from the
// pentanomial counts of the game pairs), with the 95% interval. Elo values
// are clamped to ±2000 (a score of 0 or 1).
type AnchorResult struct {
	Anchor  string  `json:"anchor"`
	Games   int     `json:"games"`
	Points  float64 `json:"points"`
	Score   float64 `json:"score"`
	Elo     float64 `json:"elo"`
	EloLow  float64 `json:"elo_low"`
	EloHigh float64 `json:"elo_high"`
	// FirstLoss is the turn of the generation's first piece lost in these
	// games, its mean with the 95% interval (package material): while every
	// game against a strong anchor is lost, how long a generation keeps its
	// pieces still tells generations apart. Nil without the games' records.
	FirstLoss *material.Summary `json:"first_loss,omitempty"`
}

// anchorLossTurn is the turn to which the net material of games against the
// anchors is counted (the report shows the first loss only).
const anchorLossTurn = 15

// againstAnchors returns the results of player name against each anchor of
// the pool, in the anchors' order (those it has not played are left out),
// with the turns of its first losses from games, the pool's records.
func againstAnchors(pool *match.PoolResult, name string, anchors []string, games []engine.Record) ([]AnchorResult, error) {
	var out []AnchorResult
	for _, a := range anchors {
		for _, p := range pool.Pairings {
			var s rating.Stats
			switch {
			case p.A == name && p.B == a:
				s = p.Stats
			case p.A == a && p.B == name:
				s = flipStats(p.Stats)
			default:
				continue
			}
			if s.Games() == 0 {
				continue
			}
			e := s.Pentanomial()
			units := s.Pairs()
			if units == 0 {
				e, units = s.Trinomial(), s.Games()
			}
			// Every game one way: the interval of the estimate collapses;
			// bound the score one-sidedly instead. With no point in n pairs,
			// the chance u that a pair scores is below 1 - 0.05^(1/n) at 95%,
			// and the mean score per game is at most u.
			u := 1 - math.Pow(0.05, 1/float64(units))
			switch s.Points() {
			case 0:
				e.EloHigh = rating.ScoreToElo(u)
			case float64(s.Games()):
				e.EloLow = rating.ScoreToElo(1 - u)
			}
			r := AnchorResult{
				Anchor: a, Games: s.Games(), Points: s.Points(), Score: s.Points() / float64(s.Games()),
				Elo: clampElo(e.Elo), EloLow: clampElo(e.EloLow), EloHigh: clampElo(e.EloHigh),
			}
			var firsts []float64
			for _, rec := range games {
				if !(rec.Gold == name && rec.Silver == a || rec.Gold == a && rec.Silver == name) {
					continue
				}
				m, err := material.Measure(rec, name, anchorLossTurn)
				if err != nil {
					return nil, fmt.Errorf("the pool's games: %w", err)
				}
				firsts = append(firsts, float64(m.FirstLoss))
			}
			if len(firsts) > 0 {
				fl := material.Summarize(firsts)
				r.FirstLoss = &fl
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// readPoolGames returns the game records of the pool in dir, none when it
// has written none.
func readPoolGames(dir string) ([]engine.Record, error) {
	f, err := os.Open(filepath.Join(dir, match.GamesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return engine.ReadArchive(f, f.Name())
}

// flipStats returns s from the other player's side.
func flipStats(s rating.Stats) rating.Stats {
	return rating.Stats{Wins: s.Losses, Losses: s.Wins, Draws: s.Draws,
		LL: s.WW, LD: s.WD, WL: s.WL, DD: s.DD, WD: s.LD, WW: s.LL}
}

// eloText writes an Elo value, "+inf" or "-inf" at the clamp.
func eloText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x >= maxElo:
		return "+inf"
	case x <= -maxElo:
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

// poolDone reports whether the rating pool has played every game of the
// run's players: generation 0, every candidate and the anchors.
func poolDone(c Config) bool {
	var t match.RatingTable
	if readJSON(filepath.Join(c.Out, "pool", "ratings.json"), &t) != nil {
		return false
	}
	want := map[string]bool{}
	for g := 0; g <= c.Generations; g++ {
		want[fmt.Sprintf("gen%d", g)] = true
	}
	for _, a := range anchorNames(c) {
		want[a] = true
	}
	if len(t.Players) != len(want) {
		return false
	}
	for _, p := range t.Players {
		if !want[p.Name] {
			return false
		}
	}
	n, games := len(want), c.Pool.GamesPerPair+c.Pool.GamesPerPair%2
	return t.Games == n*(n-1)/2*games
}
