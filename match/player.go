package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/policy"
	"github.com/arimaalab/arimaalab/weights"
)

// Player is a participant of matches: a search with its weights, a random
// mover, an external engine. It makes one GamePlayer per game, so that a player
// may take part in several games at once.
type Player interface {
	// Name is the player's short name, used in tables and game records.
	Name() string
	// Describe gives the player's settings in a few words, such as
	// "400 visits, 1 thread".
	Describe() string
	// Threads is the number of cores one game of the player keeps busy.
	Threads() int
	// NewGame returns the player of one game, which plays side. The seed makes
	// a deterministic player's games reproducible.
	NewGame(ctx context.Context, side engine.Color, seed uint64) (GamePlayer, error)
	// Close releases what the player holds.
	Close() error
}

// GamePlayer plays one side of one game. The setups are given by the match;
// Move is called for every turn of the side, in order.
type GamePlayer interface {
	// Move returns the move to play in g, whose side to move is the player's,
	// in standard notation such as "Ed2n Ed3n cd4n Hd3n".
	Move(ctx context.Context, g *engine.Game) (string, error)
	// Close ends the game for the player.
	Close() error
}

// Generationer is implemented by the players that have a generation of
// weights, for the chart of a pool.
type Generationer interface {
	Generation() int
}

// Spec is a parsed player specification. Its text form is a comma-separated
// list of items, each KEY=VALUE or, first, a bare word:
//
//	random                              uniformly random legal moves
//	gen0,visits=200                     the search with the embedded generation-0 weights
//	gen-3.json,visits=400,threads=2     the search with the weights of a file
//	weights=run/gen=0003/weights.json,time=500ms
//	aei=./bot --flag,time=1s            an external engine over AEI
//
// Keys of the search: weights, visits, time, threads, cpuct, fpu, priors,
// max-nodes, temp, temp-turns; of an external engine: aei, time and
// option.NAME; of all: name. See docs/eval.md.
type Spec struct {
	// Kind is "mcts", "random" or "aei".
	Kind string
	// Name is the player's name (derived when empty).
	Name string
	// Weights is the weights file of the search, or "gen0" for the embedded
	// generation-0 weights.
	Weights string
	// Search holds the search settings.
	Search mcts.Config
	// Temp is a move temperature for the first TempTurns turns of each game
	// of the player (moves drawn in proportion to visits^(1/Temp)).
	Temp      float64
	TempTurns int
	// Command is the external engine's command line (split on spaces).
	Command string
	// Time is the external engine's time per move.
	Time time.Duration
	// Timeout is the longest an external engine without Time may take for a
	// move (0: the controller's default, a minute).
	Timeout time.Duration
	// Options are AEI options set on the engine before each game.
	Options map[string]string
	// Text is the specification as written.
	Text string
}

// DefaultMaxNodes caps the search trees of match players: a tree lives for a
// whole game (reused from turn to turn), and several games run at once.
const DefaultMaxNodes = 1 << 18

// ParseSpec reads a player specification. each, when not empty, holds items
// that apply to every player (such as "visits=200"); the spec's own items take
// precedence.
func ParseSpec(text, each string) (Spec, error) {
	s := Spec{Text: text, Options: map[string]string{}}
	own, err := splitItems(text, true)
	if err != nil {
		return Spec{}, err
	}
	common, err := splitItems(each, false)
	if err != nil {
		return Spec{}, fmt.Errorf("each %q: %w", each, err)
	}
	// The kind comes from the spec's own items.
	for _, it := range own {
		switch {
		case it.key == "" && it.value == "random":
			s.Kind = "random"
		case it.key == "":
			s.Kind, s.Weights = "mcts", it.value
		case it.key == "weights":
			s.Kind, s.Weights = "mcts", it.value
		case it.key == "aei":
			s.Kind, s.Command = "aei", it.value
		}
	}
	if s.Kind == "" {
		return Spec{}, fmt.Errorf("player %q: say what plays: random, gen0, a weights file, weights=FILE or aei=COMMAND", text)
	}
	if s.Kind == "mcts" {
		s.Search.MaxNodes = DefaultMaxNodes
	}
	for _, it := range common {
		if it.key == "" || it.key == "weights" || it.key == "aei" || !allowed(s.Kind, it.key) {
			continue // an -each setting that does not apply to this kind
		}
		if err := s.setKey(it.key, it.value); err != nil {
			return Spec{}, fmt.Errorf("each %q: %w", each, err)
		}
	}
	for _, it := range own {
		if it.key == "" || it.key == "weights" || it.key == "aei" {
			continue
		}
		if !allowed(s.Kind, it.key) {
			return Spec{}, fmt.Errorf("player %q: key %q does not apply to a %s player", text, it.key, kindNames[s.Kind])
		}
		if err := s.setKey(it.key, it.value); err != nil {
			return Spec{}, fmt.Errorf("player %q: %w", text, err)
		}
	}
	if s.Kind == "aei" && strings.TrimSpace(s.Command) == "" {
		return Spec{}, fmt.Errorf("player %q: aei= needs a command", text)
	}
	if s.Name == "" {
		s.Name = defaultName(s)
	}
	return s, nil
}

