package aei

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
)

// DefaultVisits is the number of simulations of a search that neither a time
// control, the visits option nor Config.Search (Visits or Time) bounds.
const DefaultVisits = 20000

// maxLine is the longest message an Engine or a Controller reads; longer lines
// are refused.
const maxLine = 64 << 10

// forever stands for no time limit in the search settings (a zero Time would
// mean the default budget of 800 simulations): about 146 years.
const forever = time.Duration(1 << 62)

// The hash option (megabytes) sets mcts.Config.MaxNodes at bytesPerNode a
// node, at most maxNodes.
const (
	bytesPerNode = 200
	maxNodes     = 1 << 26
	maxHashMB    = maxNodes * bytesPerNode >> 20
)

// Config holds the settings of an Engine.
type Config struct {
	// Search holds the search settings. Visits and Time are the budget of a
	// search that no time control bounds (DefaultVisits simulations when both
	// are zero); the threads and hash options override Threads and MaxNodes.
	Search mcts.Config
	// Weights are the evaluation weights (default: the embedded generation-0
	// weights); the weights option replaces them.
	Weights *weights.Weights
	// Seed draws the setups.
	Seed uint64
	// Version is sent as "id version" (default: the weights' generation and hash).
	Version string
	// Logger gets what the engine reports for people: bad messages from the
	// controller at warn level, searches at info level (default: nothing).
	Logger *slog.Logger
}

// Engine serves AEI for the MCTS bot: it reads the controller's messages, keeps
// the game, searches on its own goroutine and answers. One Engine may serve
// several sessions, one after the other or at once.
type Engine struct {
	cfg   Config
	w     *weights.Weights
	ev    *weights.Linear
	log   *slog.Logger
	ident string // the "id version" value
	// now tells the time for the time management (time.Now; tests set a
	// clock of their own).
	now func() time.Time
}

// NewEngine checks cfg and returns an engine.
func NewEngine(cfg Config) (*Engine, error) {
	w := cfg.Weights
	if w == nil {
		var err error
		if w, err = configs.Gen0(); err != nil {
			return nil, fmt.Errorf("aei: %w", err)
		}
	}
	ev, err := newEval(w)
	if err != nil {
		return nil, fmt.Errorf("aei: %w", err)
	}
	if _, err := mcts.New(cfg.Search, ev); err != nil {
		return nil, fmt.Errorf("aei: search settings: %w", err)
	}
	e := &Engine{cfg: cfg, w: w, ev: ev, log: cfg.Logger, ident: cfg.Version, now: time.Now}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.ident == "" {
		e.ident = fmt.Sprintf("1 (weights generation %d, hash %s)", w.Generation, w.Hash())
	}
	return e, nil
}

// newEval checks w and returns its evaluation.
func newEval(w *weights.Weights) (*weights.Linear, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	return weights.NewLinear(w)
}

// Search cancellation causes: stop asks for the best move found so far, abort
// (the controller moved on: makemove, setposition, newgame, quit) for none.
var (
	errStopped = errors.New("stopped")
	errAborted = errors.New("aborted")
)

// Run serves one AEI session: it reads messages from r and writes the answers
// to w, each message with one Write, until "quit", the end of r, an error
// reading r or writing w, or the end of ctx. At the end of r a search for a
// move ("go") still answers, so that a script of messages piped in gets its
// answer; quit and the end of ctx end the search without one. Messages that
// cannot be carried out are answered with "log Error: ..." and the session goes
// on.
//
// Messages are read on a goroutine of their own, which ends when a read returns
// (at the latest when r is closed); searches run on another.
func (e *Engine) Run(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newSession(e, w)
	defer s.stopSearch(errAborted)
	lines := make(chan inLine)
	go readLines(ctx, r, lines)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l, ok := <-lines:
			switch {
			case !ok:
				// The end of the input: no more messages. A search for a
				// move still answers; a ponder search ends.
				if s.busy() && !s.search.ponder {
					select {
					case <-s.search.done:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				return s.writeErr()
			case errors.Is(l.err, errLineTooLong):
				s.errorf("message of more than %d bytes skipped", maxLine)
			case l.err != nil:
				return fmt.Errorf("aei: reading: %w", l.err)
			case !s.handle(ctx, l.text):
				return s.writeErr()
			}
			if err := s.writeErr(); err != nil {
				return err
			}
		}
	}
}

