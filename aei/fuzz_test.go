package aei

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// FuzzEngineMessages feeds arbitrary messages to a session: it must never
// panic, and its game must stay consistent (a position that parses back, a
// history holding the position once play has begun).
func FuzzEngineMessages(f *testing.F) {
	for _, seed := range []string{
		"aei\nisready\nnewgame\ngo\nmakemove Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\ngo\nstop\nquit",
		"setposition " + opening + "\nmakemove Ee2n Ee3n\ngo ponder\nmakemove ed7s\ngo\nstop",
		"setposition g [cD     rR                                               e       ]\ngo\nmakemove Db8e ca8e Ra7n\ngo",
		"setoption name tcmove value 1e308\nsetoption name greserve value 1e308\nsetoption name hash value 99999999999\ngo",
		"setoption name visits value 3\nsetoption name threads value 2\nsetposition " + opening + "\ngo\ngo\ngo ponder\nstop\nstop",
		"makemove \x00\nsetposition g [\x00]\nsetoption name \x00 value \x00\ngo \x00\n\x00",
		"setposition s [" + strings.Repeat(" ", 64) + "]\nmakemove ra8\ngo\nsetposition g [" + strings.Repeat("E", 64) + "]\ngo",
	} {
		f.Add(seed)
	}
	e, err := NewEngine(Config{Search: mcts.Config{Visits: 20, MaxNodes: 1 << 12}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, script string) {
		s := newSession(e, io.Discard)
		ctx := context.Background()
		for _, line := range strings.Split(script, "\n") {
			if !s.handle(ctx, line) {
				break
			}
			s.stopSearch(errStopped)
			if _, err := engine.ParsePosition(s.game.pos.String()); err != nil {
				t.Fatalf("after %q: the position %q does not parse: %v", line, s.game.pos.String(), err)
			}
			if !s.game.setup && s.game.hist.Count(&s.game.pos) < 1 {
				t.Fatalf("after %q: the position is not in the history", line)
			}
		}
		s.stopSearch(errAborted)
	})
}
