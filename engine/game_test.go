package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestGameSetup(t *testing.T) {
	tests := []struct {
		name   string
		setups []string // played in order; the last one is expected to fail when errs is set
		errs   []string
	}{
		{name: "standard", setups: []string{recGoldSetup, recSilverSetup}},
		{name: "handicap", setups: []string{recGoldSetup, "ra8 rb8 ed7 me7"}},
		{name: "silver first", setups: []string{recSilverSetup},
			errs: []string{"setup g", "Silver piece in Gold's setup"}},
		{name: "gold on silver ranks", setups: []string{"Ra7"},
			errs: []string{"setup g", "own two ranks"}},
		{name: "too many elephants", setups: []string{"Ea1 Eb1"},
			errs: []string{"setup g", "more than 1 of E"}},
		{name: "square twice", setups: []string{"Ra1 Ca1"},
			errs: []string{"setup g", "used twice"}},
		{name: "empty", setups: []string{""},
			errs: []string{"setup g", "no pieces"}},
		{name: "malformed", setups: []string{"Ra1 Rb"},
			errs: []string{"setup g", `"Rb"`}},
		{name: "third setup", setups: []string{recGoldSetup, recSilverSetup, recGoldSetup},
			errs: []string{"both sides have set up"}},
	}
	for _, tc := range tests {
		g := NewGame()
		var err error
		for i, s := range tc.setups {
			err = g.PlaySetup(s)
			if err != nil && (tc.errs == nil || i != len(tc.setups)-1) {
				t.Fatalf("%s: setup %d: %v", tc.name, i+1, err)
			}
		}
		if tc.errs != nil {
			recWantErr(t, tc.name, err, tc.errs...)
		}
	}

	// Setup with placements checks them as PlaySetup does.
	g := NewGame()
	recWantErr(t, "Setup(Silver) first", g.Setup(Silver, []Placement{{MakePiece(Silver, Rabbit), 56}}), "Gold sets up first")
	recWantErr(t, "Setup wrong colour", g.Setup(Gold, []Placement{{MakePiece(Silver, Rabbit), 0}}), "Silver piece")
	recWantErr(t, "move before setup", g.Play("Ed2n"), "setups", "Gold must set up first")

	g = recStartGame(t)
	if g.Label() != "2g" || g.TurnNumber() != 2 || g.Side() != Gold {
		t.Errorf("after setups: label %s, turn %d, side %s; want 2g, 2, g", g.Label(), g.TurnNumber(), g.Side())
	}
	p := g.Position()
	if g.RepetitionCount(&p) != 1 {
		t.Errorf("position after setups counted %d times, want 1", g.RepetitionCount(&p))
	}
	if got := FormatSetup(g.SetupOf(Silver)); got != recSilverSetup {
		t.Errorf("SetupOf(Silver) = %q", got)
	}
}

