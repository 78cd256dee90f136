// Package pipeline runs the generation loop of arimaalab: for each generation,
// self-play with the current best weights, train a candidate on a window of the
// recent generations' data, play the candidate against the best, promote it if
// it wins the gate, and at the end rate every generation in one pool and write a
// report. Every stage writes its output completely or not at all, so a run
// interrupted anywhere continues where it stopped when started again.
package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/rating"
	"github.com/arimaalab/arimaalab/selfplay"
	"github.com/arimaalab/arimaalab/train"
)

// Config holds the settings of a run. The presets are embedded in configs/
// (pipeline-quick.yaml, the default, pipeline-standard.yaml, pipeline-large.yaml).
type Config struct {
	// Out is the run directory.
	Out string `yaml:"out"`
	// Generations is the number of generations to train after generation 0.
	Generations int `yaml:"generations"`
	// Seed makes the whole run reproducible.
	Seed uint64 `yaml:"seed"`

	// SelfPlay holds the self-play settings (configs/selfplay.yaml keys).
	SelfPlay selfplay.Config `yaml:"selfplay"`
	// Train holds the training settings.
	Train TrainConfig `yaml:"train"`
	// Gate is the match of each candidate against the best so far.
	Gate GateConfig `yaml:"gate"`
	// Pool rates the best weights of every generation at the end.
	Pool PoolConfig `yaml:"pool"`

	// Scheduler runs the stages in this process ("local", the default) or as
	// Slurm jobs ("slurm", see SlurmConfig and docs/scaling.md).
	Scheduler string `yaml:"scheduler"`
	// Slurm holds the settings of the Slurm scheduler.
	Slurm SlurmConfig `yaml:"slurm"`
}

// TrainConfig holds the training settings of the loop.
type TrainConfig struct {
	// Window is how many of the latest generations' data a candidate trains on.
	Window int `yaml:"window"`
	// Target is result, value or blend:L.
	Target string `yaml:"target"`
	// L2 and L2ToInit set the regularization (see package train).
	L2       float64 `yaml:"l2"`
	L2ToInit bool    `yaml:"l2_to_init"`
	// Val is the share of games held out for validation.
	Val float64 `yaml:"val"`
	// CheapWeight weighs the rows of cheap searches.
	CheapWeight float64 `yaml:"cheap_weight"`
	// Fix lists features, by name or path.Match pattern, whose weights
	// every candidate keeps at the best weights' values (see train.Options):
	// those that self-play cannot judge, such as the hand-set rabbit and
	// goal weights (docs/pipeline.md).
	Fix []string `yaml:"fix"`
}

// GateConfig holds the settings of the promotion match.
type GateConfig struct {
	// Games is the number of games (pairs of games with colours swapped).
	Games int `yaml:"games"`
	// SPRT, when set ("elo0,elo1,alpha,beta"), stops the gate early and
	// promotes on its verdict; otherwise the candidate is promoted when it
	// scores more than PromoteScore.
	SPRT         string  `yaml:"sprt"`
	PromoteScore float64 `yaml:"promote_score"`
	// Search is the search of both players.
	Search   mcts.Config `yaml:"search"`
	MaxTurns int         `yaml:"max_turns"`
}

// PoolConfig holds the settings of the final rating pool.
type PoolConfig struct {
	GamesPerPair int         `yaml:"games_per_pair"`
	Search       mcts.Config `yaml:"search"`
	MaxTurns     int         `yaml:"max_turns"`
	// Anchors are external players rated with the generations, such as
	// "aei=../shared/opponents/sharp aei,option.depth=4,option.ignoretc=true,name=sharp4"
	// (match player specifications, see docs/eval.md). The first one is
	// rated 0; without anchors generation 0 is.
	Anchors []string `yaml:"anchors"`
}

// Presets lists the embedded presets by name.
func Presets() []string { return []string{"quick", "standard", "large"} }

