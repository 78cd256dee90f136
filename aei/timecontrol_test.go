package aei

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// t0 is the fake clock's origin: every event of the clock tests happens a
// number of seconds after it. No test here reads the wall clock.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// at returns the fake time s seconds after t0.
func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// playClock runs events on c, each "SECONDS EVENT [ARGS]" on the fake
// clock: newgame, setposition, "setup g|s" and "move g|s" (the makemove that
// ends a turn), or a time option and its value in seconds, such as
// "12.5 greserve 80".
func playClock(t *testing.T, c *clock, events []string) {
	t.Helper()
	for _, ev := range events {
		f := strings.Fields(ev)
		when, err := strconv.ParseFloat(f[0], 64)
		if err != nil || len(f) < 2 {
			t.Fatalf("bad event %q", ev)
		}
		now := at(when)
		side := func() engine.Color {
			if len(f) != 3 || (f[2] != "g" && f[2] != "s") {
				t.Fatalf("bad event %q: want g or s", ev)
			}
			if f[2] == "s" {
				return engine.Silver
			}
			return engine.Gold
		}
		switch f[1] {
		case "newgame":
			c.newGame(now)
		case "setposition":
			c.setPosition(now)
		case "setup":
			c.moved(side(), true, now)
		case "move":
			c.moved(side(), false, now)
		default:
			if !timeOption(f[1]) || len(f) != 3 {
				t.Fatalf("bad event %q", ev)
			}
			x, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				t.Fatalf("bad event %q: %v", ev, err)
			}
			c.set(f[1], x, now)
		}
	}
}

// The game of most clock tests: the time control 15s/90s (tcpercent 100),
// then the setups, which take 2 s and 1 s and do not count.
var setups = []string{"0 tcmove 15", "0 tcreserve 90", "0 newgame", "2 setup g", "3 setup s"}

func events(evs ...[]string) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e...)
	}
	return out
}

// TestClockReserve follows the reserves through a game: unused move time
// added by tcpercent, time over tcmove taken off, the tcmax cap, the
// controller's reports (greserve, sreserve, gused, sused, lastmoveused,
// moveused) and the engine's own measure of each turn.
func TestClockReserve(t *testing.T) {
	for _, c := range []struct {
		name         string
		events       []string
		gold, silver float64 // the reserves after the events
		turn         int
	}{
		{"start", events(setups), 90, 90, 2},
		{"unused time added, overspent taken off", events(setups, []string{"8 move g", "28 move s"}), 100, 85, 3},
		{"tcpercent 50", events(setups, []string{"3 tcpercent 50", "8 move g", "8 move s"}), 95, 97.5, 3},
		{"tcpercent 0", events(setups, []string{"3 tcpercent 0", "8 move g", "28 move s"}), 90, 85, 3},
		{"tcmax caps", events(setups, []string{"3 tcmax 95", "8 move g", "8 move s", "13 move g", "13 move s", "18 move g"}), 95, 95, 4},
		{"tcmax caps a larger tcreserve after a turn", events(setups, []string{"3 tcmax 60", "8 move g"}), 60, 90, 2},
		{"greserve wins over the measure", events(setups, []string{"8 move g", "8 greserve 80", "28 move s", "48 move g"}), 75, 85, 3},
		{"gused replaces the measure", events(setups, []string{"8 move g", "8 gused 12"}), 93, 90, 2},
		{"sused replaces the measure", events(setups, []string{"8 move g", "9 move s", "9 sused 21"}), 100, 84, 3},
		{"lastmoveused is the last side's", events(setups, []string{"8 move g", "18 move s", "18 lastmoveused 16"}), 100, 89, 3},
		{"a used time before the reported reserve is in it", events(setups, []string{"8 move g", "8 greserve 70", "8 gused 12"}), 70, 90, 2},
		{"moveused starts the turn's clock", events(setups, []string{"30 moveused 0", "35 move g"}), 100, 90, 2},
		{"moveused counts what it says", events(setups, []string{"30 moveused 4", "35 move g"}), 96, 90, 2},
		{"without moveused the turn starts at the last makemove", events(setups, []string{"35 move g"}), 73, 90, 2},
		{"overspent below zero", events([]string{"0 tcmove 2", "0 tcreserve 1", "0 newgame", "0 setup g", "0 setup s", "5 move g"}), -2, 1, 2},
		{"newgame resets", events(setups, []string{"8 move g", "8 greserve 10", "8 sreserve 20", "10 newgame"}), 90, 90, 1},
		{"tcreserve after newgame", events([]string{"0 newgame", "0 tcreserve 30"}), 30, 30, 1},
		{"a turn counts under the time control of its day", events(setups, []string{"8 move g", "8 tcmove 30", "8 tcpercent 0", "8 tcmax 50", "8 move s"}), 100, 50, 3},
		{"setposition keeps the reserves, the turn is unknown", events(setups, []string{"8 move g", "9 setposition", "29 move s"}), 100, 85, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClock(t0)
			playClock(t, &cl, c.events)
			if g, s := cl.reserveOf(engine.Gold), cl.reserveOf(engine.Silver); math.Abs(g-c.gold) > 1e-9 || math.Abs(s-c.silver) > 1e-9 {
				t.Errorf("reserves %g and %g, want %g and %g", g, s, c.gold, c.silver)
			}
			if cl.turn != c.turn {
				t.Errorf("turn %d, want %d", cl.turn, c.turn)
			}
		})
	}
}