func TestGamePlay(t *testing.T) {
	g := recStartGame(t)
	moves := []string{"Ed2n Ed3n", "ed7s", "Me2n Me3n Me4n Ed4e", "hg7s hg6s"}
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatalf("Play(%q): %v", m, err)
		}
	}
	if g.Label() != "4g" || g.Outcome().Over() {
		t.Errorf("label %s, outcome %v; want 4g, not over", g.Label(), g.Outcome())
	}
	if !slices.Equal(g.Moves(), moves) {
		t.Errorf("Moves() = %q", g.Moves())
	}
	turns := g.Turns()
	wantLabels := []string{"1g", "1s", "2g", "2s", "3g", "3s"}
	for i, tu := range turns {
		if label, _, _ := strings.Cut(tu, " "); i >= len(wantLabels) || label != wantLabels[i] {
			t.Errorf("Turns()[%d] = %q", i, tu)
		}
	}
	// PlaySteps plays what Play plays; a failing move leaves the game unchanged.
	before := g.Position()
	recWantErr(t, "illegal step", g.Play("Ra2n Ra3n hb7s"), `step 3 "hb7s"`, "no unfrozen stronger Gold piece")
	recWantErr(t, "no change", g.Play("Ee4w Ed4e"), "must change the board")
	recWantErr(t, "no change (steps)", g.PlaySteps([]Step{{MakePiece(Gold, Elephant), 28, West}, {MakePiece(Gold, Elephant), 27, East}}), "must change the board")
	recWantErr(t, "illegal step (steps)", g.PlaySteps([]Step{{MakePiece(Gold, Elephant), 8, North}}), `step 1 "Ea2n"`, "a2 holds R")
	recWantErr(t, "no steps", g.PlaySteps(nil), "1 to 4 steps")
	if after := g.Position(); after.Key() != before.Key() || len(g.Moves()) != 4 {
		t.Fatalf("a refused move changed the game")
	}
	steps, _ := ParseSteps("Ra2n Ra3n")
	if err := g.PlaySteps(steps); err != nil {
		t.Fatal(err)
	}
	if got := g.Moves()[4]; got != "Ra2n Ra3n" {
		t.Errorf("move stored as %q", got)
	}
	// Undo takes the move back, history included.
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if p := g.Position(); p.Key() != before.Key() || g.Label() != "4g" || g.RepetitionCount(&p) != 1 {
		t.Errorf("after Undo: %s, label %s", p.String(), g.Label())
	}
	if g.PositionBefore(3).Side != Silver {
		t.Errorf("PositionBefore(3) has the wrong side to move")
	}
	// Captures are stored in the moves even when left out of the text.
	g = NewGame()
	if err := g.PlaySetup("Ra1 Ed2 Cc2"); err != nil {
		t.Fatal(err)
	}
	if err := g.PlaySetup("ra8 eh8"); err != nil {
		t.Fatal(err)
	}
	if err := g.Play("Cc2n Ed2w"); err != nil {
		t.Fatal(err)
	}
	if got := g.Moves()[0]; got != "Cc2n Cc3x Ed2w" {
		t.Errorf("move stored as %q, want the capture written", got)
	}
}

func TestGameLegalMoves(t *testing.T) {
	g := recStartGame(t)
	moves := g.LegalMoves()
	if len(moves) == 0 {
		t.Fatal("no legal moves at the start")
	}
	start := g.Position()
	for _, m := range moves[:100] {
		tr := NewTurn(start)
		for _, s := range m.Steps {
			if _, err := tr.Step(s); err != nil {
				t.Fatalf("generated move %v: %v", m.Steps, err)
			}
		}
		if end := tr.End(); end.Key() != m.Pos.Key() {
			t.Fatalf("generated move %v reaches another position", m.Steps)
		}
	}
	if NewGame().LegalMoves() != nil {
		t.Error("LegalMoves before the setups is not nil")
	}
}

func TestGameThirdRepetition(t *testing.T) {
	g := recStartGame(t)
	cycle := []string{"Ed2n", "ed7s", "Ed3s", "ed6n"}
	// The position after the setups stands for the second time after 3s; the
	// next cycle would bring it a third time with its last move.
	for round := range 2 {
		for i, m := range cycle {
			if round == 1 && i == 3 {
				err := g.Play(m)
				recWantErr(t, "third repetition", err, "third repetition", `"ed6n"`)
				if !errors.Is(err, ErrThirdRepetition) {
					t.Errorf("error %v is not ErrThirdRepetition", err)
				}
				continue
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("round %d, move %q: %v", round+1, m, err)
			}
		}
	}
	// The repetition does not end the game: Silver has other moves.
	if g.Outcome().Over() {
		t.Errorf("outcome %v", g.Outcome())
	}
	for _, m := range g.LegalMoves() {
		q := m.Pos
		if g.RepetitionCount(&q) >= 2 {
			t.Fatalf("LegalMoves lists a third repetition: %v", m.Steps)
		}
	}
	if err := g.Play("ed6s"); err != nil {
		t.Fatal(err)
	}
}

// recGameAt returns a started game standing at p with history h.
func recGameAt(p Position, h *History) *Game {
	g := NewGame()
	g.nsetups, g.turn, g.pos, g.hist = 2, 10, p, h
	return g
}

