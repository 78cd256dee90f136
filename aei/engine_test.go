package aei

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

const opening = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"

// wire runs an Engine over pipes, as a controller would talk to it.
type wire struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan struct{} // closed when Run has returned
	err   error         // what Run returned
}

// startWire starts an engine with cfg on pipes; the test's cleanup closes its
// input and waits for it. The engine's time management runs on a clock that
// stands still at t0: no time passes for it between messages, so that its
// budgets are exact.
func startWire(t *testing.T, cfg Config) *wire {
	t.Helper()
	e, err := NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.now = func() time.Time { return t0 }
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	w := &wire{t: t, in: inW, lines: make(chan string, 1024), done: make(chan struct{})}
	go func() {
		w.err = e.Run(context.Background(), inR, outW)
		outW.Close()
		inR.Close()
		close(w.done)
	}()
	go func() {
		defer close(w.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-w.done:
		case <-time.After(hangGuard):
			t.Error("the engine did not end after its input closed")
		}
	})
	return w
}

// send writes messages to the engine.
func (w *wire) send(msgs ...string) {
	w.t.Helper()
	for _, m := range msgs {
		if _, err := io.WriteString(w.in, m+"\n"); err != nil {
			w.t.Fatalf("send %q: %v", m, err)
		}
	}
}

