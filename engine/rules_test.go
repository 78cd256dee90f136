package engine

import (
	"slices"
	"strings"
	"testing"
)

// One test (or table row) per rule of RULES.md, each on a position built from an
// AEI string or by Put, asserting behaviour through Turn, MoveGen and EndOfTurn.

// ---------------------------------------------------------------------------
// Board and pieces

func TestRulesBoardAndPieces(t *testing.T) {
	// Traps: c3, f3, c6, f6 and nothing else.
	var traps Bitboard
	for _, s := range []string{"c3", "f3", "c6", "f6"} {
		traps |= rulesSq(t, s).Bit()
	}
	if Traps != traps {
		t.Errorf("Traps = %#x, want c3 f3 c6 f6 = %#x", Traps, traps)
	}
	// Square numbering: a1 = 0, h1 = 7, a8 = 56, h8 = 63; north is toward rank 8.
	for name, want := range map[string]Square{"a1": 0, "h1": 7, "a8": 56, "h8": 63, "d2": 11} {
		if got := rulesSq(t, name); got != want {
			t.Errorf("square %s = %d, want %d", name, got, want)
		}
	}
	if to := rulesStep(t, "Ed2n").To(); to.String() != "d3" {
		t.Errorf("Ed2n goes to %s, want d3", to)
	}
	// Strength, strongest first: E M H D C R.
	order := []PieceType{Elephant, Camel, Horse, Dog, Cat, Rabbit}
	for i := 1; i < len(order); i++ {
		if order[i-1] <= order[i] {
			t.Errorf("type %d is not stronger than type %d", order[i-1], order[i])
		}
	}
	// 16 pieces: 1 E, 1 M, 2 H, 2 D, 2 C, 8 R.
	want := [NumTypes]int{Rabbit: 8, Cat: 2, Dog: 2, Horse: 2, Camel: 1, Elephant: 1}
	if StandardCount != want {
		t.Errorf("StandardCount = %v, want %v", StandardCount, want)
	}
	// Letters: Gold upper case, Silver lower case.
	for i, l := range "RCDHMErcdhme" {
		pc, err := PieceFromLetter(byte(l))
		if err != nil || pc != Piece(i) || pc.Color() != Color(i/6) || pc.Type() != PieceType(i%6) {
			t.Errorf("letter %c: piece %v, %v", l, pc, err)
		}
	}
}

// ---------------------------------------------------------------------------
// Steps

func TestRulesStepsGoToEmptySquares(t *testing.T) {
	p := rulesPos(t, Gold, "Ed4 Rd5 Cc4 re4 Da1 rb7 ha8")
	E, D, H := MakePiece(Gold, Elephant), MakePiece(Gold, Dog), MakePiece(Gold, Horse)
	cases := []struct {
		name string
		step Step
		err  string // "" when legal
	}{
		{"to an empty square", Step{E, rulesSq(t, "d4"), South}, ""},
		{"onto a friendly piece", Step{E, rulesSq(t, "d4"), North}, "occupied by R"},
		{"onto a friendly piece west", Step{E, rulesSq(t, "d4"), West}, "occupied by C"},
		{"onto an enemy piece", Step{E, rulesSq(t, "d4"), East}, "occupied by r"},
		{"off the board south", Step{D, rulesSq(t, "a1"), South}, "leaves the board"},
		{"off the board west", Step{D, rulesSq(t, "a1"), West}, "leaves the board"},
		{"from an empty square", Step{E, rulesSq(t, "e5"), North}, "no piece on e5"},
		{"wrong piece named", Step{H, rulesSq(t, "d4"), South}, "d4 holds E"},
		{"enemy piece without a pusher", Step{MakePiece(Silver, Rabbit), rulesSq(t, "b7"), South}, "no unfrozen stronger Gold piece"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := NewTurn(p)
			err := tr.CheckStep(c.step)
			listed := slices.Contains(tr.LegalSteps(nil), c.step)
			if c.err == "" {
				if err != nil || !listed {
					t.Fatalf("%s: CheckStep %v, listed %v; want legal", c.step, err, listed)
				}
				return
			}
			if err == nil || listed {
				t.Fatalf("%s: legal (listed %v), want error containing %q", c.step, listed, c.err)
			}
			if !strings.Contains(err.Error(), c.err) {
				t.Fatalf("%s: error %q does not contain %q", c.step, err, c.err)
			}
		})
	}
}

func TestRulesPiecesStepInFourDirections(t *testing.T) {
	for c := Gold; c <= Silver; c++ {
		for pt := Cat; pt <= Elephant; pt++ {
			pc := MakePiece(c, pt)
			p := rulesPos(t, c, string(pc.Letter())+"d4")
			tr := NewTurn(p)
			got := tr.LegalSteps(nil)
			if len(got) != 4 {
				t.Errorf("%c alone on d4: %d steps %v, want n, e, s and w", pc.Letter(), len(got), got)
			}
			for d := North; d <= West; d++ {
				if err := tr.CheckStep(Step{pc, rulesSq(t, "d4"), d}); err != nil {
					t.Errorf("%c d4 %c: %v", pc.Letter(), d.Letter(), err)
				}
			}
		}
	}
}

func TestRulesRabbitsNeverStepBackward(t *testing.T) {
	cases := []struct {
		side      Color
		spec, sq  string
		back      Dir
		minRank   int // lowest rank index (gold) or highest (silver) a rabbit may reach
		goldwards bool
	}{
		{Gold, "Rd4", "d4", South, 3, true},
		{Silver, "re5", "e5", North, 4, false},
	}
	for _, c := range cases {
		t.Run(c.side.Name(), func(t *testing.T) {
			p := rulesPos(t, c.side, c.spec)
			rb := MakePiece(c.side, Rabbit)
			from := rulesSq(t, c.sq)
			tr := NewTurn(p)
			steps := tr.LegalSteps(nil)
			if len(steps) != 3 || slices.Contains(steps, Step{rb, from, c.back}) {
				t.Fatalf("lone rabbit steps %v, want the three non-backward ones", steps)
			}
			err := tr.CheckStep(Step{rb, from, c.back})
			if err == nil || !strings.Contains(err.Error(), "backward") {
				t.Fatalf("backward step: error %v, want one about stepping backward", err)
			}
			// Full turns: the rabbit never ends behind its start rank. Reachable:
			// the 23 squares within 4 forward/sideways steps, less the traps c6 and
			// f6 (or c3 and f3), where the rabbit dies: one more board.
			g := NewMoveGen()
			n := g.Generate(&p, nil)
			if n != 22 {
				t.Errorf("%d moves, want 22", n)
			}
			for i := range n {
				q := g.Position(i)
				b := q.Bits[rb]
				if b == 0 {
					continue
				}
				r := b.First().Rank()
				if (c.goldwards && r < c.minRank) || (!c.goldwards && r > c.minRank) {
					t.Errorf("move %v puts the rabbit on %s, behind its start", g.Steps(i, nil), b.First())
				}
			}
		})
	}
}

