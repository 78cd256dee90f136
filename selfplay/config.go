// Package selfplay plays games of the MCTS player against itself and writes them
// as Arrow shards (one row per turn, see package data) with their game records.
//
// It follows KataGo's self-play where that carries over: every game's search is
// single-threaded and games run in parallel, root Dirichlet noise, a move
// temperature that decays over the first turns, and playout-cap randomization
// (most turns get a cheap search, a share gets the full one, and the rows say
// which). Runs are reproducible from their seed, split into shards that any
// batch scheduler can spread over machines, and resumable.
package selfplay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/mcts"
)

// Config holds the self-play settings. DefaultConfig gives the embedded defaults
// (configs/selfplay.yaml); a config file overrides the keys it names. Its JSON
// form (in the shards' metadata) uses the YAML keys.
type Config struct {
	GamesPerShard int `yaml:"games_per_shard" json:"games_per_shard"`
	Games         int `yaml:"games" json:"games"`
	Workers       int `yaml:"workers" json:"workers"`
	MaxTurns      int `yaml:"max_turns" json:"max_turns"`

	Search      mcts.Config `yaml:"search" json:"search"`
	CheapVisits int         `yaml:"cheap_visits" json:"cheap_visits"`
	FullShare   float64     `yaml:"full_share" json:"full_share"`

	TemperatureStart    float64 `yaml:"temperature_start" json:"temperature_start"`
	TemperatureEnd      float64 `yaml:"temperature_end" json:"temperature_end"`
	TemperatureHalfLife float64 `yaml:"temperature_half_life" json:"temperature_half_life"`
	TemperatureCutoff   int     `yaml:"temperature_cutoff" json:"temperature_cutoff"`

	RandomSetupShare float64 `yaml:"random_setup_share" json:"random_setup_share"`
	SetupSwaps       int     `yaml:"setup_swaps" json:"setup_swaps"`

	Compression data.Compression `yaml:"compression" json:"compression"`
}

// DefaultConfig returns the embedded default configuration.
func DefaultConfig() (Config, error) {
	var c Config
	if err := decodeStrict(configs.SelfPlay(), configs.SelfPlayName, &c); err != nil {
		return c, err
	}
	return c, c.Validate()
}

// LoadConfig returns the defaults overridden by the YAML file at path.
func LoadConfig(path string) (Config, error) {
	c, err := DefaultConfig()
	if err != nil {
		return c, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("selfplay config: %w", err)
	}
	if err := decodeStrict(b, path, &c); err != nil {
		return c, err
	}
	if err := c.Validate(); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// decodeStrict decodes YAML into v; unknown keys are errors.
func decodeStrict(b []byte, name string, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) { // an empty file is fine
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Validate checks the settings. Errors name the key, such as
// "full_share NaN: want 0 to 1".
func (c Config) Validate() error {
	switch {
	case c.GamesPerShard <= 0:
		return fmt.Errorf("games_per_shard %d: want at least 1", c.GamesPerShard)
	case c.Games < 1:
		return fmt.Errorf("games %d: want at least 1", c.Games)
	case c.Workers < 0:
		return fmt.Errorf("workers %d: want 0 (one per core) or more", c.Workers)
	case c.MaxTurns < 2:
		return fmt.Errorf("max_turns %d: want at least 2", c.MaxTurns)
	case c.Search.Visits <= 0:
		return fmt.Errorf("search.visits %d: want at least 1", c.Search.Visits)
	case c.Search.Threads > 1:
		return fmt.Errorf("search.threads %d: self-play searches each game on one thread (use workers)", c.Search.Threads)
	case c.Search.Time != 0:
		return errors.New("search.time: self-play budgets are visits, so that runs are reproducible")
	case c.CheapVisits <= 0 || c.CheapVisits > c.Search.Visits:
		return fmt.Errorf("cheap_visits %d: want 1 to search.visits (%d)", c.CheapVisits, c.Search.Visits)
	case !(c.FullShare >= 0 && c.FullShare <= 1):
		return fmt.Errorf("full_share %v: want 0 to 1", c.FullShare)
	case !(c.TemperatureStart >= 0) || math.IsInf(c.TemperatureStart, 0):
		return fmt.Errorf("temperature_start %v: want a finite number, 0 or more", c.TemperatureStart)
	case !(c.TemperatureEnd >= 0) || math.IsInf(c.TemperatureEnd, 0):
		return fmt.Errorf("temperature_end %v: want a finite number, 0 or more", c.TemperatureEnd)
	case !(c.TemperatureHalfLife > 0) || math.IsInf(c.TemperatureHalfLife, 0):
		return fmt.Errorf("temperature_half_life %v: want a positive finite number", c.TemperatureHalfLife)
	case c.TemperatureCutoff < 0:
		return fmt.Errorf("temperature_cutoff %d: want 0 or more", c.TemperatureCutoff)
	case !(c.RandomSetupShare >= 0 && c.RandomSetupShare <= 1):
		return fmt.Errorf("random_setup_share %v: want 0 to 1", c.RandomSetupShare)
	case c.SetupSwaps < 0:
		return fmt.Errorf("setup_swaps %d: want 0 or more", c.SetupSwaps)
	}
	switch c.Compression {
	case "lz4", "zstd", "none":
	default:
		return fmt.Errorf("compression %q: want lz4, zstd or none", c.Compression)
	}
	return ValidateSearch("search", c.Search)
}

// ValidateSearch checks the search settings c of the config key prefix (such
// as "search" or "gate.search"): every number finite and in its range, the
// key named in the error. The zero value of a setting means its default.
func ValidateSearch(prefix string, c mcts.Config) error {
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("%s.%s %v: want %s", prefix, key, v, want)
	}
	finite := func(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }
	switch {
	case c.Visits < 0:
		return bad("visits", c.Visits, "0 (the default) or more")
	case c.Time < 0:
		return bad("time", c.Time, "0 (none) or more")
	case c.Threads < 0:
		return bad("threads", c.Threads, "0 (one) or more")
	case !finite(c.CPuct) || c.CPuct < 0:
		return bad("cpuct", c.CPuct, "a positive number (0: the default)")
	case !finite(c.FPUReduction):
		return bad("fpu_reduction", c.FPUReduction, "a finite number")
	case !finite(c.DirichletAlpha) || c.DirichletAlpha < 0:
		return bad("dirichlet_alpha", c.DirichletAlpha, "a positive number (0: no root noise)")
	case !(c.DirichletFraction >= 0 && c.DirichletFraction <= 1):
		return bad("dirichlet_fraction", c.DirichletFraction, "0 to 1")
	case c.DirichletAlpha == 0 && c.DirichletFraction != 0:
		return bad("dirichlet_fraction", c.DirichletFraction, fmt.Sprintf("0 when %s.dirichlet_alpha is 0 (no root noise), or a positive dirichlet_alpha", prefix))
	case !finite(c.Temperature) || c.Temperature < 0:
		return bad("temperature", c.Temperature, "0 or more")
	case c.MaxNodes < 0:
		return bad("max_nodes", c.MaxNodes, "0 (the default) or more")
	case c.VirtualLoss < 0:
		return bad("virtual_loss", c.VirtualLoss, "0 (the default) or more")
	case c.TopMoves < 0:
		return bad("top_moves", c.TopMoves, "0 (the default) or more")
	}
	if _, err := mcts.New(c, nopEval{}); err != nil {
		return fmt.Errorf("%s: %w", prefix, err)
	}
	return nil
}
