package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// scripted plays the moves of a table, by position, and records the seeds it
// was given.
type scripted struct {
	name  string
	moves map[string]string // position -> move
	seeds map[string]uint64
}

func (p *scripted) Name() string { return p.name }

func (p *scripted) Move(_ context.Context, pos engine.Position, _ *engine.History, seed uint64) (string, error) {
	m, ok := p.moves[pos.String()]
	if !ok {
		return "", fmt.Errorf("no move for %s", pos.String())
	}
	if p.seeds == nil {
		p.seeds = map[string]uint64{}
	}
	p.seeds[pos.String()] = seed
	return m, nil
}

func (p *scripted) Close() error { return nil }

// after returns the position after move in pos.
func after(t *testing.T, pos, move string) string {
	t.Helper()
	p, err := engine.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	turn := engine.NewTurn(p)
	if err := turn.PlayMove(move); err != nil {
		t.Fatal(err)
	}
	end := turn.End()
	return end.String()
}

// near reports whether a and b agree to 1e-9.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

// TestRun judges two scripted players on three positions with the fake
// engine and checks every figure: the regrets (before + after, the after
// position scored for the opponent: mirrored when Silver is to move, by the
// rules when the move wins), the blunders (regret 2 counts), the win
// probabilities, the 95 % intervals (Student's t with 2 degrees of freedom,
// (2p-1)/sqrt(2p(1-p)) at p = 0.975), the paired difference, the worst moves,
// the seeds and the engine's work (each position judged once).
func TestRun(t *testing.T) {
	p0 := board(t, engine.Gold, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	p1 := board(t, engine.Silver, "Md4 Ra1 Rc2 rh7 rb8 ce6")
	p2 := board(t, engine.Gold, "Ra7 Rc1 rh8 ee5 Ed2")
	a := &scripted{name: "A", moves: map[string]string{p0: "Ed4n", p1: "rh7s", p2: "Ra7n"}}
	b := &scripted{name: "B", moves: map[string]string{p0: "Ra1n", p1: "rh7s", p2: "Rc1n"}}
	table := []score{
		{pos: p0, kind: "info", value: "300", move: "Ed4w"},                 // before: +3 for Gold
		{pos: mirror(t, after(t, p0, "Ed4n")), kind: "log", value: "-1500"}, // A's: -1.5 for Silver
		{pos: mirror(t, after(t, p0, "Ra1n")), kind: "info", value: "250"},  // B's: +2.5 for Silver
		{pos: mirror(t, p1), kind: "log", value: "800", move: "Rh2n"},       // before: +0.8 for Silver
		{pos: after(t, p1, "rh7s"), kind: "info", value: "-100"},            // both: -1 for Gold
		{pos: p2, kind: "both", value: "-200", move: "Ra7n"},                // before: -2 for Gold
		{pos: mirror(t, after(t, p2, "Rc1n")), kind: "info", value: "400"},  // B's: +4 for Silver; A's goal needs no engine
	}
	e, log := startFake(t, table, Options{})
	positions := []Position{{Pos: parse(t, p0), Where: "p0"}, {Pos: parse(t, p1), Where: "p1"}, {Pos: parse(t, p2), Where: "p2"}}
	var progress []int
	rep, err := Run(t.Context(), e, e.Describe(), []Player{a, b}, positions, Config{Seed: 9, Worst: 2, Progress: func(done, total int) {
		if total != 3 {
			t.Errorf("progress total %d", total)
		}
		progress = append(progress, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(progress) != "[1 2 3]" {
		t.Errorf("progress %v", progress)
	}
	if rep.Judge != "fake 1" || rep.Positions != 3 || rep.Blunder != 2 || rep.WinScale != 0.13 {
		t.Errorf("report %q %d %g %g", rep.Judge, rep.Positions, rep.Blunder, rep.WinScale)
	}
	win := func(x float64) float64 { return 1 / (1 + math.Exp(-0.13*x)) }
	tq := 0.95 / math.Sqrt(2*0.975*0.025)
	type want struct {
		regrets, before, after []float64
		best                   []string
		mean, lo, hi           float64
		blunders               int
		worst                  []string
	}
	for k, w := range []want{
		{regrets: []float64{1.5, -0.2, -22}, before: []float64{3, 0.8, -2}, after: []float64{1.5, 1, 20},
			mean: -6.9, lo: -39.45357976560421, hi: 25.653579765604213, blunders: 0, worst: []string{"p0", "p1"}},
		{regrets: []float64{5.5, -0.2, 2}, before: []float64{3, 0.8, -2}, after: []float64{-2.5, 1, -4},
			mean: 7.3 / 3, lo: -4.707572464430394, hi: 9.57423913109706, blunders: 2, worst: []string{"p0", "p2"}},
	} {
		pr := rep.Players[k]
		best := []string{"Ed4w", "rh7s", "Ra7n"}
		var winSum float64
		for i, m := range pr.Moves {
			if m.Index != i || m.Where != positions[i].Where || m.Position != positions[i].Pos.String() || m.Best != best[i] ||
				!near(m.Regret, w.regrets[i]) || !near(m.Before, w.before[i]) || !near(m.After, w.after[i]) || !near(m.WinProb, win(w.after[i])) {
				t.Errorf("%s, position %d: %+v; want regret %g, before %g, after %g, best %s", pr.Name, i, m, w.regrets[i], w.before[i], w.after[i], best[i])
			}
			winSum += win(w.after[i])
		}
		if pr.Name != []string{"A", "B"}[k] || pr.Positions != 3 || len(pr.Moves) != 3 || !near(pr.MeanRegret, w.mean) || pr.Interval == nil ||
			!near(pr.Interval.Lo, w.lo) || !near(pr.Interval.Hi, w.hi) || pr.Blunders != w.blunders ||
			!near(pr.BlunderShare, float64(w.blunders)/3) || !near(pr.WinProb, winSum/3) {
			t.Errorf("player %d: %+v; want mean %g (%g to %g), %d blunders", k, pr, w.mean, w.lo, w.hi, w.blunders)
		}
		if pr.Interval != nil && !near(pr.Interval.Hi-pr.MeanRegret, pr.MeanRegret-pr.Interval.Lo) {
			t.Errorf("player %d: interval not centred on the mean", k)
		}
		var worst []string
		for _, m := range pr.Worst {
			worst = append(worst, m.Where)
		}
		if strings.Join(worst, " ") != strings.Join(w.worst, " ") {
			t.Errorf("player %d: worst %v, want %v", k, worst, w.worst)
		}
	}
	// The differences A - B are -4, 0 and -24.
	d := []float64{-4, 0, -24}
	mean := (d[0] + d[1] + d[2]) / 3
	var ss float64
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	half := tq * math.Sqrt(ss/2/3)
	if p := rep.Paired; p == nil || p.A != "A" || p.B != "B" || p.Positions != 3 || p.Same != 1 || !near(p.MeanDiff, -28.0/3) ||
		p.Interval == nil || !near(p.Interval.Lo, -41.27487537910984) || !near(p.Interval.Hi, 22.608208712443172) ||
		!near(p.Interval.Hi, mean+half) {
		t.Errorf("paired %+v, want mean %g (%g to %g), 1 same", rep.Paired, mean, mean-half, mean+half)
	}
	// Both players got the same seed in a position, each position its own.
	seen := map[uint64]bool{}
	for i, ps := range positions {
		s := ps.Pos.String()
		if a.seeds[s] != b.seeds[s] || a.seeds[s] != PositionSeed(9, i) {
			t.Errorf("position %d: seeds %d and %d, want %d", i, a.seeds[s], b.seeds[s], PositionSeed(9, i))
		}
		seen[a.seeds[s]] = true
	}
	if len(seen) != 3 {
		t.Errorf("seeds %v not all different", seen)
	}
	// Seven searches: three positions before, one after each different move
	// that does not end the game.
	if gos := received(t, log, "go"); len(gos) != 7 {
		t.Errorf("%d searches, want 7", len(gos))
	}

	// The text and the JSON carry the figures.
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"judge        fake 1\n", "positions    3\n",
		"A               3  -6.900 (-39.454 to +25.654)", "0 (0.0 %)",
		"B               3  +2.433 (-4.708 to +9.574)", "2 (66.7 %)",
		"A minus B, paired: -9.333 (-41.275 to +22.608) rabbits over 3 positions (the same move in 1)",
		"worst moves of A:\n    +1.50  p0\n           played Ed4n (after +1.50); the judge's best Ed4w (before +3.00)\n           " + p0 + "\n",
	} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the text has no %q:\n%s", s, text.String())
		}
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Paired == nil || back.Paired.Same != 1 || len(back.Players) != 2 || back.Players[1].Blunders != 2 || len(back.Players[0].Moves) != 3 {
		t.Errorf("JSON round trip: %s", js)
	}
}

// TestRunOnePlayer checks a report of one player: no pair, no interval for a
// single position, every move listed as worst with Worst left at its default.
func TestRunOnePlayer(t *testing.T) {
	p0 := board(t, engine.Gold, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	e, _ := startFake(t, []score{
		{pos: p0, kind: "info", value: "0"},
		{pos: mirror(t, after(t, p0, "Ed4n")), kind: "info", value: "-50"},
	}, Options{})
	a := &scripted{name: "A", moves: map[string]string{p0: "Ed4n"}}
	rep, err := Run(t.Context(), e, "fake", []Player{a}, []Position{{Pos: parse(t, p0), Where: "p0"}}, Config{Blunder: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	pr := rep.Players[0]
	if rep.Paired != nil || pr.Interval != nil || !near(pr.MeanRegret, -0.5) || pr.Blunders != 0 || len(pr.Worst) != 1 || rep.Blunder != 0.25 {
		t.Errorf("%+v", rep)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "A               1  -0.500 ") || strings.Contains(text.String(), "paired") {
		t.Errorf("text:\n%s", text.String())
	}
}

// TestRunErrors checks that an illegal move, a player that fails and empty
// inputs are errors naming the position.
func TestRunErrors(t *testing.T) {
	p0 := board(t, engine.Gold, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	e, _ := startFake(t, []score{{pos: p0, kind: "info", value: "0"}}, Options{})
	pos := []Position{{Pos: parse(t, p0), Where: "file:7"}}
	for _, c := range []struct {
		name      string
		players   []Player
		positions []Position
		err       string
	}{
		{"illegal", []Player{&scripted{name: "A", moves: map[string]string{p0: "Ed4s Ed3s Ed2s Ed1s"}}}, pos, `file:7: A: move "Ed4s Ed3s Ed2s Ed1s"`},
		{"no move", []Player{&scripted{name: "A", moves: map[string]string{}}}, pos, "file:7: A: no move for"},
		{"unchanged", []Player{&scripted{name: "A", moves: map[string]string{p0: "Ed4n Ed5s"}}}, pos, `file:7: A: move "Ed4n Ed5s"`},
		{"no players", nil, pos, "no players"},
		{"no positions", []Player{&scripted{name: "A"}}, nil, "no positions"},
	} {
		_, err := Run(t.Context(), e, "fake", c.players, c.positions, Config{})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.err)
		}
	}
}

// TestPositionSeed checks that the seeds differ by position and by run seed.
func TestPositionSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for s := range uint64(4) {
		for i := range 50 {
			seen[PositionSeed(s, i)] = true
		}
	}
	if len(seen) != 200 {
		t.Errorf("%d different seeds of 200", len(seen))
	}
}

func parse(t *testing.T, s string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// blindScripted is a scripted player that cannot see the game's history,
// as an AEI engine given the position alone.
type blindScripted struct{ scripted }

func (p *blindScripted) HistoryBlind() bool { return true }

// TestRunSkipsBannedRepetitions checks that a position where the game's
// history bans a move is left out, and reported, when a player cannot see
// the history, and judged when every player can.
func TestRunSkipsBannedRepetitions(t *testing.T) {
	p0 := board(t, engine.Gold, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	banned := parse(t, after(t, p0, "Ed4n"))
	hist := engine.NewHistory()
	hist.Add(&banned)
	hist.Add(&banned)
	e, _ := startFake(t, []score{
		{pos: p0, kind: "info", value: "0"},
		{pos: mirror(t, after(t, p0, "Ed4e")), kind: "info", value: "-50"},
	}, Options{})
	moves := map[string]string{p0: "Ed4e"}
	positions := []Position{
		{Pos: parse(t, p0), Hist: hist, Where: "game 1 12g"},
		{Pos: parse(t, p0), Where: "game 2 7g"},
	}
	for _, c := range []struct {
		name    string
		player  Player
		judged  int
		skipped bool
	}{
		{"blind", &blindScripted{scripted{name: "A", moves: moves}}, 1, true},
		{"seeing", &scripted{name: "A", moves: moves}, 2, false},
	} {
		rep, err := Run(t.Context(), e, "fake", []Player{c.player}, positions, Config{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rep.Positions != c.judged || len(rep.Players[0].Moves) != c.judged || (len(rep.Skipped) == 1) != c.skipped {
			t.Errorf("%s: %d positions judged, skipped %q; want %d judged, skipped %v", c.name, rep.Positions, rep.Skipped, c.judged, c.skipped)
		}
		var text strings.Builder
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text.String(), "skipped      1 (game 1 12g: "); got != c.skipped {
			t.Errorf("%s: the text names the skipped position: %v, want %v\n%s", c.name, got, c.skipped, text.String())
		}
	}
}

// TestByTurn: moves of game positions are summed up by bands of four turns,
// the last open-ended, empty bands and position files' moves left out.
func TestByTurn(t *testing.T) {
	moves := []Move{
		{Turn: 2, Regret: 0.1, Before: 0},
		{Turn: 3, Regret: 0.3, Before: -1},
		{Turn: 5, Regret: 2.5, Before: -2},
		{Turn: 6, Regret: 1, Before: -3},
		{Turn: 12, Regret: -0.5, Before: 4},
		{Turn: 25, Regret: 3, Before: -10},
		{Turn: 0, Regret: 9, Before: 9}, // a position file's
	}
	got := byTurn(moves, 2)
	want := []Band{
		{First: 2, Last: 5, Positions: 3, MeanRegret: 2.9 / 3, Blunders: 1, MeanBefore: -1},
		{First: 6, Last: 9, Positions: 1, MeanRegret: 1, MeanBefore: -3},
		{First: 10, Last: 13, Positions: 1, MeanRegret: -0.5, MeanBefore: 4},
		{First: 22, Positions: 1, MeanRegret: 3, Blunders: 1, MeanBefore: -10},
	}
	if len(got) != len(want) {
		t.Fatalf("bands %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.First != w.First || g.Last != w.Last || g.Positions != w.Positions || !near(g.MeanRegret, w.MeanRegret) ||
			g.Blunders != w.Blunders || !near(g.MeanBefore, w.MeanBefore) || (g.Interval == nil) != (w.Positions < 2) {
			t.Errorf("band %d: %+v, want %+v", i, g, w)
		}
	}
	rep := &Report{Judge: "j", Positions: 7, Blunder: 2, Players: []PlayerReport{{Name: "A", Positions: 7, ByTurn: got}}}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"by turn, A", "  2-5               3  +0.967 (", "  22+               1  +3.000                               1  -10.00"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the text has no %q:\n%s", s, text.String())
		}
	}
	if b := byTurn(moves[6:], 2); b != nil {
		t.Errorf("position files' moves: bands %+v, want none", b)
	}
	for _, tc := range []struct {
		ps   Position
		want int
	}{
		{Position{Game: &Game{}, Ply: 0}, 2},
		{Position{Game: &Game{}, Ply: 1}, 2},
		{Position{Game: &Game{}, Ply: 5}, 4},
		{Position{}, 0},
	} {
		if got := tc.ps.turn(); got != tc.want {
			t.Errorf("ply %d (game %v): turn %d, want %d", tc.ps.Ply, tc.ps.Game != nil, got, tc.want)
		}
	}
}

// TestRunSkipsDecided: with Config.Decided, the positions the judge scores
// that far from 0 for either side are judged before the move only, no
// player moves in them (the scripted player has no move there), and the
// report lists them as skipped; when every position is decided, Run fails.
func TestRunSkipsDecided(t *testing.T) {
	p0 := board(t, engine.Gold, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	lost := board(t, engine.Gold, "Ed5 Ra1 Rb2 rh7 ra8 ce6")
	won := board(t, engine.Gold, "Ed3 Ra1 Rb2 rh7 ra8 ce6")
	scores := map[string]float64{p0: 0.5, lost: -7, won: 6, after(t, p0, "Ed4n"): 0.25}
	j := &scorer{score: func(p *engine.Position) float64 { return scores[p.String()] }}
	a := &scripted{name: "A", moves: map[string]string{p0: "Ed4n"}}
	positions := []Position{{Pos: parse(t, lost), Where: "lost"}, {Pos: parse(t, p0), Where: "open"}, {Pos: parse(t, won), Where: "won"}}
	rep, err := Run(t.Context(), j, "table", []Player{a}, positions, Config{Decided: 6})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"lost: decided, the judge scores it -7.00 for the side to move", "won: decided, the judge scores it +6.00 for the side to move"}
	if rep.Positions != 1 || len(rep.Players[0].Moves) != 1 || rep.Players[0].Moves[0].Where != "open" || !near(rep.Players[0].MeanRegret, 0.5+0.25) ||
		strings.Join(rep.Skipped, "\n") != strings.Join(want, "\n") {
		t.Errorf("report %+v, skipped %q", rep, rep.Skipped)
	}
	// With the bound above every score no position is decided, and the
	// player is asked to move in the lost one.
	if _, err := Run(t.Context(), j, "table", []Player{a}, positions, Config{Decided: 7.5}); err == nil || !strings.Contains(err.Error(), "lost: A: no move for") {
		t.Errorf("Decided 7.5: %v, want the player asked to move in the lost position", err)
	}
	if _, err := Run(t.Context(), j, "table", []Player{a}, positions[:1], Config{Decided: 6}); err == nil || !strings.Contains(err.Error(), "every position was skipped (lost: decided") {
		t.Errorf("every position decided: %v", err)
	}
}