func TestRulesRabbitsCanBeDislodgedBackward(t *testing.T) {
	cases := []struct {
		name        string
		side        Color
		pos         string
		moves, want string
	}{
		// Silver rabbits move north only when Gold pushes or pulls them.
		{"gold pushes a silver rabbit north", Gold, "Hd4 rd5 Rg1", "rd5n Hd4n", "rd6 Hd5 Rg1"},
		{"gold pulls a silver rabbit north", Gold, "Hd5 rd4 Rg1", "Hd5n rd4n", "Hd6 rd5 Rg1"},
		// Gold rabbits move south only when Silver pushes or pulls them.
		{"silver pushes a gold rabbit south", Silver, "hd5 Rd4 rg8", "Rd4s hd5s", "hd4 Rd3 rg8"},
		{"silver pulls a gold rabbit south", Silver, "hd4 Rd5 rg8", "hd4s Rd5s", "hd3 Rd4 rg8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, c.side, c.pos)
			tr := NewTurn(p)
			rulesPlay(t, &tr, c.moves)
			if err := tr.CanEnd(); err != nil {
				t.Fatal(err)
			}
			want := rulesPos(t, p.Side.Other(), c.want)
			if got := tr.End(); got.Key() != want.Key() {
				t.Fatalf("got %s, want %s", got.String(), want.String())
			}
			if _, ok := rulesGenKeys(NewMoveGen(), &p, nil)[want.Key()]; !ok {
				t.Fatalf("MoveGen does not generate %s", want.String())
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Push and pull

func TestRulesPushPullNeedsStrictlyStronger(t *testing.T) {
	d4, d5 := rulesSq(t, "d4"), rulesSq(t, "d5")
	for pt := Rabbit; pt <= Elephant; pt++ {
		for vt := Rabbit; vt <= Elephant; vt++ {
			P, V := MakePiece(Gold, pt), MakePiece(Silver, vt)
			t.Run(string(P.Letter())+"-"+string(V.Letter()), func(t *testing.T) {
				// P on d4 (kept unfrozen by a rabbit on c4), V on d5 with room around.
				var p Position
				p.Put(P, d4)
				p.Put(MakePiece(Gold, Rabbit), rulesSq(t, "c4"))
				p.Put(V, d5)
				want := pt > vt
				// Push: V steps away, P would follow.
				tr := NewTurn(p)
				err := tr.CheckStep(Step{V, d5, North})
				if (err == nil) != want {
					t.Fatalf("push %c by %c: error %v, want legal %v", V.Letter(), P.Letter(), err, want)
				}
				if err != nil {
					key := "no unfrozen stronger Gold piece"
					if vt == Elephant {
						key = "elephant can never be pushed or pulled"
					}
					if !strings.Contains(err.Error(), key) {
						t.Errorf("push error %q does not contain %q", err, key)
					}
				}
				// Pull: P steps east, V would follow into d4.
				tr = NewTurn(p)
				rulesPlay(t, &tr, string(P.Letter())+"d4e")
				err = tr.CheckStep(Step{V, d5, South})
				if (err == nil) != want {
					t.Fatalf("pull %c by %c: error %v, want legal %v", V.Letter(), P.Letter(), err, want)
				}
				// Full turns: V moves in some move exactly when P is stronger.
				g := NewMoveGen()
				moved := false
				for i := range g.Generate(&p, nil) {
					q := g.Position(i)
					moved = moved || rulesMoved(&p, &q, V)
				}
				if moved != want {
					t.Fatalf("MoveGen moves %c: %v, want %v", V.Letter(), moved, want)
				}
			})
		}
	}
}

func TestRulesFriendlyPiecesNeverDislodged(t *testing.T) {
	// Gold's own rabbit cannot be pushed or pulled backward by Gold's elephant.
	p := rulesPos(t, Gold, "Ed5 Rd4 rh8")
	tr := NewTurn(p)
	if err := tr.CheckStep(rulesStep(t, "Rd4s")); err == nil {
		t.Fatal("Gold pushed its own rabbit backward (Rd4s before Ed5s)")
	}
	p = rulesPos(t, Gold, "Ed4 Rd5 rh8")
	tr = NewTurn(p)
	rulesPlay(t, &tr, "Ed4e")
	if err := tr.CheckStep(rulesStep(t, "Rd5s")); err == nil {
		t.Fatal("Gold pulled its own rabbit backward (Rd5s after Ed4e)")
	}
	// In full turns the friendly rabbit never goes south of its rank.
	g := NewMoveGen()
	for i := range g.Generate(&p, nil) {
		q := g.Position(i)
		if b := q.Bits[MakePiece(Gold, Rabbit)]; b != 0 && b.First().Rank() < 4 {
			t.Fatalf("move %v moves Gold's rabbit to %s", g.Steps(i, nil), b.First())
		}
	}
}

func TestRulesElephantNeverDislodged(t *testing.T) {
	p := rulesPos(t, Gold, "Ed4 Mc5 ed5 Ra1 rh8")
	tr := NewTurn(p)
	for _, s := range []string{"ed5n", "ed5e"} {
		err := tr.CheckStep(rulesStep(t, s))
		if err == nil || !strings.Contains(err.Error(), "elephant can never be pushed or pulled") {
			t.Errorf("%s: error %v, want the elephant rule", s, err)
		}
	}
	rulesPlay(t, &tr, "Ed4s")
	if err := tr.CheckStep(rulesStep(t, "ed5s")); err == nil {
		t.Error("the silver elephant was pulled")
	}
	g := NewMoveGen()
	for i := range g.Generate(&p, nil) {
		q := g.Position(i)
		if rulesMoved(&p, &q, MakePiece(Silver, Elephant)) {
			t.Fatalf("move %v moves the silver elephant", g.Steps(i, nil))
		}
	}
}

func TestRulesPushMustBeCompleted(t *testing.T) {
	cases := []struct {
		name string
		pos  string
		// completions is the sorted set of legal steps after the push start cd5n.
		completions []string
	}{
		// The dog on e5 is frozen by the silver horse on f5: only the horse completes.
		{"frozen helper", "Hd4 cd5 Cc5 De5 hf5 Ra1 rh8", []string{"Hd4n"}},
		// Unfrozen, the dog may complete the push too; the cat (equal) never.
		{"two completers", "Hd4 cd5 Cc5 De5 Ra1 rh8", []string{"De5w", "Hd4n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, Gold, c.pos)
			tr := NewTurn(p)
			rulesPlay(t, &tr, "cd5n")
			if !tr.PushPending() {
				t.Fatal("cd5n did not start a push")
			}
			if err := tr.CanEnd(); err == nil || !strings.Contains(err.Error(), "not completed") {
				t.Fatalf("turn may end with a push half done: %v", err)
			}
			var got []string
			for _, s := range tr.LegalSteps(nil) {
				got = append(got, s.String())
			}
			slices.Sort(got)
			if !slices.Equal(got, c.completions) {
				t.Fatalf("steps after the push start: %v, want %v", got, c.completions)
			}
			for _, s := range []string{"Cc5e", "Ra1n", "Hd4s", "cd6s", "De5n"} {
				err := tr.CheckStep(rulesStep(t, s))
				if err == nil {
					t.Errorf("%s allowed while a push is pending", s)
				}
			}
			if err := tr.CheckStep(rulesStep(t, "Cc5e")); err == nil || !strings.Contains(err.Error(), "push must be completed") {
				t.Errorf("equal-strength completion: %v", err)
			}
			for _, s := range c.completions {
				t2 := tr
				rulesPlay(t, &t2, s)
				if err := t2.CanEnd(); err != nil {
					t.Errorf("after %s: %v", s, err)
				}
			}
		})
	}
}

func TestRulesPushPullNeedTwoSteps(t *testing.T) {
	p := rulesPos(t, Gold, "Hd4 rd5 Ra2 rh8")
	cases := []struct {
		name   string
		before string // steps played first
		then   string // the two-step action to try
		legal  bool
		err    string
	}{
		{"push on steps 3-4", "Ra2n Ra3n", "rd5n Hd4n", true, ""},
		{"pull on steps 3-4", "Ra2n Ra3n", "Hd4s rd5s", true, ""},
		{"push cannot start on step 4", "Ra2n Ra3n Ra4n", "rd5n", false, "a push needs 2 steps"},
		{"push cannot start on step 4 (west)", "Ra2n Ra3n Ra4n", "rd5w", false, "a push needs 2 steps"},
		{"pull cannot complete as a 5th step", "Ra2n Ra3n Ra4n Hd4s", "rd5s", false, "already has 4 steps"},
		{"pull must follow at once", "Hd4s Ra2n", "rd5s", false, "no unfrozen stronger"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := NewTurn(p)
			rulesPlay(t, &tr, c.before)
			if c.legal {
				rulesPlay(t, &tr, c.then)
				if err := tr.CanEnd(); err != nil {
					t.Fatal(err)
				}
				return
			}
			s := rulesStep(t, c.then)
			err := tr.CheckStep(s)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("%s after %s: error %v, want one containing %q", c.then, c.before, err, c.err)
			}
			for _, l := range tr.LegalSteps(nil) {
				if l.Piece.Color() == Silver {
					t.Fatalf("LegalSteps offers %s", l)
				}
			}
			// Ending without the (impossible) pull is fine: a pull is optional.
			if err := tr.CanEnd(); err != nil {
				t.Fatalf("cannot end: %v", err)
			}
		})
	}
}

func TestRulesNoPushAndPullInOneMotion(t *testing.T) {
	// The elephant pushes the rabbit d5 north and steps into d5: it may not, with
	// that same step, pull the rabbit c4 into the d4 it vacated.
	p := rulesPos(t, Gold, "Ed4 rd5 rc4 Ra1 rh8")
	tr := NewTurn(p)
	rulesPlay(t, &tr, "rd5n Ed4n")
	if err := tr.CheckStep(rulesStep(t, "rc4e")); err == nil {
		t.Fatal("rc4e allowed after the push rd5n Ed4n")
	}
	if slices.Contains(tr.LegalSteps(nil), rulesStep(t, "rc4e")) {
		t.Fatal("LegalSteps offers rc4e after the push completion")
	}
	bad := rulesPos(t, Silver, "Ed5 rd6 rd4 Ra1 rh8")
	if _, ok := rulesGenKeys(NewMoveGen(), &p, nil)[bad.Key()]; ok {
		t.Fatalf("MoveGen reaches %s, which needs a push and a pull in one motion", bad.String())
	}
	// The same elephant may pull after an ordinary step.
	tr = NewTurn(p)
	rulesPlay(t, &tr, "Ed4s rc4e")
}

func TestRulesRabbitsCannotPushOrPull(t *testing.T) {
	p := rulesPos(t, Gold, "Rd4 rd5 rc4 Re1 rh8")
	tr := NewTurn(p)
	if err := tr.CheckStep(rulesStep(t, "rd5n")); err == nil {
		t.Error("a rabbit pushed")
	}
	rulesPlay(t, &tr, "Rd4e")
	for _, s := range []string{"rc4e", "rd5s"} {
		if err := tr.CheckStep(rulesStep(t, s)); err == nil {
			t.Errorf("a rabbit pulled: %s", s)
		}
	}
	g := NewMoveGen()
	for i := range g.Generate(&p, nil) {
		q := g.Position(i)
		if q.Occ[Silver] != p.Occ[Silver] {
			t.Fatalf("move %v by rabbits only moves a silver piece", g.Steps(i, nil))
		}
	}
}

func TestRulesPullIsOptional(t *testing.T) {
	p := rulesPos(t, Gold, "Hd4 rd5 Ra2 rh8")
	for _, moves := range []string{"Hd4s", "Hd4s Ra2n", "Hd4s rd5s Hd3e"} {
		tr := NewTurn(p)
		rulesPlay(t, &tr, moves)
		if err := tr.CanEnd(); err != nil {
			t.Errorf("%s: %v", moves, err)
		}
	}
}

// ---------------------------------------------------------------------------
// Freezing

func TestRulesFreezing(t *testing.T) {
	cases := []struct {
		name string
		spec string
		sq   string
		want bool
	}{
		{"stronger enemy beside, no friend", "Cd4 dd5", "d4", true},
		{"a friend beside unfreezes", "Cd4 dd5 Rd3", "d4", false},
		{"a diagonal friend does not", "Cd4 dd5 Re3", "d4", true},
		{"a diagonal enemy does not freeze", "Cd4 de5", "d4", false},
		{"equal strength does not freeze", "Dd4 dd5", "d4", false},
		{"equal strength, the other one", "Dd4 dd5", "d5", false},
		{"a weaker enemy does not freeze", "Dd4 cd5", "d4", false},
		{"the weaker one is frozen", "Dd4 cd5", "d5", true},
		{"rabbit by a cat", "Rd4 cd5", "d4", true},
		{"camel by the elephant", "Md4 ed5", "d4", true},
		{"the elephant is never frozen", "Ed4 md5 hc4 de4 cd3", "d4", false},
		{"an enemy piece is no friend", "Cd4 dd5 re4", "d4", true},
		{"a frozen piece is frozen", "dd6 Cd5 rd4", "d5", true},
		{"a frozen piece freezes a weaker one", "dd6 Cd5 rd4", "d4", true},
		{"silver cat by gold dog", "Dd4 cd5 re5", "d5", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, Gold, c.spec)
			sq := rulesSq(t, c.sq)
			pc := p.At(sq)
			p.SetSide(pc.Color())
			if got := p.IsFrozen(sq); got != c.want {
				t.Errorf("IsFrozen(%s) = %v, want %v", c.sq, got, c.want)
			}
			if got := p.Frozen(pc.Color()).Has(sq); got != c.want {
				t.Errorf("Frozen(%s) has %s: %v, want %v", pc.Color().Name(), c.sq, got, c.want)
			}
			// A frozen piece cannot step; an unfrozen one with room can.
			tr := NewTurn(p)
			can := false
			for _, s := range tr.LegalSteps(nil) {
				can = can || s.From == sq
			}
			room := p.Empty()&neighbors[sq] != 0
			if can != (!c.want && room) {
				t.Errorf("piece on %s steps: %v, want %v", c.sq, can, !c.want && room)
			}
			if c.want {
				for d := North; d <= West; d++ {
					if to := sq.Bit().Shift(d); to&p.Empty() != 0 {
						err := tr.CheckStep(Step{pc, sq, d})
						if err == nil || !strings.Contains(err.Error(), "frozen") {
							t.Errorf("frozen step %c: %v", d.Letter(), err)
						}
					}
				}
			}
		})
	}
}

