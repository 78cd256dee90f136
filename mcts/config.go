// Package mcts is a parallel Monte Carlo tree search for Arimaa over single steps.
//
// A node is a position inside a turn: the board, the steps used and any push or
// pull in progress. Its actions are the legal steps and, once the board has
// changed, ending the turn. Nodes live in a transposition table keyed exactly by
// that state, so the many step orders of one move share their statistics. Values
// are kept for the side to move at each node and flip sign only where the turn
// passes. Positions where the side to move can reach its goal within the steps it
// has left are proven wins, found by an exact goal search; positions where the game
// has ended follow the end-of-game rules; third repetitions are never chosen.
package mcts

import (
	"fmt"
	"time"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/policy"
)

// Evaluator gives a value in [-1, 1] for the side to move of a position.
// It must be safe for concurrent use when the search runs several threads.
type Evaluator interface {
	Evaluate(p *engine.Position) float32
}

// Priors selects how the prior of each step is set.
type Priors string

// The prior modes.
const (
	// Uniform gives every action of a node the same prior.
	Uniform Priors = "uniform"
	// Heuristic favours captures, pushes and pulls, advancing rabbits and
	// strong pieces, and disfavours stepping into an unguarded trap.
	Heuristic Priors = "heuristic"
	// Learned takes the priors from a step model fitted on the moves of
	// strong players (package policy): Config.Policy, or the embedded
	// default (configs.Policy) when that is nil.
	Learned Priors = "learned"
)

// Leaf selects how a newly expanded node is valued.
type Leaf string

// The leaf modes.
const (
	// LeafStatic values a node by the evaluation of its board.
	LeafStatic Leaf = "static"
	// LeafTactical also looks for the captures the side to move can make this
	// turn (an exact capture search) and, at the end of a turn, values the
	// position from the opponent's side after its best capture, or as lost when
	// the opponent can reach its goal.
	LeafTactical Leaf = "tactical"
)

// Scan selects whether the move the tree search chose is checked by a
// full-width scan of the turn (see turnScan).
type Scan string

// The scan modes.
const (
	// ScanOn checks the chosen move against every move of the turn, valued
	// like a tactical leaf at the end of a turn, and plays another when the
	// chosen one falls clearly below the best (it hangs a piece, say).
	ScanOn Scan = "on"
	// ScanOff plays the tree search's choice as it is.
	ScanOff Scan = "off"
	// ScanAuto scans when the search is large enough for the scan's cost (a
	// few tens of milliseconds) to be small beside it: at least scanMinVisits
	// simulations, or a time budget without a smaller cap on simulations.
	// Cheap self-play searches skip it. A search bounded by time alone gets
	// the deep scan (ScanDeep), which takes deepShare percent of its time; a
	// budget of simulations the one-turn scan (ScanOn).
	ScanAuto Scan = "auto"
	// ScanDeep checks the chosen move with a search of two turns (see
	// deepPick): the best moves of the turn, each against every reply of the
	// opponent, the replies valued as the scan values a move. A search bounded
	// by time gives it most of its time.
	ScanDeep Scan = "deep"
	// ScanStep chooses the move by an alpha-beta search by steps (see
	// stepSearch), iteratively deepened in the time the deep scan would
	// have.
	ScanStep Scan = "step"
)

// scanMinVisits is the smallest budget of simulations that ScanAuto scans.
const scanMinVisits = 1000

// Config holds the search settings. The zero value of a field means its default.
type Config struct {
	// Visits is the number of simulations per search (default 800 when Time is 0).
	Visits int `yaml:"visits" json:"visits"`
	// Time bounds the search by wall time; with Visits also set, the first reached ends it.
	Time time.Duration `yaml:"time" json:"time"`
	// Threads is the number of search threads on the one tree (default 1).
	Threads int `yaml:"threads" json:"threads"`
	// CPuct scales exploration (default 1.4).
	CPuct float32 `yaml:"cpuct" json:"cpuct"`
	// FPUReduction lowers the value assumed for unvisited actions below the parent's (default 0.2).
	FPUReduction float32 `yaml:"fpu_reduction" json:"fpu_reduction"`
	// Priors is "uniform", "heuristic" or "learned" (default heuristic).
	Priors Priors `yaml:"priors" json:"priors"`
	// Policy is the step model of learned priors (nil: the embedded default).
	Policy *policy.Weights `yaml:"-" json:"-"`
	// Leaf is "tactical" or "static" (default tactical): how new nodes are valued.
	Leaf Leaf `yaml:"leaf" json:"leaf"`
	// Scan is "auto", "on", "deep", "step" or "off" (default auto): whether
	// a full-width scan of the turn, or of two turns, checks the move chosen,
	// or an alpha-beta search of two turns chooses it (see ScanOn, ScanDeep,
	// ScanStep and ScanAuto).
	Scan Scan `yaml:"scan" json:"scan"`
	// Minimax is the share, 0 to 1, of the implicit minimax value in the value
	// of an action during selection, the rest being the mean of its
	// simulations (default 0: the mean alone). See worker.minimax.
	Minimax float32 `yaml:"minimax" json:"minimax"`
	// DirichletAlpha enables root noise when positive (KataGo-style exploration for self-play).
	DirichletAlpha float32 `yaml:"dirichlet_alpha" json:"dirichlet_alpha"`
	// DirichletFraction is the share of noise mixed into the root priors (default 0.25 when noise is on).
	DirichletFraction float32 `yaml:"dirichlet_fraction" json:"dirichlet_fraction"`
	// Temperature samples the move in proportion to visits^(1/T); 0 plays the most visited move.
	Temperature float32 `yaml:"temperature" json:"temperature"`
	// Seed makes noise and temperature reproducible.
	Seed uint64 `yaml:"seed" json:"seed"`
	// MaxNodes caps the tree (default 1,048,576 nodes, about 200 MB when full); the
	// search stops early when it is full, and a new search starts a new tree once
	// the old one is half full. Left to its default, a search with a budget of
	// simulations larger than that gets a tree with room for its budget (up to
	// 67 M nodes); a search bounded by time alone keeps the default size.
	MaxNodes int `yaml:"max_nodes" json:"max_nodes"`
	// VirtualLoss is the number of losses a thread adds on its path while it descends (default 3).
	VirtualLoss int `yaml:"virtual_loss" json:"virtual_loss"`
	// TopMoves is how many complete moves the result lists (default 16).
	TopMoves int `yaml:"top_moves" json:"top_moves"`
	// StepMoves is how many moves of the root's turn the step search
	// (ScanStep) searches past one turn: the best by the evaluation of the
	// board at the turn's end, or by the tactical leaf's value of it with
	// StepLeaf tactical (default 128; -1 for every move).
	StepMoves int `yaml:"step_moves" json:"step_moves"`
	// StepLeaf is how the step search (ScanStep) judges the boards where
	// its depth runs out: "static" (the default) by the evaluation alone,
	// "tactical" as the tree's tactical leaf judges a turn's start (a win
	// when the side to move reaches its goal, a loss when the opponent
	// threatens a goal that no move stops, otherwise after the side's best
	// capture line when that is better); the root's cut (StepMoves) then
	// ranks the moves by that value.
	StepLeaf Leaf `yaml:"step_leaf" json:"step_leaf"`
	// StepWiden is how many of the root's StepMoves best moves the step
	// search's first sweep of two turns allows, doubled each sweep up to
	// StepMoves (default 32; -1 for one sweep of all StepMoves): a search
	// stopped by its deadline has two turns searched over the best moves at
	// least.
	StepWiden int `yaml:"step_widen" json:"step_widen"`
}