func TestGameRepetitionEnding(t *testing.T) {
	// Silver, to move, has only its rabbit on a5 to move (Gold's rabbit a4
	// blocks it south); make every move it has a third repetition, then all but one.
	p := recPos(t, Silver, "Ra4 Eh1 ra5")
	moves := GenMoves(p, nil)
	if len(moves) < 3 {
		t.Fatalf("only %d moves", len(moves))
	}
	h := NewHistory()
	h.Add(&p)
	for _, m := range moves {
		h.Add(&m.Pos)
		h.Add(&m.Pos)
	}
	g := recGameAt(p, h)
	if got := g.endOfTurn(); got != (Outcome{Gold, Repetition}) {
		t.Errorf("all moves repeat: outcome %v, want Gold wins by repetition", got)
	}
	if got := EndOfTurn(&p, h, nil); got != (Outcome{Gold, Repetition}) {
		t.Errorf("EndOfTurn: %v", got)
	}
	for i := range moves {
		h2 := h.Clone()
		h2.Remove(&moves[i].Pos)
		g := recGameAt(p, h2)
		if got := g.endOfTurn(); got.Over() {
			t.Errorf("move %d left: outcome %v, want not over", i, got)
		}
		// The quick search finds the move left, or gives up within a small budget.
		if !g.fresh.find(&p, h2, 1<<20) {
			t.Errorf("move %d left: the quick search does not find it", i)
		}
		if got := (&freshSearch{}).find(&p, h2, 0); got {
			t.Errorf("a search with no budget found a move")
		}
	}
	// The game refuses moves after the end, and lists none.
	g = recGameAt(p, h)
	g.outcome = g.endOfTurn()
	err := g.Play("ra5e")
	recWantErr(t, "move after the end", err, "game is over", "Gold wins by repetition")
	if !errors.Is(err, ErrGameOver) {
		t.Errorf("error %v is not ErrGameOver", err)
	}
	if g.LegalMoves() != nil {
		t.Error("LegalMoves after the end is not nil")
	}
}

func TestGameEnds(t *testing.T) {
	tests := []struct {
		name, gold, silver string
		moves              []string
		want               Outcome
	}{
		{"goal", "Ra1 Eh1", "rh8 ee8", []string{"Ra1n Ra2n Ra3n Ra4n", "rh8s", "Ra5n Ra6n Ra7n"}, Outcome{Gold, Goal}},
		{"silver goal", "Ra1 Eb2 Rb1", "rh8 ee8", []string{"Ra1n", "rh8s rh7s rh6s rh5s", "Ra2n", "rh4s rh3s rh2s"}, Outcome{Silver, Goal}},
		{"elimination", "Ra1 Ec2", "rc7 eh8", []string{"Ec2e Ed2n Ed3n Ed4n", "eh8w", "Ed5n Ed6n", "eg8w", "rc7s rc6x Ed7w"}, Outcome{Gold, Elimination}},
		{"immobilization", "Ra1 Ea2", "ra8", []string{"Ea2n Ea3n Ea4n Ea5n", "ra8s", "Ra1n"}, Outcome{Gold, Immobilization}},
	}
	for _, tc := range tests {
		g := NewGame()
		if err := g.PlaySetup(tc.gold); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := g.PlaySetup(tc.silver); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, m := range tc.moves {
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: Play(%q): %v", tc.name, m, err)
			}
		}
		if g.Outcome() != tc.want {
			t.Errorf("%s: outcome %v, want %v\n%s", tc.name, g.Outcome(), tc.want, g.pos.Diagram())
		}
		err := g.Play("Ra1n")
		if !errors.Is(err, ErrGameOver) {
			t.Errorf("%s: move after the end: error %v, want ErrGameOver", tc.name, err)
		}
	}
	// A setup without rabbits loses at once.
	g := NewGame()
	if err := g.PlaySetup("Ra1 Eb1"); err != nil {
		t.Fatal(err)
	}
	if err := g.PlaySetup("ea8"); err != nil {
		t.Fatal(err)
	}
	if g.Outcome() != (Outcome{Gold, Elimination}) {
		t.Errorf("rabbitless setup: outcome %v", g.Outcome())
	}
}