func TestRulesFrozenPieceCannotPushOrPull(t *testing.T) {
	// The horse on d4 is frozen by the silver camel on d3: no push of the cat on d5.
	p := rulesPos(t, Gold, "Hd4 md3 cd5 rh8")
	tr := NewTurn(p)
	if err := tr.CheckStep(rulesStep(t, "cd5n")); err == nil {
		t.Error("a frozen horse pushed")
	}
	if err := tr.CheckStep(rulesStep(t, "Hd4e")); err == nil || !strings.Contains(err.Error(), "frozen") {
		t.Errorf("a frozen horse stepped (so could pull): %v", err)
	}
	if n := NewMoveGen().Generate(&p, nil); n != 0 {
		t.Errorf("%d moves for a side whose only piece is frozen", n)
	}
	// With a friend beside it, the horse pushes and pulls again.
	p = rulesPos(t, Gold, "Hd4 Rc4 md3 cd5 rh8")
	for _, moves := range []string{"cd5n Hd4n", "Hd4e cd5s"} {
		tr := NewTurn(p)
		rulesPlay(t, &tr, moves)
	}
}

func TestRulesFrozenPieceCanBeDislodged(t *testing.T) {
	p := rulesPos(t, Gold, "Hd4 cd5 Ra1 rh8")
	if !p.IsFrozen(rulesSq(t, "d5")) {
		t.Fatal("the silver cat should be frozen")
	}
	for _, moves := range []string{"cd5n Hd4n", "cd5e Hd4n", "Hd4s cd5s", "Hd4w cd5s"} {
		tr := NewTurn(p)
		rulesPlay(t, &tr, moves)
		if err := tr.CanEnd(); err != nil {
			t.Errorf("%s: %v", moves, err)
		}
	}
}

