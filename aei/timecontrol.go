package aei

import (
	"math"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// The constants of the time management (see docs/aei.md).
const (
	// reserveTurns is the number of turns the reserve is spread over: a move
	// may spend a reserveTurns-th of the reserve on top of the per-move time
	// (all of it on the last turn that tcturns allows).
	reserveTurns = 10
	// totalTurns is the number of turns what tctotal leaves of the game is
	// spread over: a move may spend a totalTurns-th of it (fewer turns when
	// tcturns says fewer are left).
	totalTurns = 20
	// marginFixed and marginShare make the safety margin kept below the hard
	// limit of a move: marginFixed plus marginShare of the limit, for the
	// controller's and the pipes' latency and for the search's own reaction
	// time.
	marginFixed = 250 * time.Millisecond
	marginShare = 0.05
	// minBudget is the least time a search is given while the hard limit
	// leaves twice as much; with less, half of what is left.
	minBudget = 20 * time.Millisecond
	// lastGasp is the budget of a move past its hard limit: answer at once.
	lastGasp = time.Millisecond
)

// clock is AEI's time control as the engine keeps it: the options the
// controller set (seconds; 0 means unlimited or unset, except tcpercent,
// initially 100) and each side's reserve through the game.
//
// A side's reserve is the last one the controller reported (greserve or
// sreserve), or tcreserve when it reported none since newgame, updated by
// each of that side's turns (not the setups) since: the turn's unused
// per-move time added by tcpercent percent, or its time over tcmove taken
// off, and the result capped at tcmax. A turn's time is the one the
// controller reports after it (gused, sused or lastmoveused) or else the
// engine's own measure: from the start of the turn (the previous makemove,
// setposition or newgame, or moveused as the controller gave it) to the
// makemove that ends it. Every method takes the time now from its caller, so
// that tests drive a clock of their own.
type clock struct {
	move       float64 // tcmove: the time per move
	reserve    float64 // tcreserve: the starting reserve
	percent    float64 // tcpercent: the percent of unused move time added to the reserve
	maxReserve float64 // tcmax: the largest reserve
	total      float64 // tctotal: the time limit of the whole game
	turns      float64 // tcturns: the largest number of turns of the game
	turnTime   float64 // tcturntime: the longest a single turn may last

	start     time.Time // newgame: the start of the game, for tctotal
	turn      int       // the turn number (1 for the setups, 2 for the first move); 0 when unknown
	turnStart time.Time // the start of the current turn: the last makemove, setposition or newgame

	moveUsed     float64   // moveused: the time used on the current turn, as last reported
	moveUsedAt   time.Time // when moveused was set
	haveMoveUsed bool      // moveused was set during the current turn

	sides    [2]sideClock
	lastSide engine.Color // the side that played the last turn
	haveLast bool         // a turn was played since newgame
}

// sideClock is what the clock knows of one side's reserve.
type sideClock struct {
	base     float64    // the reserve the controller reported (greserve or sreserve)
	reported bool       // base holds a reported reserve; tcreserve otherwise
	turns    []turnTime // the side's turns since base
}

// turnTime is a turn's time and the time control it was played under.
type turnTime struct {
	used                   float64 // seconds
	move, percent, maxRsrv float64 // tcmove, tcpercent and tcmax then
}

// newClock returns a clock with no time control, its game started at now.
func newClock(now time.Time) clock {
	c := clock{percent: 100}
	c.newGame(now)
	return c
}

// newGame starts a game at now: the reserves go back to tcreserve, the turns
// to the setups; the time control stays.
func (c *clock) newGame(now time.Time) {
	c.start, c.turnStart, c.turn = now, now, 1
	c.sides = [2]sideClock{}
	c.haveMoveUsed, c.haveLast = false, false
	c.moveUsed = 0
}

// setPosition starts a turn at now in a position set by the controller: the
// reserves stay, the turn number becomes unknown.
func (c *clock) setPosition(now time.Time) {
	c.turn, c.turnStart, c.haveMoveUsed = 0, now, false
}

// moved ends at now the turn that side played: a setup or a move. A move's
// time counts against side's reserve until the controller reports a better
// figure or a new reserve.
func (c *clock) moved(side engine.Color, setup bool, now time.Time) {
	if !setup {
		s := &c.sides[side]
		s.turns = append(s.turns, turnTime{used: c.usedNow(now), move: c.move, percent: c.percent, maxRsrv: c.maxReserve})
	}
	c.lastSide, c.haveLast = side, true
	if c.turn > 0 && side == engine.Silver {
		c.turn++
	}
	c.turnStart, c.haveMoveUsed = now, false
}

// timeOption reports whether name is one of AEI's time options (see set).
func timeOption(name string) bool {
	switch name {
	case "tcmove", "tcreserve", "tcpercent", "tcmax", "tctotal", "tcturns", "tcturntime",
		"greserve", "sreserve", "gused", "sused", "lastmoveused", "moveused":
		return true
	}
	return false
}

// set sets the time option name (see timeOption) to x seconds (x >= 0), at
// now.
func (c *clock) set(name string, x float64, now time.Time) {
	switch name {
	case "tcmove":
		c.move = x
	case "tcreserve":
		c.reserve = x
	case "tcpercent":
		c.percent = x
	case "tcmax":
		c.maxReserve = x
	case "tctotal":
		c.total = x
	case "tcturns":
		c.turns = x
	case "tcturntime":
		c.turnTime = x
	case "greserve":
		c.setReserve(engine.Gold, x)
	case "sreserve":
		c.setReserve(engine.Silver, x)
	case "gused":
		c.setUsed(engine.Gold, x)
	case "sused":
		c.setUsed(engine.Silver, x)
	case "lastmoveused":
		c.setLastUsed(x)
	case "moveused":
		c.setMoveUsed(x, now)
	}
}

// setReserve records the reserve side has now, as the controller reports it
// (greserve, sreserve).
func (c *clock) setReserve(side engine.Color, seconds float64) {
	c.sides[side] = sideClock{base: seconds, reported: true}
}

// setUsed records the time side used on its last turn, as the controller
// reports it (gused, sused). A turn before the side's reported reserve is
// already counted in it.
func (c *clock) setUsed(side engine.Color, seconds float64) {
	if s := &c.sides[side]; len(s.turns) > 0 {
		s.turns[len(s.turns)-1].used = seconds
	}
}

// setLastUsed records the time used on the last turn (lastmoveused).
func (c *clock) setLastUsed(seconds float64) {
	if c.haveLast {
		c.setUsed(c.lastSide, seconds)
	}
}

// setMoveUsed records at now the time already used on the current turn
// (moveused).
func (c *clock) setMoveUsed(seconds float64, now time.Time) {
	c.moveUsed, c.moveUsedAt, c.haveMoveUsed = seconds, now, true
}

// usedNow returns the time used on the current turn at now, in seconds: what
// moveused said plus the time since, or the time since the turn started.
func (c *clock) usedNow(now time.Time) float64 {
	if c.haveMoveUsed {
		return c.moveUsed + max(now.Sub(c.moveUsedAt).Seconds(), 0)
	}
	return max(now.Sub(c.turnStart).Seconds(), 0)
}

// reserveOf returns the reserve of side, in seconds (negative for a side
// that overspent it): the base, then each turn since under the time control
// of its day.
func (c *clock) reserveOf(side engine.Color) float64 {
	s := &c.sides[side]
	r := c.reserve
	if s.reported {
		r = s.base
	}
	for _, t := range s.turns {
		if t.used <= t.move {
			r += (t.move - t.used) * t.percent / 100
		} else {
			r -= t.used - t.move
		}
		if t.maxRsrv > 0 {
			r = min(r, t.maxRsrv)
		}
	}
	return r
}

// turnsLeft returns the turns side has left in the game, this one included,
// when tcturns limits it and the turn number is known; 0 otherwise.
func (c *clock) turnsLeft() int {
	if c.turns <= 0 || c.turn <= 0 {
		return 0
	}
	return max(int(c.turns)-c.turn+1, 1)
}

// budget returns how long side should search its move at now and the hard
// limit past which it would lose on time; ok is false when no time control
// bounds the move. Both count from now.
//
// With R the side's reserve (0 when overspent) and U the time already used
// on this turn, the hard limit is tcmove + R, cut to tcturntime and to what
// tctotal leaves of the game, less U. The target is tcmove plus R spread over
// reserveTurns turns (over the turns left, when tcturns leaves fewer), at
// least tcmove plus the part of R over tcmax (which the cap would take
// anyway), cut to tcturntime and to what tctotal leaves spread over
// totalTurns turns (or the turns left), less U. The budget is the target cut
// to the hard limit less a safety margin; at least minBudget while the hard
// limit leaves twice that, half the hard limit below, and lastGasp past it.
func (c *clock) budget(side engine.Color, now time.Time) (budget, hard time.Duration, ok bool) {
	reserve := max(c.reserveOf(side), 0)
	left := c.turnsLeft()
	limit, target := math.Inf(1), math.Inf(1)
	if c.move > 0 || reserve > 0 {
		spread := reserveTurns
		if left > 0 {
			spread = min(spread, left)
		}
		limit = c.move + reserve
		target = c.move + reserve/float64(spread)
		if c.maxReserve > 0 && reserve > c.maxReserve {
			target = max(target, c.move+reserve-c.maxReserve)
		}
	}
	if c.turnTime > 0 {
		limit = min(limit, c.turnTime)
		target = min(target, c.turnTime)
	}
	if c.total > 0 {
		rest := c.total - now.Sub(c.start).Seconds()
		spread := totalTurns
		if left > 0 {
			spread = min(spread, left)
		}
		limit = min(limit, rest)
		target = min(target, rest/float64(spread))
	}
	if math.IsInf(limit, 1) {
		return 0, 0, false
	}
	used := c.usedNow(now)
	hard = max(seconds(limit-used), 0)
	margin := marginFixed + time.Duration(marginShare*float64(hard))
	budget = min(seconds(target-used), hard-margin)
	switch {
	case budget >= minBudget:
	case hard >= 2*minBudget:
		budget = minBudget
	default:
		budget = max(hard/2, lastGasp)
	}
	return budget, hard, true
}

// seconds converts a number of seconds to a duration, saturating at plus or
// minus a year.
func seconds(s float64) time.Duration {
	const year = 365 * 24 * time.Hour
	switch {
	case s >= year.Seconds():
		return year
	case s <= -year.Seconds():
		return -year
	}
	return time.Duration(s * float64(time.Second))
}
