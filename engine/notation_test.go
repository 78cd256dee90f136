package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Helpers of the notation, game and record tests carry a "rec" prefix so that
// they do not collide with helpers of other test files of the package.

// recGoldSetup and recSilverSetup are a usual pair of setups.
const (
	recGoldSetup   = "Ra1 Rb1 Rc1 Dd1 De1 Rf1 Rg1 Rh1 Ra2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Rh2"
	recSilverSetup = "ra8 rb8 rc8 dd8 de8 rf8 rg8 rh8 ra7 hb7 cc7 ed7 me7 cf7 hg7 rh7"
)

// recStartGame returns a game after the two setups above, Gold to move at 2g.
func recStartGame(tb testing.TB) *Game {
	tb.Helper()
	g := NewGame()
	if err := g.PlaySetup(recGoldSetup); err != nil {
		tb.Fatal(err)
	}
	if err := g.PlaySetup(recSilverSetup); err != nil {
		tb.Fatal(err)
	}
	return g
}

// recPos builds a position from placements such as "Ed4 rc4", with side to move.
func recPos(tb testing.TB, side Color, spec string) Position {
	tb.Helper()
	var p Position
	for _, f := range strings.Fields(spec) {
		pc, err := PieceFromLetter(f[0])
		if err != nil {
			tb.Fatalf("placement %q: %v", f, err)
		}
		sq, err := ParseSquare(f[1:])
		if err != nil || p.At(sq) != NoPiece {
			tb.Fatalf("placement %q: bad or taken square", f)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p
}

// recBoard returns the AEI form of the position recPos builds, Gold to move.
func recBoard(tb testing.TB, spec string) string {
	tb.Helper()
	p := recPos(tb, Gold, spec)
	return p.String()
}

// recWantErr checks that err is non-nil and its message holds every part of want.
func recWantErr(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one holding %q", what, want)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not hold %q", what, err, w)
		}
	}
}