func TestRulesFreezingReevaluatedEveryStep(t *testing.T) {
	cases := []struct {
		name   string
		pos    string
		before string // steps played first
		step   string
		frozen bool // whether step is refused as frozen before and after
	}{
		// The rabbit on d4 is frozen by the cat on d5 until the dog comes beside it.
		{"unfrozen by a friend arriving", "Rd4 cd5 Db4 rh8", "Db4e", "Rd4e", false},
		// Or until the cat is pulled away from it.
		{"unfrozen by pulling the freezer away", "Rd4 cd5 He5 rh8", "He5n cd5e", "Rd4w", false},
		// The cat on d4 is free while the rabbit on c4 stands beside it.
		{"frozen when the last friend leaves", "Cd4 dd5 Rc4 rh8", "Rc4w", "Cd4e", true},
		// The elephant e4 leaves the cat d4 and pulls a horse into e4, beside the cat.
		{"frozen by a pulled enemy", "Cd4 Ee4 hf4 Ra1", "Ee4s hf4w", "Cd4w", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, Gold, c.pos)
			s := rulesStep(t, c.step)
			tr := NewTurn(p)
			err := tr.CheckStep(s)
			if (err != nil) != !c.frozen {
				t.Fatalf("before: %s error %v, want frozen %v", c.step, err, !c.frozen)
			}
			rulesPlay(t, &tr, c.before)
			err = tr.CheckStep(s)
			if c.frozen {
				if err == nil || !strings.Contains(err.Error(), "frozen") {
					t.Fatalf("after %s: %s error %v, want frozen", c.before, c.step, err)
				}
			} else if err != nil {
				t.Fatalf("after %s: %s refused: %v", c.before, c.step, err)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Traps and captures

func TestRulesTrapCaptures(t *testing.T) {
	cases := []struct {
		name  string
		side  Color
		pos   string
		moves string
		caps  []string // capture per step, "" for none
		want  string   // the board after the steps
	}{
		{"step onto an unguarded trap", Gold, "Dc4 Ra1 rh8", "Dc4s",
			[]string{"Dc3x"}, "Ra1 rh8"},
		{"step onto a guarded trap", Gold, "Dc4 Rb3 rh8", "Dc4s",
			[]string{""}, "Dc3 Rb3 rh8"},
		{"last friend leaves", Gold, "Rc3 Dc4 rh8", "Dc4n",
			[]string{"Rc3x"}, "Dc5 rh8"},
		{"captured at once, not at the end of the turn", Gold, "Rc3 Dc4 rh8", "Dc4n Dc5s",
			[]string{"Rc3x", ""}, "Dc4 rh8"},
		{"one of two friends leaves", Gold, "Rc3 Dc4 Cb3 rh8", "Dc4n Cb3w",
			[]string{"", "Rc3x"}, "Dc5 Ca3 rh8"},
		{"enemy neighbours do not guard", Gold, "Rc3 Dc4 rb3 rd3 rc2 Ra1", "Dc4n",
			[]string{"Rc3x"}, "Dc5 rb3 rd3 rc2 Ra1"},
		{"a piece leaving a trap survives", Gold, "Dc3 Rb3 rh8", "Dc3e",
			[]string{""}, "Dd3 Rb3 rh8"},
		{"pushed onto a trap: captured on the first half", Gold, "Dc5 cc4 Ra1 rh8", "cc4s Dc5s",
			[]string{"cc3x", ""}, "Dc4 Ra1 rh8"},
		{"guard pushed away: captured on the first half", Gold, "rf3 cf4 De4 Ra1", "cf4n De4e",
			[]string{"rf3x", ""}, "cf5 Df4 Ra1"},
		{"pulled onto a trap", Gold, "Ec3 Rb3 hd3", "Ec3s hd3w",
			[]string{"", "hc3x"}, "Ec2 Rb3"},
		{"puller leaves its own trap piece: captured on the first half", Gold, "Rc3 Dc4 rd4", "Dc4n rd4w",
			[]string{"Rc3x", ""}, "Dc5 rc4"},
		{"puller captured by its own step, the pull completes", Gold, "Dc4 rd4 Ra1", "Dc4s rd4w",
			[]string{"Dc3x", ""}, "rc4 Ra1"},
		{"silver trap piece loses its guard", Silver, "rf6 hf7 Ra1", "hf7e",
			[]string{"rf6x"}, "hg7 Ra1"},
		{"gold horse walks into a trap and out of play", Gold, "Hd6 Ra1 rh8", "Hd6w",
			[]string{"Hc6x"}, "Ra1 rh8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, c.side, c.pos)
			tr := NewTurn(p)
			caps := rulesPlay(t, &tr, c.moves)
			if !slices.Equal(caps, c.caps) {
				t.Errorf("captures %q, want %q", caps, c.caps)
			}
			want := rulesPos(t, c.side, c.want)
			if !tr.Pos.SameBoard(&want) {
				t.Errorf("board %s, want %s", tr.Pos.String(), want.String())
			}
			if err := tr.CanEnd(); err != nil {
				t.Fatal(err)
			}
			wantEnd := want
			wantEnd.SetSide(c.side.Other())
			if _, ok := rulesGenKeys(NewMoveGen(), &p, nil)[wantEnd.Key()]; !ok {
				t.Errorf("MoveGen does not generate %s", wantEnd.String())
			}
		})
	}
}

// ---------------------------------------------------------------------------
// The examples of the Wikibooks seed. Its diagram is not in the text; this
// position is consistent with everything the text says about it:
//
//	8 . . . . . . r r
//	7 r R . . . . m .
//	6 D d x H . x . .
//	5 . . . e . . . .
//	4 . . r . . r . M
//	3 . . r E . x . .
//	2 R . h r . h . R
//	1 . . C R . R . .
//	  a b c d e f g h
const rulesWikibooksBoard = "[      rr" + "rR    m " + "Dd H    " + "   e    " + "  r  r M" + "  rE    " + "R hr h R" + "  CR R  ]"

func TestRulesWikibooksExamples(t *testing.T) {
	gold := rulesAEI(t, "g "+rulesWikibooksBoard)
	silver := rulesAEI(t, "s "+rulesWikibooksBoard)
	// edit returns p with the placements in "remove" taken off and those in "add" put on.
	edit := func(p Position, remove, add string) Position {
		for _, f := range strings.Fields(remove) {
			pc, _ := PieceFromLetter(f[0])
			sq := rulesSq(t, f[1:])
			if p.At(sq) != pc {
				t.Fatalf("edit: no %s", f)
			}
			p.Remove(pc, sq)
		}
		for _, f := range strings.Fields(add) {
			pc, _ := PieceFromLetter(f[0])
			p.Put(pc, rulesSq(t, f[1:]))
		}
		p.SetSide(p.Side.Other())
		return p
	}
	genGold := rulesGenKeys(NewMoveGen(), &gold, nil)
	genSilver := rulesGenKeys(NewMoveGen(), &silver, nil)

	t.Run("freezing as described", func(t *testing.T) {
		for sq, want := range map[string]bool{
			"a7": true,  // silver rabbit: gold dog beside, no friend
			"d2": false, // silver rabbit beside the gold elephant, but the horse c2 is a friend
			"b7": true,  // gold rabbit: silver dog b6 beside, no friend
			"c1": false, // gold cat beside the silver horse, but the rabbit d1 is a friend
			"a6": false, // the dogs a6 and b6 are equal
			"b6": false,
		} {
			if got := gold.IsFrozen(rulesSq(t, sq)); got != want {
				t.Errorf("%s frozen: %v, want %v", sq, got, want)
			}
		}
		tr := NewTurn(silver)
		rulesPlay(t, &tr, "rd2e") // the unfrozen rabbit d2 can move
	})
	t.Run("silver elephant pulls the gold horse d6 to d5", func(t *testing.T) {
		for _, dir := range []string{"s", "w", "e"} {
			tr := NewTurn(silver)
			rulesPlay(t, &tr, "ed5"+dir+" Hd6s")
			to := map[string]string{"s": "ed4", "w": "ec5", "e": "ee5"}[dir]
			want := edit(silver, "ed5 Hd6", to+" Hd5")
			if got := tr.End(); got.Key() != want.Key() {
				t.Errorf("got %s, want %s", got.String(), want.String())
			}
			if _, ok := genSilver[want.Key()]; !ok {
				t.Errorf("MoveGen lacks the pull to %s", to)
			}
		}
	})
	t.Run("gold elephant pushes the rabbit d2 to e2 only", func(t *testing.T) {
		tr := NewTurn(gold)
		for _, s := range []string{"rd2s", "rd2w", "rd2n"} {
			err := tr.CheckStep(rulesStep(t, s))
			if err == nil || !strings.Contains(err.Error(), "occupied") {
				t.Errorf("%s: %v, want an occupied square", s, err)
			}
		}
		rulesPlay(t, &tr, "rd2e Ed3s")
		want := edit(gold, "rd2 Ed3", "re2 Ed2")
		if got := tr.End(); got.Key() != want.Key() {
			t.Errorf("got %s, want %s", got.String(), want.String())
		}
		if _, ok := genGold[want.Key()]; !ok {
			t.Error("MoveGen lacks the push")
		}
	})
	t.Run("no push and pull at once", func(t *testing.T) {
		tr := NewTurn(gold)
		rulesPlay(t, &tr, "rd2e Ed3s")
		if err := tr.CheckStep(rulesStep(t, "rc3e")); err == nil {
			t.Fatal("the elephant finished the push and pulled rc3 to d3 in one motion")
		}
		bad := edit(gold, "rd2 Ed3 rc3", "re2 Ed2 rd3")
		if _, ok := genGold[bad.Key()]; ok {
			t.Fatal("MoveGen generates the push-and-pull position")
		}
	})
	t.Run("capture the gold horse by pushing it to c6", func(t *testing.T) {
		tr := NewTurn(silver)
		caps := rulesPlay(t, &tr, "Hd6w ed5n")
		if !slices.Equal(caps, []string{"Hc6x", ""}) {
			t.Fatalf("captures %q", caps)
		}
		want := edit(silver, "Hd6 ed5", "ed6")
		if _, ok := genSilver[want.Key()]; !ok {
			t.Error("MoveGen lacks the capture")
		}
	})
	t.Run("rabbit on c3 captured when c4 and c2 leave", func(t *testing.T) {
		for _, moves := range []string{"rc4e hc2w", "hc2w rc4w"} {
			tr := NewTurn(silver)
			caps := rulesPlay(t, &tr, moves)
			if !slices.Equal(caps, []string{"", "rc3x"}) {
				t.Errorf("%s: captures %q, want the rabbit on the second step", moves, caps)
			}
		}
		// Only one of the two guards leaving is not enough.
		tr := NewTurn(silver)
		if caps := rulesPlay(t, &tr, "rc4e"); caps[0] != "" {
			t.Errorf("captured with the horse still on c2: %q", caps)
		}
	})
	t.Run("pull completes after the puller is captured", func(t *testing.T) {
		tr := NewTurn(silver)
		caps := rulesPlay(t, &tr, "rf4e hf2n Rf1n")
		if !slices.Equal(caps, []string{"", "hf3x", ""}) {
			t.Fatalf("captures %q", caps)
		}
		want := edit(silver, "rf4 hf2 Rf1", "rg4 Rf2")
		if got := tr.End(); got.Key() != want.Key() {
			t.Errorf("got %s, want %s", got.String(), want.String())
		}
		if _, ok := genSilver[want.Key()]; !ok {
			t.Error("MoveGen lacks the pull by a captured horse")
		}
		// The rabbit now on g4 is frozen by the gold camel h4: it cannot step on.
		if err := tr.CheckStep(rulesStep(t, "rg4s")); err == nil || !strings.Contains(err.Error(), "frozen") {
			t.Errorf("rg4s after becoming frozen: %v", err)
		}
	})
	t.Run("gold wins in three steps", func(t *testing.T) {
		tr := NewTurn(gold)
		if err := tr.CheckStep(rulesStep(t, "Rb7n")); err == nil || !strings.Contains(err.Error(), "frozen") {
			t.Fatalf("Rb7n at the start: %v, want frozen", err)
		}
		rulesPlay(t, &tr, "ra7n Da6n Rb7n")
		end := tr.End()
		if got := EndOfTurn(&end, nil, nil); got != (Outcome{Gold, Goal}) {
			t.Fatalf("outcome %v, want Gold wins by goal", got)
		}
		// Not in fewer steps.
		var walk func(t2 Turn, depth int)
		walk = func(t2 Turn, depth int) {
			if t2.Pos.Bits[MakePiece(Gold, Rabbit)]&Rank8 != 0 {
				t.Fatalf("a gold rabbit reaches rank 8 in %d steps", t2.Used)
			}
			if depth == 0 {
				return
			}
			for _, s := range t2.LegalSteps(nil) {
				t3 := t2
				t3.Play(s)
				walk(t3, depth-1)
			}
		}
		walk(NewTurn(gold), 2)
	})
}

// ---------------------------------------------------------------------------
// A turn: length, net change, stopping early

func TestRulesTurnLength(t *testing.T) {
	p := rulesPos(t, Gold, "Ed4 Ra2 rh8")
	tr := NewTurn(p)
	if err := tr.CanEnd(); err == nil || !strings.Contains(err.Error(), "at least one step") {
		t.Fatalf("empty turn may end: %v", err)
	}
	// A player may stop after 1, 2 or 3 steps.
	for i, s := range []string{"Ed4n", "Ed5n", "Ed6n", "Ed7e"} {
		rulesPlay(t, &tr, s)
		if err := tr.CanEnd(); err != nil {
			t.Fatalf("after %d steps: %v", i+1, err)
		}
	}
	// No fifth step.
	if got := tr.LegalSteps(nil); len(got) != 0 {
		t.Fatalf("steps after 4: %v", got)
	}
	if err := tr.CheckStep(rulesStep(t, "Ra2n")); err == nil || !strings.Contains(err.Error(), "already has 4 steps") {
		t.Fatalf("fifth step: %v", err)
	}
	// Steps may be spread over pieces, and a piece may change direction.
	tr = NewTurn(p)
	rulesPlay(t, &tr, "Ed4n Ra2n Ed5e Ra3e")
	want := rulesPos(t, Silver, "Ee5 Rb3 rh8")
	if got := tr.End(); got.Key() != want.Key() {
		t.Fatalf("got %s, want %s", got.String(), want.String())
	}
}

func TestRulesNetChange(t *testing.T) {
	cases := []struct {
		name, pos, moves string
		change           bool
	}{
		{"forward and back", "Ed4 Ra2 rh8", "Ed4n Ed5s", false},
		{"round a square", "Ed4 Ra2 rh8", "Ed4n Ed5e Ee5s Ee4w", false},
		{"forward and back, then a step", "Ed4 Ra2 rh8", "Ed4n Ed5s Ra2n", true},
		{"push then pull back", "Ed4 rd5 Ra1", "rd5n Ed4n Ed5s rd6s", false},
		{"two pieces swap places", "Ed4 Md5 Ra1 rh8", "Ed4e Md5s Ee4n Ee5w", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, Gold, c.pos)
			tr := NewTurn(p)
			rulesPlay(t, &tr, c.moves)
			err := tr.CanEnd()
			if c.change && err != nil {
				t.Fatalf("cannot end: %v", err)
			}
			if !c.change && (err == nil || !strings.Contains(err.Error(), "change the board")) {
				t.Fatalf("unchanged board: CanEnd %v", err)
			}
		})
	}
	// MoveGen never generates the unchanged position, and a lone elephant reaches
	// every square within 4 steps except d4 itself; the traps (all in range) give
	// one board more, the elephant captured.
	p := rulesPos(t, Gold, "Ed4")
	want := 1
	for sq := range Square(64) {
		dist := max(sq.File()-3, 3-sq.File()) + max(sq.Rank()-3, 3-sq.Rank())
		if dist >= 1 && dist <= 4 && !Traps.Has(sq) {
			want++
		}
	}
	g := NewMoveGen()
	if n := g.Generate(&p, nil); n != want {
		t.Errorf("lone elephant: %d moves, want %d", n, want)
	}
	for i := range g.Len() {
		q := g.Position(i)
		if q.SameBoard(&p) {
			t.Fatalf("move %v leaves the board unchanged", g.Steps(i, nil))
		}
	}
}