// inLine is a line read, or the error that ended reading.
type inLine struct {
	text string
	err  error
}

var errLineTooLong = errors.New("line too long")

// readLines sends the lines of r, without their line ends, to out, and closes
// out at the end of r. A line longer than maxLine is sent as errLineTooLong
// and skipped; another read error is sent and ends reading.
func readLines(ctx context.Context, r io.Reader, out chan<- inLine) {
	defer close(out)
	br := bufio.NewReader(r)
	for {
		text, err := readLine(br)
		if err == io.EOF {
			return
		}
		select {
		case out <- inLine{text, err}:
		case <-ctx.Done():
			return
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return
		}
	}
}

// readLine reads one line without its ending ("\n" or "\r\n"), or returns
// errLineTooLong for a line longer than maxLine (consumed whole) or the read
// error. A last line without an ending is a line.
func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	long := false
	for {
		chunk, more, err := br.ReadLine()
		if err != nil {
			if err == io.EOF && (len(buf) > 0 || long) {
				break
			}
			return "", err
		}
		if !long && len(buf)+len(chunk) <= maxLine {
			buf = append(buf, chunk...)
		} else {
			long, buf = true, nil
		}
		if !more {
			break
		}
	}
	if long {
		return "", errLineTooLong
	}
	return string(buf), nil
}

// output writes messages; it is shared by the session and its search.
type output struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// send writes the messages, one a line, with one Write; after a write error
// it writes nothing more.
func (o *output) send(msgs ...string) {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m)
		b.WriteByte('\n')
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		_, o.err = io.WriteString(o.w, b.String())
	}
}

// failed returns the first write error.
func (o *output) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// session is the state of one AEI session. Its fields belong to the goroutine
// of Run; a running search gets copies of what it needs.
type session struct {
	e   *Engine
	out *output

	game    gameState
	clock   clock
	options map[string]string // every option as last set

	ev       *weights.Linear
	threads  int // the threads option, 0 for Config.Search.Threads
	maxNodes int // from the hash option, 0 for Config.Search.MaxNodes
	visits   int // the visits option, 0 for time management
	searcher *mcts.Searcher
	stale    bool // the searcher's settings changed: make a new one

	search *running // the search in progress, or one finished and not yet collected
	rng    *rand.Rand
}

// running is a search in progress.
type running struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
	ponder bool
}

func newSession(e *Engine, w io.Writer) *session {
	return &session{
		e:       e,
		out:     &output{w: w},
		game:    newGameState(),
		clock:   newClock(e.now()),
		options: make(map[string]string),
		ev:      e.ev,
		rng:     rand.New(rand.NewPCG(e.cfg.Seed, 0x61656973657475)),
	}
}

// writeErr returns the error that stopped the output, if any.
func (s *session) writeErr() error {
	if err := s.out.failed(); err != nil {
		return fmt.Errorf("aei: writing: %w", err)
	}
	return nil
}

// handle carries out one message and reports whether the session goes on.
func (s *session) handle(ctx context.Context, line string) bool {
	line = strings.TrimSpace(line)
	if line == "" {
		return true
	}
	cmd, rest := line, ""
	if i := strings.IndexFunc(line, unicode.IsSpace); i >= 0 {
		cmd, rest = line[:i], strings.TrimSpace(line[i:])
	}
	switch cmd {
	case "aei", "isready", "newgame", "stop", "quit":
		if rest != "" {
			s.warnf("%s takes no arguments: %q ignored", cmd, rest)
		}
	}
	switch cmd {
	case "aei":
		s.out.send("protocol-version 1", "id name arimaalab", "id author arimaalab", "id version "+s.e.ident, "aeiok")
	case "isready":
		s.out.send("readyok")
	case "newgame":
		s.newGame()
	case "setposition":
		s.setPosition(rest)
	case "setoption":
		s.setOption(rest)
	case "makemove":
		s.makeMove(rest)
	case "go":
		s.goSearch(ctx, rest)
	case "stop":
		s.stopSearch(errStopped)
	case "quit":
		s.stopSearch(errAborted)
		return false
	default:
		s.errorf("unknown message %q", cmd)
	}
	return true
}

