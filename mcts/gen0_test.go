package mcts

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/weights"
)

func gen0(t testing.TB) Evaluator {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// gen0Ported is the generation-0 evaluation with the terms ported from
// Sharp's evaluation weighted as the fit to Sharp's evaluation weighs them
// (docs/strength/fifty-fourth-static-ports.json): the evaluation the step
// search's best players read, at its cost (see features.ExtractBase).
func gen0Ported(t testing.TB) Evaluator {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	ported := map[string]float64{
		"rabbit_goal_own": 1.403, "rabbit_goal_opp": -1.436,
		"piece_threat_own": -1.422, "piece_threat_opp": 1.506,
		"trap_attack_own": 1.022, "trap_attack_opp": -1.041, "trap_defence": 1.183,
	}
	for i, name := range w.Features {
		if v, ok := ported[name]; ok {
			w.Values[i] = v
			delete(ported, name)
		}
	}
	if len(ported) > 0 {
		t.Fatalf("no features %v in generation 0", ported)
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// goalHungry is the generation-0 evaluation with goal threats weighted as
// heavily as an earlier generation 0 did (a threat of the side to move worth 20
// rabbits) and advanced rabbits and open files as the hand-set weights had
// them, which steers a search quickly to the forced goals of a sparse board.
func goalHungry(t testing.TB) Evaluator {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range w.Features {
		switch name {
		case "goal_threat_own":
			w.Values[i] = 20
		case "goal_threat_opp":
			w.Values[i] = -8
		case "goal_reach8_own":
			w.Values[i] = 1.5
		case "goal_reach8_opp":
			w.Values[i] = -2
		case "rabbit_rank5", "rabbit_rank6", "rabbit_rank7":
			w.Values[i] = map[string]float64{"rabbit_rank5": 0.1, "rabbit_rank6": 0.5, "rabbit_rank7": 1}[name]
		case "rabbit_free_path":
			w.Values[i] = 0.4
		}
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// benchPositions are real-game positions of the clueless32 set (opening to
// endgame) and a full board.
var benchPositions = []string{
	"g [rrr  rr r mcchrr d    d     E            H  e D R C  C RRRRDMRRR]",
	"s [rrr mrrrr d  c rD dE  h h Hc       C  H  R e  MD  R  C RRR    RR]",
	"g [rr mr rrrcdc dr  h eE h                R H    H   D DCC RRR M RR]",
	"s [r    Dr r  r     c           c  Rrh       Dr  E   CdRRdR   R   R]",
	"g [rrrdcrrrhcm e dh                                HDMCECDHRRRRRRRR]",
}

// BenchmarkSearchGen0 measures simulations per second with the generation-0
// linear evaluation, on 1 and 2 threads, 20,000 simulations per position.
func BenchmarkSearchGen0(b *testing.B) {
	ev := gen0(b)
	var ps []engine.Position
	for _, s := range benchPositions {
		p, err := engine.ParsePosition(s)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	for _, threads := range []int{1, 2} {
		b.Run(strings.Repeat("T", threads), func(b *testing.B) {
			var sims int64
			for b.Loop() {
				for _, p := range ps {
					s, err := New(Config{Visits: 20000, Threads: threads, Seed: 1, MaxNodes: 1 << 18}, ev)
					if err != nil {
						b.Fatal(err)
					}
					res, err := s.Search(context.Background(), p, nil)
					if err != nil {
						b.Fatal(err)
					}
					sims += res.Simulations
				}
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
		})
	}
}

// standardSetup is the setup the rules suggest: pieces in front of the rabbits.
var standardSetup = [2]string{
	"Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2 Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1",
	"ha7 db7 cc7 ed7 me7 cf7 dg7 hh7 ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8",
}

// TestBeatsRandomMover plays the search with the generation-0 weights against a
// player of uniformly random legal moves, 20 games with colours alternating; the
// search must win every one.
func TestBeatsRandomMover(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 20 games")
	}
	ev := gen0(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for game := range 20 {
		searchSide := engine.Color(game % 2)
		s, err := New(Config{Visits: 400, Seed: uint64(game)}, ev)
		if err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame()
		for c := range 2 {
			if err := g.PlaySetup(standardSetup[c]); err != nil {
				t.Fatal(err)
			}
		}
		for !g.Outcome().Over() && g.TurnNumber() < 200 {
			if g.Side() == searchSide {
				res, err := s.Search(context.Background(), g.Position(), g.History())
				if err != nil {
					t.Fatalf("game %d turn %s: %v", game, g.Label(), err)
				}
				if err := g.Play(res.Move); err != nil {
					t.Fatalf("game %d turn %s: search played %q: %v", game, g.Label(), res.Move, err)
				}
				continue
			}
			moves := g.LegalMoves()
			if err := g.PlaySteps(moves[rng.IntN(len(moves))].Steps); err != nil {
				t.Fatalf("game %d turn %s: %v", game, g.Label(), err)
			}
		}
		out := g.Outcome()
		if !out.Over() || out.Winner != searchSide {
			t.Fatalf("game %d: search as %s: %v after %d turns", game, searchSide.Name(), out, g.TurnNumber())
		}
		t.Logf("game %d: search as %s: %v at turn %s", game, searchSide.Name(), out, g.Label())
	}
}

// TestSelfPlayReuseLegal plays the searcher against itself, one tree for both
// sides kept across turns, and checks every move with engine.Game. (States of
// different turns once shared nodes, and a move back to the turn's start board
// was offered.)
func TestSelfPlayReuseLegal(t *testing.T) {
	ev := gen0(t)
	games := 6
	if testing.Short() {
		games = 2
	}
	for game := range games {
		s, err := New(Config{Visits: 64, Seed: uint64(game), DirichletAlpha: 0.3, Temperature: 1}, ev)
		if err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame()
		for c := range 2 {
			if err := g.PlaySetup(standardSetup[c]); err != nil {
				t.Fatal(err)
			}
		}
		for !g.Outcome().Over() && g.TurnNumber() < 120 {
			o := Override{}
			if g.TurnNumber()%4 == 0 {
				o.Visits = 300
			}
			res, err := s.SearchWith(context.Background(), g.Position(), g.History(), o)
			if err != nil {
				t.Fatalf("game %d turn %s: %v", game, g.Label(), err)
			}
			for _, m := range res.Top {
				tr := engine.NewTurn(g.Position())
				if err := tr.PlayMove(m.Move); err != nil {
					t.Fatalf("game %d turn %s: listed move %q: %v", game, g.Label(), m.Move, err)
				}
			}
			if err := g.Play(res.Move); err != nil {
				t.Fatalf("game %d turn %s: move %q: %v", game, g.Label(), res.Move, err)
			}
		}
	}
}
