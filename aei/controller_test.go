package aei

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// goldSetup is a legal Gold setup (the standard one).
const goldSetup = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"

// helperEnv switches the test binary into one of the engines of helper.
const helperEnv = "AEI_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper runs the engine named mode on stdin and stdout and returns the exit
// status: "engine" is this package's Engine (AEI_TEST_VISITS simulations,
// AEI_TEST_SEED); the others are fakes that misbehave.
func helper(mode string) int {
	if mode == "engine" {
		visits, _ := strconv.Atoi(os.Getenv("AEI_TEST_VISITS"))
		seed, _ := strconv.ParseUint(os.Getenv("AEI_TEST_SEED"), 10, 64)
		e, err := NewEngine(Config{Seed: seed, Search: mcts.Config{Visits: visits, MaxNodes: 1 << 16}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := e.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	if mode == "die-at-start" {
		fmt.Fprintln(os.Stderr, "boom: no weights here")
		return 3
	}
	out := func(msgs ...string) {
		for _, m := range msgs {
			fmt.Println(m)
		}
	}
	newgame := false
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		cmd, _ := splitWord(sc.Text())
		if mode == "refuse" && !newgame && (cmd == "makemove" || cmd == "setposition" || cmd == "go" || cmd == "stop") {
			// As Sharp does: nothing before the first newgame.
			out("log Warning: not an error", "log Error: "+cmd+" called without newgame")
			continue
		}
		switch cmd {
		case "aei":
			switch mode {
			case "silent":
			case "noaeiok":
				out("hello there")
			default:
				out("protocol-version 1", "id name fake-"+mode, "id author tests", "aeiok")
			}
		case "isready":
			out("readyok")
		case "newgame":
			if mode == "die-on-newgame" {
				return 4
			}
			newgame = true
		case "go":
			switch mode {
			case "die-on-go":
				fmt.Fprintln(os.Stderr, "panic: simulated crash")
				return 2
			case "nonsense":
				out("info score 12", "info depth 3+", "info nodes 99", "info pv x y", "info time 0.5",
					"log Debug: thinking", "what is this", "bestmove xyzzy")
			case "illegal":
				out("bestmove Ra1n")
			case "empty":
				out("bestmove")
			case "refuse":
				out("bestmove " + goldSetup)
			case "hang", "slow":
				// no answer
			}
		case "stop":
			if mode == "slow" {
				out("bestmove Ra1n")
			}
		case "quit":
			if mode != "hang" {
				return 0
			}
		}
	}
	if mode == "hang" {
		time.Sleep(time.Hour) // ignores the end of its input too
	}
	return 0
}

// hangGuard bounds every wait of these tests. It is a guard against a test
// that hangs, never an assertion: no test here checks how long anything took.
const hangGuard = time.Minute

// fastOptions are the controller's timeouts for the tests: each the hang
// guard, so that none passes on a slow machine by the wall clock. The tests
// whose subject is a timeout make it pass as an event, with fakeTimers.
func fastOptions() Options {
	return Options{StartTimeout: hangGuard, ReadyTimeout: hangGuard, Grace: hangGuard, MoveTimeout: hangGuard}
}

// fakeTimers is a Controller's clock for the tests of its timeouts: its time
// stands still at t0, and a timer fires only where the test says, as soon as
// it is asked for. fire queues what the next timers asked for do: fire at
// once (true) or never (false); a timer asked for with nothing queued never
// fires. So a deadline passes as an event of the test, whatever the wall
// clock; a controller left waiting on a timer that never fires is caught by
// the hang guard.
type fakeTimers struct {
	mu    sync.Mutex
	plan  []bool          // what the next timers asked for do
	asked []time.Duration // every timer asked for, in order
}

// install makes f the clock of the options o.
func (f *fakeTimers) install(o *Options) {
	o.clock = timeSource{now: func() time.Time { return t0 }, after: f.after}
}

// fire queues what the next timers asked for do.
func (f *fakeTimers) fire(plan ...bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.plan = append(f.plan, plan...)
}

// after is the fake time.After.
func (f *fakeTimers) after(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, d)
	ch := make(chan time.Time, 1)
	if len(f.plan) > 0 {
		if f.plan[0] {
			ch <- t0.Add(d)
		}
		f.plan = f.plan[1:]
	}
	return ch
}

// count returns the number of timers asked for so far.
func (f *fakeTimers) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.asked)
}

// askedSince returns the durations of the timers asked for after the first n.
func (f *fakeTimers) askedSince(n int) []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.asked[n:])
}

