package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// AEIPlayer is an external engine driven over the Arimaa Engine Interface by
// an aei.Controller. Each game gets an engine process of its own (several games
// may run at once); a process whose game ended cleanly is kept and reused
// ("newgame") by a later game. The engine is told every setup and move of the
// game ("makemove") and asked for its moves ("go").
type AEIPlayer struct {
	name    string
	command string
	time    time.Duration
	options map[string]string
	opt     aei.Options

	mu   sync.Mutex
	idle []*aei.Controller
	done bool
}

// AEIOptions tunes the controllers of an AEIPlayer: timeouts, a copy of the
// engines' standard error, a transcript of the messages.
type AEIOptions = aei.Options

// NewAEIPlayer returns the external engine of a specification (aei=COMMAND);
// the command is split into words as a shell would, without running a shell.
// With time=D the engine gets D per move (the AEI options tcmove D,
// tcreserve 0, tcpercent 0) and an answer later than 2D + 5 s is an error;
// without it an answer later than timeout=D (default a minute) is one, as a
// search bounded by depth alone, such as Sharp's at depth 8, can take long;
// option.NAME=VALUE items are sent as "setoption name NAME value VALUE".
func NewAEIPlayer(s Spec) (*AEIPlayer, error) {
	return NewAEIPlayerWith(s, aei.Options{})
}

// NewAEIPlayerWith is NewAEIPlayer with controller options.
func NewAEIPlayerWith(s Spec, opt AEIOptions) (*AEIPlayer, error) {
	if s.Kind != "aei" {
		return nil, fmt.Errorf("player %s: not an external engine", s.Name)
	}
	words, err := aei.SplitCommand(s.Command)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", s.Name, err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("player %s: empty command", s.Name)
	}
	if opt.Stderr == nil {
		opt.Stderr = io.Discard
	}
	if s.Timeout > 0 {
		opt.MoveTimeout = s.Timeout
	}
	return &AEIPlayer{name: s.Name, command: s.Command, time: s.Time, options: s.Options, opt: opt}, nil
}

// Name returns the player's name.
func (p *AEIPlayer) Name() string { return p.name }

// Describe gives the command and the time per move.
func (p *AEIPlayer) Describe() string {
	d := "aei " + p.command
	if p.time > 0 {
		d += ", " + p.time.String() + "/move"
	}
	for _, k := range sortedKeys(p.options) {
		d += fmt.Sprintf(", %s=%s", k, p.options[k])
	}
	return d
}

// Threads returns 1: an engine's threads are its own business.
func (p *AEIPlayer) Threads() int { return 1 }

// NewGame takes an idle engine or starts one, and starts a new game on it.
func (p *AEIPlayer) NewGame(ctx context.Context, side engine.Color, _ uint64) (GamePlayer, error) {
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		return nil, errors.New("the player is closed")
	}
	var c *aei.Controller
	if n := len(p.idle); n > 0 {
		c, p.idle = p.idle[n-1], p.idle[:n-1]
	}
	p.mu.Unlock()
	if c != nil {
		if err := c.NewGame(); err == nil {
			return &aeiGame{p: p, c: c}, nil
		}
		c.Close() // broken while idle: start another
	}
	c, err := aei.StartCommand(ctx, p.command, p.opt)
	if err != nil {
		return nil, err
	}
	opts := map[string]string{}
	if p.time > 0 {
		opts["tcmove"] = strconv.FormatFloat(p.time.Seconds(), 'f', -1, 64)
		opts["tcreserve"], opts["tcpercent"] = "0", "0"
	}
	for k, v := range p.options {
		opts[k] = v
	}
	for _, k := range sortedKeys(opts) {
		if err := c.SetOption(k, opts[k]); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.IsReady(ctx); err != nil {
		c.Close()
		return nil, err
	}
	// Every game starts with newgame, the first one of a process too: engines
	// such as Sharp refuse makemove and go before it.
	if err := c.NewGame(); err != nil {
		c.Close()
		return nil, err
	}
	return &aeiGame{p: p, c: c}, nil
}

// Close ends the idle engines; engines still in a game end with it.
func (p *AEIPlayer) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.done = nil, true
	p.mu.Unlock()
	var errs []error
	for _, c := range idle {
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// release keeps a healthy engine for a later game, or ends it.
func (p *AEIPlayer) release(c *aei.Controller, healthy bool) error {
	p.mu.Lock()
	if healthy && !p.done {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
		return nil
	}
	p.mu.Unlock()
	return c.Close()
}

type aeiGame struct {
	p      *AEIPlayer
	c      *aei.Controller
	sent   int // turns of the game (setups included) told to the engine
	failed bool
}

// Move tells the engine the turns it has not seen and asks for its move.
func (g *aeiGame) Move(ctx context.Context, game *engine.Game) (string, error) {
	turns := game.Turns()
	for ; g.sent < len(turns); g.sent++ {
		_, move, _ := strings.Cut(turns[g.sent], " ") // drop the label
		if err := g.c.MakeMove(move); err != nil {
			g.failed = true
			return "", fmt.Errorf("telling the engine turn %s: %w", turns[g.sent], err)
		}
	}
	var deadline time.Time
	if g.p.time > 0 {
		deadline = time.Now().Add(2*g.p.time + 5*time.Second)
	}
	move, _, err := g.c.Go(ctx, deadline)
	if err != nil {
		g.failed = true
		return "", err
	}
	return move, nil
}

// Close returns the engine to the player, or ends it after an error.
func (g *aeiGame) Close() error {
	if g.c == nil {
		return nil
	}
	c := g.c
	g.c = nil
	return g.p.release(c, !g.failed)
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