// Preset returns the embedded preset name (quick, standard or large).
func Preset(name string) (Config, error) {
	b, file, err := configs.Pipeline(name)
	if err != nil {
		return Config{}, err
	}
	c, err := base()
	if err != nil {
		return c, err
	}
	if err := decodeStrict(b, file, &c); err != nil {
		return c, err
	}
	return c, c.validate(file)
}

// Load returns the quick preset overridden by the YAML file at path.
func Load(path string) (Config, error) {
	c, err := Preset("quick")
	if err != nil {
		return c, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := decodeStrict(b, path, &c); err != nil {
		return c, err
	}
	return c, c.validate(path)
}

// base returns the defaults every preset starts from.
func base() (Config, error) {
	sp, err := selfplay.DefaultConfig()
	if err != nil {
		return Config{}, err
	}
	return Config{SelfPlay: sp, Scheduler: SchedulerLocal, Slurm: defaultSlurm()}, nil
}

func decodeStrict(b []byte, name string, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// validate checks every setting of every stage, so that a bad one is refused
// before the first game; errors name the file and the key.
func (c *Config) validate(name string) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, a...))
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Out == "":
		return bad("out: the run directory is not set")
	case c.Generations < 1:
		return bad("generations %d: want at least 1", c.Generations)
	case c.Train.Window < 1:
		return bad("train.window %d: want at least 1", c.Train.Window)
	case !(c.Train.Val >= 0 && c.Train.Val < 1):
		return bad("train.val %v: want 0 to 1 (the share of games held out, less than 1)", c.Train.Val)
	case !(c.Train.CheapWeight >= 0 && c.Train.CheapWeight <= 1):
		return bad("train.cheap_weight %v: want 0 to 1", c.Train.CheapWeight)
	case !(c.Train.L2 >= 0) || !finite(c.Train.L2):
		return bad("train.l2 %v: want a finite number, 0 or more", c.Train.L2)
	case c.Gate.Games < 2:
		return bad("gate.games %d: want at least 2", c.Gate.Games)
	case !(c.Gate.PromoteScore >= 0 && c.Gate.PromoteScore < 1):
		return bad("gate.promote_score %v: want 0 to 1 (a score, less than 1)", c.Gate.PromoteScore)
	case c.Gate.MaxTurns < 0:
		return bad("gate.max_turns %d: want 0 (the default) or more", c.Gate.MaxTurns)
	case c.Pool.GamesPerPair < 2:
		return bad("pool.games_per_pair %d: want at least 2", c.Pool.GamesPerPair)
	case c.Pool.MaxTurns < 0:
		return bad("pool.max_turns %d: want 0 (the default) or more", c.Pool.MaxTurns)
	case c.Gate.Search.Visits <= 0:
		return bad("gate.search.visits %d: want at least 1", c.Gate.Search.Visits)
	case c.Pool.Search.Visits <= 0:
		return bad("pool.search.visits %d: want at least 1", c.Pool.Search.Visits)
	}
	if err := c.SelfPlay.Validate(); err != nil {
		return bad("selfplay.%v", err)
	}
	if err := c.validateScheduler(); err != nil {
		return bad("%v", err)
	}
	if _, err := train.ParseTarget(c.Train.Target); err != nil {
		return bad("train.target: %v", err)
	}
	if err := train.CheckFix(c.Train.Fix); err != nil {
		return bad("train.fix: %v", err)
	}
	if err := c.validateAnchors(); err != nil {
		return bad("%v", err)
	}
	if c.Gate.SPRT != "" {
		if _, err := rating.ParseSPRT(c.Gate.SPRT, rating.Logistic); err != nil {
			return bad("gate.sprt %q: %v", c.Gate.SPRT, err)
		}
	}
	for _, s := range []struct {
		key string
		cfg mcts.Config
	}{{"gate.search", c.Gate.Search}, {"pool.search", c.Pool.Search}} {
		if err := selfplay.ValidateSearch(s.key, s.cfg); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}
