package mcts

import (
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestReplyLeaf checks the leaf of the deep scan: the opponent's capture is
// played (the rabbit pushed onto c3 is gone, and the mover is to move), and
// a position whose side to move reaches its goal is decided by the rules.
func TestReplyLeaf(t *testing.T) {
	r, err := NewReplyLeaf(gen0(t))
	if err != nil {
		t.Fatal(err)
	}
	put := func(p *engine.Position, c engine.Color, pt engine.PieceType, sqs ...engine.Square) {
		for _, sq := range sqs {
			p.Put(engine.MakePiece(c, pt), sq)
		}
	}
	// Silver to move, its elephant on c5 above a lone gold rabbit on c4,
	// beside the empty trap c3.
	var p engine.Position
	put(&p, engine.Silver, engine.Rabbit, 56, 57, 58, 59, 60, 61, 62, 63)
	put(&p, engine.Silver, engine.Elephant, 34)
	put(&p, engine.Gold, engine.Rabbit, 26, 0, 1)
	put(&p, engine.Gold, engine.Elephant, 7)
	p.SetSide(engine.Silver)
	leaf, ok := r.Leaf(&p)
	if !ok || leaf.Side != engine.Gold || leaf.Count(engine.MakePiece(engine.Gold, engine.Rabbit)) != 2 {
		t.Errorf("leaf %v (ok %v): want Gold to move with two rabbits left\n%s", leaf.String(), ok, leaf.Diagram())
	}
	// The reply itself is a move of Silver's, and the leaf its capture leaf.
	reply, ok := r.Reply(&p)
	if !ok || reply.Side != engine.Gold || reply.Count(engine.MakePiece(engine.Gold, engine.Rabbit)) != 2 {
		t.Errorf("reply %v (ok %v): want Gold to move with two rabbits left\n%s", reply.String(), ok, reply.Diagram())
	}
	isMove := false
	for _, m := range engine.GenMoves(p, nil) {
		isMove = isMove || m.Pos == reply
	}
	if !isMove {
		t.Errorf("reply %v is no move of Silver's from %v", reply.String(), p.String())
	}
	if want := NewCaptureLeaf().Leaf(&reply); want != leaf {
		t.Errorf("leaf %v, want the capture leaf of the reply %v", leaf.String(), want.String())
	}

	// Silver to move with a rabbit on d2 and d1 empty: a goal this turn.
	var g engine.Position
	put(&g, engine.Silver, engine.Rabbit, 11, 56, 57)
	put(&g, engine.Silver, engine.Elephant, 60)
	put(&g, engine.Gold, engine.Rabbit, 0, 7, 48)
	put(&g, engine.Gold, engine.Elephant, 39)
	g.SetSide(engine.Silver)
	if leaf, ok := r.Leaf(&g); ok {
		t.Errorf("a goal in one step gave a leaf to evaluate:\n%s", leaf.Diagram())
	}
	if reply, ok := r.Reply(&g); ok {
		t.Errorf("a goal in one step gave a reply to evaluate:\n%s", reply.Diagram())
	}
}
