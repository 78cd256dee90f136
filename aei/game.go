package aei

import (
	"fmt"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// gameState is a game as AEI sees it: a position with the side to move, or to
// set up, and the history of the positions that stood at the end of each turn
// (for the third-repetition rule). Unlike engine.Game it may start from any
// position (setposition). The zero value is not ready for use: make one with
// newGameState.
type gameState struct {
	pos   engine.Position
	hist  *engine.History
	setup bool // pos.Side has still to set up
	gen   *engine.MoveGen
}

// newGameState returns a game on the empty board with Gold to set up.
func newGameState() gameState {
	return gameState{hist: engine.NewHistory(), setup: true, gen: engine.NewMoveGen()}
}

// setPosition makes p the position of the game, with a history holding p alone.
// A side to move without pieces on the board is taken to be setting up: Gold on
// the empty board, or Silver with no piece of its own.
func (g *gameState) setPosition(p engine.Position) {
	g.pos = p
	g.hist = engine.NewHistory()
	own := p.Occ[p.Side]
	g.setup = own == 0 && (p.Side == engine.Silver || p.Occ[engine.Silver] == 0)
	if !g.setup {
		g.hist.Add(&g.pos)
	}
}

// outcome returns the result of the game in its current position: NotOver
// during the setups and while the game goes on.
func (g *gameState) outcome() engine.Outcome {
	if g.setup {
		return engine.Outcome{}
	}
	return engine.EndOfTurn(&g.pos, g.hist, g.gen)
}

// next returns the position after move, a setup during the setup phase and a
// move otherwise, without changing g. The move must be legal: every step, the
// turn changing the board, no third repetition, and the game not over.
func (g *gameState) next(move string) (engine.Position, error) {
	move = strings.TrimSpace(move)
	if move == "" {
		return engine.Position{}, fmt.Errorf("empty move")
	}
	if g.setup {
		return g.nextSetup(move)
	}
	if out := g.outcome(); out.Over() {
		return engine.Position{}, fmt.Errorf("%w (%s)", engine.ErrGameOver, out)
	}
	t := engine.NewTurn(g.pos)
	if err := t.PlayMove(move); err != nil {
		return engine.Position{}, err
	}
	after := t.End()
	if g.hist.Count(&after) >= 2 {
		return engine.Position{}, fmt.Errorf("move %q: %w", move, engine.ErrThirdRepetition)
	}
	return after, nil
}

// nextSetup places the setup s of the side to set up.
func (g *gameState) nextSetup(s string) (engine.Position, error) {
	c := g.pos.Side
	pls, err := engine.ParseSetup(c, s)
	if err != nil {
		return engine.Position{}, fmt.Errorf("%s setup: %w", c.Name(), err)
	}
	p := g.pos
	for _, pl := range pls {
		if p.At(pl.Square) != engine.NoPiece {
			return engine.Position{}, fmt.Errorf("%s setup %s: square %s is occupied", c.Name(), pl, pl.Square)
		}
		p.Put(pl.Piece, pl.Square)
	}
	p.SetSide(c.Other())
	return p, nil
}

// play plays move (see next); on error g is unchanged.
func (g *gameState) play(move string) error {
	p, err := g.next(move)
	if err != nil {
		return err
	}
	if g.setup && g.pos.Side == engine.Silver {
		g.setup = false // both sides have set up: the game starts
	}
	g.pos = p
	if !g.setup {
		g.hist.Add(&g.pos)
	}
	return nil
}

// describe returns a short description of the state for messages, such as
// "Gold to set up" or "Silver to move in s [...]".
func (g *gameState) describe() string {
	if g.setup {
		return g.pos.Side.Name() + " to set up"
	}
	return g.pos.Side.Name() + " to move in " + g.pos.String()
}