// kindNames names the kinds of players in messages.
var kindNames = map[string]string{"mcts": "search", "random": "random", "aei": "external (aei)"}

// allowed reports whether a player of kind takes the key.
func allowed(kind, key string) bool {
	switch key {
	case "name":
		return true
	case "time":
		return kind == "mcts" || kind == "aei"
	case "timeout":
		return kind == "aei"
	case "visits", "threads", "cpuct", "fpu", "priors", "policy", "leaf", "scan", "step-moves", "step-leaf", "step-widen", "minimax", "max-nodes", "temp", "temp-turns":
		return kind == "mcts"
	}
	return kind == "aei" && strings.HasPrefix(key, "option.") && len(key) > len("option.")
}

type item struct{ key, value string }

// countOr parses the value v of key k: a whole number from 1, or word,
// which stands for -1.
func countOr(k, v, word string) (int, error) {
	if v == word {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want %s or a whole number from 1", k, v, word)
	}
	return n, nil
}

// knownKey reports whether k is a key of some kind of player.
func knownKey(k string) bool {
	return k == "weights" || k == "aei" || allowed("mcts", k) || allowed("aei", k)
}

// splitItems splits "a,k=v,..." into items; a bare word is allowed first only.
func splitItems(text string, bareFirst bool) ([]item, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		if bareFirst {
			return nil, errors.New("empty player specification")
		}
		return nil, nil
	}
	var out []item
	for i, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		k, v, ok := strings.Cut(part, "=")
		if ok && i == 0 && bareFirst && !knownKey(strings.TrimSpace(k)) {
			ok = false // a path with "=" in it, such as run/gen=0003/weights.json
		}
		switch {
		case part == "":
			return nil, fmt.Errorf("player %q: empty item", text)
		case !ok && (i > 0 || !bareFirst):
			return nil, fmt.Errorf("player %q: item %q is not KEY=VALUE", text, part)
		case !ok:
			out = append(out, item{value: part})
		default:
			out = append(out, item{key: strings.TrimSpace(k), value: strings.TrimSpace(v)})
		}
	}
	return out, nil
}