// errorf answers "log Error: ..." and logs the message at warn level.
func (s *session) errorf(format string, args ...any) {
	msg := oneLine(fmt.Sprintf(format, args...))
	s.e.log.Warn("aei: " + msg)
	s.out.send("log Error: " + msg)
}

// warnf answers "log Warning: ..." and logs the message at warn level.
func (s *session) warnf(format string, args ...any) {
	msg := oneLine(fmt.Sprintf(format, args...))
	s.e.log.Warn("aei: " + msg)
	s.out.send("log Warning: " + msg)
}

// oneLine replaces line breaks in s with spaces, so that s is one message.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// newGame starts a game on the empty board, Gold to set up; the time control
// stays and the reserves go back to tcreserve.
func (s *session) newGame() {
	s.stopSearch(errAborted)
	s.game = newGameState()
	s.clock.newGame(s.e.now())
	if s.searcher != nil {
		s.searcher.Reset()
	}
}

// setPosition handles "setposition <g|s> [64 squares]".
func (s *session) setPosition(arg string) {
	p, err := engine.ParsePosition(arg)
	if err != nil {
		s.errorf("setposition: %v", err)
		return
	}
	s.stopSearch(errAborted)
	s.game.setPosition(p)
	s.clock.setPosition(s.e.now())
}

// makeMove handles "makemove STEPS": a setup during the setup phase, a move
// otherwise. An illegal one leaves the game as it was.
func (s *session) makeMove(move string) {
	if _, err := s.game.next(move); err != nil {
		s.errorf("makemove %q (%s): %v", move, s.game.describe(), err)
		return
	}
	s.stopSearch(errAborted)
	side, setup := s.game.pos.Side, s.game.setup
	if err := s.game.play(move); err != nil { // cannot fail after next
		s.errorf("makemove %q: %v", move, err)
		return
	}
	s.clock.moved(side, setup, s.e.now())
}

// setOption handles "setoption name N [value V]".
func (s *session) setOption(arg string) {
	name, value, err := parseSetOption(arg)
	if err != nil {
		s.errorf("setoption: %v", err)
		return
	}
	if err := s.applyOption(name, value); err != nil {
		s.errorf("setoption %s: %v", name, err)
		return
	}
	s.options[name] = value
}

// parseSetOption splits the arguments of setoption, "name N [value V]"; the
// name is lower-cased and the value is the rest of the line.
func parseSetOption(arg string) (name, value string, err error) {
	rest, ok := cutWord(arg, "name")
	if !ok || rest == "" {
		return "", "", fmt.Errorf("%q: want name N [value V]", arg)
	}
	name, rest = rest, ""
	if i := strings.IndexFunc(name, unicode.IsSpace); i >= 0 {
		name, rest = name[:i], strings.TrimSpace(name[i:])
	}
	if rest != "" {
		if value, ok = cutWord(rest, "value"); !ok {
			return "", "", fmt.Errorf("%q: want name N [value V]", arg)
		}
	}
	return strings.ToLower(name), value, nil
}

// cutWord returns what follows the word w at the start of s, trimmed, and
// whether s starts with that word.
func cutWord(s, w string) (string, bool) {
	rest, ok := strings.CutPrefix(s, w)
	if !ok || (rest != "" && !unicode.IsSpace(rune(rest[0]))) {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// applyOption sets one option; on error nothing changes.
func (s *session) applyOption(name, value string) error {
	if timeOption(name) {
		x, err := parseNumber(value)
		if err != nil {
			return err
		}
		if x < 0 {
			return fmt.Errorf("%q: want 0 or more", value)
		}
		s.clock.set(name, x, s.e.now())
		return nil
	}
	switch name {
	case "opponent", "event":
	case "rating", "opponent_rating":
		if _, err := parseNumber(value); err != nil {
			return err
		}
	case "rated":
		if value != "0" && value != "1" {
			return fmt.Errorf("%q: want 0 or 1", value)
		}
	case "depth":
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("%q: want a whole number", value)
		}
		if n > 0 {
			s.warnf("depth %d is kept but not used: the search is bounded by time or visits", n)
		}
	case "hash":
		mb, err := parseCount(value, 0)
		if err != nil {
			return err
		}
		nodes := 0
		if mb > 0 {
			nodes = min(mb, maxHashMB) << 20 / bytesPerNode
		}
		s.maxNodes, s.stale = nodes, true
	case "threads":
		n, err := parseCount(value, 1)
		if err != nil {
			return err
		}
		s.threads, s.stale = n, true
	case "visits":
		n, err := parseCount(value, 0)
		if err != nil {
			return err
		}
		s.visits = n
	case "weights":
		return s.loadWeights(value)
	default:
		s.warnf("unknown option %q: kept, not used", name)
	}
	return nil
}

// parseNumber reads a finite number, such as an AEI time in seconds.
func parseNumber(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q: want a number", s)
	}
	return x, nil
}

