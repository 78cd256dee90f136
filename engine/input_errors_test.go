package engine

import (
	"strings"
	"testing"
)

// Bad input gives an error that names what is wrong.

func TestInputErrorsPosition(t *testing.T) {
	empty := "[" + strings.Repeat(" ", 64) + "]"
	withAt := func(i int, ch byte) string {
		b := []byte(empty)
		b[1+i] = ch
		return string(b)
	}
	cases := []struct {
		name, in string
		want     []string // substrings the error must contain
	}{
		{"bad side letter", "x " + empty, []string{"side", "'x'", "g or s"}},
		{"upper-case side", "G " + empty, []string{"side", "'G'"}},
		{"63 characters", "g [" + strings.Repeat(" ", 63) + "]", []string{"63 characters", "want 64"}},
		{"65 characters", "g [" + strings.Repeat(" ", 65) + "]", []string{"65 characters", "want 64"}},
		{"bad piece letter on a8", "g " + withAt(0, 'z'), []string{"a8", "'z'"}},
		{"bad piece letter on e5", "g " + withAt(3*8+4, 'K'), []string{"e5", "'K'"}},
		{"bad piece letter on h1", "g " + withAt(63, '1'), []string{"h1", "'1'"}},
		{"no brackets", "g " + strings.Repeat(" ", 64), []string{"brackets"}},
		{"no closing bracket", "g [" + strings.Repeat(" ", 64), []string{"brackets"}},
		{"empty", "", []string{"want"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePosition(c.in)
			if err == nil {
				t.Fatalf("ParsePosition(%q) accepted", c.in)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// And the good forms are accepted.
	for _, s := range []string{"g " + empty, "s " + empty, "w " + empty, "b " + empty, "g " + withAt(0, 'r')} {
		if _, err := ParsePosition(s); err != nil {
			t.Errorf("ParsePosition(%q): %v", s, err)
		}
	}
}

func TestInputErrorsStep(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Ed2", []string{`"Ed2"`, "want piece, square and direction"}},
		{"Ed2nn", []string{`"Ed2nn"`, "want piece, square and direction"}},
		{"", []string{`""`, "want piece"}},
		{"Zd2n", []string{`"Zd2n"`, "unknown piece letter 'Z'"}},
		{"Ei2n", []string{`"Ei2n"`, `bad square "i2"`}},
		{"Ed9n", []string{`"Ed9n"`, `bad square "d9"`}},
		{"Ed2q", []string{`"Ed2q"`, "direction 'q'", "n, s, e or w"}},
		{"Ed2x", []string{"direction 'x'"}},
		{"Ed8n", []string{`"Ed8n"`, "leaves the board"}},
		{"ra4w", []string{"leaves the board"}},
		{"rh4e", []string{"leaves the board"}},
		{"ra1s", []string{"leaves the board"}},
	}
	for _, c := range cases {
		_, err := ParseStep(c.in)
		if err == nil {
			t.Errorf("ParseStep(%q) accepted", c.in)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseStep(%q): error %q does not mention %q", c.in, err, w)
			}
		}
	}
	st, err := ParseStep("Ed2n")
	if err != nil || st != (Step{MakePiece(Gold, Elephant), 11, North}) {
		t.Errorf("ParseStep(Ed2n) = %v, %v", st, err)
	}
}

func TestInputErrorsSetup(t *testing.T) {
	cases := []struct {
		name  string
		color Color
		in    string
		want  []string
	}{
		{"gold on rank 3", Gold, "Ra1 Rb3", []string{"item 2", `"Rb3"`, "Gold must set up on its own two ranks"}},
		{"silver on rank 2", Silver, "ra7 rb2", []string{`"rb2"`, "Silver must set up on its own two ranks"}},
		{"silver on gold's ranks", Silver, "ea1", []string{"Silver must set up on its own two ranks"}},
		{"nine rabbits", Gold, "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ra2", []string{"item 9", "more than 8 of R"}},
		{"two elephants", Gold, "Ea1 Eb1", []string{"more than 1 of E"}},
		{"two camels", Silver, "ma8 mb8", []string{"more than 1 of m"}},
		{"three cats", Gold, "Ca1 Cb1 Cc1", []string{"more than 2 of C"}},
		{"three horses", Silver, "ha8 hb8 hc7", []string{"more than 2 of h"}},
		{"duplicate square", Gold, "Ra1 Ca1", []string{"item 2", "square a1 used twice"}},
		{"silver piece for gold", Gold, "Ra1 ra2", []string{`"ra2"`, "Silver piece in Gold's setup"}},
		{"gold piece for silver", Silver, "Ea8", []string{"Gold piece in Silver's setup"}},
		{"gold setup given for silver", Silver, rulesGoldSetup, []string{"Gold piece in Silver's setup"}},
		{"short item", Gold, "Ra1 Rb", []string{`"Rb"`, "want piece and square"}},
		{"long item", Gold, "Ra1x", []string{"want piece and square"}},
		{"bad letter", Gold, "Xa1", []string{"unknown piece letter 'X'"}},
		{"bad square", Gold, "Rz1", []string{`bad square "z1"`}},
		{"empty", Gold, "  ", []string{"no pieces"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSetup(c.color, c.in)
			if err == nil {
				t.Fatalf("ParseSetup(%s, %q) accepted", c.color.Name(), c.in)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// Full setups, any arrangement on the own ranks, and handicap setups pass.
	for _, c := range []struct {
		color Color
		in    string
		n     int
	}{
		{Gold, rulesGoldSetup, 16},
		{Silver, rulesSilverSetup, 16},
		{Gold, "Ea2 Ma1 Rh2", 3},
		{Silver, "eh7", 1},
	} {
		pl, err := ParseSetup(c.color, c.in)
		if err != nil || len(pl) != c.n {
			t.Errorf("ParseSetup(%s, %q) = %d placements, %v", c.color.Name(), c.in, len(pl), err)
		}
	}
}
