package mcts

import (
	"math"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestLeafValue: the value of a new node for its side to move, by the rules
// of leaf.go: with static leaves the board's evaluation; at the start of a
// turn the board's, or after the side's best capture line; inside a turn as
// if the side ended it there (lost when the opponent then reaches its goal,
// won when the game ends in its favour) or after its best capture line this
// turn, exact when the game ends or no steps are left.
func TestLeafValue(t *testing.T) {
	var ev materialEval
	eval := func(p engine.Position, side engine.Color) float32 {
		p.SetSide(side)
		return ev.Evaluate(&p)
	}
	// open: the silver rabbit on e2 reaches its goal in one step once Gold
	// has moved. capture: Gold's elephant can push the silver dog onto c3,
	// where no silver piece holds it, in two steps.
	open := "Ed5 Ra1 Rh1 re2 rh8"
	capture := "Ee3 Rh2 dd3 ra7"
	afterCapture := build(t, engine.Gold, "Ed3 Rh3 ra7")
	tests := []struct {
		name   string
		leaf   Leaf
		pieces string
		steps  string
		want   float32
		exact  bool
	}{
		{"static", LeafStatic, open, "Ed5n", eval(build(t, engine.Gold, "Ed6 Ra1 Rh1 re2 rh8"), engine.Gold), false},
		{"start of a turn", LeafTactical, open, "", eval(build(t, engine.Gold, open), engine.Gold), false},
		{"the opponent's goal next, steps left", LeafTactical, open, "Ed5n", -1, false},
		{"the opponent's goal next, no steps left", LeafTactical, open, "Ed5n Ed6n Ed7e Ee7e", -1, true},
		{"the goal reached", LeafTactical, "Ra7 Ed5 re2 rh8", "Ra7n", 1, true},
		{"a capture this turn", LeafTactical, capture, "Rh2n", eval(afterCapture, engine.Gold), false},
		{"a capture at the start of a turn", LeafTactical, capture, "", eval(build(t, engine.Gold, "Ee3 Rh2 ra7"), engine.Gold), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sr := &search{s: &Searcher{cfg: Config{Leaf: tc.leaf}, eval: ev}}
			w := sr.newWorker()
			turn := engine.NewTurn(build(t, engine.Gold, tc.pieces))
			var steps []engine.Step
			if tc.steps != "" {
				var err error
				if steps, err = engine.ParseSteps(tc.steps); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range steps {
				if _, err := turn.Step(s); err != nil {
					t.Fatalf("step %v: %v", s, err)
				}
			}
			got, exact := w.leafValue(&turn)
			if math.Abs(float64(got-tc.want)) > 1e-6 || exact != tc.exact {
				t.Errorf("value %v, exact %v; want %v, %v", got, exact, tc.want, tc.exact)
			}
		})
	}
}
