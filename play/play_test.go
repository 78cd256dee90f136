package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/setup"
	"github.com/arimaalab/arimaalab/weights"
)

// scripted is a bot that plays the move its script gives for each turn label.
type scripted map[string]string

func (scripted) Name() string { return "scripted" }

func (s scripted) Move(_ context.Context, g *engine.Game) (string, string, error) {
	m, ok := s[g.Label()]
	if !ok {
		return "", "", fmt.Errorf("no move for %s", g.Label())
	}
	return m, "from the script", nil
}

func parseSetup(t *testing.T, c engine.Color, s string) []engine.Placement {
	t.Helper()
	pls, err := engine.ParseSetup(c, s)
	if err != nil {
		t.Fatal(err)
	}
	return pls
}

func TestPlay(t *testing.T) {
	// The bot (Gold) walks its elephant e2-e3 and back; the person (Silver)
	// does the same with d7-d6, until 5s would bring the opening position
	// about a third time.
	shuffle := scripted{"2g": "Ee2n", "3g": "Ee3s", "4g": "Ee2n", "5g": "Ee3s", "6g": "Ee2n"}
	tests := []struct {
		name    string
		bot     Bot
		opt     Options
		input   string
		want    []string // in this order in the output
		outcome engine.Outcome
		moves   int
		wantErr string
	}{
		{
			name: "goal",
			// Gold's rabbits stand in front; Silver has only an elephant
			// and a rabbit, and the a-file is free once the elephant steps
			// aside.
			bot:   scripted{"2s": "ea8e"},
			opt:   Options{Person: engine.Gold, BotSetup: parseSetup(t, engine.Silver, "ea8 rh8")},
			input: "Ra1\nRa2 Rb2 Rc2 Rd2 Re2 Rf2 Rg2 Rh2 Ha1 Db1 Cc1 Md1 Ee1 Cf1 Dg1 Hh1\nRa2n Ra3n Ra4n Ra5n Ra6n\nRa1n\nRa2s\nhelp\nboard\n2g Ra2n Ra3n Ra4n Ra5n\nRa6n Ra7n\n",
			want: []string{
				"You play Gold (upper-case pieces) against scripted",
				"1g setup> Not a setup: 1 pieces placed, 16 needed: missing 7 R, 2 C, 2 D, 2 H, 1 M, 1 E",
				"1g setup> 1s scripted: ea8 rh8",
				`2g your move> Illegal: step 5 "Ra6n": the turn already has 4 steps`,
				`2g your move> Illegal: step 1 "Ra1n": a1 holds H, not R`,
				`2g your move> Illegal: step 1 "Ra2s": a1 is occupied by H`,
				"2g your move> Type a move as its steps",
				"2g your move> \n    a b c d e f g h",
				"2g your move> 2g you: Ra2n Ra3n Ra4n Ra5n",
				"6 |[R]. x . . x . . | 6",
				"2s scripted: ea8e  (from the script)",
				"8 |[.|e]. . . . . r | 8",
				"3g your move> 3g you: Ra6n Ra7n",
				"You win: Gold wins by goal.",
			},
			outcome: engine.Outcome{Winner: engine.Gold, Reason: engine.Goal},
			moves:   3,
		},
		{
			name: "elimination at the setups",
			bot:  scripted{},
			// A bot without rabbits has lost as soon as the setups are done.
			opt:     Options{Person: engine.Silver, Setup: "standard", BotSetup: parseSetup(t, engine.Gold, "Ed2 Me2")},
			want:    []string{"1g scripted: Ed2 Me2", "1s you: rh8 rg8", "You win: Silver wins by elimination."},
			outcome: engine.Outcome{Winner: engine.Silver, Reason: engine.Elimination},
		},
		{
			name:  "repetition, undo, end of input",
			bot:   shuffle,
			opt:   Options{Person: engine.Silver, BotSetup: setup.Standard(engine.Gold)},
			input: "standard\ned7s\ned6n\nundo\ned6n\ned7s\ned6n\nhh7s\n",
			want: []string{
				"You play Silver (lower-case pieces) against scripted",
				"1g scripted: Ra1 Rb1",
				"1s setup> ",
				"2g scripted is thinking...",
				"2g scripted: Ee2n  (from the script)",
				"2s your move> 2s you: ed7s",
				"3g scripted: Ee3s",
				"3s your move> 3s you: ed6n",
				"4g scripted: Ee2n",
				"4s your move> Taken back: 3s is to play again.",
				"3s your move> 3s you: ed6n",
				"4s your move> 4s you: ed7s",
				"5s your move> Illegal: this move would bring the same position (and side to move) about for the third time",
				"5s your move> 5s you: hh7s",
				"6g scripted: Ee2n",
				"6s your move> \nGame left unfinished.",
			},
			moves: 9,
		},
		{
			name:    "resign",
			bot:     scripted{},
			opt:     Options{Person: engine.Gold, Setup: "standard", BotSetup: setup.Standard(engine.Silver)},
			input:   "undo\nresign\n",
			want:    []string{"1g you: Ra1 Rb1", "2g your move> Nothing of yours to take back.", "Silver wins by resignation."},
			outcome: engine.Outcome{Winner: engine.Silver, Reason: engine.Resignation},
		},
		{
			name:    "bad setup flag",
			bot:     scripted{},
			opt:     Options{Person: engine.Gold, Setup: "Ra1 Rb1", BotSetup: setup.Standard(engine.Silver)},
			wantErr: `setup "Ra1 Rb1": 2 pieces placed, 16 needed`,
		},
		{
			name:    "bot fails",
			bot:     scripted{},
			opt:     Options{Person: engine.Silver, Setup: "standard", BotSetup: setup.Standard(engine.Gold)},
			wantErr: "scripted, turn 2g: no move for 2g",
		},
		{
			name:    "bot plays an illegal move",
			bot:     scripted{"2g": "Ee2s"},
			opt:     Options{Person: engine.Silver, Setup: "standard", BotSetup: setup.Standard(engine.Gold)},
			wantErr: `scripted, turn 2g: illegal move "Ee2s"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			g, o, err := Play(context.Background(), strings.NewReader(tt.input), &out, tt.bot, tt.opt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text := out.String()
			at := 0
			for _, w := range tt.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("output lacks %q after offset %d:\n%s", w, at, text)
				}
				at += i + len(w)
			}
			if o != tt.outcome {
				t.Errorf("outcome %v, want %v", o, tt.outcome)
			}
			if n := len(g.Moves()); n != tt.moves {
				t.Errorf("%d moves played, want %d", n, tt.moves)
			}
		})
	}
}

// TestExplain checks the reasons given for illegal moves, on a game with
// handicap setups: Gold's rabbit on a2 frozen by Silver's elephant on a3.
func TestExplain(t *testing.T) {
	g := engine.NewGame()
	for _, s := range []string{"Ee2 Ra2 Rc1 Dh2 Rh1", "ea7 rg7 rh8"} {
		if err := g.PlaySetup(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{"Ee2n", "ea7s ea6s ea5s ea4s"} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ move, want string }{
		{"Ra2e", `step 1 "Ra2e": R on a2 is frozen`},
		{"Rc1n Rc2s", `step 2 "Rc2s": a rabbit cannot step backward`},
		{"ea3e", `step 1 "ea3e": an elephant can never be pushed or pulled`},
		{"rg7s Ee3n", `step 1 "rg7s": no unfrozen stronger Gold piece beside g7 to push it, and no pull into g6`},
		{"Rh1n", `step 1 "Rh1n": h2 is occupied by D`},
		{"Ee3n Ee4n Ee5n Ee6n Ee7n", `step 5 "Ee7n": the turn already has 4 steps`},
		{"Dh2n Dh3s", `the turn must change the board`},
		{"Ee3", `want piece, square and direction, like Ed2n (a step is a piece letter`},
		{"Xe3n", `unknown piece letter 'X' (pieces: E elephant`},
	}
	for _, tt := range tests {
		err := g.Play(tt.move)
		if err == nil {
			t.Errorf("%q: accepted", tt.move)
			continue
		}
		if got := Explain(err); !strings.Contains(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.move, got, tt.want)
		}
	}
	if got := Explain(fmt.Errorf("move: %w", engine.ErrThirdRepetition)); !strings.Contains(got, "repetition rule") {
		t.Errorf("repetition: %q", got)
	}
	if got := Explain(errors.New("other")); got != "other" {
		t.Errorf("other: %q", got)
	}
}

// TestSearchBot plays a few moves against the real search.
func TestSearchBot(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := weights.NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mcts.New(mcts.Config{Visits: 200, Seed: 1}, ev)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	g, _, err := Play(context.Background(), strings.NewReader("\nDb2n\nDb3n\nquit\n"), &out, NewSearchBot("gen0", s),
		Options{Person: engine.Gold, BotSetup: setup.Standard(engine.Silver)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Moves()); n != 4 {
		t.Fatalf("%d moves, want 4 (2g, 2s, 3g, 3s):\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "2s gen0: ") || !strings.Contains(out.String(), "simulations") {
		t.Errorf("no note of the bot's search:\n%s", out.String())
	}
}
