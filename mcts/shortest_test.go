package mcts

import (
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestMinStepsIsALowerBound: for every move of some real positions (captures,
// pushes and pulls among them), minSteps never exceeds the fewest steps that
// make the move, which full move generation finds (it is breadth first), and
// it is exact for most moves (so that shortest skips their generation).
func TestMinStepsIsALowerBound(t *testing.T) {
	g := engine.NewMoveGen()
	exact, moves := 0, 0
	for _, s := range append(benchPositions[:4:4], "g [r      r                          cE                    R      R]") {
		p := mustPosition(t, s)
		for i := range g.Generate(&p, nil) {
			steps := g.Steps(i, nil)
			q := g.Position(i)
			m := minSteps(&p.Bits, &q.Bits)
			if m > len(steps) {
				t.Fatalf("%s: move %v: minSteps %d, but %d steps make it", s, steps, m, len(steps))
			}
			if m == len(steps) {
				exact++
			}
			moves++
		}
	}
	if exact*2 < moves {
		t.Errorf("minSteps exact for %d of %d moves: too weak to spare shortest its generation", exact, moves)
	}
	t.Logf("minSteps exact for %d of %d moves", exact, moves)
}

func TestMinStepsCases(t *testing.T) {
	tests := []struct {
		name     string
		from, to string
		want     int
	}{
		{"unchanged", "Ea1 rh8", "Ea1 rh8", 0},
		{"one step", "Ea1 rh8", "Ea2 rh8", 1},
		{"far", "Ea1 rh8", "Ed2 rh8", 4},
		{"two of a kind cross", "Ra1 Rh1 rh8", "Rb1 Rg1 rh8", 2},
		{"a chain of a kind", "Ra1 Rb1 rh8", "Rb1 Rc1 rh8", 2},
		{"a capture", "Ea1 Rc3 rh8", "Ea1 rh8", 0},
		{"a push", "Ed4 re4 Ra1", "Ee4 rf4 Ra1", 2},
	}
	for _, tc := range tests {
		a, b := build(t, engine.Gold, tc.from), build(t, engine.Gold, tc.to)
		if got := minSteps(&a.Bits, &b.Bits); got != tc.want {
			t.Errorf("%s: minSteps = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestFewestMatchesGeneration: for moves of real positions, fewest finds
// the same number of steps as full move generation (breadth first: its steps
// are the fewest), or says that none fewer than a bound exist.
func TestFewestMatchesGeneration(t *testing.T) {
	g := engine.NewMoveGen()
	for _, s := range append(benchPositions[:4:4], "g [r      r                          cE                    R      R]") {
		p := mustPosition(t, s)
		for i := range g.Generate(&p, nil) {
			if i%5 != 0 {
				continue
			}
			steps := g.Steps(i, nil)
			q := g.Position(i)
			if got := fewest(&p, &q.Bits, len(steps)); got != len(steps) {
				t.Fatalf("%s: move %v: fewest finds %d steps below %d, fewer than generation", s, steps, got, len(steps))
			}
			if got := fewest(&p, &q.Bits, engine.MaxSteps+1); got != len(steps) {
				t.Fatalf("%s: move %v: fewest finds %d steps, generation %d", s, steps, got, len(steps))
			}
		}
	}
}
