package judge

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/weights"
)

// constEval values every position alike, so that the ranking is the
// generator's order.
type constEval struct{}

func (constEval) Evaluate(*engine.Position) float32 { return 0 }

// successorSources returns the positions Successors is tested on: a
// middle game, one where some moves score a goal, and one where every move
// does.
func successorSources(t *testing.T) []Position {
	t.Helper()
	var ps []Position
	for _, s := range []string{
		board(t, engine.Silver, "Ed4 Rb2 Rg2 Dg3 ed6 rb7 rg7 cc7"),
		board(t, engine.Gold, "Ra7 Ed4 Rh2 Cc2 rb7 rh8 ee6 ca3"),
		board(t, engine.Gold, "Ra7 rb7"), // the rabbit can only reach rank 8
	} {
		p, err := engine.ParsePosition(s)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Position{Pos: p})
	}
	return ps
}

// gen0Linear returns the evaluation of the embedded generation-0 weights.
func gen0Linear(t *testing.T) *weights.Linear {
	t.Helper()
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	lin, err := weights.NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	return lin
}

// readable returns the values for the mover, by ev, of the moves of p after
// which the game goes on, as ReadPositions wants the positions, in the
// generator's order; worked out apart from Successors.
func readable(t *testing.T, p Position, ev Evaluator) map[engine.Position]float32 {
	t.Helper()
	out := map[engine.Position]float32{}
	for _, m := range engine.GenMoves(p.Pos, p.Hist) {
		if _, err := ReadPositions(strings.NewReader(m.Pos.String()), "m"); err == nil {
			out[m.Pos] = -ev.Evaluate(&m.Pos)
		}
	}
	return out
}