// guard runs f and waits for it at most hangGuard.
func guard(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatalf("%s: still waiting after %v (the hang guard)", what, hangGuard)
	}
}

// exited waits (within the hang guard) for the engine of c to exit, as one
// that was killed must.
func exited(t *testing.T, c *Controller) {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(hangGuard):
		t.Fatalf("the engine still runs after %v", hangGuard)
	}
}

// eventWriter calls on for each write that contains text: an event of a
// transcript or a log that a test waits for.
type eventWriter struct {
	text string
	on   func()
}

func (w eventWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.text) {
		w.on()
	}
	return len(p), nil
}

// startHelper starts the test binary as the engine mode; env adds variables.
func startHelper(t *testing.T, mode string, opt Options, env ...string) (*Controller, error) {
	t.Helper()
	// Under the race detector a program exiting with status 0 sleeps a second
	// first (GORACE's atexit_sleep_ms): not for these.
	race := "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")
	opt.Env = append(append(os.Environ(), helperEnv+"="+mode, race), env...)
	c, err := Start(context.Background(), []string{os.Args[0]}, opt)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// mustStart is startHelper that fails the test on error.
func mustStart(t *testing.T, mode string, opt Options, env ...string) *Controller {
	t.Helper()
	c, err := startHelper(t, mode, opt, env...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// playGame plays a whole game between the engines of gold and silver, checked
// move by move by engine.Game, and returns it. With ponder the side waiting
// ponders on every third turn; before, when not nil, is called before each go
// (for the clock options).
func playGame(t *testing.T, gold, silver *Controller, ponder bool, before func(*Controller) error) *engine.Game {
	t.Helper()
	ctx := context.Background()
	ctls := [2]*Controller{gold, silver}
	for _, c := range ctls {
		if err := c.NewGame(); err != nil {
			t.Fatal(err)
		}
	}
	g := engine.NewGame()
	// Games between engines this weak are long-tailed: of 140 measured (40
	// visits against 40 or 4), half ended within 200 turns, the longest that
	// ended within 1000 took 925, and one ran past 1000. The bound only
	// catches a game that never ends.
	for ply := 0; !g.Outcome().Over(); ply++ {
		if ply > 10000 {
			t.Fatalf("no result after %d turns", ply)
		}
		side := g.Side()
		waiting := ctls[side.Other()]
		if ponder && ply > 2 && ply%3 == 0 {
			if err := waiting.GoPonder(); err != nil {
				t.Fatal(err)
			}
		}
		if before != nil {
			if err := before(ctls[side]); err != nil {
				t.Fatal(err)
			}
		}
		move, info, err := ctls[side].Go(ctx, time.Now().Add(hangGuard))
		if err != nil {
			t.Fatalf("%s: %v", g.Label(), err)
		}
		if g.TurnNumber() == 1 {
			err = g.PlaySetup(move)
		} else {
			err = g.Play(move)
			if len(info.Lines) == 0 || info.PV == "" {
				t.Errorf("%s: no info for %q: %+v", g.Label(), move, info)
			}
		}
		if err != nil {
			t.Fatalf("%s %q: %v", g.Label(), move, err)
		}
		for _, c := range ctls {
			if err := c.MakeMove(move); err != nil {
				t.Fatalf("%s: makemove %q: %v", g.Label(), move, err)
			}
		}
	}
	for _, c := range ctls {
		if out := c.Outcome(); out != g.Outcome() {
			t.Errorf("controller's outcome %v, game's %v", out, g.Outcome())
		}
	}
	return g
}

// TestControllerGame plays our engine against itself, both run as child
// processes, to the end of the game.
func TestControllerGame(t *testing.T) {
	var mu sync.Mutex
	var transcript strings.Builder
	opt := fastOptions()
	opt.Transcript = writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return transcript.Write(p)
	})
	gold := mustStart(t, "engine", opt, "AEI_TEST_VISITS=40", "AEI_TEST_SEED=1")
	silver := mustStart(t, "engine", fastOptions(), "AEI_TEST_VISITS=40", "AEI_TEST_SEED=2")
	if id := gold.Ident(); id.Protocol != "1" || id.Name != "arimaalab" || id.Author != "arimaalab" || id.Version == "" {
		t.Errorf("ident %+v", id)
	}
	g := playGame(t, gold, silver, true, nil)
	t.Logf("%d turns, %s", len(g.Turns()), g.Outcome())
	if err := gold.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := gold.IsReady(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("IsReady after Close: %v", err)
	}
	for _, want := range []string{"> aei\n", "< aeiok\n", "> go ponder\n", "< bestmove ", "> quit\n"} {
		if !strings.Contains(transcript.String(), want) {
			t.Errorf("transcript has no %q", want)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestControllerRealBinary builds cmd/aei and plays it to the end of a game
// against the engine in the test binary.
func TestControllerRealBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/aei")
	}
	bin := filepath.Join(t.TempDir(), "aei")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "../cmd/aei")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	real, err := StartCommand(context.Background(), bin+" -seed 3", fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	silver := mustStart(t, "engine", fastOptions(), "AEI_TEST_VISITS=40", "AEI_TEST_SEED=4")
	// The messages of the AEI tools' roundrobin: the bot's options, the time
	// control (3s/30s/100/60s), then before each move the reserves.
	for _, c := range []*Controller{real, silver} {
		for _, o := range [][2]string{{"visits", "40"}, {"hash", "16"}, {"tcmove", "3"}, {"tcreserve", "30"},
			{"tcpercent", "100"}, {"tcmax", "60"}, {"tcturns", "0"}, {"tctotal", "0"}, {"tcturntime", "0"}} {
			if err := c.SetOption(o[0], o[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := func(c *Controller) error {
		for _, o := range [][2]string{{"greserve", "30"}, {"sreserve", "30"}, {"moveused", "0"}} {
			if err := c.SetOption(o[0], o[1]); err != nil {
				return err
			}
		}
		return nil
	}
	g := playGame(t, real, silver, false, before)
	t.Logf("%d turns, %s", len(g.Turns()), g.Outcome())
	if err := real.Quit(); err != nil {
		t.Errorf("Quit: %v", err)
	}
}

// TestControllerPosition asks for a move in a set position, and checks the
// ponder and stop sequence.
func TestControllerPosition(t *testing.T) {
	c := mustStart(t, "engine", fastOptions(), "AEI_TEST_VISITS=100")
	ctx := context.Background()
	p, err := engine.ParsePosition(opening)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetPosition(p); err != nil {
		t.Fatal(err)
	}
	if c.InSetup() || c.Position() != p {
		t.Fatal("the controller's position is not the one set")
	}
	if err := c.GoPonder(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	move, _, err := c.Stop(ctx)
	if err != nil || move == "" {
		t.Fatalf("Stop = %q, %v", move, err)
	}
	move, info, err := c.Go(ctx, time.Now().Add(hangGuard))
	if err != nil {
		t.Fatal(err)
	}
	if !info.HasScore || info.Depth == "" || info.Nodes != 100 || info.PV == "" || len(info.Logs) == 0 {
		t.Errorf("info %+v", info)
	}
	if err := c.MakeMove(move); err != nil {
		t.Fatal(err)
	}
	// An illegal move is refused and not sent.
	if err := c.MakeMove("Ee2n Ee3n Ee4n Ee5n Ee6n"); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("MakeMove of an illegal move: %v", err)
	}
	if err := c.SetOption("bad name", "1"); err == nil {
		t.Error("SetOption with a space in the name: no error")
	}
	if err := c.SetOption("event", "a\nb"); err == nil {
		t.Error("SetOption with a line break in the value: no error")
	}
	if err := c.IsReady(ctx); err != nil {
		t.Fatal(err)
	}
	// A finished game asks for no move.
	over, _ := engine.ParsePosition("s [R                                                      r        ]")
	if err := c.SetPosition(over); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Go(ctx, time.Time{}); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("Go after the end of the game: %v", err)
	}
}

// TestControllerFakes runs engines that die, hang or answer nonsense: each
// gives a clear error, and one that hangs is killed. The deadlines pass as
// events (fakeTimers): the errors name the timeouts that ran out, and the
// timers asked for show that the controller waited for those and nothing
// else; the wall clock only bounds the test (the hang guard).
func TestControllerFakes(t *testing.T) {
	p, _ := engine.ParsePosition(opening)
	const grace = 3 * time.Second // Options.Grace: a timer, never waited for on the wall clock
	deadline := t0.Add(5 * time.Second)
	goSoon := func(ctx context.Context, c *Controller) error { _, _, err := c.Go(ctx, deadline); return err }
	for _, c := range []struct {
		name, mode string
		atStart    []bool // the plan of the timers from the start
		plan       []bool // the plan of the timers from run on
		fireOn     string // one timer fires once the transcript shows this
		// run drives the controller (nil for a failure to start) and returns the error to check.
		run    func(ctx context.Context, c *Controller) error
		cancel bool // run's context is cancelled
		want   error
		text   []string        // in the error message
		asked  []time.Duration // the timers asked for from run on
		killed bool
	}{
		{name: "die at start", mode: "die-at-start", want: ErrEngineDied, text: []string{"exit status 3", "boom: no weights here"}},
		{name: "silent", mode: "silent", atStart: []bool{true}, want: ErrTimeout,
			text: []string{"no aeiok within 1m0s of aei"}, killed: true},
		{name: "no aeiok", mode: "noaeiok", fireOn: "< hello there", want: ErrTimeout,
			text: []string{"no aeiok within 1m0s", `(it sent ["hello there"])`}, killed: true},
		{name: "die on go", mode: "die-on-go", want: ErrEngineDied, text: []string{"exit status 2", "panic: simulated crash"},
			run: goSoon},
		{name: "die on newgame", mode: "die-on-newgame", want: ErrEngineDied, text: []string{"exit status 4"},
			run: func(ctx context.Context, c *Controller) error {
				if err := c.NewGame(); err != nil {
					return err
				}
				return c.IsReady(ctx)
			}},
		{name: "hang", mode: "hang", plan: []bool{true, true}, want: ErrTimeout, run: goSoon,
			text:  []string{"no bestmove by the deadline, nor within 3s of stop; killed"},
			asked: []time.Duration{5 * time.Second, grace}, killed: true},
		{name: "hang, cancelled", mode: "hang", plan: []bool{false, true}, cancel: true, want: context.Canceled, run: goSoon,
			text:  []string{"the search was cancelled, nor within 3s of stop; killed"},
			asked: []time.Duration{5 * time.Second, grace}, killed: true},
		{name: "slow", mode: "slow", plan: []bool{true}, want: ErrTimeout, run: goSoon,
			text:  []string{`no bestmove by the deadline (it answered stop with "Ra1n")`},
			asked: []time.Duration{5 * time.Second, grace}},
		{name: "nonsense", mode: "nonsense", want: ErrIllegalMove, text: []string{`"xyzzy"`, "Gold to set up"},
			run: func(ctx context.Context, c *Controller) error {
				_, info, err := c.Go(ctx, deadline)
				if info.Score != 12 || info.Depth != "3+" || info.Nodes != 99 || info.PV != "x y" ||
					info.Time != 500*time.Millisecond || len(info.Logs) != 1 || len(info.Other) != 1 {
					t.Errorf("nonsense info %+v", info)
				}
				return err
			}},
		{name: "illegal", mode: "illegal", want: ErrIllegalMove, text: []string{`"Ra1n"`},
			run: func(ctx context.Context, c *Controller) error {
				if err := c.SetPosition(p); err != nil {
					return err
				}
				return goSoon(ctx, c)
			}},
		{name: "empty", mode: "empty", want: ErrIllegalMove, text: []string{"empty bestmove"}, run: goSoon},
	} {
		t.Run(c.name, func(t *testing.T) {
			var timers fakeTimers
			timers.fire(c.atStart...)
			opt := fastOptions()
			opt.Grace = grace
			timers.install(&opt)
			if c.fireOn != "" {
				opt.Transcript = eventWriter{c.fireOn, func() { timers.fire(true) }}
			}
			var ctl *Controller
			var err error
			guard(t, "start", func() { ctl, err = startHelper(t, c.mode, opt) })
			var mark int
			if c.run != nil {
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if c.cancel {
					cancel()
				}
				mark = timers.count()
				timers.fire(c.plan...)
				guard(t, "run", func() { err = c.run(ctx, ctl) })
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			for _, s := range c.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			if c.asked != nil {
				if got := timers.askedSince(mark); !slices.Equal(got, c.asked) {
					t.Errorf("timers asked for %v, want %v", got, c.asked)
				}
			}
			if ctl != nil {
				if c.killed {
					exited(t, ctl)
				}
				guard(t, "close", func() { ctl.Close() })
			}
		})
	}
}

// TestControllerAfterDeath checks that a dead engine's error sticks and that
// closing a hung engine kills it.
func TestControllerAfterDeath(t *testing.T) {
	ctx := context.Background()
	c := mustStart(t, "die-on-go", fastOptions())
	var err error
	guard(t, "Go", func() { _, _, err = c.Go(ctx, time.Time{}) })
	if !errors.Is(err, ErrEngineDied) {
		t.Fatalf("Go: %v", err)
	}
	for name, f := range map[string]func() error{
		"IsReady":  func() error { return c.IsReady(ctx) },
		"NewGame":  c.NewGame,
		"MakeMove": func() error { return c.MakeMove("Ra1") },
		"Go":       func() error { _, _, err := c.Go(ctx, time.Time{}); return err },
	} {
		if err := f(); !errors.Is(err, ErrEngineDied) {
			t.Errorf("%s after death: %v", name, err)
		}
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close of a dead engine: %v", err)
	}

	// A hung engine is killed once Options.Grace has passed after quit (a
	// timer that fires as soon as it is asked for), and then exits.
	var timers fakeTimers
	opt := fastOptions()
	opt.Grace = 3 * time.Second
	timers.install(&opt)
	h := mustStart(t, "hang", opt)
	mark := timers.count()
	timers.fire(true)
	var qerr error
	guard(t, "Quit", func() { qerr = h.Quit() })
	if !errors.Is(qerr, ErrTimeout) || !strings.Contains(qerr.Error(), "still running 3s after quit; killed") {
		t.Errorf("Quit of a hung engine: %v", qerr)
	}
	exited(t, h)
	if got, want := timers.askedSince(mark), []time.Duration{3 * time.Second, 4 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("Quit asked for timers %v, want %v (Grace, then Grace and a second for the exit)", got, want)
	}
	if err := h.Quit(); err != qerr {
		t.Errorf("second Quit: %v, want the first one's %v", err, qerr)
	}

	if _, err := StartCommand(ctx, "/nonexistent/engine", fastOptions()); err == nil {
		t.Error("a missing engine started")
	}
	if _, err := StartCommand(ctx, "'unterminated", fastOptions()); err == nil {
		t.Error("a bad command line started")
	}
}

// TestIsLogError checks which messages report an error.
func TestIsLogError(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"log Error: go called without newgame", true},
		{"log error: lower case", true},
		{"log ERROR", true},
		{"  log   Error: spaces", true},
		{"log Warning: Unknown option", false},
		{"log Debug: error count 0", false},
		{"log Err", false},
		{"log", false},
		{"info Error: not a log", false},
		{"logError: one word", false},
	} {
		if got := isLogError(c.line); got != c.want {
			t.Errorf("isLogError(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// syncBuffer is a strings.Builder safe for concurrent use; on, when set, is
// called for each write that contains "log Error".
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
	on func()
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on != nil && strings.Contains(string(p), "log Error") {
		s.on()
	}
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestControllerReportsErrors drives an engine that refuses everything before
// newgame, as Sharp does: its "log Error" messages are logged as soon as they
// are read, with the engine's name, and the last one is quoted when the
// engine then times out; after newgame it answers. The deadlines are events:
// the deadline of Go passes only once the engine's error to go has been
// logged, and the Grace after stop only once its error to stop has, so that
// a controller that logged errors late would wait for ever (the hang guard
// fails the test).
func TestControllerReportsErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		newgame bool
		want    error    // from Go
		text    []string // in Go's error
		logs    []string // in the log
	}{
		{name: "without newgame", want: ErrTimeout,
			text: []string{"no bestmove by the deadline", `its last error: "log Error: stop called without newgame"`},
			logs: []string{"level=WARN", "engine=fake-refuse", `message="log Error: go called without newgame"`,
				`message="log Error: stop called without newgame"`}},
		{name: "with newgame", newgame: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var timers fakeTimers
			log := syncBuffer{on: func() { timers.fire(true) }}
			opt := fastOptions()
			opt.Logger = slog.New(slog.NewTextHandler(&log, nil))
			timers.install(&opt)
			ctl := mustStart(t, "refuse", opt)
			if c.newgame {
				if err := ctl.NewGame(); err != nil {
					t.Fatal(err)
				}
			}
			var move string
			var err error
			guard(t, "Go", func() { move, _, err = ctl.Go(context.Background(), t0.Add(5*time.Second)) })
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("Go = %q, %v; want error %v", move, err, c.want)
			}
			for _, s := range c.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			got := log.String()
			for _, s := range c.logs {
				if !strings.Contains(got, s) {
					t.Errorf("log lacks %q:\n%s", s, got)
				}
			}
			if len(c.logs) == 0 && got != "" {
				t.Errorf("unexpected log:\n%s", got)
			}
			if strings.Contains(got, "not an error") {
				t.Errorf("a warning of the engine was logged as an error:\n%s", got)
			}
		})
	}
}