// withDefaults fills the zero fields and checks the others.
func (c Config) withDefaults() (Config, error) {
	if c.Visits < 0 || c.Threads < 0 || c.MaxNodes < 0 || c.VirtualLoss < 0 || c.TopMoves < 0 {
		return c, fmt.Errorf("mcts: negative setting in %+v", c)
	}
	if c.MaxNodes > maxTreeNodes {
		return c, fmt.Errorf("mcts: max_nodes %d: at most %d", c.MaxNodes, maxTreeNodes)
	}
	if c.Visits == 0 && c.Time == 0 {
		c.Visits = 800
	}
	if c.Threads == 0 {
		c.Threads = 1
	}
	if c.CPuct == 0 {
		c.CPuct = 1.4
	}
	if c.FPUReduction == 0 {
		c.FPUReduction = 0.2
	}
	switch c.Priors {
	case "":
		c.Priors = Heuristic
	case Uniform, Heuristic:
	case Learned:
		if c.Policy == nil {
			pw, err := configs.Policy()
			if err != nil {
				return c, fmt.Errorf("mcts: %w", err)
			}
			c.Policy = pw
		}
	default:
		return c, fmt.Errorf("mcts: priors %q: want uniform, heuristic or learned", c.Priors)
	}
	switch c.Leaf {
	case "":
		c.Leaf = LeafTactical
	case LeafStatic, LeafTactical:
	default:
		return c, fmt.Errorf("mcts: leaf %q: want tactical or static", c.Leaf)
	}
	switch c.StepLeaf {
	case "":
		c.StepLeaf = LeafStatic
	case LeafStatic, LeafTactical:
	default:
		return c, fmt.Errorf("mcts: step_leaf %q: want static or tactical", c.StepLeaf)
	}
	switch c.Scan {
	case "":
		c.Scan = ScanAuto
	case ScanOn, ScanOff, ScanAuto, ScanDeep, ScanStep:
	default:
		return c, fmt.Errorf("mcts: scan %q: want auto, on, deep, step or off", c.Scan)
	}
	if c.Minimax < 0 || c.Minimax > 1 {
		return c, fmt.Errorf("mcts: minimax %v: want 0 to 1", c.Minimax)
	}
	if c.DirichletAlpha > 0 && c.DirichletFraction == 0 {
		c.DirichletFraction = 0.25
	}
	if c.DirichletFraction < 0 || c.DirichletFraction > 1 {
		return c, fmt.Errorf("mcts: dirichlet_fraction %v: want 0 to 1", c.DirichletFraction)
	}
	if c.Temperature < 0 {
		return c, fmt.Errorf("mcts: temperature %v: want 0 or more", c.Temperature)
	}
	if c.MaxNodes == 0 {
		c.MaxNodes = 1 << 20
	}
	if c.VirtualLoss == 0 {
		c.VirtualLoss = 3
	}
	if c.TopMoves == 0 {
		c.TopMoves = 16
	}
	switch {
	case c.StepMoves == 0:
		c.StepMoves = 128
	case c.StepMoves < -1:
		return c, fmt.Errorf("mcts: step_moves %d: want -1 (every move) or more", c.StepMoves)
	}
	switch {
	case c.StepWiden == 0:
		c.StepWiden = 32
	case c.StepWiden < -1:
		return c, fmt.Errorf("mcts: step_widen %d: want -1 (one sweep) or more", c.StepWiden)
	}
	return c, nil
}