// TestClockBudget checks the budget and the hard limit of a move at a time
// of the fake clock, after the events of a game.
func TestClockBudget(t *testing.T) {
	sec := func(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
	gold, silver := engine.Gold, engine.Silver
	for _, c := range []struct {
		name         string
		events       []string
		side         engine.Color
		now          float64 // seconds on the fake clock
		budget, hard time.Duration
		noControl    bool
	}{
		{name: "none", events: []string{"0 newgame"}, noControl: true},
		{name: "15s/90s", events: setups, side: gold, now: 3, budget: sec(24), hard: sec(105)},
		{name: "time since the turn started", events: setups, side: gold, now: 8, budget: sec(19), hard: sec(100)},
		{name: "moveused", events: events(setups, []string{"10 moveused 1"}), side: gold, now: 12, budget: sec(21), hard: sec(102)},
		{name: "own reserve", events: events(setups, []string{"3 greserve 10", "3 sreserve 200"}), side: silver, now: 3, budget: sec(35), hard: sec(215)},
		{name: "gold reserve", events: events(setups, []string{"3 greserve 10"}), side: gold, now: 3, budget: sec(16), hard: sec(25)},
		{name: "reserve grown by a move", events: events(setups, []string{"8 move g", "8 move s"}), side: gold, now: 8, budget: sec(25), hard: sec(115)},
		{name: "reserve capped by tcmax", events: events(setups, []string{"3 tcmax 95", "8 move g", "8 move s"}), side: gold, now: 8, budget: sec(24.5), hard: sec(110)},
		{name: "reserve above tcmax spent", events: events(setups, []string{"3 tcmax 60"}), side: gold, now: 3, budget: sec(45), hard: sec(105)},
		{name: "overspent reserve", events: []string{"0 tcmove 2", "0 tcreserve 1", "0 newgame", "0 setup g", "0 setup s", "5 move g", "5 move s"}, side: gold, now: 5,
			budget: sec(2 - 0.25 - 0.1), hard: sec(2)},
		{name: "no reserve", events: []string{"0 tcmove 2", "0 newgame"}, side: gold, budget: sec(2 - 0.25 - 0.1), hard: sec(2)},
		{name: "turn time", events: []string{"0 tcmove 60", "0 tcreserve 600", "0 tcturntime 30", "0 newgame"}, side: gold,
			budget: sec(30 - 0.25 - 1.5), hard: sec(30)},
		{name: "turn time only", events: []string{"0 tcturntime 10", "0 newgame"}, side: gold, budget: sec(10 - 0.25 - 0.5), hard: sec(10)},
		{name: "total", events: events(setups, []string{"0 tctotal 600", "580 moveused 0"}), side: gold, now: 580, budget: sec(1), hard: sec(20)},
		{name: "total only", events: []string{"0 tctotal 1000", "0 newgame", "200 setposition"}, side: gold, now: 200, budget: sec(40), hard: sec(800)},
		{name: "tcturns: two turns left", events: events(setups, []string{"0 tcturns 3"}), side: gold, now: 3, budget: sec(60), hard: sec(105)},
		{name: "tcturns: the last turn spends the reserve", events: events(setups, []string{"0 tcturns 3", "0 tcpercent 0", "3 move g", "3 move s"}), side: gold, now: 3,
			budget: sec(105 - 0.25 - 5.25), hard: sec(105)},
		{name: "tcturns: unknown turn after setposition", events: events(setups, []string{"0 tcturns 3", "3 setposition"}), side: gold, now: 3, budget: sec(24), hard: sec(105)},
		{name: "tctotal over the turns left", events: events(setups, []string{"0 tctotal 600", "0 tcturns 7", "300 moveused 0"}), side: gold, now: 300,
			budget: sec(30), hard: sec(105)},
		{name: "out of time", events: []string{"0 tcmove 1", "0 newgame", "0 moveused 3"}, side: gold, budget: lastGasp, hard: 0},
		{name: "nearly out of time", events: []string{"0 tcmove 0.03", "0 newgame"}, side: gold, budget: sec(0.015), hard: sec(0.03)},
		{name: "short of the margin", events: []string{"0 tcmove 0.2", "0 newgame"}, side: gold, budget: minBudget, hard: sec(0.2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClock(t0)
			playClock(t, &cl, c.events)
			budget, hard, ok := cl.budget(c.side, at(c.now))
			if ok == c.noControl {
				t.Fatalf("ok = %v", ok)
			}
			if !ok {
				return
			}
			if d := budget - c.budget; d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("budget %v, want %v", budget, c.budget)
			}
			if d := hard - c.hard; d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("hard limit %v, want %v", hard, c.hard)
			}
			// Never past what remains: the margin kept where there is room
			// for it, a share of the rest otherwise.
			margin := marginFixed + time.Duration(marginShare*float64(hard))
			if budget <= 0 || (hard > 0 && budget >= hard) || (hard-margin >= minBudget && budget > hard-margin) {
				t.Errorf("budget %v against the hard limit %v", budget, hard)
			}
		})
	}
}