// ---------------------------------------------------------------------------
// End of the game

func TestRulesEndOfTurn(t *testing.T) {
	// rank8 is a position where Silver has exactly four moves: shifting the rabbits
	// of rank 8 east into h8 by one to four steps.
	const rank8 = "ra8 rb8 rc8 rd8 re8 rf8 rg8 Ra7 Rb7 Rc7 Rd7 Re7 Rf7 Rg7 Rh7"
	allTwice := func(tb testing.TB, p Position) *History {
		h := NewHistory()
		g := NewMoveGen()
		for i := range g.Generate(&p, nil) {
			q := g.Position(i)
			h.Add(&q)
			h.Add(&q)
		}
		return h
	}
	allButOneTwice := func(tb testing.TB, p Position) *History {
		h := allTwice(tb, p)
		g := NewMoveGen()
		g.Generate(&p, nil)
		q := g.Position(0)
		h.Remove(&q)
		return h
	}
	startTwice := func(tb testing.TB, p Position) *History {
		h := NewHistory()
		h.Add(&p)
		h.Add(&p)
		return h
	}
	cases := []struct {
		name string
		side Color // the player to move next (B)
		spec string
		hist func(testing.TB, Position) *History
		want Outcome
	}{
		// 1. A rabbit of A on its goal.
		{"A's rabbit on goal", Silver, "Rd8 Ea1 rh5", nil, Outcome{Gold, Goal}},
		{"both on goal: the mover wins (gold)", Silver, "Rd8 rd1", nil, Outcome{Gold, Goal}},
		{"both on goal: the mover wins (silver)", Gold, "Rd8 rd1", nil, Outcome{Silver, Goal}},
		{"A's goal before B immobilized", Silver, "Rd8 Dg8 Dh7 ch8 rh5 Hh4", nil, Outcome{Gold, Goal}},
		// 2. A rabbit of B on its goal.
		{"B's rabbit on goal", Silver, "Rd5 rd1", nil, Outcome{Silver, Goal}},
		{"B's rabbit on goal, gold to move", Gold, "Rd8 rd5", nil, Outcome{Gold, Goal}},
		{"B's goal before A out of rabbits", Silver, "Ed5 rd1", nil, Outcome{Silver, Goal}},
		{"B's goal before B immobilized", Silver, "Rh3 Dd2 rd1", nil, Outcome{Silver, Goal}},
		// 3. B has no rabbits.
		{"B out of rabbits", Silver, "Ra2 eh8", nil, Outcome{Gold, Elimination}},
		{"both out of rabbits: the mover wins (gold)", Silver, "Ea2 eh8", nil, Outcome{Gold, Elimination}},
		{"both out of rabbits: the mover wins (silver)", Gold, "Ea2 eh8", nil, Outcome{Silver, Elimination}},
		{"B out of rabbits before B immobilized", Silver, "Ra2 Dg8 Dh7 ch8", nil, Outcome{Gold, Elimination}},
		// 4. A has no rabbits.
		{"A out of rabbits", Silver, "Ea2 rh7", nil, Outcome{Silver, Elimination}},
		{"A out of rabbits before B immobilized", Silver, "Dg8 Dh7 Hh4 ch8 rh5", nil, Outcome{Silver, Elimination}},
		// 5. B cannot make any step.
		{"immobilized: all frozen", Silver, "Ra1 Dg8 Dh7 ch8 rh5 Hh4", nil, Outcome{Gold, Immobilization}},
		{"immobilized: blocked, not frozen", Silver, "ra8 rb8 Ra7 Rb7 Cc8", nil, Outcome{Gold, Immobilization}},
		{"immobilized: a rabbit may not step backward", Silver, "Rc4 Re4 Rd3 rd4", nil, Outcome{Gold, Immobilization}},
		{"immobilized: gold rabbit blocked", Gold, "Rd4 rc4 re4 rd5", nil, Outcome{Silver, Immobilization}},
		{"not immobilized: the only motion is a push", Silver, "ha8 Cb8 Ca7 Dc8 Db7 rh5 Hh4 Rh1", nil, Outcome{}},
		{"immobilized: the push is blocked", Silver, "ha8 Cb8 Ca7 Dc8 Db7 Ra6 rh5 Hh4 Rh1", nil, Outcome{Gold, Immobilization}},
		{"immobilized: equal strength cannot be pushed", Silver, "ha8 Cb8 Ha7 Dc8 Db7 rh5 Mh4 Rh1", nil, Outcome{Gold, Immobilization}},
		{"immobilization before repetition", Silver, "Ra1 Dg8 Dh7 ch8 rh5 Hh4", startTwice, Outcome{Gold, Immobilization}},
		// 6. Every move of B a third repetition.
		{"every move a third repetition", Silver, rank8, allTwice, Outcome{Gold, Repetition}},
		{"one move not a repetition", Silver, rank8, allButOneTwice, Outcome{}},
		{"repetition needs a history", Silver, rank8, nil, Outcome{}},
		{"only the position itself twice", Silver, rank8, startTwice, Outcome{}},
		{"elimination before repetition", Silver, "Ra2 Rb2 eh8 Eh1", allTwice, Outcome{Gold, Elimination}},
		{"game goes on", Silver, "Ra2 rh7 Ed4 ed5", nil, Outcome{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, c.side, c.spec)
			var h *History
			if c.hist != nil {
				h = c.hist(t, p)
			}
			got := EndOfTurn(&p, h, nil)
			if got != c.want {
				t.Errorf("EndOfTurn = %v, want %v", got, c.want)
			}
			if got2 := EndOfTurn(&p, h, NewMoveGen()); got2 != got {
				t.Errorf("with a MoveGen: %v, without: %v", got2, got)
			}
			// HasStep agrees with move generation.
			if has, n := p.HasStep(), NewMoveGen().Generate(&p, nil); has != (n > 0) {
				t.Errorf("HasStep %v but %d moves", has, n)
			}
		})
	}
}

