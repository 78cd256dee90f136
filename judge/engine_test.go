package judge

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// TestParseEvalLog checks the reading of Sharp's log line.
func TestParseEvalLog(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want int
		ok   bool
	}{
		{"Depth 5 Eval 236 Time 0.0196 Seed aef873773c0e6a68", 236, true},
		{"Depth 4 Eval 999988 Time 0.000936 Seed a8024ea076636d93", 999988, true},
		{"Depth 5 Eval -3426 Time 0.13883", -3426, true},
		{"Depth 12+ Eval -7 Time 3", -7, true},
		{"Depth 5 Eval 0", 0, true},
		{"Depth 5 Eval", 0, false},
		{"Depth 5 Eval 2.5 Time 1", 0, false},
		{"Depth five Eval 25", 0, false},
		{"Eval 25 Depth 5", 0, false},
		{"depth 5 eval 25", 0, false},
		{"Started new game", 0, false},
		{"", 0, false},
	} {
		got, ok := parseEvalLog(c.msg)
		if got != c.want || ok != c.ok {
			t.Errorf("parseEvalLog(%q) = %d, %v; want %d, %v", c.msg, got, ok, c.want, c.ok)
		}
	}
}

// TestScoreOf checks which of an engine's reports gives the score.
func TestScoreOf(t *testing.T) {
	for _, c := range []struct {
		name string
		info aei.Info
		want int
		src  Source
		ok   bool
	}{
		{"info score", aei.Info{Score: -40, HasScore: true}, -40, FromInfo, true},
		{"info score first", aei.Info{Score: 12, HasScore: true, Logs: []string{"Depth 5 Eval 999 Time 1"}}, 12, FromInfo, true},
		{"info score 0", aei.Info{HasScore: true, Logs: []string{"Depth 5 Eval 999 Time 1"}}, 0, FromInfo, true},
		{"last log line", aei.Info{Logs: []string{"Depth 4 Eval 10 Time 1", "Depth 5 Eval 20 Time 2", "Exiting"}}, 20, FromLog, true},
		{"none", aei.Info{Logs: []string{"Started new game"}, Lines: []string{"depth 5"}}, 0, "", false},
	} {
		got, src, ok := ScoreOf(c.info)
		if got != c.want || src != c.src || ok != c.ok {
			t.Errorf("%s: ScoreOf = %d, %q, %v; want %d, %q, %v", c.name, got, src, ok, c.want, c.src, c.ok)
		}
	}
}