// parseCount reads a whole number of at least lo.
func parseCount(s string, lo int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo {
		return 0, fmt.Errorf("%q: want a whole number of at least %d", s, lo)
	}
	return n, nil
}

// loadWeights replaces the evaluation with the weights file path, or with the
// engine's own weights for an empty path.
func (s *session) loadWeights(path string) error {
	if path == "" {
		s.ev, s.stale = s.e.ev, true
		return nil
	}
	w, err := weights.Load(path)
	if err != nil {
		return err
	}
	ev, err := newEval(w)
	if err != nil {
		return err
	}
	s.ev, s.stale = ev, true
	return nil
}

// searcherNow returns the searcher for the current settings, making a new one
// (and dropping the tree) when they changed. No search may be running.
func (s *session) searcherNow() (*mcts.Searcher, error) {
	if s.searcher != nil && !s.stale {
		return s.searcher, nil
	}
	cfg := s.e.cfg.Search
	cfg.Visits, cfg.Time = 0, forever // each search gets its own budget
	if s.threads > 0 {
		cfg.Threads = s.threads
	}
	if s.maxNodes > 0 {
		cfg.MaxNodes = s.maxNodes
	}
	sr, err := mcts.New(cfg, s.ev)
	if err != nil {
		return nil, err
	}
	s.searcher, s.stale = sr, false
	return sr, nil
}

// job is what a search needs, copied from the session.
type job struct {
	searcher *mcts.Searcher
	pos      engine.Position
	hist     *engine.History
	setup    string        // during the setup phase: the setup to answer
	visits   int           // the simulations, 0 for no limit
	limit    time.Duration // the time, 0 for no limit
}

// goSearch handles "go" and "go ponder".
func (s *session) goSearch(ctx context.Context, arg string) {
	ponder := false
	switch arg {
	case "":
	case "ponder":
		ponder = true
	default:
		s.errorf("go %q: want go or go ponder", arg)
		return
	}
	if s.busy() {
		if !s.search.ponder {
			s.errorf("go: a search is already running")
			return
		}
		s.stopSearch(errAborted)
	}
	if out := s.game.outcome(); out.Over() {
		s.errorf("go: the game is over: %s", out)
		return
	}
	j := job{pos: s.game.pos}
	if s.game.setup {
		j.setup = drawSetup(s.game.pos.Side, s.rng)
	} else {
		sr, err := s.searcherNow()
		if err != nil {
			s.errorf("go: %v", err)
			return
		}
		j.searcher, j.hist = sr, s.game.hist.Clone()
		if !ponder {
			var note string
			j.visits, j.limit, note = s.budget()
			s.out.send("log Debug: " + note)
		}
	}
	sctx, cancel := context.WithCancelCause(ctx)
	r := &running{cancel: cancel, done: make(chan struct{}), ponder: ponder}
	s.search = r
	go func() {
		defer close(r.done)
		defer cancel(nil)
		s.runSearch(sctx, r, j)
	}()
}

// busy reports whether a search is running, forgetting one that has ended.
func (s *session) busy() bool {
	if s.search == nil {
		return false
	}
	select {
	case <-s.search.done:
		s.search = nil
		return false
	default:
		return true
	}
}

// stopSearch ends the search in progress, if any, with cause errStopped (it
// answers its best move) or errAborted (it answers nothing), and waits for it.
func (s *session) stopSearch(cause error) {
	if s.search == nil {
		return
	}
	s.search.cancel(cause)
	<-s.search.done
	s.search = nil
}