func TestRulesRepetitionRank8Moves(t *testing.T) {
	const rank8 = "ra8 rb8 rc8 rd8 re8 rf8 rg8 Ra7 Rb7 Rc7 Rd7 Re7 Rf7 Rg7 Rh7"
	p := rulesPos(t, Silver, rank8)
	// The four moves leave a hole on g8, f8, e8 or d8.
	after := func(hole string, side Color) Position {
		q := rulesPos(t, side, strings.Replace(rank8, "r"+hole, "rh8", 1))
		return q
	}
	g := NewMoveGen()
	got := rulesGenKeys(g, &p, nil)
	if len(got) != 4 {
		t.Fatalf("%d moves, want 4", len(got))
	}
	for _, hole := range []string{"g8", "f8", "e8", "d8"} {
		q := after(hole, Gold)
		if _, ok := got[q.Key()]; !ok {
			t.Errorf("no move leaves a hole on %s", hole)
		}
	}
	// Two of them stood twice, one once, and the fourth board twice but with
	// Silver to move: only the first two are third repetitions.
	h := NewHistory()
	for _, hole := range []string{"g8", "f8", "e8", "g8", "f8"} {
		q := after(hole, Gold)
		h.Add(&q)
	}
	wrongSide := after("d8", Silver)
	h.Add(&wrongSide)
	h.Add(&wrongSide)
	got = rulesGenKeys(g, &p, h)
	if len(got) != 2 {
		t.Fatalf("with history: %d moves, want 2 (holes e8 and d8)", len(got))
	}
	for _, hole := range []string{"e8", "d8"} {
		q := after(hole, Gold)
		if _, ok := got[q.Key()]; !ok {
			t.Errorf("the move leaving a hole on %s was excluded", hole)
		}
	}
	if out := EndOfTurn(&p, h, g); out.Over() {
		t.Errorf("EndOfTurn = %v with two moves left", out)
	}
}