// TestSuccessors checks the successors of positions under several settings:
// each a move of its source after which the game goes on, with its value by
// the evaluation; the picks among the best Top by an independent ranking (by
// generation order for an evaluation of ties); the number of each source
// position's successors, all different; their order; and that the same seed
// gives the same successors and another seed others.
func TestSuccessors(t *testing.T) {
	lin := gen0Linear(t)
	ps := successorSources(t)
	// The sources' moves by evaluation, worked out once.
	readables := map[Evaluator][]map[engine.Position]float32{}
	const all = math.MaxInt32
	for _, c := range []struct {
		name string
		ev   Evaluator
		cfg  SuccessorConfig
		// anySeed is set where the draws leave no choice: every seed
		// gives the same successors.
		anySeed bool
	}{
		{"defaults", lin, SuccessorConfig{Top: 30, Pick: 3, Random: 1, Seed: 1}, false},
		{"top 1", lin, SuccessorConfig{Top: 1, Pick: 3, Random: 0, Seed: 1}, true},
		{"pick more than top", lin, SuccessorConfig{Top: 5, Pick: 8, Random: 2, Seed: 3}, false},
		{"random only", lin, SuccessorConfig{Top: 10, Pick: 0, Random: 4, Seed: 1}, false},
		{"none", lin, SuccessorConfig{Top: 10, Pick: 0, Random: 0, Seed: 1}, true},
		{"every move", lin, SuccessorConfig{Top: all, Pick: all, Random: 0, Seed: 1}, true},
		{"every move, random", lin, SuccessorConfig{Top: 1, Pick: 1, Random: all, Seed: 1}, true},
		{"ties", constEval{}, SuccessorConfig{Top: 20, Pick: 5, Random: 1, Seed: 7}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var progress []int
			cfg := c.cfg
			cfg.Progress = func(done, total int) {
				if total != len(ps) {
					t.Errorf("progress total %d, want %d", total, len(ps))
				}
				progress = append(progress, done)
			}
			got, err := Successors(ps, c.ev, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(progress, []int{1, 2, 3}) {
				t.Errorf("progress %v", progress)
			}
			bySource := make([][]Successor, len(ps))
			last := -1
			for _, s := range got {
				if s.Source < last {
					t.Fatalf("source %d after %d", s.Source, last)
				}
				last = s.Source
				bySource[s.Source] = append(bySource[s.Source], s)
			}
			for i, p := range ps {
				if readables[c.ev] == nil {
					for _, p := range ps {
						readables[c.ev] = append(readables[c.ev], readable(t, p, c.ev))
					}
				}
				moves := readables[c.ev][i]
				n := len(moves)
				if i == 0 && n < 300 || i == 1 && (n < 100 || n == len(engine.GenMoves(p.Pos, nil))) || i == 2 && n != 0 {
					t.Fatalf("source %d: %d moves: not the positions this test wants", i, n)
				}
				// The value the best Top reach: the Top-th best, or the
				// Top-th in generation order for an evaluation of ties.
				var threshold float32
				var firstTop map[engine.Position]bool
				if top := min(cfg.Top, n); top > 0 {
					vals := make([]float32, 0, n)
					for _, v := range moves {
						vals = append(vals, v)
					}
					slices.Sort(vals)
					slices.Reverse(vals)
					threshold = vals[top-1]
					firstTop = map[engine.Position]bool{}
					for _, m := range engine.GenMoves(p.Pos, p.Hist) {
						if _, ok := moves[m.Pos]; ok && len(firstTop) < top {
							firstTop[m.Pos] = true
						}
					}
				}
				nPick := min(cfg.Pick, cfg.Top, n)
				want := nPick + min(cfg.Random, n-nPick)
				ss := bySource[i]
				if len(ss) != want {
					t.Errorf("source %d: %d successors, want %d of %d moves", i, len(ss), want, n)
				}
				seen := map[engine.Position]bool{}
				for k, s := range ss {
					v, ok := moves[s.Pos]
					switch {
					case !ok:
						t.Errorf("source %d: %s is not a move after which the game goes on", i, s.Pos.String())
					case v != s.Value:
						t.Errorf("source %d: value %v, the evaluation's %v", i, s.Value, v)
					case seen[s.Pos]:
						t.Errorf("source %d: %s twice", i, s.Pos.String())
					case s.Random != (k >= nPick):
						t.Errorf("source %d: successor %d of %d random %v", i, k, nPick, s.Random)
					case !s.Random && (s.Value < threshold || s.Rank >= cfg.Top):
						t.Errorf("source %d: pick of value %v rank %d below the best %d (%v)", i, s.Value, s.Rank, cfg.Top, threshold)
					case !s.Random && c.name == "ties" && !firstTop[s.Pos]:
						t.Errorf("source %d: tie of rank %d not among the first %d generated", i, s.Rank, cfg.Top)
					case k > 0 && k != nPick && s.Rank <= ss[k-1].Rank:
						t.Errorf("source %d: rank %d after %d", i, s.Rank, ss[k-1].Rank)
					}
					seen[s.Pos] = true
				}
			}
			again, _ := Successors(ps, c.ev, c.cfg)
			if !slices.Equal(got, again) {
				t.Error("the same seed gave other successors")
			}
			other := c.cfg
			other.Seed++
			if moved, _ := Successors(ps, c.ev, other); !c.anySeed && slices.Equal(got, moved) {
				t.Error("another seed gave the same successors")
			}
		})
	}
}