// until reads messages up to and including the first that starts with prefix
// and returns them all (within the hang guard).
func (w *wire) until(prefix string) []string {
	w.t.Helper()
	var got []string
	timeout := time.After(hangGuard)
	for {
		select {
		case l, ok := <-w.lines:
			if !ok {
				w.t.Fatalf("output ended waiting for %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-timeout:
			w.t.Fatalf("no %q within %v (the hang guard); got %q", prefix, hangGuard, got)
		}
	}
}

// ready sends isready and returns the messages before readyok.
func (w *wire) ready() []string {
	w.t.Helper()
	w.send("isready")
	got := w.until("readyok")
	return got[:len(got)-1]
}

// noErrors fails on any log Error or Warning among msgs.
func noErrors(t *testing.T, msgs []string) {
	t.Helper()
	for _, m := range msgs {
		if strings.HasPrefix(m, "log Error") || strings.HasPrefix(m, "log Warning") {
			t.Errorf("unexpected %q", m)
		}
	}
}

// countPrefix counts the messages of msgs that start with prefix.
func countPrefix(msgs []string, prefix string) int {
	n := 0
	for _, m := range msgs {
		if strings.HasPrefix(m, prefix) {
			n++
		}
	}
	return n
}

// bestmove returns the move of the last message, which must be a bestmove.
func bestmove(t *testing.T, msgs []string) string {
	t.Helper()
	last := msgs[len(msgs)-1]
	m, ok := strings.CutPrefix(last, "bestmove ")
	if !ok {
		t.Fatalf("want bestmove, got %q", last)
	}
	return m
}

// TestEngineTranscript drives an engine through every message of the protocol.
func TestEngineTranscript(t *testing.T) {
	w := startWire(t, Config{Seed: 7, Search: mcts.Config{Visits: 300}})

	w.send("aei")
	hello := w.until("aeiok")
	want := []string{"protocol-version 1", "id name arimaalab", "id author arimaalab"}
	if len(hello) != 5 || strings.Join(hello[:3], "\n") != strings.Join(want, "\n") ||
		!strings.HasPrefix(hello[3], "id version ") {
		t.Fatalf("opening = %q", hello)
	}
	noErrors(t, w.ready())

	// Every standard option, as a game server sends them, then ours.
	w.send(
		"setoption name hash value 16",
		"setoption name depth value 0",
		"setoption name rated value 1",
		"setoption name tcmove value 0.3",
		"setoption name tcreserve value 2",
		"setoption name tcpercent value 100",
		"setoption name tcmax value 60",
		"setoption name tctotal value 0",
		"setoption name tcturns value 0",
		"setoption name tcturntime value 0",
		"setoption name rating value 1857",
		"setoption name opponent value bot_Clueless 2009",
		"setoption name opponent_rating value 1918.5",
		"setoption name event value Casual game",
		"setoption name threads value 2",
		"setoption name weights value",
	)
	noErrors(t, w.ready())

	// The setups.
	w.send("newgame", "setoption name greserve value 2", "setoption name sreserve value 2", "setoption name moveused value 0", "go")
	got := w.until("bestmove")
	noErrors(t, got)
	g := engine.NewGame()
	gold := bestmove(t, got)
	if err := g.PlaySetup(gold); err != nil {
		t.Fatalf("gold setup %q: %v", gold, err)
	}
	w.send("makemove "+gold, "go")
	silver := bestmove(t, w.until("bestmove"))
	if err := g.PlaySetup(silver); err != nil {
		t.Fatalf("silver setup %q: %v", silver, err)
	}
	w.send("makemove " + silver)

	// A timed move: the budget is logged, then the info lines and bestmove.
	w.send("setoption name gused value 0", "setoption name sused value 1", "setoption name lastmoveused value 1", "go")
	got = w.until("bestmove")
	noErrors(t, got)
	if countPrefix(got, "log Debug: search ") != 1 || !strings.Contains(got[0], "hard limit 2.300 s") {
		t.Errorf("no budget note in %q", got)
	}
	for _, typ := range []string{"score", "depth", "nodes", "pv", "time"} {
		if countPrefix(got, "info "+typ+" ") != 1 {
			t.Errorf("want one info %s in %q", typ, got)
		}
	}
	m := bestmove(t, got)
	if err := g.Play(m); err != nil {
		t.Fatalf("bestmove %q: %v", m, err)
	}
	w.send("makemove " + m)

	// The visits option: exactly that many simulations.
	w.send("setoption name visits value 150", "go")
	got = w.until("bestmove")
	if countPrefix(got, "info nodes 150") != 1 {
		t.Errorf("visits 150: %q", got)
	}
	m = bestmove(t, got)
	if err := g.Play(m); err != nil {
		t.Fatalf("bestmove %q: %v", m, err)
	}

	// An illegal move is refused and the position stays.
	w.send("makemove Ee2n Ee3n Ee4n Ee5n Ee6n")
	got = w.ready()
	if countPrefix(got, "log Error: makemove") != 1 {
		t.Errorf("illegal makemove: %q", got)
	}
	w.send("makemove " + m)

	// go ponder: no bestmove until stop.
	w.send("go ponder")
	time.Sleep(50 * time.Millisecond)
	if got := w.ready(); countPrefix(got, "bestmove") != 0 {
		t.Errorf("bestmove while pondering: %q", got)
	}
	w.send("stop")
	got = w.until("bestmove")
	m = bestmove(t, got)
	if err := g.Play(m); err != nil {
		t.Fatalf("bestmove after stop %q: %v", m, err)
	}
	g.Undo()

	// go ponder ended by the opponent's move: no bestmove at all.
	w.send("go ponder", "makemove "+m)
	if got := w.ready(); countPrefix(got, "bestmove") != 0 {
		t.Errorf("bestmove after makemove ended ponder: %q", got)
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}

	// isready is answered during a long search, and stop ends it with a
	// move: the search has most of an hour (its budget note says so), so a
	// bestmove within the hang guard is stop's.
	w.send("setoption name visits value 0", "setoption name tcmove value 3600", "go")
	got = w.ready()
	if countPrefix(got, "bestmove") != 0 {
		t.Errorf("bestmove before stop: %q", got)
	}
	var budget float64
	if len(got) != 1 || func() bool { _, err := fmt.Sscanf(got[0], "log Debug: search %f s", &budget); return err != nil }() || budget < 3000 {
		t.Errorf("want a budget of most of an hour, got %q", got)
	}
	w.send("stop")
	got = w.until("bestmove")
	m = bestmove(t, got)
	if err := g.Play(m); err != nil {
		t.Fatalf("bestmove after stop %q: %v", m, err)
	}

	// setposition: a goal this turn is found at once.
	w.send("setposition g [cD     rR                                               e       ]", "go")
	if m := bestmove(t, w.until("bestmove")); m != "Db8e ca8e Ra7n" {
		t.Errorf("goal position: %q", m)
	}

	// A finished game has no move.
	over := posOf(t, engine.Silver, "Ra8", "rh2")
	w.send("setposition "+over.String(), "go")
	if got := w.ready(); countPrefix(got, "log Error: go: the game is over") != 1 {
		t.Errorf("game over: %q", got)
	}

	w.send("quit")
	select {
	case <-w.done:
		if w.err != nil {
			t.Errorf("Run after quit: %v", w.err)
		}
	case <-time.After(hangGuard):
		t.Fatal("no exit after quit")
	}
}

// TestEngineGarbage sends malformed and unknown messages: each gets a log
// Error (or Warning) and the engine goes on.
func TestEngineGarbage(t *testing.T) {
	w := startWire(t, Config{Seed: 1, Search: mcts.Config{Visits: 50}})
	bad := []string{
		"bogus",
		"GO",
		"\x00\x01\x02",
		"makemove",
		"makemove Zz9q",
		"go fast",
		"setposition",
		"setposition x [abc]",
		"setposition g [rrrrrrrr]",
		"setoption",
		"setoption name",
		"setoption nme tcmove value 3",
		"setoption name tcmove valu 3",
		"setoption name tcmove value -3",
		"setoption name tcmove value NaN",
		"setoption name tcreserve value lots",
		"setoption name threads value 0",
		"setoption name visits value many",
		"setoption name hash value -1",
		"setoption name rated value yes",
		"setoption name weights value /nonexistent/weights.json",
		strings.Repeat("x", maxLine+10),
		"setoption name colour value blue", // a warning
		"isready now",                      // a warning, then readyok
	}
	for _, b := range bad {
		w.send(b)
		got := w.until("log ")
		if len(got) != 1 || !(strings.HasPrefix(got[0], "log Error: ") || strings.HasPrefix(got[0], "log Warning: ")) {
			t.Errorf("%.40q: got %q", b, got)
		}
	}
	w.until("readyok")
	w.send("", "   ", "\t")
	if got := w.ready(); len(got) != 0 {
		t.Errorf("blank lines answered %q", got)
	}
	// Still playing: a setup, with \r\n line ends too.
	w.send("newgame\r", "go\r")
	m := bestmove(t, w.until("bestmove"))
	if _, err := engine.ParseSetup(engine.Gold, m); err != nil {
		t.Errorf("setup %q: %v", m, err)
	}
}

// TestEngineIllegalMakemoveKeepsPosition checks the session's game after
// refused moves.
func TestEngineIllegalMakemoveKeepsPosition(t *testing.T) {
	e, err := NewEngine(Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(e, io.Discard)
	ctx := context.Background()
	s.handle(ctx, "setposition "+opening)
	before, hist := s.game.pos, s.game.hist.Count(&s.game.pos)
	for _, m := range []string{
		"Ee2n Ee3n Ee4n Ee5n Ee6n", // five steps
		"ed7s",                     // Silver's piece
		"Ra1n",                     // onto an occupied square
		"Ee2n Ee3s",                // the board unchanged
		"Ra1 Rb1",                  // a setup after the setups
		"",
	} {
		s.handle(ctx, "makemove "+m)
		if s.game.pos != before || s.game.setup || s.game.hist.Count(&before) != hist {
			t.Fatalf("makemove %q changed the game", m)
		}
	}
	s.handle(ctx, "makemove Ee2n Ee3n")
	if s.game.pos.Side != engine.Silver {
		t.Fatal("a legal move was refused")
	}

	// Setups: a wrong side or an occupied square leaves the setup phase as it was.
	s.handle(ctx, "newgame")
	s.handle(ctx, "makemove ra7 rb7")
	s.handle(ctx, "makemove Ra1 Ra1")
	if !s.game.setup || s.game.pos.Side != engine.Gold || s.game.pos.Occ != [2]engine.Bitboard{} {
		t.Fatal("a bad setup changed the game")
	}
	s.handle(ctx, "makemove Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
	if !s.game.setup || s.game.pos.Side != engine.Silver {
		t.Fatal("Gold's setup was refused")
	}

	// A third repetition is refused.
	rep := posOf(t, engine.Gold, "Ra1", "Ed4", "rh8", "eb7")
	s.handle(ctx, "setposition "+rep.String())
	for _, m := range []string{"Ed4n", "eb7e", "Ed5s", "ec7w", "Ed4n", "eb7e", "Ed5s"} {
		s.handle(ctx, "makemove "+m)
	}
	if s.game.pos.Side != engine.Silver || s.game.hist.Count(&s.game.pos) != 2 {
		t.Fatal("the moves before the repetition were refused")
	}
	p := s.game.pos
	s.handle(ctx, "makemove ec7w")
	if s.game.pos != p {
		t.Fatal("a third repetition was played")
	}
}

// TestEngineEOF checks that the end of the input ends Run: a search for a move
// answers first, a ponder search does not.
func TestEngineEOF(t *testing.T) {
	for _, c := range []struct {
		script string
		visits int
		best   bool
	}{
		{"aei\nsetposition " + opening + "\ngo ponder\n", 500, false},
		{"aei\nsetposition " + opening + "\ngo\n", 500, true},
		{"aei\nsetposition " + opening + "\ngo\nquit\n", 1e9, false},
	} {
		e, err := NewEngine(Config{Search: mcts.Config{Visits: c.visits}})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := e.Run(context.Background(), strings.NewReader(c.script), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "aeiok") || strings.Contains(out.String(), "bestmove") != c.best {
			t.Errorf("%q: output %q", c.script, out.String())
		}
	}
}

// TestEngineContext checks that Run ends with its context.
func TestEngineContext(t *testing.T) {
	e, err := NewEngine(Config{})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx, inR, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(hangGuard):
		t.Fatal("Run did not end with its context")
	}
}

// TestEngineWriteError checks that Run ends when its output fails.
func TestEngineWriteError(t *testing.T) {
	e, err := NewEngine(Config{})
	if err != nil {
		t.Fatal(err)
	}
	err = e.Run(context.Background(), strings.NewReader("aei\nisready\n"), failWriter{})
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Run = %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("broken") }

func TestParseSetOption(t *testing.T) {
	for _, c := range []struct{ in, name, value string }{
		{"name tcmove value 3", "tcmove", "3"},
		{"name TCMove value 3", "tcmove", "3"},
		{"name opponent value bot  two words", "opponent", "bot  two words"},
		{"name rated", "rated", ""},
		{"name\tevent\tvalue\tWC", "event", "WC"},
	} {
		name, value, err := parseSetOption(c.in)
		if err != nil || name != c.name || value != c.value {
			t.Errorf("parseSetOption(%q) = %q, %q, %v", c.in, name, value, err)
		}
	}
	for _, in := range []string{"", "name", "nametcmove value 3", "name x val 3", "name x valuex"} {
		if _, _, err := parseSetOption(in); err == nil {
			t.Errorf("parseSetOption(%q): no error", in)
		}
	}
}

func TestFormatPV(t *testing.T) {
	got := formatPV(engine.Gold, []string{"Ed2n Ed3n", "ee7s ee6s", "Ed4n"})
	if want := "Ed2n Ed3n s ee7s ee6s g Ed4n"; got != want {
		t.Errorf("formatPV = %q, want %q", got, want)
	}
	if got := formatPV(engine.Silver, []string{"ee7s", "Ed2n"}); got != "ee7s g Ed2n" {
		t.Errorf("formatPV = %q", got)
	}
}

// posOf returns the position with the pieces given as placements, such as
// "Ra1" and "eb7", and side to move.
func posOf(t *testing.T, side engine.Color, pieces ...string) engine.Position {
	t.Helper()
	var p engine.Position
	for _, pc := range pieces {
		piece, err := engine.PieceFromLetter(pc[0])
		if err != nil {
			t.Fatal(err)
		}
		sq, err := engine.ParseSquare(pc[1:])
		if err != nil {
			t.Fatal(err)
		}
		p.Put(piece, sq)
	}
	p.SetSide(side)
	return p
}

func TestHashOption(t *testing.T) {
	e, err := NewEngine(Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(e, io.Discard)
	for _, c := range []struct {
		value string
		nodes int
	}{
		{"0", 0},
		{"1", 1 << 20 / bytesPerNode},
		{"200", 200 << 20 / bytesPerNode},
		{"99999999999999", maxNodes},
	} {
		s.handle(context.Background(), "setoption name hash value "+c.value)
		if s.maxNodes != c.nodes {
			t.Errorf("hash %s: %d nodes, want %d", c.value, s.maxNodes, c.nodes)
		}
	}
}

// TestEngineFullTree: a search that fills its tree says so in a log Warning
// before its bestmove, and in the engine's log.
func TestEngineFullTree(t *testing.T) {
	var log bytes.Buffer
	w := startWire(t, Config{Search: mcts.Config{Visits: 20000, MaxNodes: 1},
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	w.send("aei")
	w.until("aeiok")
	w.send("setposition "+opening, "go")
	got := w.until("bestmove")
	if countPrefix(got, "log Warning: the tree is full") != 1 {
		t.Errorf("no warning of the full tree in %q", got)
	}
	// The engine logs before it sends bestmove, which the pipe orders.
	if !strings.Contains(log.String(), "the tree is full") {
		t.Errorf("engine log %q: no warning of the full tree", log.String())
	}
}