func TestRulesGoalTouchedWithinTurnDoesNotCount(t *testing.T) {
	cases := []struct {
		name        string
		side        Color
		spec        string
		there, back string
		touch       Outcome
	}{
		// Gold pushes a silver rabbit onto rank 1 and pulls it off again.
		{"silver rabbit", Gold, "Ed3 rd2 Ra5 eh8", "rd2s Ed3s", "Ed2e rd1n", Outcome{Silver, Goal}},
		// Silver pushes a gold rabbit onto rank 8 and pulls it off again.
		{"gold rabbit", Silver, "ee6 Re7 ra4 Eh1", "Re7n ee6n", "ee7w Re8s", Outcome{Gold, Goal}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, c.side, c.spec)
			tr := NewTurn(p)
			rulesPlay(t, &tr, c.there)
			mid := tr.End()
			if got := EndOfTurn(&mid, nil, nil); got != c.touch {
				t.Fatalf("ending on the goal: %v, want %v", got, c.touch)
			}
			rulesPlay(t, &tr, c.back)
			end := tr.End()
			if got := EndOfTurn(&end, nil, nil); got.Over() {
				t.Fatalf("rabbit moved off the goal in the same turn: %v", got)
			}
		})
	}
}

func TestRulesLastRabbitsCapturedInOneTurn(t *testing.T) {
	cases := []struct {
		name  string
		side  Color
		spec  string
		moves string
		caps  []string
		want  Outcome
	}{
		{"gold moves", Gold, "Rc3 Dc4 Ed6 re6 eh8", "re6e Ed6e Dc4n",
			[]string{"rf6x", "", "Rc3x"}, Outcome{Gold, Elimination}},
		{"silver moves", Silver, "rf6 df7 Rd3 ed2 Ea1", "Rd3w ed2n df7n",
			[]string{"Rc3x", "", "rf6x"}, Outcome{Silver, Elimination}},
		{"only the mover loses its last rabbit", Gold, "Rc3 Dc4 re6 eh8", "Dc4n",
			[]string{"Rc3x"}, Outcome{Silver, Elimination}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := rulesPos(t, c.side, c.spec)
			tr := NewTurn(p)
			caps := rulesPlay(t, &tr, c.moves)
			if !slices.Equal(caps, c.caps) {
				t.Fatalf("captures %q, want %q", caps, c.caps)
			}
			end := tr.End()
			if got := EndOfTurn(&end, nil, nil); got != c.want {
				t.Fatalf("outcome %v, want %v", got, c.want)
			}
		})
	}
}