// TestSuccessorsHistory checks that a move that would repeat a position a
// third time in the game is left out, and kept without the history.
func TestSuccessorsHistory(t *testing.T) {
	// Before 4s the position before 2g stands twice, and ed6n would make it
	// the third time.
	moves := []string{"Ee2n", "ed7s", "Ee3s", "ed6n", "Ee2n", "ed7s", "Ee3s", "hh7s"}
	ps, err := ArchivePositions(strings.NewReader(archive(t, append([]string{"a", "b"}, moves...))), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	p := ps[len(ps)-1]
	noHist := p
	noHist.Hist = nil
	cfg := SuccessorConfig{Top: math.MaxInt32, Pick: math.MaxInt32}
	with, err := Successors([]Position{p}, constEval{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	without, err := Successors([]Position{noHist}, constEval{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	has := func(ss []Successor) bool {
		return slices.ContainsFunc(ss, func(s Successor) bool { return s.Pos == ps[0].Pos })
	}
	if len(with) != len(without)-1 || has(with) || !has(without) {
		t.Errorf("with history %d successors (the repetition among them: %v), without %d (%v)", len(with), has(with), len(without), has(without))
	}
}

// TestSuccessorsErrors checks the settings refused.
func TestSuccessorsErrors(t *testing.T) {
	ps := successorSources(t)[:1]
	for _, c := range []struct {
		cfg SuccessorConfig
		err string
	}{
		{SuccessorConfig{Top: 0, Pick: 1}, "the top moves must be at least 1"},
		{SuccessorConfig{Top: 1, Pick: -1}, "the moves drawn must not be negative"},
		{SuccessorConfig{Top: 1, Random: -1}, "the moves drawn must not be negative"},
	} {
		if _, err := Successors(ps, constEval{}, c.cfg); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.err)
		}
	}
}

// TestReportSuccessors makes the groups of two reports that judged the
// same position: one group a position, the judge's move first, each
// position after a move once, games already over left out, and bad moves
// errors naming the move.
func TestReportSuccessors(t *testing.T) {
	pos := deepCheckMoves[2][0]
	r1 := &Report{Players: []PlayerReport{{Name: "a", Moves: []Move{
		{Where: "f:1", Position: pos, Move: "Ee6w re7s Cc2w Md2w", Best: "Ee6s re7s Ee5e re6s"},
		{Where: "f:2", Position: deepCheckMoves[0][0], Move: deepCheckMoves[0][1], Best: deepCheckMoves[0][2]},
	}}}}
	// The same position again, in another report: the same judge's move,
	// another move played, and one played already.
	r2 := &Report{Players: []PlayerReport{{Name: "b", Moves: []Move{
		{Where: "g:7", Position: pos, Move: "Ee6s re7s Ee5e re6s", Best: "Ee6s re7s Ee5e re6s"},
		{Where: "g:8", Position: pos, Move: "Md2n Md3n Md4n Md5n", Best: "Ee6w re7s Cc2w Md2w"},
	}}}}
	// A goal ends the game: nothing after it to label.
	goal := &Report{Players: []PlayerReport{{Name: "c", Moves: []Move{
		{Where: "h:1", Position: "g [       rR                                                       ]", Move: "Ra7e", Best: "Ra7n"},
	}}}}
	sources, succ, err := ReportSuccessors([]*Report{r1, r2, goal})
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) != 3 || sources[0].Where != "f:1" || sources[1].Where != "f:2" || sources[2].Where != "h:1" {
		t.Fatalf("sources %+v", sources)
	}
	after := func(p, mv string) engine.Position {
		q, err := engine.ParsePosition(p)
		if err != nil {
			t.Fatal(err)
		}
		tr := engine.NewTurn(q)
		if err := tr.PlayMove(mv); err != nil {
			t.Fatal(err)
		}
		return tr.End()
	}
	want := []struct {
		source int
		pos    engine.Position
	}{
		{0, after(pos, "Ee6s re7s Ee5e re6s")},
		{0, after(pos, "Ee6w re7s Cc2w Md2w")},
		{0, after(pos, "Md2n Md3n Md4n Md5n")},
		{1, after(deepCheckMoves[0][0], deepCheckMoves[0][2])},
		{1, after(deepCheckMoves[0][0], deepCheckMoves[0][1])},
		{2, after("g [       rR                                                       ]", "Ra7e")},
	}
	if len(succ) != len(want) {
		t.Fatalf("%d successors, want %d", len(succ), len(want))
	}
	for k, w := range want {
		if succ[k].Source != w.source || succ[k].Pos != w.pos {
			t.Errorf("successor %d: source %d %s, want %d %s", k, succ[k].Source, succ[k].Pos.String(), w.source, w.pos.String())
		}
	}
	bad := &Report{Players: []PlayerReport{{Name: "a", Moves: []Move{{Where: "f:3", Position: pos, Move: "Ee6n Ee7n", Best: "Ee6s"}}}}}
	if _, _, err := ReportSuccessors([]*Report{bad}); err == nil || !strings.Contains(err.Error(), `f:3: move "Ee6n Ee7n"`) {
		t.Errorf("a bad move: %v", err)
	}
	if _, _, err := ReportSuccessors([]*Report{{}}); err == nil {
		t.Error("no judged moves: no error")
	}
}