// TestEngineTimeOptions drives a session with the time options and moves of
// a game, on a fake clock, and checks the budget it gives each search: the
// options reach the time management, makemove ends each side's turn, newgame
// and setposition start the clock's game and turn.
func TestEngineTimeOptions(t *testing.T) {
	e, err := NewEngine(Config{Seed: 1, Search: mcts.Config{Visits: 50}})
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	e.now = func() time.Time { return now }
	var out bytes.Buffer
	s := newSession(e, &out)
	ctx := context.Background()
	send := func(after float64, msgs ...string) {
		t.Helper()
		now = now.Add(time.Duration(after * float64(time.Second)))
		for _, m := range msgs {
			if !s.handle(ctx, m) {
				t.Fatalf("%q ended the session", m)
			}
		}
	}
	check := func(what string, wantLimit time.Duration, wantNote string) {
		t.Helper()
		visits, limit, note := s.budget()
		if visits != 0 || limit != wantLimit || note != wantNote {
			t.Errorf("%s: budget %d visits, %v, note %q; want %v, %q", what, visits, limit, note, wantLimit, wantNote)
		}
	}
	gold := "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"
	silver := strings.ToLower(strings.NewReplacer("1", "8", "2", "7").Replace(gold))

	send(0, "setoption name tcmove value 15", "setoption name tcreserve value 90", "setoption name tcmax value 100", "newgame")
	send(2, "makemove "+gold)
	send(1, "makemove "+silver)
	check("the first move", 24*time.Second, "search 24.000 s (Gold's reserve 90.000 s, hard limit 105.000 s)")
	send(5, "makemove Ee2n Ee3n")
	send(0, "makemove ee7s ee6s")
	// Gold saved 10 s: 100 in reserve, the cap.
	check("Gold's second move", 25*time.Second, "search 25.000 s (Gold's reserve 100.000 s, hard limit 115.000 s)")
	send(0, "makemove Md2n Md3n")
	send(30, "makemove md7s md6s")
	// Silver overspent by 15 s, then the controller says 20 s were used.
	s.handle(ctx, "setoption name lastmoveused value 20")
	send(0, "setoption name moveused value 0")
	check("Gold's third move", 25*time.Second, "search 25.000 s (Gold's reserve 100.000 s, hard limit 115.000 s)")
	if r := s.clock.reserveOf(engine.Silver); r != 95 {
		t.Errorf("Silver's reserve %g, want 95", r)
	}
	send(4, "setoption name greserve value 40")
	check("after greserve, 4 s into the turn", 15*time.Second, "search 15.000 s (Gold's reserve 40.000 s, hard limit 51.000 s)")
	send(0, "newgame", "setposition "+opening)
	check("setposition after newgame", 24*time.Second, "search 24.000 s (Gold's reserve 90.000 s, hard limit 105.000 s)")
	if out.Len() > 0 {
		t.Errorf("the engine answered %q", out.String())
	}
}