func (s *Spec) setKey(k, v string) error {
	atoi := func() (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s=%q: want a whole number", k, v)
		}
		return n, nil
	}
	atof := func() (float64, error) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s=%q: want a number", k, v)
		}
		return x, nil
	}
	var err error
	switch {
	case k == "name":
		if v == "" || strings.ContainsAny(v, "\t\n") {
			return fmt.Errorf("name=%q: want a non-empty name without tabs", v)
		}
		s.Name = v
	case k == "visits":
		s.Search.Visits, err = atoi()
	case k == "threads":
		s.Search.Threads, err = atoi()
	case k == "max-nodes":
		s.Search.MaxNodes, err = atoi()
	case k == "temp-turns":
		s.TempTurns, err = atoi()
	case k == "cpuct":
		var x float64
		x, err = atof()
		s.Search.CPuct = float32(x)
	case k == "fpu":
		var x float64
		x, err = atof()
		s.Search.FPUReduction = float32(x)
	case k == "temp":
		s.Temp, err = atof()
	case k == "priors":
		if v != string(mcts.Uniform) && v != string(mcts.Heuristic) && v != string(mcts.Learned) {
			return fmt.Errorf("priors=%q: want uniform, heuristic or learned", v)
		}
		s.Search.Priors = mcts.Priors(v)
	case k == "policy":
		pw, perr := policy.Load(v)
		if perr != nil {
			return fmt.Errorf("policy=%q: %w", v, perr)
		}
		s.Search.Policy, s.Search.Priors = pw, mcts.Learned
	case k == "leaf" || k == "step-leaf":
		if v != string(mcts.LeafTactical) && v != string(mcts.LeafStatic) {
			return fmt.Errorf("%s=%q: want tactical or static", k, v)
		}
		if k == "leaf" {
			s.Search.Leaf = mcts.Leaf(v)
		} else {
			s.Search.StepLeaf = mcts.Leaf(v)
		}
	case k == "scan":
		switch mcts.Scan(v) {
		case mcts.ScanOn, mcts.ScanOff, mcts.ScanAuto, mcts.ScanDeep, mcts.ScanStep:
		default:
			return fmt.Errorf("scan=%q: want auto, on, deep, step or off", v)
		}
		s.Search.Scan = mcts.Scan(v)
	case k == "step-moves":
		n, perr := countOr(k, v, "all")
		if perr != nil {
			return perr
		}
		s.Search.StepMoves = n
	case k == "step-widen":
		n, perr := countOr(k, v, "off")
		if perr != nil {
			return perr
		}
		s.Search.StepWiden = n
	case k == "minimax":
		f, perr := strconv.ParseFloat(v, 32)
		if perr != nil || f < 0 || f > 1 {
			return fmt.Errorf("minimax=%q: want a share from 0 (off) to 1", v)
		}
		s.Search.Minimax = float32(f)
	case k == "time":
		d, perr := time.ParseDuration(v)
		if perr != nil || d <= 0 {
			return fmt.Errorf("time=%q: want a positive duration such as 500ms or 2s", v)
		}
		s.Search.Time, s.Time = d, d
	case k == "timeout":
		d, perr := time.ParseDuration(v)
		if perr != nil || d <= 0 {
			return fmt.Errorf("timeout=%q: want a positive duration such as 5m", v)
		}
		s.Timeout = d
	case strings.HasPrefix(k, "option."):
		s.Options[strings.TrimPrefix(k, "option.")] = v
	default:
		return fmt.Errorf("unknown key %q", k)
	}
	return err
}

// defaultName derives a player's name from what plays.
func defaultName(s Spec) string {
	switch s.Kind {
	case "random":
		return "random"
	case "aei":
		if words, err := aei.SplitCommand(s.Command); err == nil && len(words) > 0 {
			return "aei:" + filepath.Base(words[0])
		}
		return "aei"
	}
	if s.Weights == "gen0" {
		return "gen0"
	}
	base := strings.TrimSuffix(filepath.Base(s.Weights), ".json")
	if base == "weights" { // run/gen=0003/weights.json: name it by its directory
		if dir := filepath.Base(filepath.Dir(s.Weights)); dir != "." && dir != string(filepath.Separator) {
			return dir
		}
	}
	return base
}

// NewPlayer makes the player of a specification.
func NewPlayer(s Spec) (Player, error) {
	switch s.Kind {
	case "random":
		return &RandomPlayer{name: s.Name}, nil
	case "mcts":
		return newSearchPlayer(s)
	case "aei":
		p, err := NewAEIPlayer(s)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	return nil, fmt.Errorf("player %q: unknown kind %q", s.Text, s.Kind)
}

// SearchPlayer is the MCTS search with a generation of weights. Each game gets
// its own mcts.Searcher, whose tree is reused from one turn of the game to the
// next.
type SearchPlayer struct {
	name      string
	ev        *weights.Linear
	gen       int
	cfg       mcts.Config // defaults filled in
	temp      float64
	tempTurns int
}

func newSearchPlayer(s Spec) (*SearchPlayer, error) {
	var w *weights.Weights
	var err error
	if s.Weights == "gen0" {
		w, err = configs.Gen0()
	} else if w, err = weights.Load(s.Weights); err == nil {
		err = w.Check()
	}
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", s.Name, err)
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", s.Name, err)
	}
	cfg := s.Search
	cfg.Temperature, cfg.DirichletAlpha = 0, 0
	probe, err := mcts.New(cfg, ev) // validates the settings and fills in the defaults
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", s.Name, err)
	}
	return &SearchPlayer{name: s.Name, ev: ev, gen: w.Generation, cfg: probe.Config(), temp: s.Temp, tempTurns: s.TempTurns}, nil
}

// NewSearchPlayer returns the search player named name with the weights w and
// the search settings cfg (noise and temperature are not used; a MaxNodes of
// 0 means DefaultMaxNodes).
func NewSearchPlayer(name string, w *weights.Weights, cfg mcts.Config) (*SearchPlayer, error) {
	if cfg.MaxNodes == 0 {
		cfg.MaxNodes = DefaultMaxNodes
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", name, err)
	}
	cfg.Temperature, cfg.DirichletAlpha = 0, 0
	probe, err := mcts.New(cfg, ev)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", name, err)
	}
	return &SearchPlayer{name: name, ev: ev, gen: w.Generation, cfg: probe.Config()}, nil
}