// budget returns the simulations and the time of the next search, with a
// note for the log.
func (s *session) budget() (visits int, limit time.Duration, note string) {
	side := s.game.pos.Side
	tc, hard, timed := s.clock.budget(side, s.e.now())
	base := s.e.cfg.Search
	switch {
	case s.visits > 0:
		visits, limit = s.visits, base.Time
		if timed {
			limit = tc
		}
	case timed:
		limit = tc
	default:
		visits, limit = base.Visits, base.Time
		if visits == 0 && limit == 0 {
			visits = DefaultVisits
		}
	}
	var b strings.Builder
	b.WriteString("search")
	if visits > 0 {
		fmt.Fprintf(&b, " %d simulations", visits)
	}
	if limit > 0 {
		if visits > 0 {
			b.WriteString(" or")
		}
		fmt.Fprintf(&b, " %.3f s", limit.Seconds())
	}
	if timed {
		fmt.Fprintf(&b, " (%s's reserve %.3f s, hard limit %.3f s)", side.Name(), max(s.clock.reserveOf(side), 0), hard.Seconds())
	}
	return visits, limit, b.String()
}

// runSearch runs the search j on its own goroutine and answers its result,
// unless ctx was ended with errAborted. A ponder search waits for the end of
// ctx before it answers.
func (s *session) runSearch(ctx context.Context, r *running, j job) {
	start := time.Now()
	if j.setup != "" {
		if r.ponder {
			<-ctx.Done()
		}
		if answers(ctx) {
			s.out.send("bestmove " + j.setup)
		}
		return
	}
	sctx := ctx
	if !r.ponder && j.limit > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, j.limit)
		defer cancel()
	}
	res, err := j.searcher.SearchWith(sctx, j.pos, j.hist, mcts.Override{Visits: j.visits})
	if r.ponder {
		<-ctx.Done()
	}
	if !answers(ctx) {
		return
	}
	if res == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		// Ended before its first simulation: one simulation still finds a legal move.
		res, err = j.searcher.SearchWith(context.Background(), j.pos, j.hist, mcts.Override{Visits: 1})
	}
	if err != nil {
		s.errorf("search: %v", err)
		return
	}
	elapsed := time.Since(start)
	s.e.log.Info("aei: search", "move", res.Move, "value", res.Value, "simulations", res.Simulations,
		"nodes", res.Nodes, "tree_full", res.TreeFull, "seconds", elapsed.Seconds())
	msgs := []string{
		fmt.Sprintf("info depth %d", res.Depth),
		fmt.Sprintf("info nodes %d", res.Simulations),
		fmt.Sprintf("info score %d", int(math.Round(float64(res.Value)*100))),
		"info pv " + formatPV(j.pos.Side, res.PV),
		fmt.Sprintf("info time %.3f", elapsed.Seconds()),
		fmt.Sprintf("log Debug: value %+.3f, %d simulations, %d root visits, tree %d nodes", res.Value, res.Simulations, res.Visits, res.Nodes),
	}
	if res.TreeFull {
		s.e.log.Warn("aei: the tree is full, which ended the search early; raise the hash option", "nodes", res.Nodes, "simulations", res.Simulations)
		msgs = append(msgs, fmt.Sprintf("log Warning: the tree is full (%d nodes), which ended the search early after %d simulations; raise the hash option", res.Nodes, res.Simulations))
	}
	s.out.send(append(msgs, "bestmove "+res.Move)...)
}

// answers reports whether a search whose context is ctx answers its move:
// when it ended by itself or by stop, not when it was aborted.
func answers(ctx context.Context) bool {
	return ctx.Err() == nil || errors.Is(context.Cause(ctx), errStopped)
}

// formatPV writes a principal variation whose first move is side's as AEI
// wants it: every move after the first prefixed by the colour to move, such as
// "Ed2n Ed3n s ee7s ee6s g Ed4n".
func formatPV(side engine.Color, pv []string) string {
	var b strings.Builder
	for i, m := range pv {
		if i > 0 {
			b.WriteByte(' ')
			b.WriteString(side.String())
			b.WriteByte(' ')
		}
		b.WriteString(m)
		side = side.Other()
	}
	return b.String()
}