func TestParseSteps(t *testing.T) {
	tests := []struct {
		in   string
		want string   // the steps written back; "" when an error is expected
		errs []string // parts of the error message
	}{
		{in: "Ed2n", want: "Ed2n"},
		{in: "  Ed2n   Ee2n\tcd4n Hd3n ", want: "Ed2n Ee2n cd4n Hd3n"},
		{in: "rc4s rc3x Ed4w", want: "rc4s Ed4w"},
		{in: "Ra2n Ra3n Ra4n Ra5n Ra6n", want: "Ra2n Ra3n Ra4n Ra5n Ra6n"}, // notation only: no step limit
		{in: "", errs: []string{"1 to 4 steps", "pass is not a move"}},
		{in: "   ", errs: []string{"1 to 4 steps"}},
		{in: "pass", errs: []string{`step 1 "pass"`, "pass is not a move"}},
		{in: "Ed2n Ed3q", errs: []string{`step 2 "Ed3q"`, "direction"}},
		{in: "Ed2n Xd3n", errs: []string{`step 2 "Xd3n"`, "unknown piece letter"}},
		{in: "Ei2n", errs: []string{`step 1 "Ei2n"`, "bad square"}},
		{in: "Ed2", errs: []string{`step 1 "Ed2"`, "like Ed2n"}},
		{in: "Ed2nn", errs: []string{`step 1 "Ed2nn"`}},
		{in: "Ea1w", errs: []string{`step 1 "Ea1w"`, "leaves the board"}},
		{in: "Rh8n", errs: []string{`step 1 "Rh8n"`, "leaves the board"}},
		{in: "rc3x Ed2n", errs: []string{`capture "rc3x" before any step`}},
		{in: "Ed2n Ed3x", errs: []string{`step 1 "Ed2n"`, "d3 is not a trap"}},
		{in: "Ed2n Zc3x", errs: []string{`step 1 "Ed2n"`, "unknown piece letter"}},
		{in: "2g Ed2n", errs: []string{`step 1 "2g"`}},
	}
	for _, tc := range tests {
		steps, err := ParseSteps(tc.in)
		if tc.errs != nil {
			recWantErr(t, "ParseSteps("+tc.in+")", err, tc.errs...)
			continue
		}
		if err != nil {
			t.Errorf("ParseSteps(%q): %v", tc.in, err)
			continue
		}
		parts := make([]string, len(steps))
		for i, s := range steps {
			parts[i] = s.String()
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("ParseSteps(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestStepErrorUnwrap(t *testing.T) {
	_, err := ParseSteps("Ed2n pass")
	var se *StepError
	if !errors.As(err, &se) || se.Index != 2 || se.Token != "pass" {
		t.Fatalf("error %v: want a StepError for step 2 \"pass\"", err)
	}
	if !errors.Is(err, errNoSteps) {
		t.Errorf("error %v does not wrap its cause", err)
	}
}

func TestPlayMove(t *testing.T) {
	start := recStartGame(t).Position()
	// A small position for pushes, pulls and captures, Gold to move:
	// a silver rabbit beside the empty trap c3 and the Gold elephant, a Gold dog
	// on trap f3 held by the cat on f2 alone, a Gold rabbit beside trap c6.
	small := recPos(t, Gold, "Ed4 rc4 Df3 Cf2 Rb6 Ma1 dh8 rg8 eh1")
	tests := []struct {
		name  string
		pos   Position
		move  string
		board string   // the board after the move (AEI form) when legal, or ""
		errs  []string // parts of the error message
	}{
		{name: "four steps", pos: start, move: "Ed2n Ed3n Ed4n Ed5w"},
		{name: "one step", pos: start, move: "Ra2n"},
		{name: "push with capture written", pos: small, move: "rc4s rc3x Ed4w",
			board: recBoard(t, "Ec4 Df3 Cf2 Rb6 Ma1 dh8 rg8 eh1")},
		{name: "push with capture left out", pos: small, move: "rc4s Ed4w",
			board: recBoard(t, "Ec4 Df3 Cf2 Rb6 Ma1 dh8 rg8 eh1")},
		{name: "pull", pos: small, move: "Ed4e rc4e",
			board: recBoard(t, "Ee4 rd4 Df3 Cf2 Rb6 Ma1 dh8 rg8 eh1")},
		{name: "capture of a piece left alone on a trap", pos: small, move: "Cf2w Df3x",
			board: recBoard(t, "Ed4 rc4 Ce2 Rb6 Ma1 dh8 rg8 eh1")},
		{name: "own piece stepping into a trap", pos: small, move: "Rb6e Rc6x Ma1n",
			board: recBoard(t, "Ed4 rc4 Df3 Cf2 Ma2 dh8 rg8 eh1")},
		{name: "wrong capture piece", pos: small, move: "rc4s Rc3x Ed4w",
			errs: []string{`step 1 "rc4s"`, `"Rc3x" is written but the step captured rc3x`}},
		{name: "wrong capture square", pos: small, move: "Cf2w Dc3x",
			errs: []string{`step 1 "Cf2w"`, `captured Df3x`}},
		{name: "capture that did not happen", pos: small, move: "Ed4n rc3x",
			errs: []string{`step 1 "Ed4n"`, "captured nothing"}},
		{name: "capture written twice", pos: small, move: "rc4s rc3x rc3x Ed4w",
			errs: []string{`step 1 "rc4s"`, "at most one piece"}},
		{name: "capture first", pos: small, move: "rc3x rc4s Ed4w",
			errs: []string{"before any step"}},
		{name: "push not completed", pos: small, move: "rc4s",
			errs: []string{"push into c4 is not completed"}},
		{name: "push completed by the wrong piece", pos: small, move: "rc4s Ma1n",
			errs: []string{`step 2 "Ma1n"`, "push must be completed"}},
		{name: "no net change", pos: start, move: "Ed2n Ed3s",
			errs: []string{"must change the board"}},
		{name: "five steps", pos: start, move: "Ra2n Ra3n Ra4n Ra5n Ra6n",
			errs: []string{`step 5 "Ra6n"`, "already has 4 steps"}},
		{name: "rabbit backward", pos: small, move: "Rb6s",
			errs: []string{`step 1 "Rb6s"`, "rabbit cannot step backward"}},
		{name: "no piece", pos: start, move: "Ed2n Ed4n",
			errs: []string{`step 2 "Ed4n"`, "no piece on d4"}},
		{name: "wrong piece", pos: start, move: "Md2n",
			errs: []string{`step 1 "Md2n"`, "d2 holds E, not M"}},
		{name: "occupied", pos: start, move: "Ed2s",
			errs: []string{`step 1 "Ed2s"`, "occupied by D"}},
		{name: "enemy piece without push", pos: start, move: "ra7s",
			errs: []string{`step 1 "ra7s"`, "no unfrozen stronger Gold piece"}},
		{name: "malformed step", pos: start, move: "Ed2n Ed3",
			errs: []string{`step 2 "Ed3"`}},
		{name: "empty move", pos: start, move: "",
			errs: []string{"1 to 4 steps"}},
		{name: "pass", pos: start, move: "pass",
			errs: []string{"pass is not a move"}},
	}
	for _, tc := range tests {
		tr := NewTurn(tc.pos)
		err := tr.PlayMove(tc.move)
		if tc.errs != nil {
			recWantErr(t, tc.name, err, tc.errs...)
			continue
		}
		if err != nil {
			t.Errorf("%s: PlayMove(%q): %v", tc.name, tc.move, err)
			continue
		}
		if tr.Pos.Hash != tr.Pos.ComputeHash() {
			t.Errorf("%s: bad hash after the move", tc.name)
		}
		if tc.board != "" && tr.Pos.String() != tc.board {
			t.Errorf("%s: board %s, want %s", tc.name, tr.Pos.String(), tc.board)
		}
	}
}

func TestFormatMove(t *testing.T) {
	small := recPos(t, Gold, "Ed4 rc4 Df3 Cf2 Rb6 Ma1 dh8 rg8 eh1")
	tests := []struct{ move, want string }{
		{"rc4s Ed4w", "rc4s rc3x Ed4w"},
		{"rc4s rc3x Ed4w", "rc4s rc3x Ed4w"},
		{"Cf2w Ed4n", "Cf2w Df3x Ed4n"},
		{"Rb6e Ma1n", "Rb6e Rc6x Ma1n"},
		{"Ed4e rc4e", "Ed4e rc4e"},
		// From the first illegal step on, no captures are written.
		{"Ed4n Ed4n Cf2w", "Ed4n Ed4n Cf2w"},
	}
	for _, tc := range tests {
		steps, err := ParseSteps(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatMove(small, steps); got != tc.want {
			t.Errorf("FormatMove(%q) = %q, want %q", tc.move, got, tc.want)
		}
	}
	// Every generated move of the start position formats to text that PlayMove
	// plays to the generated position.
	start := recStartGame(t).Position()
	for _, m := range GenMoves(start, nil)[:200] {
		text := FormatMove(start, m.Steps)
		tr := NewTurn(start)
		if err := tr.PlayMove(text); err != nil {
			t.Fatalf("PlayMove(FormatMove(%v)): %v", m.Steps, err)
		}
		if end := tr.End(); end.Key() != m.Pos.Key() {
			t.Fatalf("%s: reached %s, want %s", text, end.String(), m.Pos.String())
		}
		if got, _ := ParseSteps(text); !slices.Equal(got, m.Steps) {
			t.Fatalf("ParseSteps(%q) = %v, want %v", text, got, m.Steps)
		}
	}
}