// Name returns the player's name.
func (p *SearchPlayer) Name() string { return p.name }

// Generation returns the generation of the player's weights.
func (p *SearchPlayer) Generation() int { return p.gen }

// Threads returns the search threads.
func (p *SearchPlayer) Threads() int { return p.cfg.Threads }

// Describe gives the budget and threads, such as "400 visits, 1 thread".
func (p *SearchPlayer) Describe() string {
	var parts []string
	if p.cfg.Visits > 0 {
		parts = append(parts, fmt.Sprintf("%d visits", p.cfg.Visits))
	}
	if p.cfg.Time > 0 {
		parts = append(parts, p.cfg.Time.String()+"/move")
	}
	th := "threads"
	if p.cfg.Threads == 1 {
		th = "thread"
	}
	parts = append(parts, fmt.Sprintf("%d %s", p.cfg.Threads, th))
	if p.temp > 0 && p.tempTurns > 0 {
		parts = append(parts, fmt.Sprintf("temp %g for %d turns", p.temp, p.tempTurns))
	}
	return strings.Join(parts, ", ")
}

// NewGame returns a game player with a new search tree.
func (p *SearchPlayer) NewGame(_ context.Context, _ engine.Color, seed uint64) (GamePlayer, error) {
	s, err := p.NewSearcher(seed)
	if err != nil {
		return nil, err
	}
	return &searchGame{p: p, s: s, rng: rand.New(rand.NewPCG(seed, 0x7e39))}, nil
}

// NewSearcher returns a search with the player's weights and settings and a
// tree of its own, seeded by seed, for positions outside games (see package
// judge).
func (p *SearchPlayer) NewSearcher(seed uint64) (*mcts.Searcher, error) {
	cfg := p.cfg
	cfg.Seed = seed
	return mcts.New(cfg, p.ev)
}

// Hash returns the hash of the player's weights (weights.Weights.Hash).
func (p *SearchPlayer) Hash() string { return p.ev.Hash() }

// Close does nothing.
func (p *SearchPlayer) Close() error { return nil }

type searchGame struct {
	p     *SearchPlayer
	s     *mcts.Searcher
	rng   *rand.Rand
	turns int
	stats SearchStats
}

func (g *searchGame) Move(ctx context.Context, game *engine.Game) (string, error) {
	res, err := g.s.Search(ctx, game.Position(), game.History())
	if err != nil {
		return "", err
	}
	g.stats.addResult(res)
	move := res.Move
	if g.turns < g.p.tempTurns && g.p.temp > 0 {
		move = res.Sample(g.rng, g.p.temp)
	}
	g.turns++
	return move, nil
}

// SearchStats returns the sums of the game's searches so far.
func (g *searchGame) SearchStats() SearchStats { return g.stats }

func (g *searchGame) Close() error {
	g.s = nil // the tree goes with the game
	return nil
}

// RandomPlayer plays uniformly random legal moves (each distinct resulting
// position equally likely), for tests and sanity checks.
type RandomPlayer struct{ name string }

// NewRandomPlayer returns a random mover named name ("random" when empty).
func NewRandomPlayer(name string) *RandomPlayer {
	if name == "" {
		name = "random"
	}
	return &RandomPlayer{name: name}
}

// Name returns the player's name.
func (p *RandomPlayer) Name() string { return p.name }

// Describe says what the player does.
func (p *RandomPlayer) Describe() string { return "uniformly random moves" }

// Threads returns 1.
func (p *RandomPlayer) Threads() int { return 1 }

// NewGame returns a random mover seeded by seed.
func (p *RandomPlayer) NewGame(_ context.Context, _ engine.Color, seed uint64) (GamePlayer, error) {
	return &randomGame{rng: rand.New(rand.NewPCG(seed, 0x4a7d))}, nil
}

// Close does nothing.
func (p *RandomPlayer) Close() error { return nil }

type randomGame struct{ rng *rand.Rand }

func (g *randomGame) Move(_ context.Context, game *engine.Game) (string, error) {
	moves := game.LegalMoves()
	if len(moves) == 0 {
		return "", errors.New("no legal move")
	}
	m := moves[g.rng.IntN(len(moves))]
	return engine.FormatMove(game.Position(), m.Steps), nil
}

func (g *randomGame) Close() error { return nil }
