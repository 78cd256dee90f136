package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
)

// searchFlags are the search settings shared by the verbs that search.
type searchFlags struct {
	defVisits int // the simulations when neither -visits nor -time is given
	visits    *int
	time      *time.Duration // nil when the verb has no -time
	threads   *int
	maxNodes  *int
	seed      *uint64 // nil when the verb has no -seed
	weights   *string
}

// defineSearchFlags defines -visits (default visits), -threads, -max-nodes and
// -weights on fs, and -time and -seed when withTime is set; then -visits has no default of
// its own, as -time alone means no limit on simulations.
func defineSearchFlags(fs *flag.FlagSet, visits int, withTime bool) *searchFlags {
	sf := &searchFlags{defVisits: visits}
	doc := "search `N` simulations per position"
	if withTime {
		doc = "search `N` simulations (default without -time: " + strconv.Itoa(visits) + "; with -time: no limit)"
		visits = 0
	}
	sf.visits = fs.Int("visits", visits, doc)
	if withTime {
		sf.time = fs.Duration("time", 0, "search for at most `D`, a Go duration such as 2s; with -visits, the first reached ends\n"+
			"the search (without -visits only the time bounds it)")
		sf.seed = fs.Uint64("seed", 0, "`S` seeds the search's random choices")
	}
	sf.threads = fs.Int("threads", 1, "search threads `T` on the one tree")
	sf.maxNodes = fs.Int("max-nodes", 0, "cap the tree at `N` nodes (default 1048576, some 200 MB, or one a simulation when -visits asks for more);\n"+
		"a full tree ends the search early")
	sf.weights = fs.String("weights", "", "evaluation weights `FILE` (default: the embedded generation-0 weights)")
	return sf
}

// config checks the flags and returns the search settings. fs tells which flags
// were given.
func (sf *searchFlags) config(fs *flag.FlagSet) (mcts.Config, error) {
	var cfg mcts.Config
	switch {
	case isSet(fs, "visits") && *sf.visits < 1:
		return cfg, usageError("-visits must be at least 1")
	case *sf.threads < 1:
		return cfg, usageError("-threads must be at least 1")
	case isSet(fs, "max-nodes") && *sf.maxNodes < 1:
		return cfg, usageError("-max-nodes must be at least 1")
	case sf.time != nil && *sf.time < 0:
		return cfg, usageError("-time must not be negative")
	}
	cfg.Visits = *sf.visits
	cfg.Threads = *sf.threads
	cfg.MaxNodes = *sf.maxNodes
	if sf.time != nil {
		cfg.Time = *sf.time
	}
	if !isSet(fs, "visits") {
		cfg.Visits = sf.defVisits
		if cfg.Time > 0 {
			cfg.Visits = 0 // only the time bounds the search
		}
	}
	if sf.seed != nil {
		cfg.Seed = *sf.seed
	}
	return cfg, nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// searcher loads the weights of -weights and returns a searcher with the
// settings cfg, and the weights.
func (sf *searchFlags) searcher(cfg mcts.Config) (*mcts.Searcher, *weights.Weights, error) {
	w, err := loadWeights(*sf.weights)
	if err != nil {
		return nil, nil, err
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		return nil, nil, fmt.Errorf("-weights: %w", err)
	}
	s, err := mcts.New(cfg, ev)
	if err != nil {
		return nil, nil, err
	}
	return s, w, nil
}

// loadWeights reads and checks the weights file path, or returns the embedded
// generation-0 weights when path is empty.
func loadWeights(path string) (*weights.Weights, error) {
	if path == "" {
		return configs.Gen0()
	}
	w, err := weights.Load(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("-weights: %w", pe) // "open FILE: no such file ..."
		}
		return nil, fmt.Errorf("-weights: %w", err) // Parse's errors name the file
	}
	if err := w.Check(); err != nil {
		return nil, fmt.Errorf("-weights: %w", err) // so do Check's
	}
	return w, nil
}

// describeWeights returns a short description of w for reports, such as
// "configs/gen0.json (generation 0, hash 1a2b3c4d5e6f)".
func describeWeights(w *weights.Weights) string {
	return fmt.Sprintf("%s (generation %d, hash %s)", w.Source, w.Generation, w.Hash())
}

// formatValue writes a value in [-1, 1] with its sign, such as "+0.125".
func formatValue(v float32) string {
	return fmt.Sprintf("%+.3f", v)
}

// turnLabel returns the label of the turn number n of side c, such as "12g".
func turnLabel(n int, c engine.Color) string {
	return fmt.Sprintf("%d%s", n, c)
}

// pvLabels returns the label of each move of a principal variation whose first
// move is turn n of side c: "2g", "2s", "3g", ... Gold opens each turn number.
func pvLabels(n int, c engine.Color, pv []string) []string {
	labels := make([]string, len(pv))
	for i := range pv {
		labels[i] = turnLabel(n, c)
		if c == engine.Silver {
			n++
		}
		c = c.Other()
	}
	return labels
}
