package mcts

import (
	"context"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// busyEval costs about as much as a linear evaluation over extracted features.
type busyEval struct{}

func (busyEval) Evaluate(p *engine.Position) float32 {
	var acc uint64
	for i := range 300 {
		acc += uint64(p.Bits[i%12]) * uint64(i+1)
		acc ^= acc >> 7
	}
	v := materialEval{}.Evaluate(p)
	if acc == 42 {
		v = 0
	}
	return v
}

func BenchmarkSearchBusyEval(b *testing.B) {
	p := build(b, engine.Gold, "Ed4 Mb2 Hc2 Hf2 Dd2 De2 Ca2 Ch2 Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 ee5 mb7 hc7 hf7 dd7 de7 ca7 ch7 ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8")
	for _, threads := range []int{1, 2} {
		b.Run(strings.Repeat("T", threads), func(b *testing.B) {
			var sims int64
			for b.Loop() {
				s, _ := New(Config{Visits: 20000, Threads: threads, Seed: 1}, busyEval{})
				res, err := s.Search(context.Background(), p, nil)
				if err != nil {
					b.Fatal(err)
				}
				sims += res.Simulations
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
