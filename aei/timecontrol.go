package aei

import (
	"math"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// The constants of the time management (see docs/aei.md).
const (
	// reserveShare is the share of the reserve a move may spend on top of the
	// per-move time.
	reserveShare = 0.1
	// marginFixed and marginShare make the safety margin kept below the hard
	// limit of a move: marginFixed plus marginShare of the limit, for the
	// controller's and the pipes' latency and for the search's own reaction
	// time.
	marginFixed = 250 * time.Millisecond
	marginShare = 0.05
	// minBudget is the least time a search is given, even when the clock says
	// less is left.
	minBudget = 20 * time.Millisecond
	// totalShare is the share of what tctotal leaves of the game that one move
	// may spend.
	totalShare = 0.05
)

// clock holds the time options of AEI, in seconds, as the controller set them.
// For each option 0 means unlimited (or unset), except tcpercent, whose initial
// value is 100.
type clock struct {
	move       float64 // tcmove: the time per move
	reserve    float64 // tcreserve: the starting reserve
	percent    float64 // tcpercent: the percent of unused move time added to the reserve
	maxReserve float64 // tcmax: the largest reserve
	total      float64 // tctotal: the time limit of the whole game
	turns      float64 // tcturns: the largest number of turns of the game
	turnTime   float64 // tcturntime: the longest a single turn may last

	greserve, sreserve float64 // each side's reserve now
	haveG, haveS       bool    // whether greserve and sreserve were set in this game
	gused, sused       float64 // the time each side used on its last turn
	lastUsed           float64 // lastmoveused
	moveUsed           float64 // moveused: the time used so far on the current turn
}

// newClock returns a clock with no time control.
func newClock() clock { return clock{percent: 100} }

// newGame resets what belongs to one game: the reserves go back to tcreserve
// and the used times to 0; the time control itself stays.
func (c *clock) newGame() {
	c.greserve, c.sreserve = c.reserve, c.reserve
	c.haveG, c.haveS = false, false
	c.gused, c.sused, c.lastUsed, c.moveUsed = 0, 0, 0, 0
}

// reserveOf returns the reserve of side, in seconds: greserve or sreserve when
// the controller sent it, tcreserve otherwise.
func (c *clock) reserveOf(side engine.Color) float64 {
	switch {
	case side == engine.Gold && c.haveG:
		return c.greserve
	case side == engine.Silver && c.haveS:
		return c.sreserve
	}
	return c.reserve
}

// budget returns how long side should search its move, elapsed into the game
// (for tctotal), and the hard limit past which it would lose on time; ok is
// false when no time control bounds the move.
//
// The hard limit is tcmove plus the side's reserve, cut to tcturntime and to
// what tctotal leaves of the game, less moveused. The target is tcmove plus a
// tenth of the reserve (tcturntime when neither is set), cut to a twentieth of
// what tctotal leaves, less moveused. The budget is the target cut to the hard
// limit less a safety margin, and never under minBudget.
func (c *clock) budget(side engine.Color, elapsed time.Duration) (budget, hard time.Duration, ok bool) {
	reserve := max(c.reserveOf(side), 0)
	limit, target := math.Inf(1), math.Inf(1)
	if c.move > 0 || reserve > 0 {
		limit = c.move + reserve
		target = c.move + reserveShare*reserve
	}
	if c.turnTime > 0 {
		limit = min(limit, c.turnTime)
		target = min(target, c.turnTime)
	}
	if c.total > 0 {
		left := c.total - elapsed.Seconds()
		limit = min(limit, left)
		target = min(target, totalShare*left)
	}
	if math.IsInf(limit, 1) {
		return 0, 0, false
	}
	hard = max(seconds(limit-c.moveUsed), 0)
	margin := marginFixed + time.Duration(marginShare*float64(hard))
	budget = min(seconds(target-c.moveUsed), hard-margin)
	return max(budget, minBudget), hard, true
}

// seconds converts a number of seconds to a duration, saturating at a year.
func seconds(s float64) time.Duration {
	const year = 365 * 24 * time.Hour
	if s >= year.Seconds() {
		return year
	}
	return time.Duration(s * float64(time.Second))
}