// TestEngineEval judges positions with the fake engine, which, as Sharp,
// searches for Gold whatever the side to move: a position with Silver to move
// is found in its table only when given as its mirror image. Scores are
// divided by the units of their source and clamped; the engine's move comes
// back mirrored.
func TestEngineEval(t *testing.T) {
	gold := board(t, engine.Gold, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	silver := board(t, engine.Silver, "Ed4 Ra1 Rb2 rh7 ra8 ce6")
	silverMirror := mirror(t, silver)
	other := board(t, engine.Gold, "Me4 Ra1 Rb2 rh7 ra8 de6")
	otherSilver := board(t, engine.Silver, "Me4 Ra1 Rb2 rh7 ra8 de6")
	silverLost := board(t, engine.Silver, "Ra8 rh2")    // Gold's rabbit reached goal
	goldWon := board(t, engine.Gold, "Ra8 rh2 Ee4 rb3") // Silver's turn ended with Gold's rabbit on goal
	noScore := board(t, engine.Gold, "Ec4 Rd1 rh8")
	table := []score{
		{pos: gold, kind: "info", value: "250", move: "Ed4n Ed5n"},
		{pos: silverMirror, kind: "log", value: "-1234", move: "Rh2n Rh3n"},
		{pos: other, kind: "both", value: "-5000"},
		{pos: mirror(t, otherSilver), kind: "log", value: "999988"},
		{pos: noScore, kind: "none"},
	}
	for _, c := range []struct {
		name  string
		pos   string
		unit  float64
		clamp float64
		want  Eval
		err   string
		asked string // the board sent, as a position with Gold to move ("": none)
	}{
		{name: "gold info score", pos: gold, want: Eval{Score: 2.5, Raw: 250, Source: FromInfo, Best: "Ed4n Ed5n"}, asked: gold},
		{name: "silver mirrored, log eval", pos: silver, want: Eval{Score: -1.234, Raw: -1234, Source: FromLog, Best: "rh7s rh6s"}, asked: silverMirror},
		{name: "info score before log, clamped", pos: other, want: Eval{Score: -20, Raw: -5000, Source: FromInfo}, asked: other},
		{name: "unit and clamp", pos: other, unit: 1000, clamp: 3, want: Eval{Score: -3, Raw: -5000, Source: FromInfo}, asked: other},
		{name: "unit", pos: other, unit: 10000, want: Eval{Score: -0.5, Raw: -5000, Source: FromInfo}, asked: other},
		{name: "a win clamped", pos: otherSilver, want: Eval{Score: 20, Raw: 999988, Source: FromLog}, asked: mirror(t, otherSilver)},
		{name: "game over, lost", pos: silverLost, want: Eval{Score: -20, Source: FromRules}},
		{name: "game over, won", pos: goldWon, clamp: 5, want: Eval{Score: 5, Source: FromRules}},
		{name: "no score", pos: noScore, err: "no score for " + noScore, asked: noScore},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, log := startFake(t, table, Options{Unit: c.unit, Clamp: c.clamp, Options: [][2]string{{"depth", "4"}, {"hash", "16"}}})
			p, err := engine.ParsePosition(c.pos)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Eval(t.Context(), p, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Eval = %+v, %v; want an error with %q", got, err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if c.err == "" {
				if c.want.Best == "" && c.asked != "" { // the fake's first move, mirrored back
					g := engine.NewMoveGen()
					a, _ := engine.ParsePosition(c.asked)
					g.Generate(&a, nil)
					c.want.Best = engine.FormatMove(a, g.Steps(0, nil))
					if p.Side == engine.Silver {
						c.want.Best, _ = aei.MirrorMove(c.want.Best)
					}
				}
				if got != c.want {
					t.Errorf("Eval = %+v; want %+v", got, c.want)
				}
				if got.Best != "" {
					if turn := engine.NewTurn(p); turn.PlayMove(got.Best) != nil {
						t.Errorf("the best move %q is not legal in %s", got.Best, c.pos)
					}
				}
			}
			var want []string
			if c.asked != "" {
				want = []string{"newgame", "setposition g " + c.asked[2:], "go"}
			}
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			sent := received(t, log, "setoption", "newgame", "setposition", "go")
			wantOpts := []string{"setoption name depth value 4", "setoption name hash value 16"}
			if strings.Join(sent, "\n") != strings.Join(append(wantOpts, want...), "\n") {
				t.Errorf("the engine got\n%s\nwant\n%s", strings.Join(sent, "\n"), strings.Join(append(wantOpts, want...), "\n"))
			}
		})
	}
}

// TestEngineErrors checks that an engine that dies, or a setup given to judge,
// is an error.
func TestEngineErrors(t *testing.T) {
	e, _ := startFake(t, []score{{pos: board(t, engine.Gold, "Ed4 rh8"), kind: "info", value: "1"}}, Options{})
	setup, _ := engine.ParsePosition(board(t, engine.Silver, "Ed4 Ra1"))
	if _, _, err := e.Search(t.Context(), setup); err == nil || !strings.Contains(err.Error(), "a setup") {
		t.Errorf("Search of a setup: %v", err)
	}
	unknown, _ := engine.ParsePosition(board(t, engine.Gold, "Ed5 Ra1 rh8"))
	if _, err := e.Eval(t.Context(), unknown, nil); !errors.Is(err, aei.ErrEngineDied) {
		t.Errorf("Eval of a position the fake does not know (it exits): %v, want ErrEngineDied", err)
	}
	if _, err := Start(t.Context(), Options{Command: "/nonexistent/judge"}); err == nil {
		t.Error("Start of a missing engine: no error")
	}
	if _, err := Start(t.Context(), Options{Command: os.Args[0], Unit: -1}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Start with unit -1: %v", err)
	}
}
