package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestSample draws many moves from a result and compares how often each
// comes with visits^(1/t) over the sum, within 5 standard deviations.
// The most visited move alone, at any positive temperature, is far outside.
func TestSample(t *testing.T) {
	top := []MoveVisits{{Move: "a", Visits: 600}, {Move: "b", Visits: 300}, {Move: "c", Visits: 100}}
	tests := []struct {
		name string
		r    Result
		temp float64
		want map[string]float64 // probabilities
	}{
		{"temperature 1", Result{Move: "a", Top: top}, 1, map[string]float64{"a": 0.6, "b": 0.3, "c": 0.1}},
		{"temperature 0.5", Result{Move: "a", Top: top}, 0.5, map[string]float64{"a": 36.0 / 46, "b": 9.0 / 46, "c": 1.0 / 46}},
		{"temperature 4", Result{Move: "a", Top: top}, 4, func() map[string]float64 {
			a, b, c := math.Pow(600, 0.25), math.Pow(300, 0.25), math.Pow(100, 0.25)
			return map[string]float64{"a": a / (a + b + c), "b": b / (a + b + c), "c": c / (a + b + c)}
		}()},
		{"temperature 0 plays Move", Result{Move: "b", Top: top}, 0, map[string]float64{"b": 1}},
		{"a negative temperature plays Move", Result{Move: "b", Top: top}, -1, map[string]float64{"b": 1}},
		{"one move listed", Result{Move: "a", Top: top[:1]}, 1, map[string]float64{"a": 1}},
		{"a proven win is always played", Result{Move: "w", Top: []MoveVisits{{Move: "w", Visits: 1, Proven: 1}, {Move: "a", Visits: 900}}}, 1, map[string]float64{"w": 1}},
		{"a proven loss is never drawn", Result{Move: "a", Top: []MoveVisits{{Move: "a", Visits: 50}, {Move: "b", Visits: 50}, {Move: "l", Visits: 400, Proven: -1}}}, 1, map[string]float64{"a": 0.5, "b": 0.5}},
		{"no visits plays Move", Result{Move: "a", Top: []MoveVisits{{Move: "a"}, {Move: "b"}}}, 1, map[string]float64{"a": 1}},
	}
	const draws = 20000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			count := map[string]int{}
			for range draws {
				count[tc.r.Sample(rng, tc.temp)]++
			}
			for m, n := range count {
				if _, ok := tc.want[m]; !ok {
					t.Errorf("%q drawn %d times, want never", m, n)
				}
			}
			for m, p := range tc.want {
				sd := math.Sqrt(p * (1 - p) / draws)
				if got := float64(count[m]) / draws; math.Abs(got-p) > 5*sd+1e-12 {
					t.Errorf("%q drawn %.4f of the time, want %.4f ± %.4f", m, got, p, 5*sd)
				}
			}
		})
	}
}

// TestSampleByVisits: the search's own temperature (Config.Temperature)
// draws among the candidates in proportion to visits^(1/t).
func TestSampleByVisits(t *testing.T) {
	cands := []moveCand{{visits: 500}, {visits: 300}, {visits: 200}, {visits: 0}}
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 20000
	for _, temp := range []float32{1, 0.5} {
		var sum float64
		for _, c := range cands {
			sum += math.Pow(float64(c.visits), 1/float64(temp))
		}
		count := make([]int, len(cands))
		for range draws {
			count[sampleByVisits(rng, cands, temp)]++
		}
		for i, c := range cands {
			p := math.Pow(float64(c.visits), 1/float64(temp)) / sum
			sd := math.Sqrt(p * (1 - p) / draws)
			if got := float64(count[i]) / draws; math.Abs(got-p) > 5*sd+1e-12 {
				t.Errorf("temperature %v: candidate %d drawn %.4f of the time, want %.4f ± %.4f", temp, i, got, p, 5*sd)
			}
		}
	}
}

// TestUniformPriors searches with uniform priors: every action of every
// expanded node has the prior 1/(its number of actions), and the move is
// legal. With heuristic priors they differ.
func TestUniformPriors(t *testing.T) {
	p := build(t, engine.Gold, "Ed4 Mb2 Hc2 Rd2 Re2 cc5 me6 ha7 rb7 rg7 Rf2")
	for _, mode := range []Priors{Uniform, Heuristic} {
		s := newTestSearcher(t, Config{Visits: 2000, Seed: 1, Priors: mode, Leaf: LeafStatic, Scan: ScanOff})
		res, err := s.Search(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr := engine.NewTurn(p)
		if err := tr.PlayMove(res.Move); err != nil {
			t.Fatalf("%s priors: move %q: %v", mode, res.Move, err)
		}
		nodes, uneven := 0, 0
		for id := range s.tree.size() {
			n := s.tree.node(id)
			if n.status.Load() != statusExpanded || n.nedges == 0 {
				continue
			}
			nodes++
			want := 1 / float32(n.nedges)
			for i := range int64(n.nedges) {
				if e := s.tree.edges.at(n.edges + i); math.Abs(float64(e.prior-want)) > 1e-6 {
					if mode == Uniform {
						t.Fatalf("uniform priors: node %d, edge %d of %d (step %v): prior %v, want %v", id, i, n.nedges, e.step, e.prior, want)
					}
					uneven++
					break
				}
			}
		}
		if nodes < 100 {
			t.Fatalf("%s priors: %d nodes expanded: the test tests little", mode, nodes)
		}
		if mode == Heuristic && uneven == 0 {
			t.Errorf("heuristic priors: all %d nodes have uniform priors", nodes)
		}
		t.Logf("%s priors: %d nodes expanded, %d with uneven priors", mode, nodes, uneven)
	}
}

// TestTinyBudgetKeepsPieces searches a setup whose rabbit on c2 stands beside
// the empty trap on c3 with budgets too small for any complete move to get a
// visit of its own: the move played must still not step a piece onto a trap
// to die (with the first move the tree held, 16 visits played Rc2n Rc3x).
func TestTinyBudgetKeepsPieces(t *testing.T) {
	p, err := engine.ParsePosition("g [rrrrrrrrhdcemcdh                                HDRMECDHRRCRRRRR]")
	if err != nil {
		t.Fatal(err)
	}
	for _, visits := range []int{1, 4, 16, 32} {
		t.Run(fmt.Sprint(visits), func(t *testing.T) {
			s := newTestSearcher(t, Config{Visits: visits, Seed: 1})
			res, err := s.Search(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			tn := engine.NewTurn(p)
			for _, st := range res.Steps {
				tn.Play(st)
			}
			if got := tn.Pos.Occ[engine.Gold].Count(); got != 16 {
				t.Fatalf("move %q leaves Gold %d pieces, want 16", res.Move, got)
			}
		})
	}
}
