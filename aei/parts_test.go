package aei

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

func TestDrawSetup(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		for _, c := range []engine.Color{engine.Gold, engine.Silver} {
			s := drawSetup(c, rng)
			seen[s] = true
			pls, err := engine.ParseSetup(c, s)
			if err != nil {
				t.Fatalf("%s setup %q: %v", c, s, err)
			}
			if len(pls) != 16 {
				t.Fatalf("%s setup %q: %d pieces", c, s, len(pls))
			}
			back, front := 0, 1
			if c == engine.Silver {
				back, front = 7, 6
			}
			for _, pl := range pls {
				rank, file := pl.Square.Rank(), pl.Square.File()
				switch pl.Piece.Type() {
				case engine.Rabbit:
					if rank != back {
						t.Errorf("%q: rabbit %s not on the home rank", s, pl)
					}
				case engine.Elephant:
					if rank != front || file < 3 || file > 4 {
						t.Errorf("%q: elephant %s not on d or e", s, pl)
					}
				case engine.Camel:
					if rank != front || file < 2 || file > 5 {
						t.Errorf("%q: camel %s not central", s, pl)
					}
				default:
					if rank != front {
						t.Errorf("%q: %s not in front of the rabbits", s, pl)
					}
				}
			}
			g := engine.NewGame()
			if c == engine.Silver {
				if err := g.PlaySetup(drawSetup(engine.Gold, rng)); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.PlaySetup(s); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
		}
	}
	if len(seen) < 50 {
		t.Errorf("only %d different setups in 400", len(seen))
	}
}

func TestSplitCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"./bot", []string{"./bot"}},
		{"  go run ./cmd/aei  ", []string{"go", "run", "./cmd/aei"}},
		{"bot -weights 'my gen 3.json' -seed 7", []string{"bot", "-weights", "my gen 3.json", "-seed", "7"}},
		{`bot "a \"b\" \$c \d" e`, []string{"bot", `a "b" $c \d`, "e"}},
		{`bot a\ b\\c`, []string{"bot", `a b\c`}},
		{`bot ''`, []string{"bot", ""}},
		{`bot x'y'"z"`, []string{"bot", "xyz"}},
		{"bot\targ\narg2", []string{"bot", "arg", "arg2"}},
	} {
		got, err := SplitCommand(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "   ", "bot 'x", `bot "x`, `bot x\`} {
		if got, err := SplitCommand(in); err == nil {
			t.Errorf("SplitCommand(%q) = %q, no error", in, got)
		}
	}
}

func TestGameState(t *testing.T) {
	g := newGameState()
	if !g.setup || g.pos.Side != engine.Gold || g.outcome().Over() {
		t.Fatal("a new game is not Gold's setup")
	}
	for _, bad := range []string{"", "ra7", "Ra3", "Ra1 Ra1", "Ed2n"} {
		if _, err := g.next(bad); err == nil {
			t.Errorf("gold setup %q accepted", bad)
		}
	}
	gold := "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"
	silver := strings.ToLower(strings.NewReplacer("1", "8", "2", "7").Replace(gold))
	if err := g.play(gold); err != nil {
		t.Fatal(err)
	}
	if !g.setup || g.pos.Side != engine.Silver {
		t.Fatal("not Silver's setup after Gold's")
	}
	if err := g.play(gold); err == nil {
		t.Error("Gold set up twice")
	}
	if err := g.play(silver); err != nil {
		t.Fatal(err)
	}
	if g.setup || g.pos.Side != engine.Gold || g.hist.Count(&g.pos) != 1 {
		t.Fatal("the game did not start after the setups")
	}
	if err := g.play("Ee2n Ee3n rx2n"); err == nil {
		t.Error("bad move accepted")
	}
	if err := g.play("Ee2n Ee3n"); err != nil {
		t.Fatal(err)
	}

	// setposition: the empty board is Gold's setup; Silver without pieces is
	// Silver's setup; anything else is play.
	var empty engine.Position
	g.setPosition(empty)
	if !g.setup || g.pos.Side != engine.Gold {
		t.Error("empty board: not Gold's setup")
	}
	p := posOf(t, engine.Silver, "Ra1", "Eb2")
	g.setPosition(p)
	if !g.setup {
		t.Error("Silver without pieces: not Silver's setup")
	}
	p = posOf(t, engine.Gold, "Ra1", "rh8")
	g.setPosition(p)
	if g.setup || g.hist.Count(&p) != 1 {
		t.Error("a position with pieces: not play")
	}

	// A game that is over takes no move.
	over := posOf(t, engine.Silver, "Ra8", "rh2")
	g.setPosition(over)
	if out := g.outcome(); out != (engine.Outcome{Winner: engine.Gold, Reason: engine.Goal}) {
		t.Errorf("outcome %v", out)
	}
	if _, err := g.next("rh2w"); err == nil {
		t.Error("a move after the end of the game was accepted")
	}
}
