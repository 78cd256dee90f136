package mcts

import (
	"context"
	"math"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// fullMinimax is the minimax value of n from all its edges, as minimax
// computes it, without storing it.
func fullMinimax(t *tree, n *node) float32 {
	if p := n.proven.Load(); p != 0 {
		return float32(p)
	}
	m := n.value
	for i := range n.nedges {
		e := t.edges.at(n.edges + int64(i))
		if e.counts.Load()>>32 > 0 {
			m = max(m, e.m())
		}
	}
	return m
}

// TestMinimaxIncrementalExact: on one thread, the minimax value that backup
// keeps on every node from the one edge that changed is, bit for bit, the
// value computed from all the node's edges, after every search of a game
// whose tree is kept from move to move; the root is marked stale.
func TestMinimaxIncrementalExact(t *testing.T) {
	s := newTestSearcher(t, Config{Visits: 1500, Seed: 7, Minimax: 0.5})
	g := engine.NewGame()
	for c := range engine.Color(2) {
		if err := g.PlaySetup(standardSetup[c]); err != nil {
			t.Fatal(err)
		}
	}
	checked := 0
	for turn := range 8 {
		res, err := s.Search(context.Background(), g.Position(), g.History())
		if err != nil {
			t.Fatal(err)
		}
		tr := s.tree
		for i := range tr.nodes.used() {
			n := tr.node(i)
			if n.status.Load() != statusExpanded || n.visits() == 0 {
				continue
			}
			bits := n.mm.Load()
			if bits == staleMinimax {
				continue
			}
			if want := math.Float32bits(fullMinimax(tr, n)); bits != want {
				t.Fatalf("turn %d, node %d (%d visits): minimax %v, from its edges %v", turn, i, n.visits(),
					math.Float32frombits(bits), math.Float32frombits(want))
			}
			checked++
		}
		if root := tr.node(s.workers[0].sr.root); root.mm.Load() != staleMinimax {
			t.Errorf("turn %d: the root's minimax value is not marked stale", turn)
		}
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 5000 {
		t.Errorf("%d nodes checked, want at least 5,000", checked)
	}
}
